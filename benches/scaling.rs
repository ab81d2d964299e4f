//! How the cost per character of one `Sim::step` grows with the crowd: 100, 1,000, 10,000 and
//! 100,000 wanderers at constant density, stepped on rayon's pool (`Sim::parallel`, the
//! default).
//!
//! `cargo bench --bench scaling`, then `python3 scripts/plot_scaling.py` draws
//! `docs/scaling.svg` from criterion's estimates (`target/criterion/scaling/<count>/new/`).
//!
//! **Scene.** `scenes/crowd.ron` scaled: its 1000 wanderers stand on a planet of radius 40 m
//! with 120 rocks, so for `n` wanderers the planet's radius is `40 * sqrt(n / 1000)` m (the
//! same 0.05 characters per m²) and it has `120 * n / 1000` rocks (the same rocks per m²);
//! the crowd is spread over the planet's surface, and everything else is crowd.ron's (see
//! `benches/common/mod.rs`, which writes the RON text); it is built with
//! `SceneFile::build_with` and a `SceneOptions` allowing `n + 1` characters (the default
//! allows 20,000).
//!
//! **Unit.** One criterion iteration is one `Sim::step` of the whole crowd (intents, motor
//! steps, character separation, events), after 120 steps of walking like the crowd bench.
//! `Throughput::Elements(n)`, so criterion's throughput line is wanderers stepped per second
//! (the hero is one more); the time per character is the time per iteration divided by `n`.
//! Flat sampling, 10 samples and a short measurement time keep the whole bench to a few
//! minutes (about 70 s on a 2-core machine shared with other work, where the 100,000 crowd
//! took 0.48 s a step; building it and walking its 120 steps took 48 s of that).

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use spherewalk::scene::{Scene, SceneFile, SceneOptions};
use std::path::Path;
use std::time::{Duration, Instant};

mod common;

/// Crowd sizes (wanderers).
const COUNTS: [u32; 4] = [100, 1000, 10_000, 100_000];
/// Planet radius (m) for 1000 wanderers, as in `scenes/crowd.ron`.
const RADIUS_PER_1000: f64 = 40.0;
/// Rocks per 1000 wanderers, as in `scenes/crowd.ron`.
const ROCKS_PER_1000: u32 = 120;
/// Steps walked before measuring.
const WALK_STEPS: u32 = 120;

/// The RON text of `scenes/crowd.ron` with `count` wanderers on a planet scaled to keep its
/// density: radius `40 * sqrt(count / 1000)` m, `120 * count / 1000` rocks.
fn scene_text(count: u32) -> String {
    let radius = RADIUS_PER_1000 * (f64::from(count) / 1000.0).sqrt();
    let rocks = u64::from(ROCKS_PER_1000) * u64::from(count) / 1000;
    common::crowd_text(count, radius, rocks, false)
}

/// The scaled crowd of `count` wanderers, built and walked [`WALK_STEPS`] steps, stepping in
/// parallel; prints how long each took.
fn crowd(count: u32) -> Scene {
    let name = format!("scaling_{count}.ron");
    let path = Path::new(&name);
    let file = SceneFile::parse(&scene_text(count), path).unwrap_or_else(|e| panic!("{e}"));
    let options = {
        let mut v = SceneOptions::default();
        v.max_characters = u64::from(count) + 1;
        v
    };
    let start = Instant::now();
    let mut scene = file
        .build_with(Path::new("."), path, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let built = start.elapsed();
    scene.sim.parallel = true;
    for _ in 0..WALK_STEPS {
        scene.sim.step();
    }
    eprintln!(
        "scaling/{count}: built in {:.2} s, walked {WALK_STEPS} steps in {:.2} s",
        built.as_secs_f64(),
        (start.elapsed() - built).as_secs_f64(),
    );
    scene
}

/// One `Sim::step` per iteration for each crowd size, in the group `scaling`.
fn bench_scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for count in COUNTS {
        let mut scene = crowd(count);
        group.throughput(Throughput::Elements(u64::from(count)));
        group.bench_function(BenchmarkId::from_parameter(count), |b| {
            b.iter(|| scene.sim.step());
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scaling);
criterion_main!(benches);
