//! The plugin's resources: the characters' collision world and the default gravity, which
//! the plugin creates and its systems read and write.

use bevy::math::Vec3;
use bevy::prelude::{Entity, Resource};
use spherewalk_core::gravity::FieldCache;
use spherewalk_core::{ColliderId, CollisionWorld, GravityFields, math::Iso};
use std::collections::HashMap;

/// Gravity (m/s², world) for a world with no [`crate::GravityField`] entity at all: Earth's,
/// down the world's -Y, unless the game sets another.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DefaultGravity(pub Vec3);

impl Default for DefaultGravity {
    fn default() -> Self {
        Self(Vec3::new(0.0, -9.81, 0.0))
    }
}

/// The characters' collision world and gravity, mirrored from the app's [`crate::Collider`]
/// and [`crate::GravityField`] entities by [`crate::SpherewalkSystems::Sync`], with the solid
/// characters' bodies. Games read it for queries (ray and sphere casts through
/// [`spherewalk_core::world::WorldQueries`]).
#[derive(Resource, Default)]
pub struct CharacterWorld {
    pub(crate) world: CollisionWorld,
    /// The gravity fields, rebuilt when the app's change.
    pub(crate) gravity: FieldCache,
    /// Each collider entity's id in `world`.
    pub(crate) colliders: HashMap<Entity, ColliderId>,
    /// Each solid character's body in `world`.
    pub(crate) bodies: HashMap<Entity, ColliderId>,
    /// The entity of each collider id: a collider's, or a character's for its body.
    pub(crate) owners: HashMap<ColliderId, Entity>,
    /// The bodies' moves of a step, kept from step to step (the core's
    /// [`spherewalk_core::crowd::move_bodies`] works in it).
    pub(crate) moves: Vec<(ColliderId, Iso)>,
}

impl CharacterWorld {
    /// The collision world the characters walk in.
    pub fn world(&self) -> &CollisionWorld {
        &self.world
    }

    /// The gravity fields in effect, in the order they apply on ties.
    pub fn fields(&self) -> &GravityFields {
        self.gravity.fields()
    }

    /// The entity a collider of the world belongs to: a [`crate::Collider`]'s entity, or a
    /// character's for its body.
    pub fn entity_of(&self, collider: ColliderId) -> Option<Entity> {
        self.owners.get(&collider).copied()
    }

    /// The body collider of a solid character (on
    /// [`spherewalk_core::walker::CHARACTER_LAYER`]: a query filter without that bit ignores
    /// the characters).
    pub fn body_of(&self, character: Entity) -> Option<ColliderId> {
        self.bodies.get(&character).copied()
    }
}
