//! Pushback out of deep overlaps and no tunnelling at high speed.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{Motor, MotorSettings, Point3, Quat, Real, SphereStack, Vec3, math::Iso};

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

/// Two 0.2 m thick slabs crossing at the origin, 75 degrees from the floor each way (a V above
/// the floor, an inverted V below it), and a unit box beside them whose top is y = 1, its
/// +x face through the origin: Jolt's `TestInitiallyIntersecting2` layout, in any frame.
fn steep_wedge_beside_a_box(frame: Frame) -> Scene {
    steep_wedge_of_length(frame, 1.0)
}

/// [`steep_wedge_beside_a_box`] with slabs reaching `half_length` metres either way along Z.
fn steep_wedge_of_length(frame: Frame, half_length: Real) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    scene.add_box([-1.0, 0.0, -0.5], [0.0, 1.0, 0.5]);
    for deg in [75.0f32, -75.0] {
        let rot = Quat::from_axis_angle(&Vec3::z_axis(), deg.to_radians());
        scene.add(
            SharedShape::cuboid(1.0, 0.1, half_length),
            Iso::from_parts(Vec3::zeros().into(), rot),
        );
    }
    scene
}

/// A stack spawned in the crossing of two steep slabs cannot leave sideways (each slab's
/// sideways push is the other's wrong way), so it rises straight out, by the least that
/// clears everything: onto the box's top edge, y = 1, at x = 0. The answer is the same for
/// every sphere count and frame, and it never overshoots and falls back.
#[test]
fn wedged_between_steep_slabs_rises_straight_out_for_any_sphere_count() {
    for frame in Frame::all() {
        for spheres in [4, 5, 6, 8] {
            let stack = SphereStack::capsule(1.95, 0.3, spheres).expect("stack");
            let motor = Motor::new(stack, MotorSettings::default()).expect("motor");
            let mut r = Runner::new(steep_wedge_beside_a_box(frame), motor, Point3::origin());
            let mut y = r.local().y;
            for step in 0..10 {
                r.step(Vec3::zeros());
                let p = r.local();
                // Never sinks back: no overshoot (1e-5 m: f32 rounding of a pose near 1 m).
                assert!(
                    p.y >= y - 1e-5,
                    "{} {spheres}: step {step} sank to {p:?}",
                    frame.name
                );
                y = p.y;
            }
            let p = r.local();
            let at = format!("{} with {spheres} spheres: {p:?}", frame.name);
            // Straight up: 1e-3 m is Jolt's bound on the sideways drift. On the planet frame
            // up tilts with gravity by under 2 mrad over the 1 m rise, hence the same bound.
            assert!(p.x.abs() < 1e-3 && p.z.abs() < 1e-3, "{at}");
            // Standing on the box's top edge: the rise is exact to the pushback tolerance.
            assert_abs_diff_eq!(p.y, 1.0, epsilon = 2e-3);
            assert!(r.penetration() < 1e-3, "{at}: {} m deep", r.penetration());
        }
    }
}

/// The same wedge with a 0.1 m slab 0.2 m over the head: rising would cross it, so the
/// character never goes above it. The slabs end 1 m either way along Z, so it leaves along
/// them, under the ceiling, toward its forward (-Z): out by the sphere radius, z = -1.3. With
/// slabs 20 m long there is no way out: it stays under the ceiling, crushed and flagged.
#[test]
fn wedge_escape_never_rises_through_a_ceiling() {
    for (frame, half_length) in Frame::all().into_iter().flat_map(|f| [(f, 1.0), (f, 10.0)]) {
        let mut scene = steep_wedge_of_length(frame, half_length);
        scene.add_box([-2.0, 2.15, -2.0], [2.0, 2.25, 2.0]);
        let stack = SphereStack::capsule(1.95, 0.3, 4).expect("stack");
        let motor = Motor::new(stack, MotorSettings::default()).expect("motor");
        let mut r = Runner::new(scene, motor, Point3::origin());
        for step in 0..30 {
            r.step(Vec3::zeros());
            let head = r.max_sphere_coord(1) + 0.3;
            // The head sphere's top stays at the ceiling's underside (y = 2.15): an escape
            // stops where it would enter it (1e-3 m: the planet frame's up tilts under 2 mrad
            // from the scene's, so "top" there is measured along a slightly other axis). A
            // crushed stack shares the overlap between the slabs and the ceiling, which it
            // presses by at most 3 mm (measured: 2 mm on the planet), never through.
            let most = if half_length > 1.0 { 3e-3 } else { 1e-3 };
            assert!(
                head < 2.15 + most,
                "{}: step {step}: head at {head}",
                frame.name
            );
        }
        let report = &r.report;
        if half_length > 1.0 {
            // Squeezed between the wedge and the ceiling with no way out: crushed, the
            // degraded solve flagged, and the overlap left reported.
            assert!(
                report.crushed && report.pushback_exhausted,
                "{}",
                frame.name
            );
            assert!(report.max_penetration > 0.01, "{}", frame.name);
            continue;
        }
        // 1e-3 m: the tolerance the escape leaves the last contact within. On the planet, up
        // there leans 1.3 / 30 rad toward the slabs' end, so the stack clears it 13 mm
        // sooner (z = -1.287): 0.015 m.
        let epsilon = if frame.planet.is_some() { 0.015 } else { 1e-3 };
        assert_abs_diff_eq!(r.local().z, -1.3, epsilon = epsilon);
        assert!(
            !report.crushed && report.max_penetration < 1e-3,
            "{}",
            frame.name
        );
    }
}
