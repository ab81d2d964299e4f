//! Save and restore for rollback netcode: every piece of dynamic state of a [`Sim`], as data
//! that serializes with serde.

use super::Sim;
use crate::body::sync_bodies;
use crate::components::{Platform, Stance, Walker};
use crate::input::{PlayerInput, Script, Wander};
use hecs::Entity;
use serde::{Deserialize, Serialize};
use spherewalk_core::walker::Saved;
use spherewalk_core::{MoveIntent, Vec3};
use thiserror::Error;

/// The dynamic state of a [`Sim`] at one step ([`Sim::snapshot`]): every character's pose,
/// previous pose, motor state, intent, last step, stack, crouch and input (with its random
/// sequence or script cursor); every platform's motion state and collider velocities; the
/// step count and the clock's carried-over time. Static data (the colliders' shapes, gravity
/// fields, names, settings) is not in it: it restores into the Sim it came from, or one built
/// the same way (the same scene).
///
/// With dynamic bodies on (feature `rapier`), it also holds a copy of the rapier world
/// ([`Snapshot::physics`]), so a scene with crates restores and replays bit for bit on one
/// machine. Serializing a snapshot writes that copy only with feature `rapier-serde` (every
/// collider's shape, the scenery's meshes included); without it, it stays in memory, and a
/// deserialized snapshot does not restore into a sim with dynamic bodies
/// ([`SnapshotError::NoPhysics`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    steps: u64,
    accumulator: f64,
    characters: Vec<CharacterState>,
    platforms: Vec<PlatformState>,
    #[cfg(feature = "rapier")]
    #[cfg_attr(not(feature = "rapier-serde"), serde(skip))]
    physics: Option<Box<spherewalk_rapier::PhysicsState>>,
}

impl Snapshot {
    /// The rapier world saved with the sim, when dynamic bodies were on (feature `rapier`).
    #[cfg(feature = "rapier")]
    pub fn physics(&self) -> Option<&spherewalk_rapier::PhysicsState> {
        self.physics.as_deref()
    }

    /// Everything but the rapier world, to serialize: the characters, platforms, step count
    /// and clock. Its encoding is the snapshot's own when no rapier world is serialized, and
    /// stays a few kilobytes when one is (feature `rapier-serde`): what a checksum of the sim's
    /// state should hash, with [`PhysicsState::digest`](spherewalk_rapier::PhysicsState::digest)
    /// for the bodies.
    pub fn without_physics(&self) -> impl Serialize + '_ {
        SimPart {
            steps: self.steps,
            accumulator: self.accumulator,
            characters: &self.characters,
            platforms: &self.platforms,
        }
    }
}

/// A [`Snapshot`] but for its rapier world, borrowed ([`Snapshot::without_physics`]); fields
/// in the snapshot's order, so both encode alike.
#[derive(Serialize)]
struct SimPart<'a> {
    steps: u64,
    accumulator: f64,
    characters: &'a [CharacterState],
    platforms: &'a [PlatformState],
}

/// One character's dynamic state.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CharacterState {
    entity: u64,
    walker: Saved,
    intent: MoveIntent,
    stance: Option<Stance>,
    player: Option<PlayerInput>,
    wander: Option<Wander>,
    script: Option<Script>,
}

/// One platform's dynamic state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct PlatformState {
    entity: u64,
    platform: Platform,
    linear: Vec3,
    angular: Vec3,
}

/// Why a [`Snapshot`] could not be restored. Nothing is changed then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The snapshot names an entity that is not a character or platform of this Sim, or the
    /// Sim holds one the snapshot does not (spawned or despawned since).
    #[error("the snapshot's characters and platforms are not this sim's (entity {0:#x})")]
    EntitiesChanged(u64),
    /// A saved sphere stack is out of scale with its character's settings (see
    /// [`spherewalk_core::Motor::new`]): the snapshot was edited or comes from other settings.
    #[error("the snapshot's stack for entity {0:#x} does not fit that character's settings")]
    StackOutOfScale(u64),
    /// The sim has dynamic bodies and the snapshot holds no rapier world (it was serialized
    /// and read back without feature `rapier-serde`, which leaves the world out, or taken
    /// before physics was on).
    #[error("the sim has dynamic bodies and the snapshot holds no rapier world")]
    NoPhysics,
}

