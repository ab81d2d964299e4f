//! What rollback costs against one forward step: `Sim::snapshot`, `Sim::restore`, and an
//! 8-frame re-simulation (a restore, then 8 steps: GGRS's default prediction window at
//! 60 Hz), on `scenes/playground.ron` (with its dynamic bodies when built with the `rapier`
//! feature, whose world the snapshot then copies) and on `scenes/crowd.ron` cut to 100
//! wanderers. Report each as a ratio to `step` of the same scene, from one run.
//!
//! `cargo bench -p spherewalk-ggrs --all-features --bench rollback -- --warm-up-time 1 --measurement-time 3`
//!
//! Also prints each scene's snapshot size (bincode 1; the rapier world is not encoded).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use spherewalk::Sim;
use spherewalk::scene::SceneFile;
use spherewalk_ggrs::snapshot_bytes;

fn scene(name: &str, crowd: Option<u32>) -> Sim {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../scenes/{name}.ron"));
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(n) = crowd {
        file.set_crowd_counts(n);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut sim = file.build(dir, &path).unwrap_or_else(|e| panic!("{e}")).sim;
    // Past the first steps' settling.
    for _ in 0..60 {
        sim.step();
    }
    sim
}

fn rollback(c: &mut Criterion) {
    for (label, name, crowd) in [
        ("playground", "playground", None),
        ("crowd_100", "crowd", Some(100)),
    ] {
        let mut sim = scene(name, crowd);
        let saved = sim.snapshot();
        println!(
            "{label}: snapshot {} bytes, {} characters, physics {}",
            snapshot_bytes(&saved),
            sim.ecs
                .query::<&spherewalk::components::Walker>()
                .iter()
                .count(),
            if cfg!(feature = "rapier") && name == "playground" {
                "on"
            } else {
                "off"
            }
        );
        let mut group = c.benchmark_group(label);
        // Forward steps on a second copy of the scene, running on.
        let mut forward = scene(name, crowd);
        group.bench_function("step", |b| b.iter(|| forward.step()));
        // A restore from one step past the snapshot (the step untimed), so bodies really move
        // back, as in a rollback; restoring the state the sim already holds would be cheaper.
        group.bench_function("restore_only", |b| {
            b.iter_custom(|iters| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iters {
                    sim.step();
                    let start = std::time::Instant::now();
                    sim.restore(black_box(&saved))
                        .unwrap_or_else(|e| panic!("{e}"));
                    spent += start.elapsed();
                }
                spent
            });
        });
        group.bench_function("snapshot", |b| b.iter(|| black_box(sim.snapshot())));
        group.bench_function("resimulate_8", |b| {
            b.iter(|| {
                sim.restore(&saved).unwrap_or_else(|e| panic!("{e}"));
                for _ in 0..8 {
                    sim.step();
                }
            });
        });
        group.finish();
    }
}

criterion_group!(benches, rollback);
criterion_main!(benches);
