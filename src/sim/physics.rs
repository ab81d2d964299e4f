//! Dynamic bodies in the runtime (feature `rapier`): a rapier3d world stepped with the
//! characters, who push its bodies, press on them with their weight and are knocked by them.
//!
//! The scenery stays in the [`Sim`]'s `CollisionWorld`, where the motor reads it; rapier gets
//! fixed mirrors of it (sharing the same parry shapes, so no mesh is copied) for its bodies to
//! collide with, kinematic mirrors of the platforms, and a kinematic body per solid
//! character. The motor sees the dynamic bodies through [`spherewalk_rapier::Layered`].

use super::{CHARACTER_LAYER, Sim};
use crate::components::{Platform, Walker};
use hecs::Entity;
use spherewalk_core::{ColliderId, CollisionWorld, GravityFields, MoveIntent, Pose};
use spherewalk_rapier::{BodySettings, CharacterBody, Mirrored, Physics, Rider};

pub use spherewalk_rapier;

/// A character's kinematic body in the rapier world (added by the runtime to solid
/// characters while physics is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicsBody(pub CharacterBody);

impl Sim {
    /// Turns dynamic bodies on (feature `rapier`): creates a rapier world stepping at the
    /// sim's `dt`, mirrors the scenery into it as fixed colliders (the same shapes, shared)
    /// and the platforms as kinematic bodies, and gives every solid character a kinematic
    /// body. Characters spawned later get theirs at once. Returns the rapier world, to add
    /// dynamic bodies to. Calling it again returns the same world.
    ///
    /// Gravity for bodies comes from the sim's gravity fields, like the characters'.
    pub fn enable_physics(&mut self) -> &mut Physics {
        if self.physics.is_none() {
            self.physics = Some(Box::new(self.mirror_scenery()));
            let solid: Vec<(Entity, Pose)> = self
                .ecs
                .query::<(Entity, &Walker)>()
                .iter()
                .filter(|(_, w)| w.body.is_some())
                .map(|(e, w)| (e, w.pose))
                .collect();
            for (entity, pose) in solid {
                self.add_physics_body(entity, &pose);
            }
        }
        // Made above when missing, so the closure never runs.
        let dt = self.dt();
        let made = self
            .physics
            .get_or_insert_with(|| Box::new(Mirrored::new(&CollisionWorld::new(), &[], 0, dt)));
        &mut made.physics
    }

    /// A rapier world stepping every `dt` with the scenery mirrored in it: fixed colliders
    /// for the static ones, kinematic bodies for the platforms' (characters' bodies left
    /// out).
    fn mirror_scenery(&self) -> Mirrored {
        let mut query = self.ecs.query::<&Platform>();
        let moving: Vec<ColliderId> = query.iter().map(|p| p.collider).collect();
        Mirrored::new(&self.collision, &moving, CHARACTER_LAYER, self.dt())
    }

    /// The rapier world, when [`Sim::enable_physics`] turned it on.
    pub fn physics(&self) -> Option<&Physics> {
        self.physics.as_ref().map(|p| &p.physics)
    }

    /// The rapier world, mutably, when [`Sim::enable_physics`] turned it on.
    pub fn physics_mut(&mut self) -> Option<&mut Physics> {
        self.physics.as_mut().map(|p| &mut p.physics)
    }

    /// Gives `entity` (a character at `pose`) its kinematic body in the rapier world, if
    /// physics is on.
    pub(crate) fn add_physics_body(&mut self, entity: Entity, pose: &Pose) {
        let Some(p) = self.physics.as_mut() else {
            return;
        };
        let Ok(stack) = self
            .ecs
            .get::<&Walker>(entity)
            .map(|w| w.motor.stack().clone())
        else {
            return;
        };
        let body = p.physics.insert_character(&stack, pose);
        if let Err(e) = self.ecs.insert_one(entity, PhysicsBody(body)) {
            log::warn!("physics body not attached: {e}");
        }
    }

    /// Removes a character's kinematic body from the rapier world, if it has one.
    pub(crate) fn remove_physics_body(&mut self, body: Option<PhysicsBody>) {
        if let (Some(p), Some(PhysicsBody(b))) = (self.physics.as_mut(), body) {
            p.physics.remove_character(&b);
        }
    }
}

/// One character's components for [`step_physics`].
type Item<'a> = (
    &'a mut Walker,
    &'a PhysicsBody,
    &'a MoveIntent,
    Option<&'a BodySettings>,
);

/// After the characters' steps, the dynamic bodies' step with them (the rapier crate's
/// [`Mirrored::step`]), the characters in entity order so the pushes add up the same
/// whatever hecs's layout. Characters without a [`BodySettings`] component use the defaults.
pub(crate) fn step_physics(
    ecs: &mut hecs::World,
    mirrored: &mut Mirrored,
    collision: &CollisionWorld,
    fields: &GravityFields,
    dt: spherewalk_core::Real,
) {
    let default = BodySettings::default();
    let mut items: Vec<(Entity, Item<'_>)> =
        ecs.query_mut::<(Entity, Item<'_>)>().into_iter().collect();
    items.sort_by_key(|(e, _)| e.id());
    let mut riders: Vec<Rider<'_>> = items
        .into_iter()
        .map(|(_, (walker, body, intent, settings))| Rider {
            walker,
            body: body.0,
            intent: *intent,
            settings: settings.unwrap_or(&default),
        })
        .collect();
    mirrored.step(collision, fields, dt, &mut riders);
}
