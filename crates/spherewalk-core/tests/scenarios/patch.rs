//! The ground under the feet is judged over their contact patch, not one facet (issue 27):
//! a steep sliver narrower than the feet between walkable faces keeps the footing, a wide one
//! does not, and feet held in a wedge of steep faces stand (and can jump out).

use crate::common::*;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{GroundState, MotorSettings, Point3, Real, Vec3, math::Iso};

/// A 4 m wide triangle mesh (z in -2..2) over a profile of `(x, y)` points (scene frame),
/// faces up.
fn profile_mesh(points: &[(Real, Real)]) -> SharedShape {
    let mut vertices = Vec::new();
    for &(x, y) in points {
        vertices.push(Point3::new(x, y, -2.0));
        vertices.push(Point3::new(x, y, 2.0));
    }
    let mut indices = Vec::new();
    for i in 0..points.len() as u32 - 1 {
        let (a, b, c, d) = (2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3);
        // Counter-clockwise seen from above (+y).
        indices.push([a, b, c]);
        indices.push([c, b, d]);
    }
    SharedShape::trimesh(vertices, indices).expect("valid profile")
}

/// A slope rising along +x at 40 degrees from x = -4 to 0, then `width` metres (horizontal) at
/// 50 degrees, then 40 degrees again to x = 4 + width.
fn slope_with_strip(width: Real) -> SharedShape {
    let (t40, t50) = (40f32.to_radians().tan(), 50f32.to_radians().tan());
    let y0 = width * t50;
    profile_mesh(&[
        (-4.0, -4.0 * t40),
        (0.0, 0.0),
        (width, y0),
        (width + 4.0, y0 + 4.0 * t40),
    ])
}

/// Walks up the 40 degree slope at 3 m/s from x = -2 across a strip `width` metres wide; the
/// ground state and scene x of each of 80 steps.
fn walk_up(frame: Frame, width: Real) -> Vec<(GroundState, Real)> {
    let mut scene = Scene::new(frame);
    scene.add(slope_with_strip(width), Iso::identity());
    let start = Point3::new(-2.0, -2.0 * 40f32.to_radians().tan() + 0.05, 0.0);
    let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), start);
    r.settle(10);
    (0..80)
        .map(|_| {
            let ground = r.step(Vec3::new(3.0, 0.0, 0.0)).ground;
            (ground, r.local().x)
        })
        .collect()
}

/// A 50 degree strip 0.2 m wide (0.31 m along the slope, the feet's 0.3 m radius) between 40
/// degree faces: grounded on every step across it, and well past it. (Judged by the one
/// facet under the feet, it loses its footing on the strip; 0.3 m wide, 0.47 m along the
/// slope, it does even over the patch.)
#[test]
fn a_steep_strip_narrower_than_the_feet_keeps_the_footing() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let steps = walk_up(frame, 0.2);
        for (i, (ground, x)) in steps.iter().enumerate() {
            assert_eq!(*ground, GroundState::Grounded, "step {i} at x = {x}");
        }
        let (_, x) = steps.last().expect("steps");
        // 80 steps at 3 m/s along x is 4 m: from x = -2 to about 2 (less while settling).
        assert!(*x > 1.5, "crossed the strip: x = {x}");
    }
}

/// The same slope with a 50 degree strip 1 m wide: steeper than the limit over more than the
/// feet, so it blocks the walk like a wall, as a plain 50 degree slope does.
#[test]
fn a_steep_strip_wider_than_the_feet_is_steep() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let steps = walk_up(frame, 1.0);
        let furthest = steps.iter().map(|s| s.1).fold(Real::MIN, Real::max);
        // The feet (0.3 m) reach the strip's foot at x = 0 and climb at most a little way up
        // it: never over the top at x = 1.
        assert!(furthest < 0.6, "climbed to x = {furthest}");
    }
}

/// A V-shaped trough of two 60 degree faces: each alone is too steep to stand on, but feet
/// resting in the V cannot slide anywhere, so they stand (Grounded) and can jump out.
#[test]
fn feet_held_in_a_v_of_steep_faces_stand_and_can_jump() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let t60 = 60f32.to_radians().tan();
        let mut scene = Scene::new(frame);
        scene.add(
            profile_mesh(&[(-2.0, 2.0 * t60), (0.0, 0.0), (2.0, 2.0 * t60)]),
            Iso::identity(),
        );
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(0.0, 0.5, 0.0),
        );
        r.settle(60);
        assert_eq!(r.report.ground, GroundState::Grounded, "held in the V");
        // At rest on both faces: the feet centre is r / sin(30 deg) = 0.6 m over the V's
        // bottom line, so the pose (0.3 m under the centre) is 0.3 m over it; 1 mm for the
        // pushback's tolerance and the skin.
        let feet = r.feet_centre();
        assert!(
            (feet.y - 0.6).abs() < 1e-3 && feet.x.abs() < 1e-3,
            "{feet:?}"
        );
        r.step_with(&spherewalk_core::hooks::NoHooks, Vec3::zeros(), 5.0);
        assert!(r.report.jumped, "jumps out of the V");
    }
}

/// The same V tilted down along its length (its bottom line falls 20 degrees toward -z):
/// the feet can slide along it, so it is steep ground and they slide.
#[test]
fn feet_in_a_sloping_v_slide_along_it() {
    let t60 = 60f32.to_radians().tan();
    let tilt = spherewalk_core::math::axis_angle(&Vec3::x_axis(), -20f32.to_radians());
    let mut scene = Scene::new(Frame::world_up());
    scene.add(
        profile_mesh(&[(-2.0, 2.0 * t60), (0.0, 0.0), (2.0, 2.0 * t60)]),
        Iso::from_parts(Vec3::zeros().into(), tilt),
    );
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 0.5, 0.0),
    );
    r.settle(30);
    assert_eq!(r.report.ground, GroundState::SteepGround);
    // Sliding toward -z and down.
    let v = r.local_velocity();
    assert!(v.z < -0.5 && v.y < 0.0, "sliding along the V: {v:?}");
}
