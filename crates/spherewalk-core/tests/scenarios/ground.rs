//! Ground state, events and the not-walkable flag.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::na::DMatrix;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{
    ColliderDesc, GroundState, MotorSettings, MoveIntent, Point3, Real, Vec3, math::Iso,
};

#[test]
fn jump_reaches_the_ballistic_apex_and_lands() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::origin(),
        );
        r.settle(5);
        let jump: Real = 5.0;
        let report = r.step_intent(MoveIntent {
            jump_speed: jump,
            ..MoveIntent::default()
        });
        assert!(report.jumped && report.left_ground, "{}", frame.name);
        let mut apex: Real = 0.0;
        let mut landed_at = None;
        for step in 0..120u32 {
            r.step(Vec3::zeros());
            apex = apex.max(r.local().y);
            if r.report.landed {
                landed_at = Some(step);
                break;
            }
        }
        // The discrete trajectory is semi-implicit Euler from the launch step on (v -= g dt,
        // then x += v dt). Its apex and flight time are exact sums; 1 mm covers float
        // rounding (the planet's gravity turns by 0.002 rad over the jump).
        let v0 = jump - G * DT;
        let (mut y, mut v, mut expected_apex, mut steps) = (v0 * DT, v0, v0 * DT, 1u32);
        while y > 0.0 {
            v -= G * DT;
            y += v * DT;
            expected_apex = expected_apex.max(y);
            steps += 1;
        }
        assert_abs_diff_eq!(apex, expected_apex, epsilon = 1e-3);
        let landed_at = landed_at.unwrap_or_else(|| panic!("{}: never landed", frame.name));
        assert_eq!(landed_at + 2, steps, "{}", frame.name);
        assert_abs_diff_eq!(r.local().y, 0.0, epsilon = 1e-3);
    }
}

#[test]
fn walking_off_a_ledge_reports_left_ground_then_landed() {
    let frame = Frame::world_up();
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    scene.add_box([-5.0, 0.0, -2.0], [1.0, 1.0, 2.0]);
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 1.0, 0.0),
    );
    r.settle(5);
    let (mut left, mut landed) = (None, None);
    for step in 0..120u32 {
        r.step(Vec3::new(3.0, 0.0, 0.0));
        if r.report.left_ground && left.is_none() {
            left = Some(step);
        }
        if r.report.landed && landed.is_none() {
            landed = Some(step);
        }
    }
    let (left, landed) = (left.expect("left the ledge"), landed.expect("landed below"));
    assert!(left < landed);
    assert_abs_diff_eq!(r.local().y, 0.0, epsilon = 1e-3);
    assert_eq!(r.report.ground, GroundState::Grounded);
}

#[test]
fn not_walkable_ground_is_steep_and_slides() {
    let frame = Frame::world_up();
    let mut scene = Scene::new(frame);
    scene.add_floor(20.0);
    // A gentle 10 degree slope that is flagged not walkable: the character slides off it.
    let a: Real = 10f32.to_radians();
    let rot = spherewalk_core::Quat::from_axis_angle(&Vec3::z_axis(), a);
    let desc = ColliderDesc::new(SharedShape::cuboid(4.0, 0.5, 2.0)).not_walkable();
    let centre = Vec3::new(0.0, 1.0, 0.0) - rot * Vec3::y() * 0.5;
    scene.add_desc(desc, Iso::from_parts(centre.into(), rot));
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 1.3, 0.0),
    );
    r.run(20, Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::SteepGround);
    let x0 = r.local().x;
    r.run(30, Vec3::zeros());
    // Sliding down toward -x (the slope rises along +x).
    assert!(
        r.local().x < x0 - 0.05,
        "did not slide: {} -> {}",
        x0,
        r.local().x
    );
}

#[test]
fn walks_over_a_heightfield_hill_staying_grounded() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        let mut scene = Scene::new(frame);
        let n = 41;
        // A 20 m x 20 m field with a 0.8 m high, 8 m wide bump: slopes under 20 degrees.
        let heights = DMatrix::from_fn(n, n, |i, j| {
            let x = -10.0 + 20.0 * j as Real / (n - 1) as Real;
            let z = -10.0 + 20.0 * i as Real / (n - 1) as Real;
            let d2 = x * x + z * z;
            0.8 * (-d2 / 8.0).exp()
        });
        let field = SharedShape::heightfield(heights, Vec3::new(20.0, 1.0, 20.0));
        scene.add(field, Iso::identity());
        let mut r = Runner::new(
            scene,
            capsule_motor(MotorSettings::default()),
            Point3::new(-8.0, 0.5, 0.3),
        );
        r.settle(30);
        let mut worst_gap: Real = 0.0;
        for _ in 0..300 {
            r.step(Vec3::new(3.0, 0.0, 0.0));
            assert!(
                r.report.is_grounded(),
                "{}: airborne at x = {}",
                frame.name,
                r.local().x
            );
            let feet = r.pose.centre_at(0.3);
            let filter = spherewalk_core::world::QueryFilter::default();
            let gap = r
                .scene
                .world
                .closest_point(&feet, 1.0, &filter)
                .map_or(1.0, |(_, sp)| sp.distance - 0.3);
            worst_gap = worst_gap.max(gap.abs());
            assert!(r.report.max_penetration < 1e-3, "{}", frame.name);
        }
        assert!(
            r.local().x > 6.0,
            "{}: stuck at {}",
            frame.name,
            r.local().x
        );
        // Clamped onto the field after every step: the feet sphere touches it (0.1 mm).
        assert!(worst_gap < 1e-4, "{}: gap {worst_gap}", frame.name);
    }
}

