//! The motor system: every character takes one [`Motor::step`] under the gravity at its
//! place (the step itself carries it with the collider it stands on). Serial or parallel
//! (feature `parallel`) with bit-identical results: each character reads only the shared
//! collision world and writes only its own components.

use super::Lent;
use crate::components::{Character, LastStep, PreviousPose};
use hecs::World;
use spherewalk_core::{
    ContactHooks, GravityField, GravityFields, MotorState, MoveIntent, Pose, Real, StepInput,
    backend::Geometry, hooks::Surroundings, motor::StepScratch,
};
use std::cell::RefCell;

/// Gravity fields of the world's [`GravityField`] entities, in spawn order. Fields that fail
/// validation were refused when spawned (see [`crate::Sim::add_gravity`]); any that slipped in
/// later are skipped.
pub fn gravity_fields(world: &World) -> GravityFields {
    let mut fields: Vec<(hecs::Entity, GravityField)> = world
        .query::<(hecs::Entity, &GravityField)>()
        .iter()
        .map(|(e, f)| (e, f.clone()))
        .collect();
    fields.sort_by_key(|(e, _)| e.id());
    let mut set = GravityFields::new();
    for (_, field) in fields {
        if let Err(e) = set.add(field) {
            log::warn!("gravity field skipped: {e}");
        }
    }
    set
}

/// The world's gravity fields kept from one step to the next: [`GravityCache::fields`] checks
/// the world's [`GravityField`] entities against the ones it last built from (a comparison
/// each, no allocation) and rebuilds only when one was added, removed or changed, by the `Sim`
/// or by the game through its hecs world.
#[derive(Clone, Debug, Default)]
pub struct GravityCache {
    /// The fields built from, by entity id.
    seen: Vec<(hecs::Entity, GravityField)>,
    /// What [`gravity_fields`] made of them.
    fields: GravityFields,
}

impl GravityCache {
    /// The gravity fields of `world`'s [`GravityField`] entities, as [`gravity_fields`] makes
    /// them.
    pub fn fields(&mut self, world: &World) -> &GravityFields {
        if !self.holds(world) {
            let mut seen: Vec<(hecs::Entity, GravityField)> = world
                .query::<(hecs::Entity, &GravityField)>()
                .iter()
                .map(|(e, f)| (e, f.clone()))
                .collect();
            seen.sort_by_key(|(e, _)| e.id());
            self.fields = gravity_fields(world);
            self.seen = seen;
        }
        &self.fields
    }

    /// Whether the world's fields are the ones built from.
    fn holds(&self, world: &World) -> bool {
        let mut query = world.query::<(hecs::Entity, &GravityField)>();
        let mut count = 0;
        for (entity, field) in query.iter() {
            count += 1;
            let found = self
                .seen
                .binary_search_by_key(&entity.id(), |(e, _)| e.id());
            match found {
                Ok(i) if self.seen[i].0 == entity && self.seen[i].1 == *field => {}
                _ => return false,
            }
        }
        count == self.seen.len()
    }
}

/// One character's components for a step.
type Item<'a> = (
    &'a Character,
    &'a mut Pose,
    &'a mut PreviousPose,
    &'a mut MotorState,
    &'a MoveIntent,
    &'a mut LastStep,
);

/// Steps every character by `dt` seconds: remembers the previous pose, then runs the motor
/// under the gravity of `fields` at its feet ([`Character::gravity_point`]), with the game's
/// contact `hooks`.
pub fn step_characters(
    world: &mut World,
    collision: &dyn Geometry,
    hooks: &(dyn ContactHooks + Sync),
    fields: &GravityFields,
    dt: Real,
    parallel: bool,
) {
    // One scratch per thread, hot in cache, rather than one per character, kept by the
    // thread from step to step.
    let step_one = |scratch: &mut Lent<StepScratch>, item: &mut Item<'_>| {
        let (character, pose, previous, state, intent, last) = item;
        previous.0 = **pose;
        let input = StepInput::new(**intent, fields.at(&character.gravity_point(pose)), dt);
        let around = Surroundings::new(collision).with_hooks(hooks);
        last.0.swap_scratch(scratch);
        character
            .motor
            .step(around, pose, state, &input, &mut last.0);
        last.0.swap_scratch(scratch);
    };
    let lend = || Lent::take(&SPARE);
    if parallel && cfg!(feature = "parallel") {
        let mut items: Vec<Item<'_>> = world.query_mut::<Item<'_>>().into_iter().collect();
        super::for_each_init(&mut items, parallel, lend, step_one);
    } else {
        // In order on this thread: straight from the query, with no list of them.
        let mut scratch = lend();
        for mut item in world.query_mut::<Item<'_>>() {
            step_one(&mut scratch, &mut item);
        }
    }
}

thread_local! {
    /// Each thread's spare step scratch, between the motor system's runs.
    static SPARE: RefCell<StepScratch> = RefCell::default();
}
