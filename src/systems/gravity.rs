//! The gravity the characters' steps read: the world's [`GravityField`] entities as one set
//! of fields, kept from step to step in the core's [`FieldCache`] and rebuilt only when one
//! was added, removed or changed (by the `Sim` or by the game through its hecs world).

use hecs::{Entity, World};
use spherewalk_core::gravity::FieldCache;
use spherewalk_core::{GravityField, GravityFields};

/// Gravity fields of the world's [`GravityField`] entities, in spawn order. Fields that fail
/// validation were refused when spawned (see [`crate::Sim::add_gravity`]); any that slipped in
/// later are skipped.
pub fn gravity_fields(ecs: &World) -> GravityFields {
    let mut cache = FieldCache::default();
    let mut query = ecs.query::<(Entity, &GravityField)>();
    log_refused(cache.rebuild(query.iter().map(keyed)));
    cache.fields().clone()
}

/// The fields of `ecs` as [`gravity_fields`] makes them, from `cache` while they are the
/// ones it holds.
pub(crate) fn cached_fields<'c>(cache: &'c mut FieldCache, ecs: &mut World) -> &'c GravityFields {
    if !cache.holds(held(ecs)) {
        log_refused(cache.rebuild(held(ecs)));
    }
    cache.fields()
}

/// The world's gravity fields, [`keyed`].
fn held(ecs: &mut World) -> impl Iterator<Item = (u64, &GravityField)> {
    ecs.query_mut::<(Entity, &GravityField)>()
        .into_iter()
        .map(keyed)
}

/// A gravity field keyed by its entity's index, then generation: spawn order in a world that
/// never freed an entity.
fn keyed((entity, field): (Entity, &GravityField)) -> (u64, &GravityField) {
    (entity.to_bits().get().rotate_left(32), field)
}

/// Logs the fields a rebuild refused (by entity bits).
fn log_refused(refused: Vec<(u64, spherewalk_core::GravityError)>) {
    for (key, e) in refused {
        log::warn!("gravity field {:#x} skipped: {e}", key.rotate_right(32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spherewalk_core::{Point3, Vec3};

    /// The cache answers as a fresh build after every kind of change a game can make
    /// through the hecs world: a field changed in place, one added, one despawned.
    #[test]
    fn the_gravity_cache_follows_every_change_to_the_fields() {
        let mut ecs = World::new();
        let mut cache = FieldCache::default();
        let at = Point3::new(1.0, 2.0, 3.0);
        let pull = |cache: &mut FieldCache, ecs: &mut World| {
            let fresh = gravity_fields(ecs);
            let fields = cached_fields(cache, ecs);
            assert_eq!(fields, &fresh);
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