type CharacterItem<'a> = (
    Entity,
    &'a Walker,
    &'a MoveIntent,
    Option<&'a Stance>,
    Option<&'a PlayerInput>,
    Option<&'a Wander>,
    Option<&'a Script>,
);

impl Sim {
    /// Everything that changes as the Sim steps, for [`Sim::restore`]. Pending events are not
    /// part of it: a restore drops them, and the steps run again make them anew.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            steps: self.steps,
            accumulator: self.clock.accumulator(),
            characters: self.character_states(),
            platforms: self.platform_states(),
            #[cfg(feature = "rapier")]
            physics: self.physics.as_ref().map(|p| Box::new(p.physics.save())),
        }
    }

    /// Every character's saved state, in entity order.
    fn character_states(&self) -> Vec<CharacterState> {
        let mut query = self.ecs.query::<CharacterItem<'_>>();
        let mut characters: Vec<CharacterState> = query
            .iter()
            .map(
                |(e, walker, intent, stance, player, wander, script)| CharacterState {
                    entity: e.to_bits().get(),
                    walker: walker.save(),
                    intent: *intent,
                    stance: stance.cloned(),
                    player: player.copied(),
                    wander: wander.copied(),
                    script: script.cloned(),
                },
            )
            .collect();
        characters.sort_by_key(|c| c.entity);
        characters
    }

    /// Every platform's saved state with its collider's velocities, in entity order.
    fn platform_states(&self) -> Vec<PlatformState> {
        let mut query = self.ecs.query::<(Entity, &Platform)>();
        let mut platforms: Vec<PlatformState> = query
            .iter()
            .map(|(e, p)| {
                let c = self.collision.get(p.collider);
                PlatformState {
                    entity: e.to_bits().get(),
                    platform: *p,
                    linear: c.map_or_else(Vec3::zeros, |c| c.linear_velocity),
                    angular: c.map_or_else(Vec3::zeros, |c| c.angular_velocity),
                }
            })
            .collect();
        platforms.sort_by_key(|p| p.entity);
        platforms
    }

    /// Puts the Sim back in the state `snapshot` saw: stepping on from here gives the same
    /// bits as stepping on from there. Pending events are dropped.
    ///
    /// # Errors
    /// [`SnapshotError::EntitiesChanged`] when characters or platforms were spawned or
    /// despawned since the snapshot (or it comes from another Sim),
    /// [`SnapshotError::StackOutOfScale`] when a saved stack does not fit its character's
    /// settings; nothing changes then.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        self.check_entities(snapshot)?;
        self.check_stacks(snapshot)?;
        #[cfg(feature = "rapier")]
        if let Some(p) = self.physics.as_mut() {
            let saved = snapshot.physics.as_ref().ok_or(SnapshotError::NoPhysics)?;
            p.physics.restore(saved);
        }
        for saved in &snapshot.characters {
            self.restore_character(saved);
        }
        // Bodies whose shape is unchanged only move, all at once (one update of the world's
        // tree); a reshaped one is already in place and costs one comparison.
        sync_bodies(&self.ecs, &mut self.collision);
        for saved in &snapshot.platforms {
            let Some(entity) = Entity::from_bits(saved.entity) else {
                continue;
            };
            if let Ok(mut p) = self.ecs.get::<&mut Platform>(entity) {
                *p = saved.platform;
            }
            // NOTE: platform colliders were checked finite when set; a removed one is skipped.
            let id = saved.platform.collider;
            let done = self
                .collision
                .set_pose(id, saved.platform.pose)
                .and_then(|()| self.collision.set_velocity(id, saved.linear, saved.angular));
            if let Err(e) = done {
                log::warn!("restore: platform collider {id:?} not set: {e}");
            }
        }
        self.steps = snapshot.steps;
        self.clock.set_accumulator(snapshot.accumulator);
        self.events.clear();
        self.events_start = 0;
        Ok(())
    }

    /// Checks that every saved stack is in scale with its character's settings.
    fn check_stacks(&self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        for saved in &snapshot.characters {
            let Some(entity) = Entity::from_bits(saved.entity) else {
                return Err(SnapshotError::EntitiesChanged(saved.entity));
            };
            let Ok(walker) = self.ecs.get::<&Walker>(entity) else {
                return Err(SnapshotError::EntitiesChanged(saved.entity));
            };
            if walker.fits(&saved.walker).is_err() {
                return Err(SnapshotError::StackOutOfScale(saved.entity));
            }
        }
        Ok(())
    }

    /// Checks that the characters and platforms are exactly the snapshot's.
    fn check_entities(&self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        let characters = snapshot.characters.iter().map(|c| c.entity);
        let platforms = snapshot.platforms.iter().map(|p| p.entity);
        let bad = first_difference(&entities_with::<Walker>(&self.ecs), characters)
            .or_else(|| first_difference(&entities_with::<Platform>(&self.ecs), platforms));
        match bad {
            Some(bits) => Err(SnapshotError::EntitiesChanged(bits)),
            None => Ok(()),
        }
    }

    /// Writes one character's saved state back ([`spherewalk_core::walker::Walker::restore`]):
    /// a body whose stack changed is reshaped and placed there, the others are left for
    /// [`sync_bodies`] to move.
    fn restore_character(&mut self, saved: &CharacterState) {
        let Some(entity) = Entity::from_bits(saved.entity) else {
            return;
        };
        {
            let mut q = self.ecs.query_one::<(&mut Walker, &mut MoveIntent)>(entity);
            let Ok((walker, intent)) = q.get() else {
                return;
            };
            *intent = saved.intent;
            // NOTE: checked by `check_stacks` before anything was written.
            if let Err(e) = walker.restore(&mut self.collision, &saved.walker) {
                log::warn!("restore: character {entity:?} kept: {e}");
            }
        }
        put(&mut self.ecs, entity, saved.stance.as_ref());
        put(&mut self.ecs, entity, saved.player.as_ref());
        put(&mut self.ecs, entity, saved.wander.as_ref());
        put(&mut self.ecs, entity, saved.script.as_ref());
    }
}

