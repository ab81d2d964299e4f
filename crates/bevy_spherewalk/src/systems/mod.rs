//! The plugin's systems, a file per phase in the order they run: sync, step, show (write
//! back, and interpolation between fixed steps).

mod show;
mod step;
mod sync;

use bevy::prelude::Entity;
pub(crate) use show::{interpolate_characters, show_step_ends, write_back};
pub(crate) use step::step_characters;
pub(crate) use sync::sync;

/// The order the plugin takes entities in wherever order matters (collider ids, gravity
/// fields on ties, messages): by entity index, then generation. In a world that never freed
/// an entity this is spawn order. (Bevy's own `Ord` on `Entity` runs the other way.)
pub(crate) fn spawn_order(entity: Entity) -> u64 {
    u64::from(entity.index_u32()) << 32 | u64::from(entity.generation().to_bits())
}
