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

/// `walker::Walker::step`, the step both hosts run, is `Motor::step` under the gravity at the
/// feet with the previous pose remembered: on a 30 m planet (gravity toward its centre, read
/// at each step's gravity point) 300 steps through a `Walker` with a thread's scratch, one
/// without, and plain `Motor::step` calls end on the same bits, and `previous` holds where the
/// last step started.
#[test]
fn a_walker_steps_bit_for_bit_as_the_motor_under_the_gravity_at_its_feet() {
    use spherewalk_core::motor::StepScratch;
    use spherewalk_core::parry3d::shape::SharedShape;
    use spherewalk_core::walker::{Tick, Walker};
    use spherewalk_core::{
        ColliderDesc, CollisionWorld, GravityField, GravityFields, MotorState, MoveIntent, Pose,
        StepInput, StepReport,
    };
    let mut world = CollisionWorld::new();
    world
        .insert(ColliderDesc::new(SharedShape::ball(30.0)))
        .expect("a ball");
    let mut fields = GravityFields::new();
    fields
        .add(GravityField::planet(Point3::origin(), 9.81, 100.0))
        .expect("a planet field");
    let motor = capsule_motor(MotorSettings::default());
    let start = Pose::new(Point3::new(0.0, 30.0, 0.0));
    let intent = MoveIntent::walk(Vec3::new(3.0, 0.0, 1.0));
    let tick = Tick::new(&world, &fields, 1.0 / 60.0);
    let mut runs = Vec::new();
    for scratch in [Some(StepScratch::default()), None] {
        let mut walker = Walker {
            motor: motor.clone(),
            body: None,
            pose: start,
            previous: start,
            state: MotorState::default(),
            report: StepReport::new(),
        };
        let mut scratch = scratch;
        for _ in 0..300 {
            walker.step(&tick, intent, scratch.as_mut());
        }
        runs.push((walker.pose, walker.previous, walker.state.velocity));
    }
    let (mut pose, mut before) = (start, start);
    let (mut state, mut report) = (MotorState::default(), StepReport::new());
    for _ in 0..300 {
        before = pose;
        let gravity = fields.at(&motor.gravity_point(&pose));
        let input = StepInput::new(intent, gravity, 1.0 / 60.0);
        motor.step(&world, &mut pose, &mut state, &input, &mut report);
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], (pose, before, state.velocity));
    // It walked: 300 steps at 3.16 m/s round the planet, 15.8 m of arc, standing on it
    // (feet within the skin of the surface: 1 mm, f32 rounding at 30 m).
    assert!((pose.position - start.position).norm() > 14.0, "{pose:?}");
    assert!(
        (pose.position.coords.norm() - 30.0).abs() < 1e-2,
        "{pose:?}"
    );
}
