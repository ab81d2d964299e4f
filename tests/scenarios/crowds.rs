//! Crowds as exact as Jolt's: in Jolt's own `CharacterVirtual` performance scene (scene A,
//! `benches/common/scene_a.rs`), 100 solid characters walking fast toward changing targets
//! never overlap each other past the skin. (Being reported crushed where only other characters
//! press is not yet gone: issue 33.)

#[path = "../../benches/common/scene_a.rs"]
mod scene_a;

use spherewalk::components::{Body, LastStep};
use spherewalk::{ColliderId, Real};

/// What a crowd run of scene A measured.
struct CrowdRun {
    /// The deepest overlap (m) between two characters' spheres after any step.
    worst: Real,
    /// The mean over steps of each step's deepest overlap (m).
    mean: Real,
    /// Character-steps reported crushed.
    crushed: usize,
    /// Of those, the ones whose hits were all other characters' bodies: crushed by the crowd
    /// alone, with no scenery pressing.
    by_crowd_alone: usize,
    /// How far the characters walked in all (m): they must really move.
    walked: Real,
}

fn run(steps: u64) -> CrowdRun {
    let (mut sim, entities) = scene_a::sim(100);
    let bodies: Vec<ColliderId> = entities
        .iter()
        .map(|&e| sim.ecs.get::<&Body>(e).expect("a solid character's body").0)
        .collect();
    let (mut worst, mut sum, mut walked) = (0.0 as Real, 0.0 as Real, 0.0);
    let (mut crushed, mut by_crowd_alone) = (0, 0);
    for _ in 0..steps {
        let before: Vec<_> = entities
            .iter()
            .map(|&e| sim.ecs.get::<&spherewalk::Pose>(e).expect("pose").position)
            .collect();
        scene_a::set_intents(&mut sim, &entities);
        sim.step();
        let deepest = scene_a::deepest_overlap(&sim, &entities);
        worst = worst.max(deepest);
        sum += deepest;
        for (&e, b) in entities.iter().zip(&before) {
            let last = sim.ecs.get::<&LastStep>(e).expect("report");
            if last.0.crushed {
                crushed += 1;
                let scenery = last.0.hits.iter().any(|h| !bodies.contains(&h.collider));
                by_crowd_alone += usize::from(!scenery);
            }
            walked += (sim.ecs.get::<&spherewalk::Pose>(e).expect("pose").position - b).norm();
        }
    }
    CrowdRun {
        worst,
        mean: sum / steps as Real,
        crushed,
        by_crowd_alone,
        walked,
    }
}

#[test]
fn in_jolts_crowd_scene_nobody_overlaps_past_the_skin() {
    let steps = 600;
    let r = run(steps);
    eprintln!(
        "scene A, 100 characters, {steps} steps: deepest overlap {:.2} mm, mean {:.3} mm, \
         {} crushed ({} by other characters alone), walked {:.0} m",
        r.worst * 1e3,
        r.mean * 1e3,
        r.crushed,
        r.by_crowd_alone,
        r.walked
    );
    // They walk at 5 to 9.5 m/s for 10 s, slowed by each other, the stairs and the wall: at
    // least 2 m/s on average each.
    assert!(r.walked > 100.0 * 2.0 * 10.0, "walked only {} m", r.walked);
    // The skin width (10 mm) plus 1 mm for the f32 rounding of pushes 20 m from the origin.
    // (With one separation pass a step: 32 mm.)
    assert!(r.worst <= 0.011, "overlapped by {} mm", r.worst * 1e3);
    // NOTE: crushes are not down to the target yet (0 by the crowd alone): 12 of these
    // 60,000 character-steps with the separation passes, 19 with one pass. This bound only
    // keeps them from growing while that work goes on.
    assert!(r.crushed <= 12, "{} crushed", r.crushed);
}

/// The separation passes give the same bits on rayon's pool as serially.
#[test]
fn scene_a_steps_alike_serially_and_in_parallel() {
    let poses = |parallel: bool| {
        let (mut sim, entities) = scene_a::sim(100);
        sim.parallel = parallel;
        for _ in 0..240 {
            scene_a::set_intents(&mut sim, &entities);
            sim.step();
        }
        crate::common::character_bits(&sim)
    };
    assert_eq!(poses(false), poses(true));
}
