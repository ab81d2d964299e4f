//! Determinism: the same inputs give bit-identical poses.

use crate::common::*;
use spherewalk_core::{MotorSettings, Point3, Vec3};
use std::hash::{DefaultHasher, Hash, Hasher};

/// A floor with four 0.25 m stairs and a wall in `frame`, and the standard character at
/// (-4, 0.5, 0) (local).
fn course(frame: Frame) -> Runner {
    let mut scene = Scene::new(frame);
    scene.add_floor(30.0);
    for k in 0..4 {
        let x0 = 2.0 + 0.4 * k as f32;
        scene.add_box([x0, -0.5, -3.0], [9.0, 0.25 * (k + 1) as f32, 3.0]);
    }
    scene.add_box([-6.0, 0.0, 3.0], [9.0, 3.0, 3.5]);
    Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(-4.0, 0.5, 0.0),
    )
}

/// Runs 1000 steps through stairs, a wall and a turn and hashes every pose and velocity bit.
fn run_and_hash() -> u64 {
    let mut r = course(Frame::rotated());
    let mut hasher = DefaultHasher::new();
    for i in 0..1000u32 {
        let angle = i as f32 * 0.01;
        r.step(Vec3::new(angle.cos() * 4.0, 0.0, angle.sin() * 4.0 + 1.0));
        for v in r.state_reals() {
            v.to_bits().hash(&mut hasher);
        }
    }
    hasher.finish()
}

#[test]
fn same_inputs_give_bit_identical_poses_over_1000_steps() {
    assert_eq!(run_and_hash(), run_and_hash());
}

/// Issue "speed": a step whose last pushback pass ended clear exactly at the final pose
/// reports the deepest penetration that pass measured instead of measuring again. The report
/// must equal a fresh measurement bit for bit, in every frame, over stairs, a wall pressed
/// into at an angle and a ledge walked off (the three places where the final pose comes from
/// a pushback, a clamp or a step-up); and the walk must have touched something, so the reuse
/// was exercised and not every reading was zero.
#[test]
fn reported_penetration_equals_a_fresh_measurement() {
    for frame in Frame::all() {
        let mut r = course(frame);
        let mut touching = 0;
        for i in 0..600u32 {
            let angle = i as f32 * 0.015;
            r.step(Vec3::new(angle.cos() * 4.0, 0.0, angle.sin() * 4.0 + 1.5));
            let fresh = r.penetration();
            assert_eq!(
                r.report.max_penetration.to_bits(),
                fresh.to_bits(),
                "{}: step {i}: reported {} m, measured {fresh} m",
                frame.name,
                r.report.max_penetration
            );
            touching += usize::from(fresh > 0.0);
        }
        assert!(touching > 100, "{}: {touching} steps touching", frame.name);
    }
}

/// Issue "speed": a crowd steps through one `StepScratch` per thread instead of the scratch
/// inside each report. Two different characters (a 3-sphere capsule and a squat 2-sphere
/// stack) take turns with one shared scratch over the stairs course, and each must get the
/// same poses, velocities and reports bit for bit as when stepped alone with its own: nothing
/// in the scratch (gathered primitives, contacts, the last pushback's rest depth) may carry
/// from one character to the next.
#[test]
fn a_shared_scratch_gives_the_same_steps_as_each_characters_own() {
    use spherewalk_core::{Motor, MoveIntent, SphereStack, StepInput, motor::StepScratch};
    let squat = || {
        let stack = SphereStack::capsule(1.0, 0.4, 2).expect("valid stack");
        Motor::new(stack, MotorSettings::default()).expect("valid settings")
    };
    let pair = || {
        let a = course(Frame::rotated());
        let mut b = course(Frame::rotated());
        b.motor = squat();
        [a, b]
    };
    let (mut alone, mut shared) = (pair(), pair());
    let mut scratch = StepScratch::new();
    for i in 0..600u32 {
        let angle = i as f32 * 0.015;
        let v = Vec3::new(angle.cos() * 4.0, 0.0, angle.sin() * 4.0 + 1.5);
        for (solo, turn) in alone.iter_mut().zip(shared.iter_mut()) {
            solo.step(v);
            let intent = MoveIntent::walk(turn.scene.frame.vec_to_world(&v));
            let gravity = turn.scene.frame.gravity_at(&turn.pose.position);
            let input = StepInput::new(intent, gravity, turn.dt);
            turn.report.swap_scratch(&mut scratch);
            let (pose, state) = (&mut turn.pose, &mut turn.state);
            turn.motor
                .step(&turn.scene.world, pose, state, &input, &mut turn.report);
            turn.report.swap_scratch(&mut scratch);
            let bits = |r: &Runner| r.state_reals().map(f32::to_bits).collect::<Vec<_>>();
            assert_eq!(bits(solo), bits(turn), "step {i}");
            let report = |r: &Runner| {
                let s = &r.report;
                let reals = [s.max_penetration, s.climbed, s.clamped_down, s.up_turned];
                let reals = reals.map(f32::to_bits);
                (
                    s.ground,
                    s.ground_hit,
                    reals,
                    s.hits.clone(),
                    s.pushback_iterations,
                )
            };
            assert_eq!(report(solo), report(turn), "step {i}");
        }
    }
}
