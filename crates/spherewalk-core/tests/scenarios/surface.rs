//! Surface up-mode: walking from a floor onto a wall and onto the ceiling.

use crate::common::*;
use spherewalk_core::{MotorSettings, MoveIntent, Point3, Quat, Real, UpFrame, Vec3};

/// A room slice: floor top y = 0, a wall whose face is x = 4, a ceiling whose face is y = 4.
fn room(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_box([-10.0, -1.0, -3.0], [5.0, 0.0, 3.0]);
    scene.add_box([4.0, -1.0, -3.0], [5.0, 5.0, 3.0]);
    scene.add_box([-10.0, 4.0, -3.0], [5.0, 5.0, 3.0]);
    scene
}

#[test]
fn surface_mode_walks_from_floor_to_wall_to_ceiling() {
    for frame in Frame::all() {
        let settings = {
            let mut v = MotorSettings::default();
            v.up_frame = UpFrame::Surface;
            v
        };
        let mut r = Runner::new(
            room(frame),
            capsule_motor(settings),
            Point3::new(0.0, 0.0, 0.0),
        );
        // Face scene +X (forward is local -Z; a -90 degree yaw turns it to +X).
        r.pose.orientation = frame.iso.rotation
            * Quat::from_axis_angle(&Vec3::y_axis(), -std::f32::consts::FRAC_PI_2);
        r.settle(5);
        let speed: Real = 3.0;
        let (mut on_wall, mut on_ceiling) = (None, None);
        for step in 0..300u32 {
            r.step_intent(MoveIntent::walk(r.pose.forward().into_inner() * speed));
            let up = r.local_up();
            if on_wall.is_none() && up.x < -0.999 && r.report.is_grounded() {
                on_wall = Some(step);
            }
            if on_ceiling.is_none() && up.y < -0.999 && r.report.is_grounded() {
                on_ceiling = Some(step);
            }
            assert!(
                r.report.max_penetration < 1e-3,
                "{}: step {step}: {}",
                frame.name,
                r.report.max_penetration
            );
        }
        let on_wall = on_wall.unwrap_or_else(|| panic!("{}: never stood on the wall", frame.name));
        let on_ceiling =
            on_ceiling.unwrap_or_else(|| panic!("{}: never stood on the ceiling", frame.name));
        assert!(on_wall < on_ceiling, "{}", frame.name);
        // Ends walking along the ceiling, away from the wall, upside down and grounded on it:
        // the feet centre one radius below the ceiling face (1 mm).
        let c = r.feet_centre();
        assert!(
            (c.y - 3.7).abs() < 1e-3,
            "{}: feet centre at y = {}",
            frame.name,
            c.y
        );
        assert!(r.local_up().y < -0.999, "{}", frame.name);
        assert!(
            r.local_velocity().x < -0.9 * speed,
            "{}: velocity {:?}",
            frame.name,
            r.local_velocity()
        );
    }
}
