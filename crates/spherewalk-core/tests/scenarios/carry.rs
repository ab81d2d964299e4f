//! Carrying by kinematic colliders: a rider moves with the collider it stands on (its linear
//! velocity, and the arc its angular velocity sweeps), turns with it, and keeps its velocity
//! when it jumps off. Game code moves the collider, then steps the character.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderId, ContactHooks, MotorSettings, MoveIntent, Point3, Quat, Real, UnitVec3, Vec3,
    math::Iso,
};

/// A disc of radius 5 m turning at one revolution per second carries a rider standing 3 m
/// from its axis along the arc, radius kept, and turns the rider's heading with it.
#[test]
fn a_turning_disc_carries_its_rider_round_and_turns_it() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        let disc = scene.add(
            SharedShape::cylinder(0.25, 5.0),
            Iso::translation(0.0, -0.25, 0.0),
        );
        let motor = capsule_motor(MotorSettings::default());
        let mut run = Runner::new(scene, motor, Point3::new(3.0, 0.0, 0.0));
        run.settle(5);
        let start = run.local();
        let forward = run.scene.frame.vec_to_local(&run.pose.forward());
        let rate = std::f32::consts::TAU;
        for t in 1..=15 {
            let turn = Quat::from_axis_angle(&Vec3::y_axis(), rate * DT * t as Real);
            let local = Iso::from_parts(Vec3::new(0.0, -0.25, 0.0).into(), turn);
            let world = run.scene.frame.iso * local;
            let spin = run.scene.frame.vec_to_world(&Vec3::new(0.0, rate, 0.0));
            run.scene.world.set_pose(disc, world).expect("disc");
            run.scene
                .world
                .set_velocity(disc, Vec3::zeros(), spin)
                .expect("disc");
            run.step(Vec3::zeros());
            assert!(run.report.is_grounded(), "{}: step {t}", frame.name);
        }
        // A quarter turn: (3, 0, 0) -> (0, 0, -3). 1e-3 m: f32 rotations composed 15 times
        // (on the planet frame the disc is a flat slab under point gravity, off by 1e-4 m).
        let turn = Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2);
        assert_abs_diff_eq!(run.local(), turn * start, epsilon = 1e-3);
        let heading = run.scene.frame.vec_to_local(&run.pose.forward());
        assert!(
            heading.dot(&(turn * forward)) > 0.9999,
            "{}: heading {heading:?}",
            frame.name
        );
    }
}

/// A platform gliding at 3 m/s along scene +X carries its rider 3 m in 1 s; a rider that jumps
/// off (4 m/s up) keeps the platform's 3 m/s through the flight.
#[test]
fn a_gliding_platform_carries_its_rider_and_the_jump_keeps_its_speed() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut scene = Scene::new(frame);
        scene.add_box([-50.0, -3.0, -5.0], [50.0, -2.0, 5.0]);
        let platform = scene.add_box([-2.0, -0.5, -2.0], [2.0, 0.0, 2.0]);
        let motor = capsule_motor(MotorSettings::default());
        let mut run = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
        run.settle(5);
        let speed = 3.0;
        let glide = run.scene.frame.vec_to_world(&Vec3::new(speed, 0.0, 0.0));
        let mut x: Real = 0.0;
        let glide_step = |run: &mut Runner, x: &mut Real| {
            *x += speed * DT;
            let pose = run.scene.frame.iso * Iso::translation(*x, 0.0, 0.0);
            let world = &mut run.scene.world;
            world.set_pose(platform, pose).expect("platform");
            world
                .set_velocity(platform, glide, Vec3::zeros())
                .expect("platform");
        };
        for _ in 0..60 {
            glide_step(&mut run, &mut x);
            run.step(Vec3::zeros());
            assert!(run.report.is_grounded(), "{}", frame.name);
        }
        // 3 m in 1 s, exactly with the platform (f32 over 60 steps: 1e-3 m).
        assert_abs_diff_eq!(run.local().x, 3.0, epsilon = 1e-3);
        // Jump straight up off it (4 m/s): 10 steps later it is still rising, and its speed
        // along the glide is the platform's 3 m/s, kept (1e-3 m/s: f32).
        glide_step(&mut run, &mut x);
        run.step_intent(MoveIntent {
            jump_speed: 4.0,
            ..Default::default()
        });
        for _ in 0..10 {
            glide_step(&mut run, &mut x);
            run.step(Vec3::zeros());
        }
        assert!(!run.report.is_grounded());
        assert_abs_diff_eq!(run.local_velocity().x, speed, epsilon = 1e-3);
    }
}

