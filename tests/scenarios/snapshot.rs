//! Save and restore for rollback: stepping on from a restored snapshot gives the same bits as
//! the first time, through a serde round trip too.

use spherewalk::components::Platform;
use spherewalk::components::Walker;
use spherewalk::scene;
use spherewalk::{Sim, Snapshot, SnapshotError};
use std::path::Path;

fn load(name: &str) -> Sim {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"));
    scene::load(path).unwrap_or_else(|e| panic!("{e}")).sim
}

/// The bits of every character's pose and velocity and every platform's pose and clock, in
/// entity order.
fn state_bits(sim: &Sim) -> Vec<u64> {
    let mut out: Vec<(u64, Vec<u64>)> = crate::common::character_bits(sim)
        .into_iter()
        .map(|(e, bits)| (e, bits.into_iter().map(u64::from).collect()))
        .collect();
    out.extend(
        sim.ecs
            .query::<(spherewalk::hecs::Entity, &Platform)>()
            .iter()
            .map(|(e, p)| {
                let t = p
                    .pose
                    .translation
                    .vector
                    .iter()
                    .chain(p.pose.rotation.coords.iter());
                let mut bits: Vec<u64> = t.map(|r| u64::from(r.to_bits())).collect();
                bits.push(p.time.to_bits());
                (e.to_bits().get(), bits)
            }),
    );
    out.sort_by_key(|(e, _)| *e);
    let mut flat: Vec<u64> = out.into_iter().flat_map(|(_, b)| b).collect();
    flat.push(sim.steps());
    flat
}

/// `sim` refuses `snapshot` with `error` and is left as it was.
fn assert_refused(sim: &mut Sim, snapshot: &Snapshot, error: SnapshotError) {
    let before = state_bits(sim);
    assert_eq!(sim.restore(snapshot), Err(error));
    assert_eq!(state_bits(sim), before, "a refused restore changed the sim");
}

fn run(sim: &mut Sim, steps: u32) -> Vec<Vec<u64>> {
    (0..steps)
        .map(|_| {
            sim.step();
            state_bits(sim)
        })
        .collect()
}

/// The test: 1000 wanderers on the crowd planet run 300 steps, are saved, run 300
/// more, are restored and run the same 300 again: bit-identical at every step, and again from
/// the snapshot after a JSON round trip.
#[test]
fn a_restored_crowd_replays_its_300_steps_bit_for_bit() {
    let mut sim = load("crowd");
    // 1000 wanderers and the hero.
    assert_eq!(sim.ecs.query::<&Walker>().iter().count(), 1001);
    run(&mut sim, 300);
    let saved = sim.snapshot();
    let first = run(&mut sim, 300);
    sim.restore(&saved).expect("same sim");
    assert_eq!(sim.steps(), 300);
    let again = run(&mut sim, 300);
    assert!(first == again, "the replay differs from the first run");
    let text = serde_json::to_string(&saved).expect("serialize");
    let read: Snapshot = serde_json::from_str(&text).expect("deserialize");
    sim.restore(&read).expect("same sim");
    let third = run(&mut sim, 300);
    assert!(
        first == third,
        "the replay from JSON differs from the first run"
    );
}

/// Platforms, scripts (their cursors), crouching and the player's jump bookkeeping are saved
/// too: the platforms and playground scenes replay exactly.
#[test]
fn platforms_scripts_and_crouches_replay_exactly() {
    // The playground holds dynamic bodies, so it loads only with the `rapier` feature.
    let names: &[&str] = if cfg!(feature = "rapier") {
        &["platforms", "playground", "walls"]
    } else {
        &["platforms", "walls"]
    };
    for &name in names {
        let mut sim = load(name);
        run(&mut sim, 97);
        let saved = sim.snapshot();
        let first = run(&mut sim, 240);
        sim.restore(&saved).expect("same sim");
        let again = run(&mut sim, 240);
        assert!(first == again, "{name}: the replay differs");
    }
}

/// A snapshot restores only into the Sim whose characters it saved: one taken before a spawn
/// or a despawn is refused, and nothing changes.
#[test]
fn a_snapshot_of_other_characters_is_refused() {
    let mut sim = load("platforms");
    let saved = sim.snapshot();
    run(&mut sim, 10);
    let hero = sim
        .ecs
        .query::<(spherewalk::hecs::Entity, &spherewalk::components::Name)>()
        .iter()
        .map(|(e, _)| e)
        .next()
        .expect("a character");
    sim.despawn(hero).expect("present");
    assert_refused(
        &mut sim,
        &saved,
        SnapshotError::EntitiesChanged(hero.to_bits().get()),
    );
}

