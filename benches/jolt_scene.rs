//! Scene A, Jolt's `CharacterVirtual` performance scene (`benches/common/scene_a.rs`): what a
//! character step costs in a crowd of 100 against one character alone on the same terrain, and
//! what the runtime adds to the core motor.
//!
//! `cargo bench --bench jolt_scene -- --warm-up-time 1 --measurement-time 5`
//!
//! Groups (one criterion element is one character step, so every time reported is per
//! character step; `Throughput::Elements`):
//! - `crowd_100`: one `Sim::step` of all 100 characters, serially and on rayon's pool, with
//!   their walks written first.
//! - `one`: character 0 alone on the same scene and walk, through the hecs `Sim` (`sim`) and
//!   through the core `Motor::step` with no runtime (`motor`); and each of the crowd's 100
//!   characters alone on its own walk through the core `Motor::step` (`members`): each walks
//!   alone for 120 steps (2 s, one target) in turn, so its data are its own while it walks.
//!
//! The ratios to report: `crowd_100/serial / one/motor` (what a crowd costs over its
//! members, issue 33's measure) and `one/sim / one/motor` (the runtime's own overhead).
//! `crowd_100/serial / one/members` compares the crowd with its own members' walks rather
//! than character 0's. Every run carries its state
//! on across iterations; the targets change every 2 s, so the walks go on over the whole
//! terrain, the stairs and the wall.

#[path = "common/scene_a.rs"]
mod scene_a;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scene_a::DT;
use spherewalk::{Motor, MotorSettings, MotorState, Pose, StepInput, StepReport, Vec3};

fn crowd(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_100");
    group.throughput(Throughput::Elements(100));
    for (name, parallel) in [("serial", false), ("parallel", true)] {
        let (mut sim, entities) = scene_a::sim(100);
        sim.parallel = parallel;
        group.bench_function(name, |b| {
            b.iter(|| {
                scene_a::set_intents(&mut sim, &entities);
                sim.step();
            });
        });
    }
    group.finish();
}

fn one(c: &mut Criterion) {
    let mut group = c.benchmark_group("one");
    group.throughput(Throughput::Elements(1));
    let (mut sim, entities) = scene_a::sim(1);
    sim.parallel = false;
    group.bench_function("sim", |b| {
        b.iter(|| {
            scene_a::set_intents(&mut sim, &entities);
            sim.step();
        });
    });
    let world = scene_a::world();
    let motor =
        Motor::new(scene_a::stack(), MotorSettings::default()).unwrap_or_else(|e| panic!("{e}"));
    let gravity = Vec3::new(0.0, -9.81, 0.0);
    let mut pose: Pose = scene_a::start(0);
    let mut state = MotorState::default();
    let mut report = StepReport::default();
    let mut step = 0;
    group.bench_function("motor", |b| {
        b.iter(|| {
            step += 1;
            let walk = scene_a::intent(step, 0, 1, &pose.position);
            let input = StepInput::new(walk, gravity, DT);
            motor.step(&world, &mut pose, &mut state, &input, &mut report);
        });
    });
    // The crowd's members, each alone on its own walk, one after another.
    let mut members: Vec<(Pose, MotorState, u64)> = (0..100)
        .map(|i| (scene_a::start(i), MotorState::default(), 0))
        .collect();
    let mut turn = 0;
    group.bench_function("members", |b| {
        b.iter(|| {
            let i = turn / 120 % members.len();
            turn += 1;
            let (pose, state, step) = &mut members[i];
            *step += 1;
            let walk = scene_a::intent(*step, i, 100, &pose.position);
            let input = StepInput::new(walk, gravity, DT);
            motor.step(&world, pose, state, &input, &mut report);
        });
    });
    group.finish();
}

criterion_group!(benches, crowd, one);
criterion_main!(benches);