/// Sets or removes component `T` of `entity`, as `value` says: in place when the entity
/// already has one (no archetype change), else by inserting it.
fn put<T: hecs::Component + Clone>(ecs: &mut hecs::World, entity: Entity, value: Option<&T>) {
    match value {
        Some(v) => {
            if let Ok(mut held) = ecs.get::<&mut T>(entity) {
                held.clone_from(v);
                return;
            }
            let _ = ecs.insert_one(entity, v.clone());
        }
        None => {
            if ecs.satisfies::<&T>(entity) {
                let _ = ecs.remove_one::<T>(entity);
            }
        }
    }
}

/// The bits of every entity with component `T`, sorted.
fn entities_with<T: hecs::Component>(ecs: &hecs::World) -> Vec<u64> {
    let mut bits: Vec<u64> = ecs
        .query::<(Entity, &T)>()
        .iter()
        .map(|(e, _)| e.to_bits().get())
        .collect();
    bits.sort_unstable();
    bits
}

/// The first entity (bits) that `now` (sorted) and `saved` do not share, if any.
fn first_difference(now: &[u64], saved: impl Iterator<Item = u64>) -> Option<u64> {
    let mut count = 0;
    for (k, bits) in saved.enumerate() {
        count = k + 1;
        if now.get(k) != Some(&bits) {
            return Some(bits);
        }
    }
    now.get(count).copied()
}
