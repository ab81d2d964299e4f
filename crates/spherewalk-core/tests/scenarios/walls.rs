//! Walls and corners: sliding along walls, no sticking in the air, no jitter in corners.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{GroundState, MotorSettings, Point3, Quat, Real, Vec3, math::Iso};

/// Floor plus a wall whose face is the plane x = 2 (scene frame), 4 m tall.
fn wall_scene(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    scene.add_box([2.0, -0.5, -10.0], [2.5, 4.0, 10.0]);
    scene
}

#[test]
fn walking_into_a_wall_at_45_degrees_slides_along_it() {
    let speed: Real = 5.0;
    let diagonal = Vec3::new(1.0, 0.0, -1.0).normalize() * speed;
    for frame in Frame::all() {
        let mut r = Runner::new(
            wall_scene(frame),
            capsule_motor(MotorSettings::default()),
            Point3::new(1.0, 0.0, 0.0),
        );
        r.settle(5);
        r.run(30, diagonal);
        for _ in 0..30 {
            let z_before = r.feet_centre().z;
            r.step(diagonal);
            let along = (r.feet_centre().z - z_before) / DT;
            // Only the into-wall half of the velocity is removed: 5 cos 45 m/s remains (2 %).
            assert!(
                (along.abs() / (speed * 0.5f32.sqrt()) - 1.0).abs() < 0.02,
                "{}: {along}",
                frame.name
            );
            // The sphere nearest the face (the head, when a planet tilts the stack) is one
            // radius from it, no penetration (1 mm: pushback tolerance).
            assert_abs_diff_eq!(r.max_sphere_coord(0), 1.7, epsilon = 1e-3);
            assert!(r.report.max_penetration < 1e-3);
            assert_eq!(r.report.ground, GroundState::Grounded, "{}", frame.name);
        }
    }
}

#[test]
fn airborne_against_a_wall_falls_freely() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut r = Runner::new(
            wall_scene(frame),
            capsule_motor(MotorSettings::default()),
            Point3::new(1.7, 3.0, 0.0),
        );
        let diagonal = Vec3::new(3.0, 0.0, -3.0);
        let start_y = r.feet_centre().y;
        let steps = 30;
        r.run(steps, diagonal);
        let t = steps as Real * DT;
        // Pressing into the wall removes no vertical speed: v = g t and the drop is the
        // discrete sum of g dt² k (semi-implicit Euler), both within 1 %.
        let vy = r.local_velocity().y;
        assert!(
            (vy / (-G * t) - 1.0).abs() < 0.01,
            "{}: vy {vy}",
            frame.name
        );
        let drop = start_y - r.feet_centre().y;
        let expected = G * DT * DT * (steps * (steps + 1) / 2) as Real;
        assert!(
            (drop / expected - 1.0).abs() < 0.01,
            "{}: drop {drop} vs {expected}",
            frame.name
        );
        assert_eq!(r.report.ground, GroundState::Touching, "{}", frame.name);
        assert!(r.report.max_penetration < 1e-3);
    }
}

#[test]
fn leaves_a_concave_corner_at_full_speed() {
    for frame in Frame::all() {
        let mut scene = wall_scene(frame);
        scene.add_box([-10.0, -0.5, -2.5], [2.5, 4.0, -2.0]);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.0, 0.0, 0.0),
        );
        r.settle(5);
        r.run(90, Vec3::new(4.0, 0.0, -4.0));
        // Wedged in the corner: the nearest sphere is one radius from each wall.
        assert_abs_diff_eq!(r.max_sphere_coord(0), 1.7, epsilon = 1e-3);
        assert_abs_diff_eq!(r.min_sphere_coord(2), -1.7, epsilon = 1e-3);
        // Then walk out along the first wall: full speed at once (1 %), nothing holds it.
        for _ in 0..20 {
            let before = r.local();
            r.step(Vec3::new(0.0, 0.0, 5.0));
            let speed = (r.local() - before).norm() / DT;
            assert!((speed / 5.0 - 1.0).abs() < 0.01, "{}: {speed}", frame.name);
        }
    }
}

