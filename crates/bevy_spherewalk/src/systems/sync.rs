//! The sync phase, one system: the app's colliders and gravity fields mirrored into the
//! character world, new and changed characters let in, teleports taken.

use super::spawn_order;
use crate::components::{
    Character, CharacterRefused, Collider, GravityField, RefusalReason, Walking,
};
use crate::messages::{CharacterEvent, CharacterMessage};
use crate::resources::{CharacterWorld, DefaultGravity};
use bevy::ecs::change_detection::DetectChanges;
use bevy::ecs::system::SystemParam;
use bevy::log::{error, warn};
use bevy::prelude::{
    ChildOf, Commands, Entity, Has, MessageWriter, Mut, Query, Ref, RemovedComponents, Res, ResMut,
    Time, Transform, TransformHelper, Without,
};
use spherewalk_core::interop::glam::vec3_from_glam;
use spherewalk_core::math::Iso;
use spherewalk_core::motor::AdmitError;
use spherewalk_core::walker::{Walker, soft_filter};
use spherewalk_core::world::QueryFilter;
use spherewalk_core::{ColliderDesc, Motor, Pose};

/// The plugin's [`crate::SpherewalkSystems::Sync`], in this order: the [`Collider`] entities
/// mirrored ([`Colliders::sync`]), the gravity fields ([`Gravity::sync`]), new and changed
/// characters let in ([`Characters::admit`]), teleports taken ([`Characters::teleport`]).
/// One system, not four: each system the executor hands over costs about as much as a
/// character's step (a fixed step of 100 characters on two threads took 158 µs as four,
/// against the runtime's 106).
pub(crate) fn sync(
    mut cw: ResMut<CharacterWorld>,
    mut colliders: Colliders,
    gravity: Gravity,
    mut characters: Characters,
) {
    let cw = &mut *cw;
    colliders.sync(cw);
    gravity.sync(cw);
    characters.admit(cw);
    characters.teleport(cw);
}

/// A translation and rotation (glam) as a world pose.
fn iso_from(translation: bevy::math::Vec3, rotation: bevy::math::Quat) -> Iso {
    Pose::from_glam(translation, rotation).iso()
}

/// A collider entity as [`Colliders::sync`] reads it: its collider and transform (with their
/// change ticks) and whether it has a parent.
type ColliderItem<'a> = (Entity, Ref<'a, Collider>, Ref<'a, Transform>, Has<ChildOf>);

/// The [`Collider`] entities, as the sync reads them.
#[derive(SystemParam)]
pub(crate) struct Colliders<'w, 's> {
    time: Res<'w, Time>,
    query: Query<'w, 's, ColliderItem<'static>>,
    helper: TransformHelper<'w, 's>,
    removed: RemovedComponents<'w, 's, Collider>,
}

impl Colliders<'_, '_> {
    /// A collider entity's world pose now: its transform for a top-level entity, its
    /// transform composed with its ancestors' otherwise (computed here, not last frame's
    /// `GlobalTransform`). Scale is not applied: size the shape instead.
    fn world_pose(&self, entity: Entity, transform: &Transform, child: bool) -> Iso {
        if !child {
            return iso_from(transform.translation, transform.rotation);
        }
        match self.helper.compute_global_transform(entity) {
            Ok(global) => {
                let (_, rotation, translation) = global.to_scale_rotation_translation();
                iso_from(translation, rotation)
            }
            Err(_) => iso_from(transform.translation, transform.rotation),
        }
    }

    /// Mirrors the [`Collider`] entities into the character world: new ones are inserted,
    /// despawned ones removed, moved ones (their own transform or an ancestor's) given their
    /// new pose and the velocity of the move (so riders are carried), and ones that stopped
    /// given zero velocity (the core's [`spherewalk_core::CollisionWorld::move_kinematic`]).
    fn sync(&mut self, cw: &mut CharacterWorld) {
        for entity in self.removed.read() {
            if let Some(id) = cw.colliders.remove(&entity) {
                cw.owners.remove(&id);
                // NOTE: the id came from this world; a failure would mean it is gone already.
                let _ = cw.world.remove(id);
            }
        }
        let dt = self.time.delta_secs();
        // New and changed colliders go in in spawn order, so a world built by the same spawns
        // gives every collider the same id (the order the motor meets them in).
        let mut inserts: Vec<(Entity, &Collider, Iso)> = Vec::new();
        for (entity, collider, transform, child) in &self.query {
            let pose = self.world_pose(entity, &transform, child);
            match cw.colliders.get(&entity).copied() {
                Some(id) if collider.is_changed() => {
                    // A new shape or new flags: the collider is put in again.
                    let _ = cw.world.remove(id);
                    cw.owners.remove(&id);
                    cw.colliders.remove(&entity);
                    inserts.push((entity, collider.into_inner(), pose));
                }
                Some(id) => {
                    if let Err(e) = cw.world.move_kinematic(id, pose, dt) {
                        warn!("spherewalk: collider {entity} not moved: {e}");
                    }
                }
                // A collider refused before (a non-finite pose, say) is tried again only once
                // it or its transform changes: one log line per refusal, not one a step.
                None if collider.is_changed() || transform.is_changed() => {
                    inserts.push((entity, collider.into_inner(), pose));
                }
                None => {}
            }
        }
        inserts.sort_by_key(|(entity, ..)| spawn_order(*entity));
        for (entity, collider, pose) in inserts {
            insert_collider(cw, entity, collider, pose);
        }
    }
}