/// Coyote time: walking off a ledge, a jump asked for within `coyote_time` (0.1 s) of
/// leaving the ground still launches at `jump_speed`; later, or with coyote time 0, the
/// character just falls. Never after a jump: a second jump in the air is refused.
#[test]
fn a_jump_just_after_walking_off_a_ledge_still_launches() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        for (delay, coyote, launches) in [(3u32, 0.1, true), (9, 0.1, false), (1, 0.0, false)] {
            let mut scene = Scene::new(frame);
            // A ledge whose edge is x = 0, 5 m above a lower floor.
            scene.add_box([-10.0, -1.0, -5.0], [0.0, 0.0, 5.0]);
            scene.add_box([-10.0, -6.0, -5.0], [10.0, -5.0, 5.0]);
            let settings = {
                let mut v = MotorSettings::default();
                v.coyote_time = coyote;
                v
            };
            let mut r = Runner::new(scene, capsule_motor(settings), Point3::new(-1.0, 0.0, 0.0));
            r.settle(5);
            let walk = Vec3::new(3.0, 0.0, 0.0);
            while !r.report.left_ground {
                r.step(walk);
                assert!(r.steps < 120, "never left the ledge");
            }
            for _ in 1..delay {
                r.step(walk);
            }
            let at = format!(
                "{}: {delay} steps after leaving, coyote {coyote}",
                frame.name
            );
            r.step_with(&spherewalk_core::hooks::NoHooks, walk, 5.0);
            assert_eq!(r.report.jumped, launches, "{at}");
            let v_up = r.local_velocity().y;
            if launches {
                // Launched as from the ground: 5 m/s less one step of gravity (1e-4: f32).
                assert_abs_diff_eq!(v_up, 5.0 - G * DT, epsilon = 1e-4);
                // No second jump in the air.
                r.step_with(&spherewalk_core::hooks::NoHooks, walk, 5.0);
                assert!(!r.report.jumped, "{at}: jumped twice");
            } else {
                assert!(v_up < 0.0, "{at}: rising at {v_up}");
            }
        }
    }
}

/// Walks a character from `start` (scene frame) at 3 m/s toward the spike at the origin of a
/// 32 m × 32 m heightfield of 1 m cells, flat at y = 0 but for the vertex at the origin raised
/// to `spike` metres, for 4 s. Returns the lowest feet height seen after settling and the
/// least distance (m) of the stack's axis from the spike's, both scene frame.
fn walk_at_a_spike(frame: Frame, spike: Real, start: Point3) -> (Real, Real) {
    let mut scene = Scene::new(frame);
    let n = 33;
    let heights = DMatrix::from_fn(n, n, |i, j| if i == 16 && j == 16 { spike } else { 0.0 });
    let field = SharedShape::heightfield(heights, Vec3::new(32.0, 1.0, 32.0));
    scene.add(field, Iso::identity());
    let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), start);
    r.settle(20);
    let toward = Vec3::new(-start.x, 0.0, -start.z).normalize() * 3.0;
    let (mut lowest, mut nearest) = (Real::MAX, Real::MAX);
    for _ in 0..240 {
        r.step(toward);
        let at = r.local();
        lowest = lowest.min(at.y);
        nearest = nearest.min(Vec3::new(at.x, 0.0, at.z).norm());
    }
    (lowest, nearest)
}

/// Issue 48: a 1e5 m spike on a 1 m heightfield (and a 1e6 m one) was skipped as a sliver
/// (thinner than 1e-5 of its 1e5 m edge, i.e. 1 m), and so were its neighbours' faces: walkers
/// from (-8, 0, 0.5) and (2, 0, -2) fell through the field (to y = -0.625 and -5.0) and
/// walked through the spike.
#[test]
fn regression_a_1e5_m_heightfield_spike_is_neither_fallen_through_nor_walked_through() {
    for frame in [Frame::world_up(), Frame::rotated()] {
        for spike in [1e5, 1e6] {
            for start in [Point3::new(-8.0, 0.0, 0.5), Point3::new(2.0, 0.0, -2.0)] {
                let (lowest, nearest) = walk_at_a_spike(frame, spike, start);
                let what = format!("{}: {spike} m spike from {start}", frame.name);
                // On the field all along: its top is y = 0 away from the spike (1 mm: the
                // motor's penetration tolerance).
                assert!(lowest > -1e-3, "{what}: fell to y = {lowest}");
                // Stopped by the spike's faces: at 1.8 m up the spike is still within a
                // hair of its 1 m base half-width, so the stack's 0.3 m radius keeps its axis
                // at least 0.3 m (the base's nearest edge point, on a diagonal face, is
                // 0.707 m away) from the spike's axis.
                assert!(
                    nearest > 0.3,
                    "{what}: came within {nearest} m of the spike"
                );
            }
        }
    }
}
