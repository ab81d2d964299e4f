//! Contact hooks (one-way platforms, conveyor belts), penetration recovery speed and the
//! pushback-exhausted flag.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::{
    ColliderId, ContactHooks, MotorSettings, Point3, Real, UnitVec3, Vec3, hooks::Candidate,
};

/// A one-way platform: solid only while the character's feet are at or above its top.
struct OneWay {
    frame: Frame,
    platform: ColliderId,
    /// Height of the platform's top (m, scene frame).
    top: Real,
}

impl ContactHooks for OneWay {
    fn validate(&self, candidate: &Candidate<'_>) -> bool {
        if candidate.collider != self.platform {
            return true;
        }
        // 1 mm below the top still counts as above: a character standing on the platform
        // rests within the skin of it.
        self.frame.to_local(&candidate.pose.position).y >= self.top - 1e-3
    }
}

/// Jumping up through a one-way platform 2 m above the floor and landing on its top. Without
/// the hook the head bumps its underside.
#[test]
fn a_one_way_platform_is_jumped_through_from_below_and_stood_on() {
    for frame in Frame::all() {
        for with_hook in [true, false] {
            let mut scene = Scene::new(frame);
            scene.add_floor(20.0);
            let platform = scene.add_box([-2.0, 2.0, -2.0], [2.0, 2.2, 2.0]);
            let hooks = OneWay {
                frame,
                platform,
                top: 2.2,
            };
            let none = spherewalk_core::hooks::NoHooks;
            let hooks: &dyn ContactHooks = if with_hook { &hooks } else { &none };
            let motor = capsule_motor(MotorSettings::default());
            let mut run = Runner::new(scene, motor, Point3::new(0.0, 0.0, 0.0));
            run.settle(5);
            run.step_with(hooks, Vec3::zeros(), 9.0);
            let mut highest = run.local().y;
            for _ in 0..180 {
                run.step_with(hooks, Vec3::zeros(), 0.0);
                highest = highest.max(run.local().y);
            }
            if with_hook {
                // v²/2g = 4.13 m: well over the 2.2 m top; then it lands on the top and stays
                // (1 mm: the ground clamp's snap is exact to f32 rounding at this height).
                assert!(highest > 3.5, "{}: peaked at {highest}", frame.name);
                assert_abs_diff_eq!(run.local().y, 2.2, epsilon = 1e-3);
                assert!(run.report.is_grounded(), "{}", frame.name);
            } else {
                // The 1.8 m stack's head stops at the underside (y = 2): feet at 0.2 m, within
                // the penetration tolerance and rounding.
                assert_abs_diff_eq!(highest, 0.2, epsilon = 2e-3);
                assert_abs_diff_eq!(run.local().y, 0.0, epsilon = 1e-3);
            }
        }
    }
}

/// A conveyor belt moving at 1.5 m/s along scene +X.
struct Belt {
    frame: Frame,
    belt: ColliderId,
}

impl ContactHooks for Belt {
    fn surface_velocity(&self, collider: ColliderId, _: &Point3, _: &UnitVec3) -> Vec3 {
        if collider == self.belt {
            self.frame.vec_to_world(&Vec3::new(1.5, 0.0, 0.0))
        } else {
            Vec3::zeros()
        }
    }
}

