//! Planet walking: "forward" follows a great circle and the feet stay on the ground.

use crate::common::*;
use spherewalk_core::{MotorSettings, MoveIntent, Point3, Real};

#[test]
fn walks_once_around_a_30_m_planet_and_returns_to_the_start() {
    let frame = Frame::planet();
    let scene = Scene::new(frame);
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::origin(),
    );
    r.settle(10);
    let start = r.pose.position;
    let centre = frame.to_world(&frame.planet.expect("planet"));
    // The great circle's plane: through the centre, spanned by the start's up and forward.
    let plane_normal = r.pose.up().cross(&r.pose.forward()).normalize();
    let speed: Real = 5.0;
    let circumference = 2.0 * std::f32::consts::PI * PLANET_RADIUS;
    let steps = (circumference / speed / DT).round() as u32;
    let mut worst_altitude: Real = 0.0;
    let mut worst_off_plane: Real = 0.0;
    for _ in 0..steps {
        let intent = MoveIntent::walk(r.pose.forward().into_inner() * speed);
        r.step_intent(intent);
        worst_altitude = worst_altitude.max(r.altitude().abs());
        worst_off_plane = worst_off_plane.max((r.pose.position - centre).dot(&plane_normal).abs());
        assert!(
            r.report.is_grounded(),
            "left the ground at step {}",
            r.steps
        );
    }
    let miss = (r.pose.position - start).norm();
    // The bounds: back within 0.5 m, never more than 1 cm off the surface.
    assert!(miss < 0.5, "ended {miss} m from the start");
    assert!(worst_altitude < 0.01, "{worst_altitude} m off the surface");
    // Forward was carried along a great circle: the path stays in its plane (2 cm).
    assert!(
        worst_off_plane < 0.02,
        "{worst_off_plane} m off the great circle"
    );
}
