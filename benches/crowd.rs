//! Parallel speedup of the runtime: one fixed step of every character of `scenes/crowd.ron`
//! (wanderers of 2, 3 and 5 spheres on a rocky planet of radius 40 m), stepped serially and on
//! rayon's pool, with 1000 and with 10000 wanderers (the crowd's `count` overridden), and with
//! 1000 wanderers on a planet shrunk to the 10000's density (`1000_dense`: radius 12.65 m, 12
//! rocks), which shows that the cost per character follows the density, not the count; and
//! with the 1000 and the 10000 again as soft wanderers (`1000_soft`, `10000_soft`: crowd.ron
//! with `soft: true`, see `CharacterDesc::soft`), which walk through each other during their
//! own steps and meet only in the separation pass.
//!
//! `cargo bench --bench crowd -- --warm-up-time 1 --measurement-time 5`
//!
//! One criterion iteration is one `Sim::step` of the whole crowd (intents, motor steps,
//! character separation, events); the speedup to report is `serial / parallel` per crowd
//! size. Each crowd first walks 120 steps so the measured steps are of a crowd already spread
//! out and moving. The two runs are bit-identical (tested in `tests/scenarios/runtime.rs`), so
//! both do exactly the same work.
//!
//! **Memory.** Before measuring, one line per crowd size on stderr gives the bytes per character:
//! how much the process's resident set (`VmRSS` of `/proc/self/status`, Linux only) grew while the
//! crowd was built and walked its 120 steps, divided by the number of wanderers, then split into
//! building and walking. It counts everything the scene keeps resident: the characters' ECS
//! components, motor states and per-character step scratch buffers (which keep their high-water
//! capacity), the broad phase, the events of the 120 steps (the bench never drains them; at most
//! `spherewalk::MAX_PENDING_EVENTS` are kept), the scene's fixed part (the planet, its 120 rocks
//! and the one `hero`, spread over the crowd), the first use of rayon's pool, the allocator's own
//! overhead and any freed memory it keeps. Memory reused from earlier frees is not counted, so the
//! crowds measured are built first, one after the other, and kept alive (no crowd is freed before
//! both are measured); they are then the ones the serial runs step.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use spherewalk::scene::{Scene, SceneFile};
use std::path::Path;

mod common;

/// Crowd sizes measured (wanderers; the scene adds one `hero`).
const COUNTS: [u32; 2] = [1000, 10_000];
/// Wanderers of the dense crowd, which stands as close as the 10000 ([`built_dense`]).
const DENSE: u32 = 1000;

/// `scenes/crowd.ron` with `count` wanderers, built, not stepped yet.
fn built(count: u32) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/crowd.ron");
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    file.set_crowd_counts(count);
    let dir = path.parent().unwrap_or(Path::new("."));
    file.build(dir, &path).unwrap_or_else(|e| panic!("{e}"))
}

/// 1000 wanderers as dense as crowd.ron's 10000 (0.5 per m²): crowd.ron on a planet of radius
/// `40 / sqrt(10)` m with 12 rocks (its rocks per m²), built, not stepped yet.
fn built_dense() -> Scene {
    let radius = 40.0 * (0.1_f64).sqrt();
    let text = common::crowd_text(DENSE, radius, 12, false);
    let path = Path::new("crowd_dense.ron");
    let file = SceneFile::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
    file.build(Path::new("."), path)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// crowd.ron (radius 40 m, 120 rocks) with `count` soft wanderers, built, not stepped yet.
fn built_soft(count: u32) -> Scene {
    let text = common::crowd_text(count, 40.0, 120, true);
    let path = Path::new("crowd_soft.ron");
    let file = SceneFile::parse(&text, path).unwrap_or_else(|e| panic!("{e}"));
    file.build(Path::new("."), path)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Walks `scene` 120 steps, so the crowd is spread out and moving.
fn walked(mut scene: Scene) -> Scene {
    for _ in 0..120 {
        scene.sim.step();
    }
    scene
}

/// `scenes/crowd.ron` with `count` wanderers, built and walked 120 steps.
fn crowd(count: u32) -> Scene {
    walked(built(count))
}

/// The process's resident set size (bytes), from `VmRSS` in `/proc/self/status`; `None` where
/// that file is missing or unreadable (not Linux).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Builds and walks the crowd of `count` wanderers (see [`crowd`]) and prints how many
/// resident bytes it added per wanderer: in all, and of that while built and while walked.
fn measured_crowd(count: u32) -> Scene {
    let start = resident_bytes();
    let scene = built(count);
    let after_build = resident_bytes();
    let scene = walked(scene);
    let after_walk = resident_bytes();
    match (start, after_build, after_walk) {
        (Some(start), Some(mid), Some(end)) => {
            let per = |from: u64, to: u64| to.saturating_sub(from) / u64::from(count);
            eprintln!(
                "crowd_step/{count}: resident set grew {:.1} MiB: {} bytes per character ({} \
                 building the crowd, {} walking it 120 steps)",
                end.saturating_sub(start) as f64 / f64::from(1 << 20),
                per(start, end),
                per(start, mid),
                per(mid, end),
            );
        }
        _ => eprintln!("crowd_step/{count}: bytes per character unavailable (no /proc)"),
    }
    scene
}

/// Serial and parallel `Sim::step` of each crowd size in one group.
fn bench_crowd(c: &mut Criterion) {
    // Built one after the other and all kept alive, so each measures fresh memory.
    let mut measured: Vec<Scene> = COUNTS.into_iter().map(measured_crowd).collect();
    let mut group = c.benchmark_group("crowd_step");
    group.sample_size(10);
    for (count, serial) in COUNTS.into_iter().zip(measured.iter_mut()) {
        group.throughput(Throughput::Elements(u64::from(count)));
        serial.sim.parallel = false;
        group.bench_function(BenchmarkId::new("serial", count), |b| {
            b.iter(|| serial.sim.step());
        });
        let mut scene = crowd(count);
        scene.sim.parallel = true;
        group.bench_function(BenchmarkId::new("parallel", count), |b| {
            b.iter(|| scene.sim.step());
        });
    }
    // The cost per character follows the density: the dense 1000 against the 10000.
    group.throughput(Throughput::Elements(u64::from(DENSE)));
    for parallel in [false, true] {
        let mut scene = walked(built_dense());
        scene.sim.parallel = parallel;
        let mode = if parallel { "parallel" } else { "serial" };
        let id = BenchmarkId::new(mode, format!("{DENSE}_dense"));
        group.bench_function(id, |b| b.iter(|| scene.sim.step()));
    }
    // Soft wanderers: the same crowds, meeting only in the separation pass.
    for count in COUNTS {
        group.throughput(Throughput::Elements(u64::from(count)));
        for parallel in [false, true] {
            let mut scene = walked(built_soft(count));
            scene.sim.parallel = parallel;
            let mode = if parallel { "parallel" } else { "serial" };
            let id = BenchmarkId::new(mode, format!("{count}_soft"));
            group.bench_function(id, |b| b.iter(|| scene.sim.step()));
        }
    }
    group.finish();
}

criterion_group!(benches, bench_crowd);
criterion_main!(benches);