/// Puts `collider` of `entity` at `pose` into the character world, logging a refusal.
fn insert_collider(cw: &mut CharacterWorld, entity: Entity, collider: &Collider, pose: Iso) {
    let mut desc = ColliderDesc::new(collider.shape.clone()).pose(pose);
    if !collider.walkable {
        desc = desc.not_walkable();
    }
    if collider.two_sided {
        desc = desc.two_sided();
    }
    if collider.climbable {
        desc = desc.climbable();
    }
    match cw.world.insert(desc) {
        Ok(id) => {
            cw.colliders.insert(entity, id);
            cw.owners.insert(id, entity);
        }
        Err(e) => error!("spherewalk: collider {entity} refused: {e}"),
    }
}

/// The [`GravityField`] entities and [`DefaultGravity`], as the sync reads them.
#[derive(SystemParam)]
pub(crate) struct Gravity<'w, 's> {
    default: Res<'w, DefaultGravity>,
    fields: Query<'w, 's, (Entity, &'static GravityField)>,
}

impl Gravity<'_, '_> {
    /// Rebuilds the gravity fields from the [`GravityField`] entities, in spawn order, when
    /// one was added, changed or removed, or [`DefaultGravity`] changed (the core's
    /// [`spherewalk_core::gravity::FieldCache`], so a refused field is logged once, not every
    /// step); with no field at all, [`DefaultGravity`] everywhere.
    fn sync(&self, cw: &mut CharacterWorld) {
        let everywhere = spherewalk_core::GravityField::uniform(vec3_from_glam(self.default.0));
        let default = self.fields.is_empty().then_some((u64::MAX, &everywhere));
        let held = || {
            self.fields
                .iter()
                .map(|(e, f)| (spawn_order(e), &f.0))
                .chain(default)
        };
        if !cw.gravity.holds(held()) {
            for (key, e) in cw.gravity.rebuild(held()) {
                match key {
                    u64::MAX => error!("spherewalk: default gravity refused: {e}"),
                    _ => error!(
                        "spherewalk: gravity field {}v{} refused: {e}",
                        key >> 32,
                        key as u32
                    ),
                }
            }
        }
    }
}

/// A character entity as the sync reads it: its character and transform (with their change
/// ticks), its motor side, and why it was refused, if it was.
type CharacterItem<'a> = (
    Entity,
    Ref<'a, Character>,
    Ref<'a, Transform>,
    Mut<'a, Walking>,
    Option<&'a CharacterRefused>,
);

/// The [`Character`] entities, as the sync reads and writes them, and the messages of the
/// teleports it refuses.
#[derive(SystemParam)]
pub(crate) struct Characters<'w, 's> {
    commands: Commands<'w, 's>,
    query: Query<'w, 's, CharacterItem<'static>>,
    removed: RemovedComponents<'w, 's, Character>,
    /// Entities that held a [`Character`] and still hold its motor side.
    orphans: Query<'w, 's, &'static mut Walking, Without<Character>>,
    messages: MessageWriter<'w, CharacterMessage>,
}

