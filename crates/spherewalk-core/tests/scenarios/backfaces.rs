//! One-sided mesh faces seen from behind: a flipped triangle in an imported floor, and the
//! per-collider two-sided option.

use crate::common::{Frame, Runner, Scene, capsule_motor};
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{ColliderDesc, MotorSettings, Point3, Real, Vec3, math::Iso};

/// Cell size of the floor meshes (m).
const CELL: Real = 0.5;
/// Cells along each side: a 4 m square floor.
const CELLS: usize = 8;

/// A 4 m × 4 m floor at y = 0 (scene frame) made of 0.5 m cells split into two triangles
/// each, all facing +Y except triangle `flipped` (if any), whose winding is reversed.
fn floor_mesh(flipped: Option<usize>) -> SharedShape {
    let n = CELLS + 1;
    let half = CELL * CELLS as Real / 2.0;
    let mut vertices = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            vertices.push(Point3::new(
                -half + CELL * j as Real,
                0.0,
                -half + CELL * i as Real,
            ));
        }
    }
    let mut indices = Vec::new();
    for i in 0..CELLS {
        for j in 0..CELLS {
            let a = (i * n + j) as u32;
            let b = a + 1;
            let c = a + n as u32;
            let d = c + 1;
            // Counter-clockwise seen from +Y: (a, c, b) and (b, c, d).
            indices.push([a, c, b]);
            indices.push([b, c, d]);
        }
    }
    if let Some(k) = flipped {
        indices[k].swap(1, 2);
    }
    SharedShape::trimesh(vertices, indices).expect("valid floor mesh")
}

/// Index of the first triangle of the cell whose corner is at (x, z) = (0, 0): its three
/// corners are (0, 0), (0, 0.5) and (0.5, 0), so (0.15, 0.15) lies over it.
fn flipped_index() -> usize {
    2 * (CELLS / 2 * CELLS + CELLS / 2)
}

/// Issue 8, defect 8: one reversed triangle in a mesh floor must not pull a character through.
/// Standing on it, its feet sphere's centre lies one radius behind the flipped face; that is
/// not "inside" (the sphere never came from the face's front), so the face is ignored and the
/// character stands on the neighbours' edges.
#[test]
fn a_flipped_triangle_never_pulls_a_standing_character_through_the_floor() {
    for frame in Frame::all() {
        for at in [(0.15, 0.15), (0.25, 0.05), (0.05, 0.25), (0.6, 0.1)] {
            let mut scene = Scene::new(frame);
            scene.add(floor_mesh(Some(flipped_index())), Iso::identity());
            let motor = capsule_motor(MotorSettings::default());
            let mut run = Runner::new(scene, motor, Point3::new(at.0, 0.0, at.1));
            let mut lowest: Real = 0.0;
            for _ in 0..60 {
                run.settle(1);
                lowest = lowest.min(run.local().y);
            }
            // Over the hole the feet sphere (r = 0.3 m) rests on the neighbours' edges: over
            // the hole's incentre (inradius 0.146 m) it sinks 0.3 - sqrt(0.3² - 0.146²) =
            // 0.038 m. 0.045 m leaves room for the stack's clamp and f32 rounding.
            assert!(
                lowest > -0.045,
                "{}: at {at:?} the feet went down to {lowest}",
                frame.name
            );
            assert!(run.report.is_grounded(), "{}: {at:?}", frame.name);
        }
    }
}

/// Walking across the flipped triangle in four directions at 2 m/s keeps the character on
/// the floor, and it comes out on the far side.
#[test]
fn walking_across_a_flipped_triangle_stays_on_the_floor() {
    let dirs = [
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
    ];
    for frame in Frame::all() {
        for dir in dirs {
            let dir = dir.normalize();
            let centre = Point3::new(0.15, 0.0, 0.15);
            let mut scene = Scene::new(frame);
            scene.add(floor_mesh(Some(flipped_index())), Iso::identity());
            let motor = capsule_motor(MotorSettings::default());
            let mut run = Runner::new(scene, motor, centre - dir * 1.0);
            run.settle(10);
            let mut lowest: Real = 0.0;
            // 1 s at 2 m/s: from 1 m before the flipped triangle to 1 m beyond it.
            for _ in 0..60 {
                run.step(dir * 2.0);
                lowest = lowest.min(run.local().y);
            }
            // As above: sagging over the hole is at most 0.038 m.
            assert!(
                lowest > -0.045,
                "{}: {dir:?} dipped to {lowest}",
                frame.name
            );
            let travelled = (run.local() - (centre - dir * 1.0)).dot(&dir);
            // 2 m in 1 s, less the 0.2 s the ground acceleration takes... the motor sets the
            // ground velocity directly, so within 5 cm of 2 m.
            approx::assert_abs_diff_eq!(travelled, 2.0, epsilon = 0.05);
        }
    }
}

/// A character standing on a slab 3 m under the mesh floor `floor` (y = 0) jumps at 9 m/s
/// and falls for 4 s. Returns the runner and the highest its feet got (m, scene frame).
fn jump_under(frame: Frame, floor: ColliderDesc) -> (Runner, Real) {
    let mut scene = Scene::new(frame);
    scene.add_box([-3.0, -4.0, -3.0], [3.0, -3.0, 3.0]);
    scene.add_desc(floor, Iso::identity());
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(scene, motor, Point3::new(0.1, -3.0, 0.1));
    run.settle(5);
    run.step_intent(spherewalk_core::MoveIntent {
        jump_speed: 9.0,
        ..Default::default()
    });
    let mut highest: Real = Real::MIN;
    for _ in 0..240 {
        run.settle(1);
        highest = highest.max(run.local().y);
    }
    (run, highest)
}

/// A one-sided floor seen from below is not there: a character under it jumps up through it
/// (from behind) and lands on it from the front.
#[test]
fn a_one_sided_floor_lets_a_character_through_from_behind_and_holds_it_from_the_front() {
    // Not on the planet frame: the space under its floor is inside the planet.
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (run, highest) = jump_under(frame, ColliderDesc::new(floor_mesh(None)));
        // v²/2g = 81/19.62 = 4.13 m above y = -3: it passes the mesh at y = 0 (its head
        // is 1.8 m above its feet, so a one-sided mesh that held it from behind would stop it
        // at y = -1.8), then lands on the mesh's front.
        assert!(highest > 1.0, "{}: peaked at {highest}", frame.name);
        approx::assert_abs_diff_eq!(run.local().y, 0.0, epsilon = 1e-3);
        assert!(run.report.is_grounded(), "{}", frame.name);
    }
}

/// With the collider marked two-sided, the same mesh floor holds from both sides: the jump
/// from below bumps the head on its back.
#[test]
fn a_two_sided_floor_holds_from_behind() {
    // Not on the planet frame: the space under its floor is inside the planet.
    for frame in [Frame::world_up(), Frame::rotated()] {
        let floor = ColliderDesc::new(floor_mesh(None)).two_sided();
        let (run, highest) = jump_under(frame, floor);
        // The head sphere's top (1.8 m above the feet) stops at the mesh (y = 0), within the
        // penetration tolerance and one step's travel of rounding.
        assert!(
            (highest + 1.8).abs() < 2e-3,
            "{}: peaked at {highest}",
            frame.name
        );
        approx::assert_abs_diff_eq!(run.local().y, -3.0, epsilon = 1e-3);
    }
}