#[test]
fn stops_without_jitter_in_a_narrowing_v_corridor() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        // Two walls meeting at x = 6 with a 30 degree opening toward -x.
        for side in [-1.0f32, 1.0] {
            let yaw = side * 15f32.to_radians();
            let rot = Quat::from_axis_angle(&Vec3::y_axis(), yaw);
            let inner = rot * Vec3::new(-1.0, 0.0, 0.0);
            let centre =
                Point3::new(6.0, 1.5, 0.0) + inner * 3.0 + rot * Vec3::new(0.0, 0.0, side * 0.25);
            scene.add(
                SharedShape::cuboid(3.0, 2.0, 0.25),
                Iso::from_parts(centre.coords.into(), rot),
            );
        }
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.0, 0.0, 0.3),
        );
        r.settle(5);
        r.run(120, Vec3::new(5.0, 0.0, 0.0));
        let rest_x = r.max_sphere_coord(0);
        let rest_z = r.feet_centre().z;
        let mut max_move: Real = 0.0;
        for _ in 0..60 {
            let before = r.feet_centre();
            r.step(Vec3::new(5.0, 0.0, 0.0));
            max_move = max_move.max((r.feet_centre() - before).norm());
            assert!(
                r.report.max_penetration < 1e-3,
                "{}: {}",
                frame.name,
                r.report.max_penetration
            );
        }
        // At rest where the corridor is one diameter wide: the foremost sphere (the head when a
        // planet leans the stack) at x = 6 - 0.3 / sin 15, on the centre line (1 mm).
        let expected_x = 6.0 - 0.3 / 15f32.to_radians().sin();
        assert_abs_diff_eq!(rest_x, expected_x, epsilon = 1e-3);
        assert_abs_diff_eq!(rest_z, 0.0, epsilon = 1e-3);
        // No jitter: under 0.1 mm per step while pressing into the V for a second.
        assert!(
            max_move < 1e-4,
            "{}: moved {max_move} m in one step",
            frame.name
        );
    }
}

/// Issue 8, defect 3: pressing into a 75 deg face (steeper than the 45 deg limit) while
/// airborne used to lift the character 0.46 m in 1.5 s. Contacts steeper than the slope limit
/// never raise it against gravity: it slides down the face and lands at its foot.
#[test]
fn airborne_press_into_a_75_degree_face_never_lifts() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        // A slab whose top face rises at 75 deg toward +X from the floor line x = 1.
        let a = 75f32.to_radians();
        let rot = Quat::from_axis_angle(&Vec3::z_axis(), a);
        let normal = rot * Vec3::y();
        let centre = Vec3::new(1.0 + 3.0 * a.cos(), 3.0 * a.sin(), 0.0) - normal * 0.5;
        scene.add(
            SharedShape::cuboid(3.0, 0.5, 3.0),
            Iso::from_parts(centre.into(), rot),
        );
        // Feet 1 m up, the feet sphere touching the face.
        let x = 1.0 + (a.cos() * 1.3 - 0.3) / a.sin();
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(x, 1.0, 0.0),
        );
        let start = r.feet_centre().y;
        let mut highest = start;
        for _ in 0..90 {
            r.step(Vec3::new(5.0, 0.0, 0.0));
            highest = highest.max(r.feet_centre().y);
        }
        // Never above the start (1 mm: the planet frame's gravity turns as the feet slide).
        assert!(
            highest <= start + 1e-3,
            "{}: rose {} m",
            frame.name,
            highest - start
        );
        // Landed on the floor at the foot of the face.
        assert_abs_diff_eq!(r.feet_centre().y, 0.3, epsilon = 1e-3);
        assert_eq!(r.report.ground, GroundState::Grounded, "{}", frame.name);
    }
}
