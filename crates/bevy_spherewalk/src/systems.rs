//! The plugin's systems, in the order they run: sync, step, write back.

use crate::components::{
    Character, CharacterIntent, CharacterRefused, CharacterStatus, Collider, GravityField, JumpPad,
    RefusalReason, Walking,
};
use crate::messages::{CharacterEvent, CharacterMessage};
use crate::resources::{CharacterWorld, DefaultGravity};
use bevy::ecs::change_detection::DetectChanges;
use bevy::log::{error, warn};
use bevy::prelude::{
    ChildOf, Commands, Entity, Fixed, Has, MessageWriter, Mut, Query, Ref, RemovedComponents, Res,
    ResMut, Time, Transform, TransformHelper,
};
use bevy::tasks::{ComputeTaskPool, ParallelSlice, ParallelSliceMut};
use bevy::utils::Parallel;
use spherewalk_core::crowd::{self, Pool, move_bodies, separate};
use spherewalk_core::interop::glam::{vec3_from_glam, vec3_to_glam};
use spherewalk_core::math::{Iso, velocities_between};
use spherewalk_core::motor::{AdmitError, StepScratch};
use spherewalk_core::walker::{Tick, Walker, soft_filter};
use spherewalk_core::world::QueryFilter;
use spherewalk_core::{ColliderDesc, Motor, MoveIntent, Pose, UnitVec3, Vec3};

/// The order the plugin takes entities in wherever order matters (collider ids, gravity
/// fields on ties, messages): by entity index, then generation. In a world that never freed
/// an entity this is spawn order. (Bevy's own `Ord` on `Entity` runs the other way.)
pub(crate) fn spawn_order(entity: Entity) -> u64 {
    u64::from(entity.index_u32()) << 32 | u64::from(entity.generation().to_bits())
}

/// A translation and rotation (glam) as a world pose.
fn iso_from(translation: bevy::math::Vec3, rotation: bevy::math::Quat) -> Iso {
    Pose::from_glam(translation, rotation).iso()
}

/// A collider entity's world pose now: its transform for a top-level entity, its transform
/// composed with its ancestors' otherwise (computed here, not last frame's
/// `GlobalTransform`). Scale is not applied: size the shape instead.
fn world_pose(helper: &TransformHelper, entity: Entity, transform: &Transform, child: bool) -> Iso {
    if !child {
        return iso_from(transform.translation, transform.rotation);
    }
    match helper.compute_global_transform(entity) {
        Ok(global) => {
            let (_, rotation, translation) = global.to_scale_rotation_translation();
            iso_from(translation, rotation)
        }
        Err(_) => iso_from(transform.translation, transform.rotation),
    }
}

/// A collider entity as [`sync_colliders`] reads it: its collider and transform (with their
/// change ticks) and whether it has a parent.
type ColliderItem<'a> = (Entity, Ref<'a, Collider>, Ref<'a, Transform>, Has<ChildOf>);

