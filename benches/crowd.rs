//! Parallel speedup of the runtime: one fixed step of every character of `scenes/crowd.ron`
//! (wanderers of 2, 3 and 5 spheres on a rocky planet of radius 40 m), stepped serially and on
//! rayon's pool, with 1000 and with 10000 wanderers (the crowd's `count` overridden).
//!
//! `cargo bench --bench crowd -- --warm-up-time 1 --measurement-time 5`
//!
//! One criterion iteration is one `Sim::step` of the whole crowd (intents, motor steps,
//! character separation, events); the speedup to report is `serial / parallel` per crowd
//! size. Each crowd first walks 120 steps so the measured steps are of a crowd already spread
//! out and moving. The two runs are bit-identical (tested in `tests/scenarios/runtime.rs`), so
//! both do exactly the same work.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use spherewalk::scene::{Scene, SceneFile};
use std::path::Path;

fn crowd(count: u32) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/crowd.ron");
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    file.set_crowd_counts(count);
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut scene = file.build(dir, &path).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..120 {
        scene.sim.step();
    }
    scene
}

fn bench_crowd(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_step");
    group.sample_size(10);
    for count in [1000u32, 10_000] {
        group.throughput(Throughput::Elements(u64::from(count)));
        for (label, parallel) in [("serial", false), ("parallel", true)] {
            let mut scene = crowd(count);
            scene.sim.parallel = parallel;
            group.bench_function(BenchmarkId::new(label, count), |b| {
                b.iter(|| scene.sim.step());
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_crowd);
criterion_main!(benches);
