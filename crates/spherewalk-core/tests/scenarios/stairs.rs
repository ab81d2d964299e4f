//! Step offset: stairs within the step height are climbed, taller ones block.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::{Cuboid, SharedShape};
use spherewalk_core::{
    MotorSettings, Point3, Real, SettingsError, Vec3, math::Iso, motor::MIN_SKIN_WIDTH,
};

/// A straight staircase rising along scene +X from x = 1: `count` steps of `rise` (m) and
/// 0.4 m treads, then a landing to x = 8. Each step is a solid block from its riser to the end.
fn staircase(frame: Frame, rise: Real, count: usize) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    for k in 0..count {
        let x0 = 1.0 + 0.4 * k as Real;
        scene.add_box([x0, -0.5, -2.0], [8.0, rise * (k + 1) as Real, 2.0]);
    }
    scene
}

/// The standard character settled on the floor 2 m before the first riser of `staircase`.
fn at_the_foot(frame: Frame, rise: Real, count: usize) -> Runner {
    let mut r = Runner::new(
        staircase(frame, rise, count),
        capsule_motor(MotorSettings::default()),
        Point3::new(-1.0, 0.0, 0.0),
    );
    r.settle(5);
    r
}

fn feet_centre_height(r: &Runner) -> Real {
    r.feet_centre().y
}

#[test]
fn climbs_0_3_m_stairs_with_0_35_m_step_height() {
    for frame in Frame::all() {
        let mut r = at_the_foot(frame, 0.3, 5);
        let mut step_offsets = 0;
        for _ in 0..150 {
            let report = r.step(Vec3::new(3.0, 0.0, 0.0));
            step_offsets += usize::from(report.climbed > 0.0);
            assert!(
                r.report.max_penetration < 1e-3,
                "{}: penetration {}",
                frame.name,
                r.report.max_penetration
            );
        }
        // Five 0.3 m steps: the feet centre ends 1.5 m above its start (0.3 m). The exact
        // value is set by the landing's top face; 1 mm covers the ground probe's tolerance.
        assert_abs_diff_eq!(feet_centre_height(&r), 1.8, epsilon = 1e-3);
        assert!(
            r.local().x > 5.5,
            "{}: stuck at x = {}",
            frame.name,
            r.local().x
        );
        assert!(r.report.is_grounded(), "{}", frame.name);
        // Each riser is first mounted by the step offset (the round feet then roll onto the tread).
        assert!(
            step_offsets >= 5,
            "{}: {step_offsets} step offsets",
            frame.name
        );
    }
}

#[test]
fn blocked_by_0_4_m_step_with_0_35_m_step_height() {
    for frame in Frame::all() {
        let mut r = at_the_foot(frame, 0.4, 3);
        r.run(120, Vec3::new(3.0, 0.0, 0.0));
        // Pressed against the first riser (x = 1): the axis is one radius (0.3 m) short of it.
        assert_abs_diff_eq!(r.feet_centre().x, 0.7, epsilon = 1e-3);
        // Still standing on the floor: the centre stays 0.3 m up (1 mm: probe tolerance).
        assert_abs_diff_eq!(feet_centre_height(&r), 0.3, epsilon = 1e-3);
        assert_abs_diff_eq!(r.report.climbed, 0.0);
    }
}

#[test]
fn walks_down_stairs_without_leaving_the_ground() {
    for frame in Frame::all() {
        let scene = staircase(frame, 0.3, 5);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(6.0, 1.5, 0.0),
        );
        r.settle(5);
        let mut airborne = 0;
        for _ in 0..120 {
            r.step(Vec3::new(-3.0, 0.0, 0.0));
            if !r.report.is_grounded() {
                airborne += 1;
            }
        }
        // The ground clamp (0.35 m) reaches each 0.3 m step down: never airborne.
        assert_eq!(airborne, 0, "{}", frame.name);
        assert_abs_diff_eq!(feet_centre_height(&r), 0.3, epsilon = 1e-3);
    }
}

/// A riser met late in a step's move (after part of it was walked on the floor or the tread
/// below) is climbed in that same step: walking up 0.3 m stairs at 4 m/s and 60 Hz, no step
/// stalls against a riser. Before, each riser cost a step spent standing against it.
#[test]
fn a_riser_met_late_in_the_move_is_climbed_in_the_same_step() {
    for frame in Frame::all() {
        let mut r = at_the_foot(frame, 0.3, 5);
        let speed = 4.0;
        let mut risers = 0;
        while r.local().x < 2.5 && r.steps < 200 {
            let x = r.local().x;
            let report = r.step(Vec3::new(speed, 0.0, 0.0));
            risers += usize::from(report.climbed > 0.0);
            let advance = r.local().x - x;
            // Every step covers at least its own move (less 1 %: the planet frame's up tilts
            // the stack a little off the scene's X).
            assert!(
                advance > 0.99 * speed * DT,
                "{}: advanced {advance} m at x = {x}",
                frame.name
            );
        }
        // Up the first four risers (x = 1.0 .. 2.2) and on.
        assert!(risers >= 4, "{}: {risers} risers", frame.name);
        assert!(
            r.local().x >= 2.5,
            "{}: stuck at {:?}",
            frame.name,
            r.local()
        );
    }
}

