//! rapier's `KinematicCharacterController` tests (dimforge/rapier,
//! `src/control/character_controller.rs` and `tests/issue_485_kcc_depenetration.rs`),
//! re-expressed for spherewalk.
//!
//! Shape mapping: every rapier test moves a ball of radius 0.5 m: for us a stack of one
//! sphere of 0.5 m. rapier moves by a desired translation per call; we walk at that
//! translation divided by the step (0.1 m per 1/60 s step is 6 m/s). rapier keeps a 0.01 m
//! offset from surfaces; our feet rest on them, so its positions are 0.01 m higher.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    GroundState, Motor, MotorSettings, Point3, Pose, Quat, Real, SphereStack, Vec3, math::Iso,
};

fn ball_motor(settings: MotorSettings) -> Motor {
    let stack = SphereStack::capsule(1.0, 0.5, 1).expect("one 0.5 m sphere");
    Motor::new(stack, settings).expect("valid settings")
}

/// A box of half extents `half` at `at`, turned `angle` (rad) about Z.
fn tilted_box(scene: &mut Scene, half: [Real; 3], at: [Real; 3], angle: Real) {
    let rot = Quat::from_axis_angle(&Vec3::z_axis(), angle);
    scene.add(
        SharedShape::cuboid(half[0], half[1], half[2]),
        Iso::from_parts(Vec3::new(at[0], at[1], at[2]).into(), rot),
    );
}

/// `character_controller_climb_test`: a 0.2 rad slope, then a 0.6 rad one. With a climb limit
/// of 0.601 rad the ball walks up both; with 0.599 rad it is stopped at the foot of the
/// steep one. Both stay grounded on every step.
///
/// We use the longer steep slope of rapier's current version (half length 4 m instead of 2 m,
/// moved so its foot stays put), which rapier made so that the climber never reaches the
/// crest. Our rule differs from rapier's on speed: walking up a walkable slope keeps the full
/// horizontal speed, so our climber covers the slopes far sooner than rapier's (which slides
/// its downward input along them); we stop it before the crest, at x = 9 m.
#[test]
fn rapier_climb_test() {
    for (limit, climbs) in [(0.601, true), (0.599, false)] {
        let mut scene = Scene::new(Frame::world_up());
        scene.add_box([-100.0, -0.2, -100.0], [100.0, 0.0, 100.0]);
        tilted_box(&mut scene, [2.0, 0.1, 2.0], [2.1, 0.3, 0.0], 0.2);
        let b_y = 1.6 + 2.0 * (0.6 as Real).sin();
        tilted_box(&mut scene, [4.0, 0.1, 100.0], [7.2, b_y, 0.0], 0.6);
        let settings = {
            let mut v = MotorSettings::default();
            v.slope_limit = limit;
            v.stair_height = 0.0;
            v.ground_clamp_distance = 0.2;
            v
        };
        let start = Point3::new(if climbs { 0.6 } else { -0.6 }, 0.0, 0.0);
        let mut r = Runner::new(scene, ball_motor(settings), start);
        r.settle(1);
        for step in 0..199 {
            // rapier's desired translation per step, (0.1, -0.1, 0): the downward part only
            // presses into the ground (dropped from the intent, as our intents are along it).
            r.step(Vec3::new(0.1, 0.0, 0.0) / DT);
            // rapier's `grounded` holds for any up-facing contact, steep ones included: our
            // Grounded or SteepGround.
            let on_ground = matches!(
                r.report.ground,
                GroundState::Grounded | GroundState::SteepGround
            );
            assert!(
                on_ground,
                "limit {limit}: {:?} at step {step}",
                r.report.ground
            );
            if r.local().x > 9.0 {
                break;
            }
        }
        let p = r.local();
        if climbs {
            assert!(p.x > 6.0 && p.y > 3.0, "limit {limit}: stopped at {p:?}");
        } else {
            // rapier's bound for this (longer) slope: x < 4.5; its ball rests near x = 4.06.
            assert!(p.x < 4.5 && p.y < 2.0, "limit {limit}: climbed to {p:?}");
        }
    }
}

/// `character_controller_ground_detection`: a ball spawned half inside the ground (its centre
/// on the top face), walking diagonally into the ground for 10 000 steps, with and without
/// snapping, is grounded on every step and covers the distance.
///
/// rapier accepts 997 m of the ideal 999.9 m along X and Z; we push the ball out at once,
/// then walk exactly along the ground.
#[test]
fn rapier_ground_detection() {
    for snap in [0.2, 0.0] {
        let mut scene = Scene::new(Frame::world_up());
        scene.add_box([-1001.0, -1.5, -1001.0], [1001.0, 0.5, 1001.0]);
        let settings = {
            let mut v = MotorSettings::default();
            v.ground_clamp_distance = snap;
            v
        };
        let x0 = if snap > 0.0 { 0.6 } else { -0.6 };
        // rapier places the ball's centre at y = 0.5, the top face: our feet point is 0.
        let mut r = Runner::new(scene, ball_motor(settings), Point3::new(x0, 0.0, 0.0));
        for step in 0..9999 {
            r.step(Vec3::new(0.1, 0.0, 0.1) / DT);
            assert!(
                r.report.is_grounded(),
                "snap {snap}: airborne at step {step}"
            );
        }
        let p = r.local();
        assert!(p.x - x0 >= 997.0 && p.z >= 997.0, "snap {snap}: {p:?}");
        // Ours: the whole 999.9 m but for f32 rounding: near 1000 m a position holds multiples
        // of 6.1e-5 m, so each 0.1 m step may lose up to 3e-5 m (0.3 m over 9999 steps).
        assert!(p.x - x0 >= 999.6 && p.z >= 999.6, "snap {snap}: {p:?}");
        // Pushed out of the ground to rest on its top face (y = 0.5).
        assert_abs_diff_eq!(p.y, 0.5, epsilon = 1e-3);
    }
}