/// Issue 27: a platform gliding at 20 m/s and spinning at 5 rad/s at once. Game code moves the
/// collider to its new pose before the step, so the rider's arm must be measured from where
/// the platform's origin was when the step began: measured from where it ended, the rider
/// slid 0.667 m over the platform in 0.4 s. Now it keeps its place on the platform.
#[test]
fn a_platform_gliding_and_spinning_at_once_keeps_its_rider_in_place() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut scene = Scene::new(frame);
        let platform = scene.add(
            SharedShape::cuboid(4.0, 0.25, 4.0),
            Iso::translation(0.0, -0.25, 0.0),
        );
        let motor = capsule_motor(MotorSettings::default());
        // 2 m from the platform's axis.
        let mut run = Runner::new(scene, motor, Point3::new(2.0, 0.0, 0.0));
        run.settle(5);
        let (speed, spin) = (20.0, 5.0);
        let platform_at = |t: Real| {
            let turn = Quat::from_axis_angle(&Vec3::y_axis(), spin * t);
            Iso::from_parts(Vec3::new(speed * t, -0.25, 0.0).into(), turn)
        };
        let linear = run.scene.frame.vec_to_world(&Vec3::new(speed, 0.0, 0.0));
        let angular = run.scene.frame.vec_to_world(&Vec3::new(0.0, spin, 0.0));
        for step in 1..=24 {
            let t = step as Real * DT;
            let world = &mut run.scene.world;
            world
                .set_pose(platform, run.scene.frame.iso * platform_at(t))
                .expect("platform");
            world
                .set_velocity(platform, linear, angular)
                .expect("platform");
            run.step(Vec3::zeros());
            assert!(run.report.is_grounded(), "{}: step {step}", frame.name);
            // Where the rider stands in the platform's own frame: still (2, 0.25, 0), the top.
            // 2 mm: f32 rotations composed 24 times at up to 10 m from the origin, and the
            // skin and penetration tolerance the rider stands on.
            let on_platform = platform_at(t).inverse_transform_point(&run.local());
            assert!(
                (on_platform - Point3::new(2.0, 0.25, 0.0)).norm() < 2e-3,
                "{}: step {step}: slid to {on_platform:?} on the platform",
                frame.name
            );
        }
    }
}

/// A hook returning NaN and a collider flying at 1e30 m/s and spinning at 1e30 rad/s never
/// hang a step or poison the pose: the NaN is ignored, the spin (too large an angle for f32)
/// too, and the huge speed is clamped to `max_speed` and flagged.
#[test]
fn absurd_ground_velocities_are_clamped_or_ignored() {
    struct Nan;
    impl ContactHooks for Nan {
        fn surface_velocity(&self, _: ColliderId, _: &Point3, _: &UnitVec3) -> Vec3 {
            Vec3::repeat(Real::NAN)
        }
    }
    let mut scene = Scene::new(Frame::world_up());
    let floor = scene.add_floor(20.0);
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
    run.settle(5);
    run.step_with(&Nan, Vec3::zeros(), 0.0);
    // Ignored: it stands still (1e-6 m: rounding).
    assert_abs_diff_eq!(run.local(), Point3::origin(), epsilon = 1e-6);
    run.scene
        .world
        .set_velocity(floor, Vec3::new(1e30, 0.0, 0.0), Vec3::new(0.0, 1e30, 0.0))
        .expect("finite");
    run.step(Vec3::zeros());
    assert!(run.report.flags.speed_clamped);
    assert!(run.pose.is_finite() && run.state.velocity.iter().all(|c| c.is_finite()));
    // At most max_speed * dt (500 m/s / 60) from where it was.
    assert!(run.local().coords.norm() <= 500.0 * DT + 1e-3);
}