/// A snapshot edited to hold a stack its character's settings are out of scale with (0.2 m
/// tall, under the 0.35 m default step height) is refused before anything is written, by the
/// rule `Motor::new` applies.
#[test]
fn a_snapshot_with_an_out_of_scale_stack_is_refused() {
    let mut sim = load("platforms");
    let saved = sim.snapshot();
    let mut value = serde_json::to_value(&saved).expect("serialize");
    let tiny = spherewalk::SphereStack::capsule(0.2, 0.1, 1).expect("stack");
    let first = &mut value["characters"][0];
    let entity = first["entity"].as_u64().expect("entity bits");
    first["walker"]["stack"] = serde_json::to_value(&tiny).expect("stack");
    let edited: Snapshot = serde_json::from_value(value).expect("deserialize");
    run(&mut sim, 10);
    assert_refused(&mut sim, &edited, SnapshotError::StackOutOfScale(entity));
}

/// With dynamic bodies on, the snapshot holds the rapier world: the playground's crates,
/// stack, seesaw and ball (the ball falls onto the seesaw, the stack settles) replay bit for
/// bit after a restore, characters and bodies alike. Read back from JSON, the snapshot holds
/// the rapier world with feature `rapier-serde` (a new sim of the scene restored from it
/// replays the same bits); without it, it holds none, and a sim with dynamic bodies refuses it
/// rather than restore half of itself.
#[cfg(feature = "rapier")]
#[test]
fn the_rapier_world_restores_with_the_characters() {
    let mut sim = load("playground");
    let digest = |sim: &Sim| sim.physics().map(|p| p.save().digest());
    let body_positions = |sim: &Sim| -> Vec<spherewalk::Vec3> {
        let p = sim.physics().expect("physics on");
        let mut bodies: Vec<_> = p.bodies.iter().filter(|(_, b)| b.is_dynamic()).collect();
        bodies.sort_by_key(|(h, _)| h.into_raw_parts());
        bodies.iter().map(|(_, b)| *b.translation()).collect()
    };
    assert!(digest(&sim).is_some(), "the playground turns physics on");
    run(&mut sim, 30);
    let saved = sim.snapshot();
    assert!(saved.physics().is_some());
    let at_save = body_positions(&sim);
    let mut first = Vec::new();
    for _ in 0..240 {
        sim.step();
        first.push((state_bits(&sim), digest(&sim)));
    }
    let moved = body_positions(&sim)
        .iter()
        .zip(&at_save)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f32::max);
    // Something must move for the replay to mean anything: the ball falls about a metre.
    assert!(moved > 0.05, "the bodies barely moved ({moved} m)");
    // Each step of `sim` from here gives the bits (characters and bodies) of `first`.
    let replays = |sim: &mut Sim, after: &str| {
        for (step, expected) in first.iter().enumerate() {
            sim.step();
            assert!(
                (state_bits(sim), digest(sim)) == *expected,
                "step {step} after {after} differs"
            );
        }
    };
    sim.restore(&saved).expect("same sim");
    replays(&mut sim, "the restore");
    let text = serde_json::to_string(&saved).unwrap_or_else(|e| panic!("{e}"));
    let read: Snapshot = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    if cfg!(feature = "rapier-serde") {
        // The world went through the text too: a new sim of the same scene, restored from
        // what was read back, replays the same bits as the sim that saved it.
        assert!(read.physics().is_some());
        let mut fresh = load("playground");
        run(&mut fresh, 7);
        fresh.restore(&read).expect("a sim built the same way");
        replays(&mut fresh, "restoring the read-back snapshot");
    } else {
        assert!(read.physics().is_none());
        assert_refused(&mut sim, &read, SnapshotError::NoPhysics);
    }
}

/// A snapshot taken before dynamic bodies were turned on holds no rapier world, and the sim
/// with bodies refuses it (with or without `rapier-serde`) and stays as it was.
#[cfg(feature = "rapier")]
#[test]
fn a_snapshot_from_before_physics_is_refused() {
    let mut sim = load("walls");
    run(&mut sim, 10);
    let early = sim.snapshot();
    assert!(early.physics().is_none());
    sim.enable_physics();
    run(&mut sim, 20);
    assert_refused(&mut sim, &early, SnapshotError::NoPhysics);
}

/// Modes are saved: `traverse.ron`'s climber saved half-way up its ladder (climbing), then
/// run 150 steps through the mantle onto the tower, replays those steps bit for bit from the
/// snapshot, and from the snapshot after a JSON round trip.
#[test]
fn a_climb_saved_mid_ladder_replays_exactly() {
    let mut sim = load("traverse");
    run(&mut sim, 200);
    let climbing = sim
        .ecs
        .query::<(&spherewalk::components::Name, &Walker)>()
        .iter()
        .find(|(n, _)| n.0 == "climber")
        .map(|(_, w)| w.state.mode);
    assert!(
        matches!(climbing, Some(spherewalk_core::motor::Mode::Climb { .. })),
        "{climbing:?}"
    );
    let saved = sim.snapshot();
    let first = run(&mut sim, 150);
    sim.restore(&saved).expect("same sim");
    assert!(first == run(&mut sim, 150), "the replay differs");
    let text = serde_json::to_string(&saved).expect("serialize");
    let read: Snapshot = serde_json::from_str(&text).expect("deserialize");
    sim.restore(&read).expect("same sim");
    assert!(first == run(&mut sim, 150), "the replay from JSON differs");
}
