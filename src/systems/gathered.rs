//! The characters, gathered once a step for the phases [`crate::Sim::step`] runs
//! over every character in turn: the body sync, the motor step, the separation and the
//! events. The `Sim` queries once and hands the list to all of them, since with few
//! characters a step's hecs queries cost more than the phases' own work.

use super::Threads;
use crate::body::{move_bodies, move_body};
use crate::events::Event;
use hecs::{Entity, World};
use smallvec::SmallVec;
use spherewalk_core::crowd::Pool;
use spherewalk_core::walker::Walker;
use spherewalk_core::{CollisionWorld, MoveIntent};

/// One character for a step, as the core steps it. A character whose body is missing has
/// none to move and takes no part in the separation.
pub(crate) struct Gathered<'a> {
    /// The character's entity.
    pub(crate) entity: Entity,
    /// What its input asks of this step.
    pub(crate) intent: &'a MoveIntent,
    /// Its motor, body, poses, state and report.
    pub(crate) walker: &'a mut Walker,
}

/// The characters of a step: a game with one character (the common case) gathers it without
/// an allocation.
pub(crate) type GatheredList<'a> = SmallVec<[Gathered<'a>; 1]>;

/// Every character of `ecs` (an entity with a [`Walker`] and a [`MoveIntent`]), in hecs'
/// order.
pub(crate) fn gather(ecs: &mut World) -> GatheredList<'_> {
    ecs.query_mut::<(Entity, &mut Walker, &MoveIntent)>()
        .into_iter()
        .map(|(entity, walker, intent)| Gathered {
            entity,
            intent,
            walker,
        })
        .collect()
}

/// [`crate::systems::sync_bodies`] of characters already gathered: those with a body.
pub(crate) fn sync_gathered(items: &[Gathered<'_>], collision: &mut CollisionWorld) {
    // One body moves on its own, without the batch's list to fill and sort.
    if let [lone] = items {
        if let Some(body) = lone.walker.body {
            move_body(body, &lone.walker.pose, collision);
        }
        return;
    }
    let walkers = items.iter().map(|c| &*c.walker);
    move_bodies(walkers.filter_map(|w| Some((w.body?, &w.pose))), collision);
}

/// The bodies stand where their characters start the step, for the others' steps to meet.
/// A lone character has no others: its own step never meets its own body (its filter leaves
/// it out), and nothing else reads the bodies before [`finish_gathered`] moves it to where the
/// step ends.
pub(crate) fn place_bodies(items: &[Gathered<'_>], collision: &mut CollisionWorld) {
    if items.len() > 1 {
        phase!("spherewalk: bodies");
        sync_gathered(items, collision);
    }
}

/// The step's closing phase over the characters: the bodies move to the final poses while
/// the events of step `events.0` are appended to `events.1` (side by side on `pool`). One
/// writes the collision world, the other the pending events, and both only read the
/// characters.
pub(crate) fn finish_gathered(
    items: &[Gathered<'_>],
    collision: &mut CollisionWorld,
    events: (u64, &mut Vec<Event>),
    pool: Threads,
) {
    phase!("spherewalk: bodies and events");
    let (step, out) = events;
    pool.join(
        || sync_gathered(items, collision),
        || {
            let reports = items.iter().map(|c| (c.entity, &c.walker.report));
            crate::events::collect_from(reports, step, out);
        },
    );
}
