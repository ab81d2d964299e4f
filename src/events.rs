//! Events of a step, as data: landed, left ground, jumped, stepped up, crushed, hit.

use hecs::{Entity, World};
use spherewalk_core::{ColliderId, Point3, Real, UnitVec3};

use crate::components::LastStep;

/// What happened to a character during a step.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum EventKind {
    /// Became stably grounded after not being so.
    Landed,
    /// Stopped being stably grounded (walked off, jumped, slid onto steep ground).
    LeftGround,
    /// Jumped this step.
    Jumped,
    /// Climbed a step by `height` (m, along up).
    ClimbedStair {
        /// Height climbed (m).
        height: Real,
    },
    /// Geometry closed on the character and left it no way out this step (see
    /// [`spherewalk_core::StepReport::crushed`]): it stayed between the pieces, on its side of
    /// each, `depth` metres into the deepest. Sent every step it lasts; what it means (a
    /// death, damage, a nudge) is the game's call.
    Crushed {
        /// Deepest penetration of any sphere after the step (m).
        depth: Real,
    },
    /// Touched a collider other than the ground it stands on (first contact of the step with
    /// that collider).
    Hit {
        /// The collider touched.
        collider: ColliderId,
        /// Contact point on the collider (world, m).
        point: Point3,
        /// Contact normal, from the collider toward the character (world).
        normal: UnitVec3,
    },
}

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
/// ordered by entity id, then landed / left ground / jumped / stepped up / crushed / hits in
/// contact order.
pub fn collect_events(world: &World, step: u64, out: &mut Vec<Event>) {
    let start = out.len();
    for (entity, last) in world.query::<(Entity, &LastStep)>().iter() {
        let r = &last.0;
        let mut push = |kind| out.push(Event { step, entity, kind });
        if r.landed {
            push(EventKind::Landed);
        }
        if r.left_ground {
            push(EventKind::LeftGround);
        }
        if r.jumped {
            push(EventKind::Jumped);
        }
        if r.climbed > 0.0 {
            push(EventKind::ClimbedStair { height: r.climbed });
        }
        if r.crushed {
            push(EventKind::Crushed {
                depth: r.max_penetration,
            });
        }
        let ground = r.ground_hit.map(|g| g.collider);
        for (k, hit) in r.hits.iter().enumerate() {
            let seen = r.hits[..k].iter().any(|h| h.collider == hit.collider);
            if Some(hit.collider) != ground && !seen {
                push(EventKind::Hit {
                    collider: hit.collider,
                    point: hit.point,
                    normal: hit.contact_normal,
                });
            }
        }
    }
    out[start..].sort_by_key(|e| e.entity.id());
}