/// `character_controller_negative_up_axis`: with up along world -Y, a ball touching the
/// underside of a slab above it, in zero gravity, is grounded on it after a move.
#[test]
fn rapier_negative_up_axis() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_box([-10.0, 0.5, -10.0], [10.0, 0.7, 10.0]);
    // rapier applies the desired translation whatever the ground state: for us an unbounded
    // air acceleration (a fresh character is airborne until its first step finds ground).
    let settings = {
        let mut v = MotorSettings::default();
        v.air_acceleration = 1.0e4;
        v
    };
    let mut r = Runner::new(scene, ball_motor(settings), Point3::origin());
    r.gravity = Some(Vec3::zeros());
    // The ball's centre at the origin, its feet at y = +0.5 on the slab's underside.
    r.pose = Pose::with_up(Point3::new(0.0, 0.5, 0.0), &-Vec3::y_axis());
    r.step(Vec3::new(6.0, 0.0, 0.0));
    assert!(r.report.is_grounded());
    assert_abs_diff_eq!(r.pose.position.y, 0.5, epsilon = 1e-4);
    assert_abs_diff_eq!(r.pose.position.x, 0.1, epsilon = 1e-4);
}

/// `issue_485_kcc_depenetration::kinematic_platform_pushes_idle_character`: a wall moved by
/// game code at 2 m/s pushes an idle character ahead of it for 4 s without passing through.
#[test]
fn rapier_kinematic_wall_pushes_idle_character() {
    let mut scene = Scene::new(Frame::world_up());
    let wall = scene.add_box([-3.5, -2.0, -2.0], [-2.5, 2.0, 2.0]);
    let motor = ball_motor(MotorSettings::default());
    // The ball's centre at the origin.
    let mut r = Runner::new(scene, motor, Point3::new(0.0, -0.5, 0.0));
    r.gravity = Some(Vec3::zeros());
    let mut wall_x: Real = -3.0;
    for _ in 0..240 {
        wall_x += 2.0 * DT;
        let world = &mut r.scene.world;
        world
            .set_pose(wall, Iso::translation(wall_x, 0.0, 0.0))
            .expect("wall");
        world
            .set_velocity(wall, Vec3::new(2.0, 0.0, 0.0), Vec3::zeros())
            .expect("wall");
        r.step_intent(spherewalk_core::MoveIntent::default());
    }
    assert!(wall_x > 4.0);
    let ball_x = r.local().x;
    // rapier: the ball's left side within 0.05 m of the wall's right face (its one-frame lag);
    // we move the wall first, so the ball touches it (1e-3 m: pushback tolerance).
    assert!(
        ball_x - 0.5 >= wall_x + 0.5 - 0.05,
        "{ball_x} vs wall {wall_x}"
    );
    assert_abs_diff_eq!(ball_x - 0.5, wall_x + 0.5, epsilon = 1e-3);
}

/// `issue_485_kcc_depenetration::overlapping_character_is_depenetrated`: a ball whose centre
/// is inside a 2 m box, 0.2 m from its +X face, leaves through that face.
#[test]
fn rapier_overlapping_character_is_depenetrated() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_box([-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]);
    let motor = ball_motor(MotorSettings::default());
    // The ball's centre at (0.8, 0.3, 0): its feet 0.5 m lower.
    let mut r = Runner::new(scene, motor, Point3::new(0.8, -0.2, 0.0));
    r.gravity = Some(Vec3::zeros());
    for _ in 0..20 {
        r.step_intent(spherewalk_core::MoveIntent::default());
    }
    // rapier: centre x >= 1.5 - 1e-3 (it caps each call's push at 0.25 m; we push out in one
    // step unless a recovery speed is set).
    let centre_x = r.local().x;
    assert!(centre_x >= 1.5 - 1e-3, "{centre_x}");
}

/// `issue_862_kcc_impulse_point::impulse_applied_at_collider_world_point`.
#[test]
#[ignore = "pushing dynamic bodies is a non-goal of the core (rapier bodies: spherewalk-rapier)"]
fn rapier_impulse_applied_at_collider_world_point() {}
