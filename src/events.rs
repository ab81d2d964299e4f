//! Events of a step, as data: landed, left ground, jumped, climbed a stair, crushed, hit.

use hecs::{Entity, World};
use spherewalk_core::motor::StepEvent;

use crate::components::LastStep;

/// What happened to a character during a step: the core's [`StepEvent`], read from the
/// step's report.
pub type EventKind = StepEvent;

/// One event of one character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// The fixed step that produced it (0-based, [`crate::Sim::steps`] before that step).
    pub step: u64,
    /// The character.
    pub entity: Entity,
    /// What happened.
    pub kind: EventKind,
}

/// Appends the events of every character's last step, fixed step number `step`, to `out`,
/// ordered by entity id, then landed / left ground / jumped / climbed / crushed / hits in
/// contact order.
pub fn collect_events(world: &World, step: u64, out: &mut Vec<Event>) {
    collect(world, step, out, false);
}

/// [`collect_events`], reading the characters' reports on rayon's pool when `parallel` is
/// asked for (feature `parallel`); the same events in the same order either way.
pub(crate) fn collect(world: &World, step: u64, out: &mut Vec<Event>, parallel: bool) {
    let start = out.len();
    let mut query = world.query::<(Entity, &LastStep)>();
    let of = |entity: Entity, last: &LastStep, out: &mut Vec<Event>| {
        out.extend(last.0.events().map(|kind| Event { step, entity, kind }));
    };
    if parallel {
        let reports: Vec<(Entity, &LastStep)> = query.iter().collect();
        let chunks = crate::systems::map_chunks(&reports, true, |chunk| {
            let mut found = Vec::new();
            chunk.iter().for_each(|(e, last)| of(*e, last, &mut found));
            found
        });
        out.extend(chunks.into_iter().flatten());
    } else {
        query.iter().for_each(|(e, last)| of(e, last, out));
    }
    out[start..].sort_by_key(|e| e.entity.id());
}
