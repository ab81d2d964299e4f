//! The gravity the characters' steps read: the world's [`GravityField`] entities as one set
//! of fields, kept from step to step and rebuilt only when one changed.

use hecs::World;
use spherewalk_core::{GravityField, GravityFields};

/// Gravity fields of the world's [`GravityField`] entities, in spawn order. Fields that fail
/// validation were refused when spawned (see [`crate::Sim::add_gravity`]); any that slipped in
/// later are skipped.
pub fn gravity_fields(ecs: &World) -> GravityFields {
    fields_of(&spawned_fields(ecs))
}

/// The world's [`GravityField`] entities with their fields, in spawn (entity id) order.
fn spawned_fields(ecs: &World) -> Vec<(hecs::Entity, GravityField)> {
    let mut fields: Vec<(hecs::Entity, GravityField)> = ecs
        .query::<(hecs::Entity, &GravityField)>()
        .iter()
        .map(|(e, f)| (e, f.clone()))
        .collect();
    fields.sort_by_key(|(e, _)| e.id());
    fields
}

/// The set of `fields`, in their order, less those that fail validation (logged).
fn fields_of(fields: &[(hecs::Entity, GravityField)]) -> GravityFields {
    let mut set = GravityFields::new();
    for (_, field) in fields {
        if let Err(e) = set.add(field.clone()) {
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
    /// What [`gravity_fields`] makes of them.
    fields: GravityFields,
}

impl GravityCache {
    /// The gravity fields of `ecs`'s [`GravityField`] entities, as [`gravity_fields`] makes
    /// them.
    pub fn fields(&mut self, ecs: &World) -> &GravityFields {
        if !self.holds(ecs) {
            self.rebuild(ecs);
        }
        &self.fields
    }

    /// [`Self::fields`] of a world the caller holds exclusively, which spares the check its
    /// borrow of each archetype (the `Sim`'s every step).
    pub(crate) fn fields_mut(&mut self, ecs: &mut World) -> &GravityFields {
        let mut count = 0;
        let mut same = true;
        for (entity, field) in ecs.query_mut::<(hecs::Entity, &GravityField)>() {
            count += 1;
            same = same && self.seen_as(entity, field);
        }
        if !same || count != self.seen.len() {
            self.rebuild(ecs);
        }
        &self.fields
    }

    /// Builds the fields anew from `ecs`'s.
    fn rebuild(&mut self, ecs: &World) {
        self.seen = spawned_fields(ecs);
        self.fields = fields_of(&self.seen);
    }

    /// Whether `entity` held `field` when the fields were built.
    fn seen_as(&self, entity: hecs::Entity, field: &GravityField) -> bool {
        let found = self
            .seen
            .binary_search_by_key(&entity.id(), |(e, _)| e.id());
        matches!(found, Ok(i) if self.seen[i].0 == entity && self.seen[i].1 == *field)
    }

    /// Whether the world's fields are the ones built from.
    fn holds(&self, ecs: &World) -> bool {
        let mut query = ecs.query::<(hecs::Entity, &GravityField)>();
        let mut count = 0;
        for (entity, field) in query.iter() {
            count += 1;
            if !self.seen_as(entity, field) {
                return false;
            }
        }
        count == self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spherewalk_core::{Point3, Vec3};

    /// The cache answers as [`gravity_fields`] after every kind of change a game can make
    /// through the hecs world: a field changed in place, one added, one despawned; through
    /// the shared check (`fields`) and the exclusive one the `Sim` runs (`fields_mut`) alike.
    #[test]
    fn the_gravity_cache_follows_every_change_to_the_fields() {
        for exclusive in [false, true] {
            let mut ecs = World::new();
            let mut cache = GravityCache::default();
            let at = Point3::new(1.0, 2.0, 3.0);
            let pull = |cache: &mut GravityCache, ecs: &mut World| {
                let fields = if exclusive {
                    cache.fields_mut(ecs)
                } else {
                    cache.fields(ecs)
                };
                assert_eq!(fields, &gravity_fields(ecs));
                fields.at(&at)
            };
            let down = ecs.spawn((GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)),));
            assert_eq!(pull(&mut cache, &mut ecs), Vec3::new(0.0, -9.81, 0.0));
            // Changed in place: a quarter of the strength.
            if let Ok(mut field) = ecs.get::<&mut GravityField>(down) {
                *field = GravityField::uniform(Vec3::new(0.0, -2.45, 0.0));
            }
            assert_eq!(pull(&mut cache, &mut ecs), Vec3::new(0.0, -2.45, 0.0));
            // Another field of higher priority takes over.
            let side = GravityField {
                priority: 5,
                ..GravityField::uniform(Vec3::new(3.0, 0.0, 0.0))
            };
            let side = ecs.spawn((side,));
            assert_eq!(pull(&mut cache, &mut ecs), Vec3::new(3.0, 0.0, 0.0));
            // Gone again.
            ecs.despawn(side).expect("spawned");
            assert_eq!(pull(&mut cache, &mut ecs), Vec3::new(0.0, -2.45, 0.0));
            ecs.despawn(down).expect("spawned");
            assert_eq!(pull(&mut cache, &mut ecs), Vec3::zeros());
        }
    }
}
