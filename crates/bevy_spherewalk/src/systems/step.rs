//! The step phase, one system: every admitted character's motor step on Bevy's compute task
//! pool, the crowd pushed apart, the bodies moved, the jump pads' throws.

use crate::components::{CharacterIntent, JumpPad, Walking};
use crate::resources::CharacterWorld;
use bevy::log::warn;
use bevy::prelude::{Query, Res, ResMut, Time};
use bevy::tasks::{ComputeTaskPool, TaskPool};
use spherewalk_core::crowd::{Chunked, Job, Pool, Spawner, move_bodies, separate};
use spherewalk_core::interop::glam::vec3_from_glam;
use spherewalk_core::walker::{Tick, Walker};
use spherewalk_core::{MoveIntent, UnitVec3};

/// The motor's intent for a [`CharacterIntent`] (glam to nalgebra).
fn move_intent(intent: &CharacterIntent) -> MoveIntent {
    MoveIntent {
        velocity: vec3_from_glam(intent.walk),
        jump_speed: intent.jump_speed,
        yaw_rate: intent.yaw_rate,
        facing: intent
            .facing
            .and_then(|f| UnitVec3::try_new(vec3_from_glam(f), 1e-6)),
        turn_rate: intent.turn_rate,
        dash: intent.dash,
    }
}

/// Bevy's compute task pool as the core's [`Spawner`] (the calling thread when the pool was
/// never started or has one thread): the core's [`Chunked`] makes a [`Pool`] of it.
#[derive(Clone, Copy, Debug, Default)]
struct ComputeTasks;

impl ComputeTasks {
    /// The task pool, when it has more than one thread.
    fn pool() -> Option<&'static TaskPool> {
        ComputeTaskPool::try_get()
            .map(|pool| &**pool)
            .filter(|pool| pool.thread_num() > 1)
    }
}

impl Spawner for ComputeTasks {
    fn threads(&self) -> usize {
        Self::pool().map_or(1, TaskPool::thread_num)
    }

    fn run_all<'a>(&self, jobs: Vec<Job<'a>>) {
        let Some(pool) = Self::pool() else {
            return jobs.into_iter().for_each(|job| job());
        };
        pool.scope(|scope| {
            for job in jobs {
                scope.spawn(async move { job() });
            }
        });
    }
}

/// One admitted character as the step system gathers it: the core's view of it and, unless
/// the game took its [`CharacterIntent`] away (then it does not step), its intent.
type Gathered<'a> = (&'a mut Walker, Option<MoveIntent>);

/// The fixed step of every admitted character, gathered once, as the runtime's `Sim` runs it:
/// each one's motor step under the gravity at its feet, on the compute task pool as
/// [`ComputeTasks`] spreads work (through Bevy's parallel query iterator in a system of their
/// own, a fixed step of 100 characters took 177 µs on two threads against 136 now); then the
/// solid ones that overlap are pushed apart (the core's [`separate`]), the bodies move to
/// the final poses, and those that ended stably grounded on a [`JumpPad`]'s collider are
/// thrown.
pub(crate) fn step_characters(
    mut cw: ResMut<CharacterWorld>,
    time: Res<Time>,
    mut characters: Query<(&mut Walking, Option<&CharacterIntent>)>,
    pads: Query<&JumpPad>,
) {
    let cw = &mut *cw;
    let mut walkers: Vec<Gathered<'_>> = characters
        .iter_mut()
        .filter(|(walking, _)| walking.walker.is_some())
        .filter_map(|(walking, intent)| {
            Some((
                walking.into_inner().walker.as_mut()?,
                intent.map(move_intent),
            ))
        })
        .collect();
    let pool = Chunked(ComputeTasks);
    let tick = Tick::new(&cw.world, cw.gravity.fields(), time.delta_secs());
    pool.for_each(&mut walkers, |scratch, (walker, intent)| {
        if let Some(intent) = intent {
            walker.step(&tick, *intent, Some(scratch));
        }
    });
    separate(&pool, &cw.world, walkers.iter_mut().map(|(w, _)| &mut **w));
    let bodies = walkers.iter().filter_map(|(w, _)| Some((w.body?, &w.pose)));
    if let Err(e) = move_bodies(&mut cw.world, bodies, &mut cw.moves) {
        warn!("spherewalk: a body not moved: {e}");
    }
    if !pads.is_empty() {
        let pad = |collider| cw.entity_of(collider).and_then(|e| pads.get(e).ok());
        for (walker, _) in &mut walkers {
            let launch_of = |collider| pad(collider).map(|p| vec3_from_glam(p.launch));
            walker.state.launch_from_pad(launch_of);
        }
    }
}
