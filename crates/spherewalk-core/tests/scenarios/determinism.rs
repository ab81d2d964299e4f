//! Determinism: the same inputs give bit-identical poses.

use crate::common::*;
use spherewalk_core::{MotorSettings, Point3, Vec3};
use std::hash::{DefaultHasher, Hash, Hasher};

/// Runs 1000 steps through stairs, a wall and a turn and hashes every pose and velocity bit.
fn run_and_hash() -> u64 {
    let mut scene = Scene::new(Frame::rotated());
    scene.add_floor(30.0);
    for k in 0..4 {
        let x0 = 2.0 + 0.4 * k as f32;
        scene.add_box([x0, -0.5, -3.0], [9.0, 0.25 * (k + 1) as f32, 3.0]);
    }
    scene.add_box([-6.0, 0.0, 3.0], [9.0, 3.0, 3.5]);
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(-4.0, 0.5, 0.0),
    );
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
