//! Slope limit: walkable ramps cost no horizontal speed, steeper ones block, and standing on a
//! walkable slope never slides.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::{GroundState, MotorSettings, Point3, Real, Vec3};

/// A ramp rising along scene +X at `angle_deg`, its top face starting on the floor at x = 1
/// and running `length` metres up the slope.
fn ramp_scene(frame: Frame, angle_deg: Real, length: Real) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    scene.add_ramp(angle_deg, length, 1.0);
    scene
}

/// Displacement of the last step with its component along the character's up removed (m).
fn tangential(before: &Point3, r: &Runner) -> Vec3 {
    let d = r.pose.position - before;
    let up = r.pose.up();
    d - up.into_inner() * d.dot(&up)
}

#[test]
fn constant_horizontal_speed_up_a_30_degree_ramp() {
    for frame in Frame::all() {
        let scene = ramp_scene(frame, 30.0, 6.0);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(-1.0, 0.0, 0.0),
        );
        r.settle(5);
        let intent_local = Vec3::new(5.0, 0.0, 0.0);
        let mut on_ramp = 0;
        for _ in 0..80 {
            let before = r.pose.position;
            r.step(intent_local);
            let x = r.local().x;
            // Well inside the ramp (it spans x = 1 .. 6.2): away from both kinks.
            if x > 2.0 && x < 5.0 {
                on_ramp += 1;
                let up = r.pose.up();
                let intent = frame.vec_to_world(&intent_local);
                let expected = (intent - up.into_inner() * intent.dot(&up)).norm();
                let speed = tangential(&before, &r).norm() / DT;
                // The bound: within 2 % of the intended speed on every step.
                assert!(
                    (speed / expected - 1.0).abs() < 0.02,
                    "{}: speed {speed} vs {expected}",
                    frame.name
                );
                assert_eq!(r.report.ground, GroundState::Grounded, "{}", frame.name);
            }
        }
        assert!(
            on_ramp > 20,
            "{}: only {on_ramp} steps on the ramp",
            frame.name
        );
    }
}

#[test]
fn blocked_by_a_50_degree_ramp_at_a_45_degree_limit() {
    for frame in Frame::all() {
        let scene = ramp_scene(frame, 50.0, 6.0);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(-1.0, 0.0, 0.0),
        );
        r.settle(5);
        r.run(120, Vec3::new(5.0, 0.0, 0.0));
        let c = r.feet_centre();
        // Feet sphere stays on the floor (centre 0.3 m up, 1 mm for the probe tolerance) ...
        assert_abs_diff_eq!(c.y, 0.3, epsilon = 1e-3);
        // ... touching the slope: its centre is one radius from the plane through (1, 0).
        let a: Real = 50.0f32.to_radians();
        let plane_distance = (c.x - 1.0) * -a.sin() + c.y * a.cos();
        assert!(
            (plane_distance - 0.3).abs() < 1e-3,
            "{}: {plane_distance} {c:?} {:?}",
            frame.name,
            r.report.ground
        );
        assert!(r.report.max_penetration < 1e-3, "{}", frame.name);
    }
}

#[test]
fn standing_on_a_40_degree_slope_drifts_under_a_millimetre_in_10_s() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        scene.add_ramp(40.0, 8.0, -3.0);
        // The slope passes through x = 0 at y = 3 sin 40 / ... : spawn above it near x = 0.
        let a: Real = 40.0f32.to_radians();
        let surface_y = 3.0 * a.tan();
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.0, surface_y + 0.3, 0.0),
        );
        r.settle(60);
        assert_eq!(r.report.ground, GroundState::Grounded, "{}", frame.name);
        let start = r.pose.position;
        r.settle(600);
        let drift = (r.pose.position - start).norm();
        assert!(drift < 1e-3, "{}: drifted {drift} m", frame.name);
        assert_abs_diff_eq!(
            r.report
                .ground_hit
                .map_or(0.0, |h| h.slope_angle)
                .to_degrees(),
            40.0,
            epsilon = 1.0
        );
    }
}
