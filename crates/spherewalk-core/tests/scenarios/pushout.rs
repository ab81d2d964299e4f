//! Pushback out of deep overlaps and no tunnelling at high speed.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::{MotorSettings, Point3, Real, Vec3};

#[test]
fn spawned_0_3_m_inside_a_box_is_pushed_out_within_5_steps() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        // Box x in [0, 2]: its -x face is the nearest way out for an axis at x = 0.3.
        scene.add_box([0.0, -0.5, -1.0], [2.0, 2.5, 1.0]);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.3, 0.0, 0.0),
        );
        let mut out_after = None;
        for step in 1..=5 {
            r.step(Vec3::zeros());
            if r.penetration() < 1e-3 {
                out_after = Some(step);
                break;
            }
        }
        assert!(
            out_after.is_some(),
            "{}: still {} m deep after 5 steps",
            frame.name,
            r.penetration()
        );
        // Out through the -x face: the nearest sphere one radius from it (1 mm tolerance).
        assert_abs_diff_eq!(r.max_sphere_coord(0), -0.3, epsilon = 1e-3);
    }
}

#[test]
fn no_tunnelling_at_150_m_s_into_a_5_cm_wall() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(50.0);
        scene.add_box([5.0, 0.0, -5.0], [5.05, 3.0, 5.0]);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.0, 0.0, 0.0),
        );
        r.settle(5);
        for _ in 0..20 {
            r.step(Vec3::new(150.0, 0.0, 0.0));
            // Never past the wall's near face (x = 5) by more than the tolerance.
            assert!(
                r.max_sphere_coord(0) <= 4.7 + 1e-3,
                "{}: x = {}",
                frame.name,
                r.max_sphere_coord(0)
            );
        }
        assert_abs_diff_eq!(r.max_sphere_coord(0), 4.7, epsilon = 1e-3);
        assert!(
            r.report.substeps >= 16,
            "{}: {} substeps",
            frame.name,
            r.report.substeps
        );
    }
}

#[test]
fn no_tunnelling_when_flying_at_150_m_s() {
    let frame = Frame::world_up();
    let mut scene = Scene::new(frame);
    scene.add_box([5.0, -5.0, -5.0], [5.05, 5.0, 5.0]);
    let motor = capsule_motor(MotorSettings::default());
    let mut r = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
    r.state.velocity = Vec3::new(150.0, 0.0, 0.0);
    for _ in 0..20 {
        // No gravity in this frame-less test: the character keeps its launch speed until the wall.
        let input = spherewalk_core::StepInput::new(
            spherewalk_core::MoveIntent::default(),
            Vec3::zeros(),
            DT,
        );
        r.motor.step(
            &r.scene.world,
            &mut r.pose,
            &mut r.state,
            &input,
            &mut r.report,
        );
        assert!(r.pose.position.x <= 4.7 + 1e-3, "x = {}", r.pose.position.x);
    }
    let speed: Real = r.state.velocity.x;
    assert_abs_diff_eq!(speed, 0.0, epsilon = 1e-3);
}
