//! A motor world's characters and rapier's dynamic bodies stepped together: the rapier world
//! with its mirrors of the motor's scenery ([`Mirrored`]) and the per-step exchange between
//! the two ([`Mirrored::step`]), once for every host that walks [`Walker`]s among bodies.

use crate::{BodySettings, CharacterBody, Mirror, Physics};
use spherewalk_core::walker::Walker;
use spherewalk_core::{
    ColliderId, CollisionWorld, GravityFields, MoveIntent, Real, StepInput, Vec3,
};

/// A rapier world whose fixed colliders and kinematic bodies mirror a motor world's scenery
/// (see [`Physics::mirror`]), with the mirrors of the moving colliders kept to follow them.
pub struct Mirrored {
    /// The rapier world: add dynamic bodies to `physics.bodies` and `physics.colliders`.
    pub physics: Physics,
    /// Each moving collider of the motor's world and its kinematic mirror body in rapier.
    platforms: Vec<Mirror>,
}

/// One character as [`Mirrored::step`] exchanges impulses with it: the character, its
/// kinematic body in rapier, what it wanted this step and how it pushes and is knocked.
pub struct Rider<'a> {
    /// The character, after its motor step.
    pub walker: &'a mut Walker,
    /// Its kinematic body in the rapier world ([`Physics::insert_character`]).
    pub body: CharacterBody,
    /// What its input asked of the step.
    pub intent: MoveIntent,
    /// Its mass and push strength.
    pub settings: &'a BodySettings,
}

impl Mirrored {
    /// A rapier world stepping every `dt` seconds with `world`'s scenery mirrored in it:
    /// kinematic bodies for the colliders in `moving` (platforms), fixed colliders for the
    /// others, and none for the colliders on any of `skip_layers` (characters' bodies).
    pub fn new(world: &CollisionWorld, moving: &[ColliderId], skip_layers: u32, dt: Real) -> Self {
        let mut physics = Physics::new();
        physics.params.dt = dt;
        let platforms = physics.mirror(world, moving, skip_layers);
        Self { physics, platforms }
    }

    /// After the characters' motor steps: each rider's pushes and weight on the dynamic
    /// bodies (its gravity read from `fields` at its gravity point, m/s², world) and its
    /// kinematic body moved, in the riders' order; the platforms' mirrors moved to where
    /// `world` has them; gravity `fields` on the bodies; one rapier step of `dt` seconds;
    /// then each rider's knocks from the bodies that hit it. Give the riders in a fixed
    /// order (the runtime's is entity order): the pushes add up in it.
    pub fn step(
        &mut self,
        world: &CollisionWorld,
        fields: &GravityFields,
        dt: Real,
        riders: &mut [Rider<'_>],
    ) {
        let physics = &mut self.physics;
        for rider in riders.iter() {
            let walker = &*rider.walker;
            let gravity = fields.at(&walker.motor.gravity_point(&walker.pose));
            let input = StepInput::new(rider.intent, gravity, dt);
            physics.push_bodies(&walker.report, &input, rider.settings);
            physics.move_character(&rider.body, &walker.pose);
        }
        physics.follow(world, &self.platforms);
        physics.apply_gravity_fields(fields);
        physics.step(&Vec3::zeros());
        for rider in riders.iter_mut() {
            let Walker { report, state, .. } = &mut *rider.walker;
            physics.take_hits(&rider.body, report, rider.settings, state);
        }
    }
}
