//! Events of a step, as data: landed, left ground, jumped, climbed a stair, crushed, hit.

use hecs::Entity;
use spherewalk_core::motor::StepEvent;

use spherewalk_core::StepReport;

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

/// Appends the events of the characters' last steps (their entities and reports `reports`,
/// in any order), fixed step number `step`, to `out`, ordered by entity id, then landed /
/// left ground / jumped / climbed / crushed / hits in contact order.
pub(crate) fn collect_from<'a>(
    reports: impl IntoIterator<Item = (Entity, &'a StepReport)>,
    step: u64,
    out: &mut Vec<Event>,
) {
    let start = out.len();
    // Most steps have no event: those are passed over without building their list.
    for (entity, report) in reports.into_iter().filter(|(_, r)| r.has_events()) {
        out.extend(report.events().map(|kind| Event { step, entity, kind }));
    }
    out[start..].sort_by_key(|e| e.entity.id());
}
