//! Squeezes: kinematic geometry closing on a character. A squeezed character never leaves
//! through a solid; it escapes sideways (or up) where there is room for the whole stack, and
//! where there is none it stays where it was, on the side of every piece it was on, and the
//! step reports it as crushed ([`StepReport::crushed`]).
//!
//! The standard character is 1.8 m tall, three spheres of 0.3 m (`capsule_motor`).
//!
//! [`StepReport::crushed`]: spherewalk_core::StepReport::crushed

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{ColliderId, MotorSettings, Point3, Real, Vec3, math::Iso};

/// Radius of the standard character's spheres (m).
const RADIUS: Real = 0.3;
/// Height of the standard character (m).
const HEIGHT: Real = 1.8;

/// Moves the box `id` of half extents `half` so its centre is `centre` (scene frame), with the
/// velocity that took it there over one step.
fn move_box(run: &mut Runner, id: ColliderId, centre: Vec3, velocity: Vec3) {
    let pose = run.scene.frame.iso * Iso::translation(centre.x, centre.y, centre.z);
    let v = run.scene.frame.vec_to_world(&velocity);
    let world = &mut run.scene.world;
    world.set_pose(id, pose).expect("box");
    world.set_velocity(id, v, Vec3::zeros()).expect("box");
}

/// The lift: a 0.4 m thick lift rising at 10 m/s into a ceiling 3 m up stops 1.4 m
/// below it. Before, the rider was pushed down through the lift and fell out beneath it.
/// Now the rider rides up on top of the lift, is reported crushed once the gap is shorter
/// than the stack, and stays on the lift with its head in the ceiling.
#[test]
fn regression_lift_at_10_m_s_into_a_low_ceiling_keeps_its_rider_on_top() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut scene = Scene::new(frame);
        scene.add_box([-10.0, 3.0, -10.0], [10.0, 3.5, 10.0]);
        let lift = scene.add(
            SharedShape::cuboid(2.0, 0.2, 2.0),
            Iso::translation(0.0, -0.2, 0.0),
        );
        let motor = capsule_motor(MotorSettings::default());
        let mut run = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
        run.settle(5);
        let (speed, stop) = (10.0, 1.6);
        let mut top: Real = 0.0;
        for t in 0..60 {
            let next = (top + speed * DT).min(stop);
            let v = Vec3::new(0.0, (next - top) / DT, 0.0);
            top = next;
            move_box(&mut run, lift, Vec3::new(0.0, top - 0.2, 0.0), v);
            run.step(Vec3::zeros());
            let feet = run.feet_centre();
            // 2 cm: the skin and penetration tolerance the rider stands on, plus the lift's
            // one-step lead before the carry catches up.
            assert!(
                feet.y >= top + RADIUS - 0.02,
                "{}: step {t}: feet centre {} below the lift top {top}",
                frame.name,
                feet.y
            );
            let gap = 3.0 - top;
            if gap > HEIGHT + 0.01 {
                assert!(!run.report.crushed, "{}: step {t}: gap {gap}", frame.name);
            } else if gap < HEIGHT - 0.01 {
                assert!(run.report.crushed, "{}: step {t}: gap {gap}", frame.name);
            }
        }
        // Still on the lift (x, z unmoved) with the head 0.4 m into the ceiling. 1 cm: the
        // skin the rider stands on.
        let at = run.local();
        assert_abs_diff_eq!(at.x, 0.0, epsilon = 1e-3);
        assert_abs_diff_eq!(at.z, 0.0, epsilon = 1e-3);
        assert_abs_diff_eq!(at.y, stop, epsilon = 0.01);
        assert_abs_diff_eq!(run.report.max_penetration, 0.4, epsilon = 0.01);
    }
}

/// A ceiling lowering at 1 m/s onto a standing character. Before, it pushed the feet 0.48 m
/// into the floor. Descends from 2.5 m to 1.2 m above the floor; `ceiling` is its half
/// width along X (m, centred on x = 0) and the character stands at x = `x`.
fn lower_ceiling(frame: Frame, half_width: Real, x: Real) -> (Runner, Vec<bool>) {
    lower_ceiling_over(frame, half_width, x, false)
}

