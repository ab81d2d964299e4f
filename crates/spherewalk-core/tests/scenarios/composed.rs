//! A step a game composes itself from `spherewalk_core::phases`, as the docs say it can:
//! begin, the tight attempt, and the wide retry, each attempt written out phase by phase. Over
//! both golden walks it matches `Motor::step` bit for bit, step after step.

use crate::common::Runner;
use crate::golden::{FLAT_LEGS, Leg, PLANET_LEGS, STEPS, flat_walk, intent_at, planet_walk};
use spherewalk_core::StepInput;
use spherewalk_core::hooks::Surroundings;
use spherewalk_core::parry3d::bounding_volume::{Aabb, BoundingVolume};
use spherewalk_core::phases::Step;

/// One step of `r`'s character with `input`, through the public phases only: what
/// `Motor::step` does, in a game's own code.
fn step_by_phases(r: &mut Runner, input: &StepInput) {
    let around = Surroundings::new(&r.scene.world);
    let (pose, state, report) = (&mut r.pose, &mut r.state, &mut r.report);
    // Kept where `begin` put it, as the docs advise.
    let Some(step) = &mut Step::begin(&r.motor, around, pose, state, input, report) else {
        return;
    };
    let tight = step.tight_region();
    if attempt(step, &tight) {
        return;
    }
    step.restart();
    let wide = step.wide_region();
    attempt(step, &tight.merged(&wide));
}

/// One attempt over `bounds` (world), phase by phase, each handing the next what it made.
fn attempt(step: &mut Step<'_>, bounds: &Aabb) -> bool {
    let prims = step.gather(bounds);
    let ctx = step.context(&prims, bounds);
    let mut velocity = step.up_frame(&ctx);
    let moved = step.movement(&ctx, &mut velocity);
    step.stairs(&ctx, &moved, &mut velocity);
    step.ground(&ctx, &moved, velocity);
    step.inherit(&moved);
    let kept = step.finish(&ctx);
    step.recycle(prims);
    kept
}

/// Walks `legs` twice in lockstep, through `Motor::step` and through [`step_by_phases`], and
/// checks after every step that the two characters agree to the bit: pose, motor state and
/// the whole report (compared through `Debug`, which prints every float exactly enough to
/// tell two bit patterns apart, and -0.0 from 0.0).
fn lockstep(make: fn() -> Runner, legs: &[Leg], name: &str) {
    let (mut by_motor, mut by_phases) = (make(), make());
    let mut climbed = 0;
    for step in 0..STEPS {
        let intent = intent_at(&by_motor, legs, step);
        by_motor.step_intent(intent);
        let input = by_phases.input(intent);
        step_by_phases(&mut by_phases, &input);
        let bits = |r: &Runner| {
            let reals: Vec<u32> = r.state_reals().map(|v| v.to_bits()).collect();
            (reals, format!("{:?} {:?}", r.state, r.report))
        };
        assert_eq!(
            bits(&by_motor),
            bits(&by_phases),
            "{name}: the composed step parted from Motor::step at step {step}"
        );
        climbed += u32::from(by_motor.report.climbed > 0.0);
    }
    // The walk went through the stairs phase, not only the plain move.
    assert!(climbed > 0, "{name}: never stepped up");
}

#[test]
fn a_step_composed_from_phases_matches_motor_step_on_the_flat_walk() {
    lockstep(flat_walk, &FLAT_LEGS, "flat walk");
}

#[test]
fn a_step_composed_from_phases_matches_motor_step_on_the_planet_walk() {
    lockstep(planet_walk, &PLANET_LEGS, "planet walk");
}