/// Mirrors the [`Collider`] entities into the character world: new ones are inserted,
/// despawned ones removed, moved ones (their own transform or an ancestor's) given their new
/// pose and the velocity of the move (so riders are carried), and ones that stopped given
/// zero velocity.
pub(crate) fn sync_colliders(
    mut cw: ResMut<CharacterWorld>,
    time: Res<Time>,
    colliders: Query<ColliderItem>,
    helper: TransformHelper,
    mut removed: RemovedComponents<Collider>,
) {
    let cw = &mut *cw;
    for entity in removed.read() {
        if let Some((id, _)) = cw.colliders.remove(&entity) {
            cw.owners.remove(&id);
            // NOTE: the id came from this world; a failure would mean it is gone already.
            let _ = cw.world.remove(id);
        }
    }
    let dt = time.delta_secs();
    // New and changed colliders go in in spawn order, so a world built by the same spawns
    // gives every collider the same id (the order the motor meets them in).
    let mut inserts: Vec<(Entity, &Collider, Iso)> = Vec::new();
    for (entity, collider, transform, child) in &colliders {
        let pose = world_pose(&helper, entity, &transform, child);
        match cw.colliders.get(&entity).copied() {
            Some((id, _)) if collider.is_changed() => {
                // A new shape or new flags: the collider is put in again.
                let _ = cw.world.remove(id);
                cw.owners.remove(&id);
                cw.colliders.remove(&entity);
                inserts.push((entity, collider.into_inner(), pose));
            }
            Some((id, before)) => {
                let (linear, angular) = if pose != before {
                    velocities_between(&before, &pose, dt)
                } else {
                    (Vec3::zeros(), Vec3::zeros())
                };
                let moved = cw
                    .world
                    .set_pose(id, pose)
                    .and_then(|()| cw.world.set_velocity(id, linear, angular));
                match moved {
                    Ok(()) => {
                        cw.colliders.insert(entity, (id, pose));
                    }
                    Err(e) => warn!("spherewalk: collider {entity} not moved: {e}"),
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

/// Puts `collider` of `entity` at `pose` into the character world, logging a refusal.
fn insert_collider(cw: &mut CharacterWorld, entity: Entity, collider: &Collider, pose: Iso) {
    let mut desc = ColliderDesc::new(collider.shape.clone()).pose(pose);
    if !collider.walkable {
        desc = desc.not_walkable();
    }
    if collider.two_sided {
        desc = desc.two_sided();
    }
    match cw.world.insert(desc) {
        Ok(id) => {
            cw.colliders.insert(entity, (id, pose));
            cw.owners.insert(id, entity);
        }
        Err(e) => error!("spherewalk: collider {entity} refused: {e}"),
    }
}

/// Rebuilds the gravity fields from the [`GravityField`] entities, in spawn order, when one
/// was added, changed or removed, or [`DefaultGravity`] changed (the core's
/// [`spherewalk_core::gravity::FieldCache`], so a refused field is logged once, not every
/// step); with no field at all, [`DefaultGravity`] everywhere.
pub(crate) fn sync_gravity(
    mut cw: ResMut<CharacterWorld>,
    default: Res<DefaultGravity>,
    fields: Query<(Entity, &GravityField)>,
) {
    let everywhere = spherewalk_core::GravityField::uniform(vec3_from_glam(default.0));
    let default = fields.is_empty().then_some((u64::MAX, &everywhere));
    let held = || {
        fields
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

/// A character entity as [`admit_characters`] reads it: its character and transform (with
/// their change ticks), its motor side once admitted, and why it was refused, if it was.
type AdmitItem<'a> = (
    Entity,
    Ref<'a, Character>,
    Ref<'a, Transform>,
    Option<Mut<'a, Walking>>,
    Option<&'a CharacterRefused>,
);

/// Validates every new or changed [`Character`], in spawn order: a valid one gets (or
/// keeps, with its motion) the motor's side, starts from its transform when new, and gets a
/// body in the character world when solid; an invalid one (bad settings, a non-finite
/// transform, a body the world refuses) is logged and marked [`CharacterRefused`]. One
/// refused for its pose is tried again when its transform is written. A character whose
/// [`Character`] was removed (or who was despawned) loses its body and stops.
pub(crate) fn admit_characters(
    mut commands: Commands,
    mut cw: ResMut<CharacterWorld>,
    mut characters: Query<AdmitItem>,
    mut removed: RemovedComponents<Character>,
) {
    let cw = &mut *cw;
    for entity in removed.read() {
        drop_body(cw, entity);
        if let Ok(mut gone) = commands.get_entity(entity) {
            gone.try_remove::<Walking>();
        }
    }
    let mut changed: Vec<_> = characters
        .iter_mut()
        .filter(|(_, character, transform, _, refused)| {
            let placed_again = transform.is_changed()
                && refused.is_some_and(|r| !matches!(r.0, RefusalReason::Settings(_)));
            character.is_changed() || placed_again
        })
        .collect();
    changed.sort_by_key(|(entity, ..)| spawn_order(*entity));
    for (entity, character, transform, walking, _) in changed {
        drop_body(cw, entity);
        let pose = walking.as_ref().map_or_else(
            || Pose::from_glam(transform.translation, transform.rotation),
            |w| w.walker.pose,
        );
        let admitted = match admit(cw, entity, &character, pose) {
            Ok(admitted) => admitted,
            Err(reason) => {
                error!("spherewalk: character {entity} refused: {reason}");
                commands
                    .entity(entity)
                    .remove::<Walking>()
                    .insert(CharacterRefused(reason));
                continue;
            }
        };
        let mut entity_commands = commands.entity(entity);
        entity_commands.remove::<CharacterRefused>();
        match walking {
            // Changed: the new motor and body, the motion kept.
            Some(mut walking) => {
                walking.walker.motor = admitted.motor;
                walking.walker.body = admitted.body;
            }
            None => {
                entity_commands.insert(Walking::new(admitted, &transform));
            }
        }
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

/// Moves every character whose transform the game wrote since the plugin last did (a
/// teleport) to that transform, with its body; its motion state is kept. A transform holding
/// NaN or infinity, or one where the world refuses the body, is refused: the character and
/// its body stay where the last step ended, and a [`CharacterEvent::TeleportRefused`] says
/// so.
pub(crate) fn teleport_characters(
    mut cw: ResMut<CharacterWorld>,
    mut characters: Query<(Entity, &mut Walking, &Transform)>,
    mut messages: MessageWriter<CharacterMessage>,
) {
    let mut refused = Vec::new();
    for (entity, mut walking, transform) in &mut characters {
        let now = (transform.translation, transform.rotation);
        if now == walking.shown {
            continue;
        }
        let pose = Pose::from_glam(now.0, now.1);
        match walking.walker.teleport(&mut cw.world, pose) {
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
    messages.write_batch(refused);
}

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
    }
}

/// Bevy's compute task pool as the core's [`Pool`] (the calling thread when the pool was
/// never started or has one thread), lending each thread its working buffers from `scratch`.
struct ComputePool<'a> {
    scratch: &'a Parallel<StepScratch>,
}

impl ComputePool<'_> {
    /// The task pool, when it has more than one thread.
    fn threads() -> Option<&'static bevy::tasks::TaskPool> {
        ComputeTaskPool::try_get()
            .map(|pool| &**pool)
            .filter(|pool| pool.thread_num() > 1)
    }

    /// The length of the chunks that cut `items` into about four for each of `pool`'s
    /// threads.
    fn chunk(pool: &bevy::tasks::TaskPool, items: usize) -> usize {
        items.div_ceil(pool.thread_num() * 4).max(1)
    }
}

impl Pool for ComputePool<'_> {
    fn is_parallel(&self) -> bool {
        Self::threads().is_some()
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        let Some(pool) = Self::threads() else {
            return items.iter().map(f).collect();
        };
        let each = |_, chunk: &[T]| chunk.iter().map(&f).collect::<Vec<U>>();
        let chunks = items.par_chunk_map(pool, Self::chunk(pool, items.len()), each);
        chunks.into_iter().flatten().collect()
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        items.sort_unstable();
    }

    fn lend<R>(&self, f: impl FnOnce(&mut StepScratch) -> R) -> R {
        f(&mut self.scratch.borrow_local_mut())
    }

    fn for_each<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut StepScratch, &mut T) + Sync + Send,
    ) {
        let Some(pool) = Self::threads() else {
            return crowd::in_order(self, items, f);
        };
        let each = |_, chunk: &mut [T]| crowd::in_order(self, chunk, &f);
        let chunk = Self::chunk(pool, items.len());
        let mut items = items;
        items.par_chunk_map_mut(pool, chunk, each);
    }
}

/// One admitted character as the step system gathers it: the core's view of it and, unless
/// the game took its [`CharacterIntent`] away (then it does not step), its intent.
type Gathered<'a> = (&'a mut Walker, Option<MoveIntent>);

/// The fixed step of every admitted character, gathered once, as the runtime's `Sim` runs it:
/// each one's motor step under the gravity at its feet, on the compute task pool as
/// [`ComputePool`] spreads work (through Bevy's parallel query iterator in a system of their
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
        .map(|(walking, intent)| (&mut walking.into_inner().walker, intent.map(move_intent)))
        .collect();
    let pool = ComputePool {
        scratch: &cw.scratch,
    };
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

/// Puts back, before the frame's fixed steps, the pose every admitted character's last step
/// ended at into its transform where the plugin's interpolation showed it in between: game
/// logic in the fixed schedule reads where the characters are, with or without
/// interpolation. A transform the game wrote since is left alone: it is a teleport, which
/// the next fixed step takes.
pub(crate) fn show_step_ends(mut characters: Query<(&mut Walking, &mut Transform)>) {
    for (mut walking, mut transform) in &mut characters {
        let shown = (transform.translation, transform.rotation);
        let end = walking.walker.pose.to_glam();
        if shown == walking.shown && shown != end {
            transform.translation = end.0;
            transform.rotation = end.1;
            walking.shown = end;
        }
    }
}

/// Shows every admitted character between the poses its last step started and ended at (the
/// core's [`Walker::shown_at`]), as far as the fixed clock has run into the next step
/// (`Time<Fixed>`'s overstep): smooth at any frame rate, one step behind the simulation. A
/// transform the game wrote that no fixed step has taken yet (a teleport on a frame with no
/// fixed step) is left for the next one.
pub(crate) fn interpolate_characters(
    time: Res<Time<Fixed>>,
    mut characters: Query<(&mut Walking, &mut Transform)>,
) {
    let a = time.overstep_fraction().clamp(0.0, 1.0);
    for (mut walking, mut transform) in &mut characters {
        if (transform.translation, transform.rotation) != walking.shown {
            continue;
        }
        let shown = walking.walker.shown_at(a).to_glam();
        transform.translation = shown.0;
        transform.rotation = shown.1;
        walking.shown = shown;
    }
}

/// Writes every admitted character's transform and status, and its step's messages in
/// spawn order.
pub(crate) fn write_back(
    cw: Res<CharacterWorld>,
    mut characters: Query<(Entity, &mut Walking, &mut Transform, &mut CharacterStatus)>,
    mut messages: MessageWriter<CharacterMessage>,
) {
    let mut written: Vec<(Entity, CharacterEvent)> = Vec::new();
    for (entity, mut walking, mut transform, mut status) in &mut characters {
        let (position, rotation) = walking.walker.pose.to_glam();
        transform.translation = position;
        transform.rotation = rotation;
        walking.shown = (position, rotation);
        let walker = &walking.walker;
        let ground = walker.state.ground_hit;
        *status = CharacterStatus {
            ground: walker.state.ground,
            ground_normal: ground.map(|g| vec3_to_glam(&g.surface_normal)),
            standing_on: ground.and_then(|g| cw.entity_of(g.collider)),
            velocity: vec3_to_glam(&walker.state.velocity),
            up: vec3_to_glam(&walker.pose.up()),
        };
        // Most steps have no event: those are passed over without making the list.
        if walker.report.has_events() {
            let events = walker.report.events();
            let events =
                events.filter_map(|e| CharacterEvent::from_core(&e, |id| cw.entity_of(id)));
            written.extend(events.map(|event| (entity, event)));
        }
    }
    // Stable: each character's events keep their order.
    written.sort_by_key(|(entity, _)| spawn_order(*entity));
    messages.write_batch(
        written
            .into_iter()
            .map(|(character, event)| CharacterMessage { character, event }),
    );
}
