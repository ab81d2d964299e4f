//! Save and restore for rollback: snapshot a running scene, run on, go back to the snapshot
//! (through JSON, as a game would send it), and run the same steps again: the characters end
//! bit for bit where they ended the first time.
//!
//! `cargo run --release --example save_restore`

use spherewalk::Snapshot;
use spherewalk::scene;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/walls.ron");
    let mut scene = scene::load(&path)?;
    for _ in 0..60 {
        scene.sim.step();
    }
    let saved = serde_json::to_string(&scene.sim.snapshot())?;
    println!("snapshot after 60 steps: {} bytes of JSON", saved.len());

    let positions = |sim: &spherewalk::Sim| {
        let mut rows: Vec<(u32, [u32; 3])> = sim
            .ecs
            .query::<(spherewalk::hecs::Entity, &spherewalk::components::Walker)>()
            .iter()
            .map(|(e, w)| (e.id(), w.pose.position.coords.map(f32::to_bits).into()))
            .collect();
        rows.sort_unstable();
        rows
    };
    for _ in 0..120 {
        scene.sim.step();
    }
    let first = positions(&scene.sim);

    let snapshot: Snapshot = serde_json::from_str(&saved)?;
    scene.sim.restore(&snapshot)?;
    println!("restored to step {}", scene.sim.steps());
    for _ in 0..120 {
        scene.sim.step();
    }
    let again = positions(&scene.sim);
    println!(
        "after 120 more steps, twice: {}",
        if first == again {
            "the same, bit for bit"
        } else {
            "DIFFERENT"
        }
    );
    if first != again {
        return Err("the replay differed".into());
    }
    Ok(())
}