/// A belt at 240 m/s (4 m a step) carries its rider into a wall 3.5 m ahead, further than the
/// step would gather around a standing character: the carried speed widens the gathered reach,
/// so the rider stops at the wall instead of passing through it.
#[test]
fn a_fast_belt_never_carries_its_rider_through_a_wall() {
    struct Fast(ColliderId, Frame);
    impl ContactHooks for Fast {
        fn surface_velocity(&self, collider: ColliderId, _: &Point3, _: &UnitVec3) -> Vec3 {
            if collider == self.0 {
                self.1.vec_to_world(&Vec3::new(240.0, 0.0, 0.0))
            } else {
                Vec3::zeros()
            }
        }
    }
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut scene = Scene::new(frame);
        let belt = scene.add_floor(20.0);
        scene.add_box([3.5, 0.0, -5.0], [3.7, 3.0, 5.0]);
        let motor = capsule_motor(MotorSettings::default());
        let mut run = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
        run.settle(5);
        let hooks = Fast(belt, frame);
        for _ in 0..5 {
            run.step_with(&hooks, Vec3::zeros(), 0.0);
        }
        // Stopped against the wall's face at x = 3.5: the stack's axis one radius before it
        // (1e-3 m: the pushback tolerance and the wall push's rounding).
        assert_abs_diff_eq!(run.max_sphere_coord(0), 3.2, epsilon = 1e-3);
    }
}

/// `move_kinematic` gives a collider the velocities of its move: a platform slid 0.05 m along
/// x and turned 0.01 rad about y in a 1/60 s step moves at 3 m/s and turns at 0.6 rad/s; one
/// left where it is stops; a non-finite pose is refused with nothing changed.
#[test]
fn move_kinematic_gives_the_velocities_of_the_move() {
    let mut world = spherewalk_core::CollisionWorld::new();
    let desc = spherewalk_core::ColliderDesc::new(SharedShape::cuboid(2.0, 0.25, 2.0));
    let platform = world.insert(desc).expect("a platform");
    let dt = 1.0 / 60.0;
    let turn = Quat::from_axis_angle(&Vec3::y_axis(), 0.01);
    let to = Iso::from_parts(Vec3::new(0.05, 0.0, 0.0).into(), turn);
    world.move_kinematic(platform, to, dt).expect("moved");
    let moved = world.get(platform).expect("held");
    assert_eq!(moved.pose, to);
    // 1e-4 m/s and rad/s: f32 rounding of a 0.05 m and a 0.01 rad move divided by 1/60 s.
    assert_abs_diff_eq!(
        moved.linear_velocity,
        Vec3::new(3.0, 0.0, 0.0),
        epsilon = 1e-4
    );
    assert_abs_diff_eq!(
        moved.angular_velocity,
        Vec3::new(0.0, 0.6, 0.0),
        epsilon = 1e-4
    );
    world.move_kinematic(platform, to, dt).expect("stayed");
    let stayed = world.get(platform).expect("held");
    assert_eq!(
        (stayed.linear_velocity, stayed.angular_velocity),
        (Vec3::zeros(), Vec3::zeros())
    );
    let nan = Iso::translation(Real::NAN, 0.0, 0.0);
    assert!(world.move_kinematic(platform, nan, dt).is_err());
    assert_eq!(world.get(platform).map(|c| c.pose), Some(to));
}