/// [`lower_ceiling`] over a solid floor slab, or with `mesh`, over a one-sided triangle-mesh
/// floor (two triangles facing up, 40 m square, top y = 0).
fn lower_ceiling_over(frame: Frame, half_width: Real, x: Real, mesh: bool) -> (Runner, Vec<bool>) {
    let mut scene = Scene::new(frame);
    if mesh {
        scene.add(mesh_floor(), Iso::identity());
    } else {
        scene.add_floor(20.0);
    }
    let half = Vec3::new(half_width, 0.5, 10.0);
    let ceiling = scene.add(
        SharedShape::cuboid(half.x, half.y, half.z),
        Iso::translation(0.0, 2.5 + half.y, 0.0),
    );
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(scene, motor, Point3::new(x, 0.0, 0.0));
    run.settle(5);
    let (speed, stop) = (1.0, 1.2);
    let mut bottom: Real = 2.5;
    let mut crushed = Vec::new();
    for t in 0..150 {
        let next = (bottom - speed * DT).max(stop);
        let v = Vec3::new(0.0, (next - bottom) / DT, 0.0);
        bottom = next;
        move_box(&mut run, ceiling, Vec3::new(0.0, bottom + half.y, 0.0), v);
        run.step(Vec3::zeros());
        // The feet never go into the floor: 1 mm covers the penetration tolerance and the
        // ground snap's rounding.
        assert!(
            run.feet_centre().y >= RADIUS - 1e-3,
            "{}: step {t}: feet centre {:?}",
            frame.name,
            run.feet_centre()
        );
        crushed.push(run.report.crushed);
    }
    (run, crushed)
}

/// A one-sided floor: a 40 m square of two triangles at y = 0 facing up.
fn mesh_floor() -> SharedShape {
    SharedShape::trimesh(
        vec![
            Point3::new(-20.0, 0.0, -20.0),
            Point3::new(20.0, 0.0, -20.0),
            Point3::new(20.0, 0.0, 20.0),
            Point3::new(-20.0, 0.0, 20.0),
        ],
        vec![[0, 2, 1], [0, 3, 2]],
    )
    .expect("floor")
}

/// Issue 27: the same squeeze over a one-sided mesh floor. Before, the balance between ceiling
/// and floor pushed the feet sphere's centre a radius below the floor (feet at y = -1.35),
/// and it stayed under it after the ceiling lifted. A squeeze never pushes a character
/// through a one-sided floor it stands on from the front: it is crushed in place, and stands
/// on the floor again once the ceiling lifts back to 2.5 m.
#[test]
fn lowering_ceiling_over_a_one_sided_floor_never_pushes_through_it() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (mut run, crushed) = lower_ceiling_over(frame, 10.0, 0.1, true);
        assert!(
            crushed.iter().any(|&c| c),
            "{}: crushed under it",
            frame.name
        );
        // Lift the ceiling (the second collider after the floor) back up at 1 m/s.
        let ceiling = run
            .scene
            .world
            .iter()
            .map(|(id, _)| id)
            .nth(1)
            .expect("ceiling");
        let mut bottom: Real = 1.2;
        for t in 0..120 {
            let next = (bottom + DT).min(2.5);
            let v = Vec3::new(0.0, (next - bottom) / DT, 0.0);
            bottom = next;
            move_box(&mut run, ceiling, Vec3::new(0.0, bottom + 0.5, 0.0), v);
            run.step(Vec3::zeros());
            assert!(
                run.feet_centre().y >= RADIUS - 1e-3,
                "{}: step {t} after: feet centre {:?}",
                frame.name,
                run.feet_centre()
            );
        }
        assert!(run.report.is_grounded(), "{}: standing again", frame.name);
        assert_abs_diff_eq!(run.local().y, 0.0, epsilon = 1e-3);
    }
}

/// With room (a 1 m wide ceiling), the character steps out from under it, to the nearer side,
/// and stands on the floor beside it, never reported crushed.
#[test]
fn regression_lowering_ceiling_with_room_moves_the_character_out_sideways() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (run, crushed) = lower_ceiling(frame, 0.5, 0.1);
        let at = run.local();
        // Clear of the ceiling's edge at x = 0.5 by the sphere's radius; 1 mm: the tolerance
        // the escape leaves the last contact within.
        assert!(at.x >= 0.5 + RADIUS - 1e-3, "{}: {at:?}", frame.name);
        assert!(at.x <= 0.5 + RADIUS + 0.05, "{}: {at:?}", frame.name);
        assert_abs_diff_eq!(at.z, 0.0, epsilon = 1e-3);
        assert!(run.report.is_grounded(), "{}", frame.name);
        assert!(run.report.max_penetration < 1e-3, "{}", frame.name);
        assert!(crushed.iter().all(|c| !c), "{}: {crushed:?}", frame.name);
    }
}

/// Without room (a 20 m wide ceiling), the character stays where it stands, feet on the
/// floor, and is reported crushed from the moment the ceiling is lower than its head. The
/// ceiling ends 0.6 m into the head.
#[test]
fn regression_lowering_ceiling_without_room_crushes_in_place() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (run, crushed) = lower_ceiling(frame, 10.0, 0.1);
        let at = run.local();
        // 1e-3 m: nothing pushes it sideways; the only motion is rounding.
        assert_abs_diff_eq!(at.x, 0.1, epsilon = 1e-3);
        assert_abs_diff_eq!(at.z, 0.0, epsilon = 1e-3);
        assert_abs_diff_eq!(at.y, 0.0, epsilon = 0.01);
        assert_abs_diff_eq!(run.report.max_penetration, 0.6, epsilon = 0.01);
        // The ceiling's bottom crosses 1.8 m at step 42 (2.5 - 42/60); from a step later
        // every step is crushed.
        let first = crushed.iter().position(|&c| c);
        assert!(
            first.is_some_and(|f| (41..=43).contains(&f)),
            "{}: {first:?}",
            frame.name
        );
        assert!(crushed[44..].iter().all(|&c| c), "{}", frame.name);
    }
}

