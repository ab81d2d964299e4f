//! Helpers the plugin's test files share: the standard character, and reading positions,
//! status and messages back from a headless app.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy_spherewalk::prelude::*;

/// The standard character: 1.8 m, three 0.3 m spheres, default settings, feet at `at`.
pub fn hero(app: &mut App, at: Vec3) -> Entity {
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack");
    app.world_mut()
        .spawn((Character::new(stack), Transform::from_translation(at)))
        .id()
}

/// Where an entity's transform puts it (m, world): a character's feet, a collider's origin.
pub fn position(app: &App, entity: Entity) -> Vec3 {
    app.world()
        .get::<Transform>(entity)
        .expect("a transform")
        .translation
}

/// A character's status after the last step.
pub fn status(app: &App, character: Entity) -> CharacterStatus {
    *app.world()
        .get::<CharacterStatus>(character)
        .expect("a status")
}

/// Every message written so far (the test reads the resource after each update).
pub fn drain(app: &mut App) -> Vec<CharacterMessage> {
    app.world_mut()
        .resource_mut::<Messages<CharacterMessage>>()
        .drain()
        .collect()
}