/// Issue 27: `skin_width` 1e-9 m was accepted, and the character no longer climbed 0.2 m
/// stairs (stopped at the first riser): the step offset's probes start a skin width or two
/// above the contacts they test, which such a skin puts below f32's resolution. Skins under
/// `MIN_SKIN_WIDTH` (10 um) are refused by name; at that floor the character still climbs.
#[test]
fn the_thinnest_skin_accepted_still_climbs_stairs() {
    let mut thin = MotorSettings::default();
    thin.skin_width = 1e-9;
    let err = thin.validate().expect_err("refused");
    assert!(
        matches!(err, SettingsError::OutOfRange { field: "skin_width", value, .. } if value == 1e-9),
        "{err}"
    );
    thin.skin_width = MIN_SKIN_WIDTH;
    assert_eq!(thin.validate(), Ok(()));
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut r = Runner::new(
            staircase(frame, 0.2, 5),
            capsule_motor(thin),
            Point3::new(-1.0, 0.0, 0.0),
        );
        r.settle(5);
        let mut grounded = 0;
        for _ in 0..150 {
            r.step(Vec3::new(3.0, 0.0, 0.0));
            grounded += usize::from(r.report.is_grounded());
        }
        // On the landing (top 1.0 m, from x = 2.6 to 8) and grounded on every step.
        assert!(
            r.local().x > 5.5,
            "{}: stuck at x = {}",
            frame.name,
            r.local().x
        );
        assert_abs_diff_eq!(r.local().y, 1.0, epsilon = 1e-3);
        assert_eq!(grounded, 150, "{}", frame.name);
    }
}

/// Five 0.3 m stairs with 0.4 m treads rising along scene +X from x = 5 to a landing 1.5 m up,
/// and a wall across the landing at x = 11: a character walking up them ends with its feet
/// at (10.7, 1.5), pressed against the wall. Built of boxes, or of the same boxes as
/// triangle meshes when `meshes`.
fn stairs_to_a_wall(frame: Frame, meshes: bool) -> Scene {
    let mut scene = Scene::new(frame);
    let mut add = |min: [Real; 3], max: [Real; 3]| {
        if !meshes {
            scene.add_box(min, max);
            return;
        }
        let half = Vec3::new(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * 0.5;
        let (vertices, indices) = Cuboid::new(half).to_trimesh();
        let mesh = SharedShape::trimesh(vertices, indices).expect("a box's mesh");
        let centre = Vec3::new(min[0], min[1], min[2]) + half;
        scene.add(mesh, Iso::translation(centre.x, centre.y, centre.z));
    };
    add([-20.0, -1.0, -20.0], [20.0, 0.0, 20.0]);
    for k in 0..5 {
        let x0 = 5.0 + 0.4 * k as Real;
        add([x0, -0.5, -2.0], [12.0, 0.3 * (k + 1) as Real, 2.0]);
    }
    add([11.0, 1.5, -2.0], [12.0, 4.0, 2.0]);
    scene
}

/// Walks the standard character from x = 0 at 3 m/s along scene +X for `steps` steps of
/// `dt` up [`stairs_to_a_wall`]; its feet end where it stopped (scene frame).
fn walk_stairs_to_the_wall(frame: Frame, meshes: bool, dt: Real, steps: u32) -> Runner {
    let mut r = Runner::new(
        stairs_to_a_wall(frame, meshes),
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 0.0, 0.0),
    );
    r.settle(5);
    r.dt = dt;
    r.run(steps, Vec3::new(3.0, 0.0, 0.0));
    r
}

/// Issue 48: a 10 s step (a hitch; clamped to `max_dt`, 0.25 s, and flagged) moves 0.75 m
/// at 3 m/s, further than a 0.4 m tread: the raised move of the step offset ran into the
/// next riser's nosing, the straight drop onto the tread then grazed it by 0.4 mm, and the
/// climb was refused (issue 27's rule against landing inside something) with no shorter
/// try. 40 such steps stopped at the first riser (x = 4.7) instead of climbing to the wall.
#[test]
fn regression_10_s_steps_stopped_on_the_first_stair() {
    let mut wrong = Vec::new();
    // (Not on the 30 m test planet: 5 to 11 m from its pole, up tilts 10 to 20 degrees off
    // these flat stairs, so their risers stand taller than the stair height along it.)
    let frames = [Frame::world_up(), Frame::rotated()];
    for (frame, meshes) in frames.into_iter().flat_map(|f| [(f, false), (f, true)]) {
        let r = walk_stairs_to_the_wall(frame, meshes, 10.0, 40);
        let at = r.local();
        // At the wall on the landing: one radius short of x = 11 (1 cm: the skin and the
        // rounding of a wall contact), standing on the landing (1 mm: the ground probe's
        // tolerance).
        if (at.x - 10.7).abs() > 1e-2 || (at.y - 1.5).abs() > 1e-3 || !r.report.is_grounded() {
            wrong.push(format!("{}, meshes: {meshes}: stopped at {at}", frame.name));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