/// Two 3 m tall walls close at 1 m/s each from 3 m apart to 0.4 m apart, less than the
/// character's 0.6 m width; `length` is their extent along Z (m, centred on z = 0), and the
/// character starts at (0.3, 0, 0.2). Returns the runner and, per step, the faces' x.
fn close_walls(frame: Frame, length: Real) -> (Runner, Vec<bool>) {
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    let half = Vec3::new(0.15, 1.5, 0.5 * length);
    let shape = SharedShape::cuboid(half.x, half.y, half.z);
    let left = scene.add(shape.clone(), Iso::translation(-1.5 - half.x, half.y, 0.0));
    let right = scene.add(shape, Iso::translation(1.5 + half.x, half.y, 0.0));
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(scene, motor, Point3::new(0.3, 0.0, 0.2));
    run.settle(5);
    let (speed, stop) = (1.0, 0.2);
    let mut face: Real = 1.5;
    let mut crushed = Vec::new();
    for t in 0..120 {
        let next = (face - speed * DT).max(stop);
        let v = (next - face) / DT;
        face = next;
        move_box(
            &mut run,
            left,
            Vec3::new(-face - half.x, half.y, 0.0),
            Vec3::new(-v, 0.0, 0.0),
        );
        move_box(
            &mut run,
            right,
            Vec3::new(face + half.x, half.y, 0.0),
            Vec3::new(v, 0.0, 0.0),
        );
        run.step(Vec3::zeros());
        // Never through a wall: every sphere centre stays between the inner faces (or out
        // past the walls' ends), and the feet on the floor (1 mm: tolerance and rounding).
        for c in run.sphere_centres() {
            let between = c.x > -face && c.x < face;
            let beyond = c.z.abs() > 0.5 * length;
            assert!(
                between || beyond,
                "{}: step {t}: sphere at {c:?}, faces at +-{face}",
                frame.name
            );
        }
        assert!(
            run.feet_centre().y >= RADIUS - 1e-3,
            "{}: step {t}: {:?}",
            frame.name,
            run.feet_centre()
        );
        crushed.push(run.report.crushed);
    }
    (run, crushed)
}

/// Walls 1.2 m long leave room along Z: before, the character ended 300 mm inside one wall
/// and never left. Now it leaves along the open side, past the walls' ends at z = 0.6, and
/// is never crushed. The walls' inner corners, 0.2 m either side of it at the end, hold it
/// where the spheres just clear them: z = 0.6 + sqrt(0.3² - 0.2²) = 0.8236 m.
#[test]
fn regression_closing_walls_with_an_open_side_let_the_character_out() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (run, crushed) = close_walls(frame, 1.2);
        let at = run.local();
        // 1 mm: the penetration tolerance the pushes leave, and rounding.
        let clear = 0.6 + (RADIUS * RADIUS - 0.2 * 0.2).sqrt();
        assert_abs_diff_eq!(at.z, clear, epsilon = 1e-3);
        assert_abs_diff_eq!(at.x, 0.0, epsilon = 1e-3);
        assert!(run.report.is_grounded(), "{}", frame.name);
        assert!(run.report.max_penetration < 1e-3, "{}", frame.name);
        assert!(crushed.iter().all(|c| !c), "{}: {crushed:?}", frame.name);
    }
}

/// Walls 20 m long leave no room: the character stays between them, centred, both 0.1 m
/// into it, and is reported crushed once they are closer than its width.
#[test]
fn regression_closing_walls_without_room_crush_between_them() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let (run, crushed) = close_walls(frame, 20.0);
        let at = run.local();
        // Centred to 1 cm: the balance between the walls converges within the tolerance of
        // the pushes, not exactly.
        assert_abs_diff_eq!(at.x, 0.0, epsilon = 0.01);
        assert_abs_diff_eq!(at.z, 0.2, epsilon = 1e-3);
        assert_abs_diff_eq!(run.report.max_penetration, 0.1, epsilon = 0.01);
        // The faces are 0.6 m apart at step index 71 (1.5 - 72/60 = 0.3 either side): crushed
        // from the step after, when they are closer.
        let first = crushed.iter().position(|&c| c);
        assert!(
            first.is_some_and(|f| (71..=73).contains(&f)),
            "{}: {first:?}",
            frame.name
        );
        assert!(crushed[73..].iter().all(|&c| c), "{}", frame.name);
    }
}