/// Standing on a conveyor belt carries the character at the belt's speed; walking against it
/// at the same speed keeps it in place; jumping off keeps the belt's speed in the air.
#[test]
fn a_conveyor_belt_carries_a_standing_character() {
    for frame in Frame::all() {
        let make = || {
            let mut scene = Scene::new(frame);
            let belt = scene.add_floor(20.0);
            let hooks = Belt { frame, belt };
            let motor = capsule_motor(MotorSettings::default());
            let mut run = Runner::new(scene, motor, Point3::new(-3.0, 0.0, 0.0));
            run.settle(5);
            (run, hooks)
        };
        // Standing: 1 s at 1.5 m/s, measured from where it settled (on the planet frame the
        // settling turn moves the feet). 2 cm: far less is expected (f32 over 60 steps), but
        // the planet's tilting up may shorten the path by a few millimetres.
        let (mut run, hooks) = make();
        let start = run.local().x;
        for _ in 0..60 {
            run.step_with(&hooks, Vec3::zeros(), 0.0);
        }
        assert_abs_diff_eq!(run.local().x - start, 1.5, epsilon = 0.02);
        assert_abs_diff_eq!(run.local().y, 0.0, epsilon = 1e-3);
        // What the character carries is its own velocity (zero), not the belt's.
        assert_abs_diff_eq!(run.local_velocity().norm(), 0.0, epsilon = 1e-4);
        // Walking against it at 1.5 m/s: in place (the same 2 cm).
        let (mut run, hooks) = make();
        let start = run.local().x;
        for _ in 0..60 {
            run.step_with(&hooks, Vec3::new(-1.5, 0.0, 0.0), 0.0);
        }
        assert_abs_diff_eq!(run.local().x, start, epsilon = 0.02);
        // Jumping straight up at 4 m/s: airborne for 2 * 4 / 9.81 = 0.815 s at 1.5 m/s
        // across: 1.22 m (5 cm: whole steps and the planet's curving gravity).
        let (mut run, hooks) = make();
        let launch = run.local().x;
        run.step_with(&hooks, Vec3::zeros(), 4.0);
        let mut steps = 0;
        while !run.report.is_grounded() && steps < 120 {
            run.step_with(&hooks, Vec3::zeros(), 0.0);
            steps += 1;
        }
        let flight = run.local().x - launch;
        if frame.planet.is_none() {
            // Ballistic 0.815 s; the landing is found on a whole step (48 steps, 0.8 s, at
            // 1.5 m/s: 1.2 m), so within one step's travel (0.025 m) of 1.2 m.
            assert_abs_diff_eq!(flight, 1.2, epsilon = 0.025 + 1e-4);
        } else {
            // 3 m off the pole the planet's gravity leans up to 0.1 rad off the flat floor's
            // normal and bends the flight: measured 1.149 m. It still kept the belt's speed
            // (without it the flight would be 0).
            assert!(flight > 1.1, "{}: flew {flight}", frame.name);
        }
    }
}

/// With a recovery speed of 1 m/s, a character spawned 0.3 m inside a box leaves it at that
/// speed: each step at most 1 m/s * dt further out, plus the step's own motion (gravity's
/// g * dt² pressing into the floor, which the pass may undo), out in about 0.6 s. Without it,
/// it is out in one step (`pushout.rs`).
#[test]
fn penetration_recovery_speed_eases_a_spawned_character_out() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        scene.add_box([0.0, -0.5, -1.0], [2.0, 2.5, 1.0]);
        let settings = {
            let mut v = MotorSettings::default();
            v.penetration_recovery_speed = Some(1.0);
            v
        };
        let mut run = Runner::new(scene, capsule_motor(settings), Point3::new(0.3, 0.0, 0.0));
        let mut depth = run.penetration();
        assert_abs_diff_eq!(depth, 0.6, epsilon = 1e-3);
        let mut steps = 0;
        while depth > 1e-3 && steps < 60 {
            run.step(Vec3::zeros());
            let now = run.penetration();
            assert!(
                depth - now <= DT + G * DT * DT + 1e-5,
                "{}: step {steps} went {} m",
                frame.name,
                depth - now
            );
            depth = now;
            steps += 1;
        }
        // 0.6 m deep (the sphere's 0.3 m radius plus the 0.3 m its axis is inside) at
        // 1 m/s: 36 steps; the last step may leave up to the tolerance, hence 35 to 38.
        assert!(
            (35..=38).contains(&steps),
            "{}: out after {steps}",
            frame.name
        );
        assert_abs_diff_eq!(run.max_sphere_coord(0), -0.3, epsilon = 1e-3);
    }
}

/// A character squeezed between two 20 m long boxes 0.4 m apart (narrower than its 0.6 m
/// spheres) with one pushback iteration cannot be solved: the report says so (crushed, and
/// the budget exhausted), and says how deep it is.
#[test]
fn an_impossible_squeeze_reports_an_exhausted_pushback() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    scene.add_box([-2.0, 0.0, -10.0], [-0.2, 3.0, 10.0]);
    scene.add_box([0.2, 0.0, -10.0], [2.0, 3.0, 10.0]);
    let settings = {
        let mut v = MotorSettings::default();
        v.max_pushback_iterations = 1;
        v
    };
    let mut run = Runner::new(scene, capsule_motor(settings), Point3::new(0.0, 0.0, 0.0));
    run.step(Vec3::zeros());
    assert!(run.report.pushback_exhausted && run.report.crushed);
    // Each sphere overlaps both walls by 0.1 m: it cannot get below that.
    assert!(run.report.max_penetration >= 0.1 - 1e-4);
    // In open space the flag stays down.
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    let mut run = Runner::new(scene, capsule_motor(settings), Point3::new(0.0, 0.0, 0.0));
    run.run(30, Vec3::new(2.0, 0.0, 0.0));
    assert!(!run.report.pushback_exhausted);
}
