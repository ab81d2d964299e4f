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