impl Characters<'_, '_> {
    /// Validates every new or changed [`Character`], in spawn order: a valid one gets (or
    /// keeps, with its motion) the motor's side, starts from its transform when new, and gets
    /// a body in the character world when solid; an invalid one (bad settings, a non-finite
    /// transform, a body the world refuses) is logged and marked [`CharacterRefused`]. One
    /// refused for its pose is tried again when its transform is written. A character whose
    /// [`Character`] was removed (or who was despawned) loses its body and stops.
    fn admit(&mut self, cw: &mut CharacterWorld) {
        for entity in self.removed.read() {
            drop_body(cw, entity);
            if let Ok(mut gone) = self.orphans.get_mut(entity) {
                gone.walker = None;
            }
        }
        let mut changed: Vec<_> = self
            .query
            .iter_mut()
            .filter(|(_, character, transform, _, refused)| {
                let placed_again = transform.is_changed()
                    && refused.is_some_and(|r| !matches!(r.0, RefusalReason::Settings(_)));
                character.is_changed() || placed_again
            })
            .collect();
        changed.sort_by_key(|(entity, ..)| spawn_order(*entity));
        for (entity, character, transform, mut walking, refused) in changed {
            drop_body(cw, entity);
            let pose = walking.walker.as_ref().map_or_else(
                || Pose::from_glam(transform.translation, transform.rotation),
                |w| w.pose,
            );
            let admitted = match admit(cw, entity, &character, pose) {
                Ok(admitted) => admitted,
                Err(reason) => {
                    error!("spherewalk: character {entity} refused: {reason}");
                    walking.walker = None;
                    self.commands
                        .entity(entity)
                        .insert(CharacterRefused(reason));
                    continue;
                }
            };
            if refused.is_some() {
                self.commands.entity(entity).remove::<CharacterRefused>();
            }
            match &mut walking.walker {
                // Changed: the new motor and body, the motion kept.
                Some(walker) => {
                    walker.motor = admitted.motor;
                    walker.body = admitted.body;
                }
                None => {
                    walking.walker = Some(admitted);
                    walking.shown = (transform.translation, transform.rotation);
                }
            }
        }
    }

    /// Moves every character whose transform the game wrote since the plugin last did (a
    /// teleport) to that transform, with its body; its motion state is kept. A transform
    /// holding NaN or infinity, or one where the world refuses the body, is refused: the
    /// character and its body stay where the last step ended, and a
    /// [`CharacterEvent::TeleportRefused`] says so.
    fn teleport(&mut self, cw: &mut CharacterWorld) {
        let mut refused = Vec::new();
        for (entity, _, transform, mut walking, _) in &mut self.query {
            let now = (transform.translation, transform.rotation);
            if now == walking.shown {
                continue;
            }
            let pose = Pose::from_glam(now.0, now.1);
            let Some(walker) = walking.walker.as_mut() else {
                continue;
            };
            match walker.teleport(&mut cw.world, pose) {
                Ok(()) => walking.shown = now,
                Err(why) => {
                    warn!("spherewalk: teleport of character {entity} refused: {why}");
                    refused.push(CharacterMessage {
                        character: entity,
                        event: CharacterEvent::TeleportRefused {
                            translation: now.0,
                            rotation: now.1,
                        },
                    });
                }
            }
        }
        refused.sort_by_key(|m| spawn_order(m.character));
        self.messages.write_batch(refused);
    }
}

/// `character` (of `entity`) let in at `pose` (the core's [`Walker::admit`]), with its body
/// put into the character world when solid (its own body left out of the motor's filter).
///
/// # Errors
/// [`RefusalReason::Settings`] for bad settings, [`RefusalReason::NonFinitePose`] for a
/// pose holding NaN or infinity, [`RefusalReason::Buried`] for a stack starting deeper in the
/// scenery than it is tall (the core's [`Motor::admit`] rules, as the runtime's),
/// [`RefusalReason::Body`] when the world refuses the body.
fn admit(
    cw: &mut CharacterWorld,
    entity: Entity,
    character: &Character,
    pose: Pose,
) -> Result<Walker, RefusalReason> {
    let mut motor = Motor::new(character.stack.clone(), character.settings)?;
    if !character.solid {
        motor = motor.with_filter(soft_filter(&QueryFilter::default()));
    }
    let (translation, rotation) = pose.to_glam();
    let walker =
        Walker::admit(motor, &mut cw.world, pose, character.solid).map_err(
            |refused| match refused {
                AdmitError::NonFinitePose => RefusalReason::NonFinitePose {
                    translation,
                    rotation,
                },
                AdmitError::Buried { depth, height } => RefusalReason::Buried {
                    translation,
                    depth,
                    height,
                },
                AdmitError::Body(e) => RefusalReason::Body(e),
            },
        )?;
    if let Some(id) = walker.body {
        cw.bodies.insert(entity, id);
        cw.owners.insert(id, entity);
    }
    Ok(walker)
}

/// Takes the body of `entity` (if any) out of the character world.
fn drop_body(cw: &mut CharacterWorld, entity: Entity) {
    if let Some(id) = cw.bodies.remove(&entity) {
        cw.owners.remove(&id);
        // NOTE: the plugin inserted it; a failure would mean it is gone already.
        let _ = cw.world.remove(id);
    }
}
