//! The motor system: every character takes one [`Motor::step`] under the gravity at its
//! place (the step itself carries it with the collider it stands on). Serial or parallel
//! (feature `parallel`) with bit-identical results: each character reads only the shared
//! collision world and writes only its own components.

use crate::components::{Body, Character, LastStep, PreviousPose};
use hecs::World;
use spherewalk_core::na::Translation3;
use spherewalk_core::{
    ColliderId, CollisionWorld, GravityField, GravityFields, Iso, MotorState, MoveIntent, Pose,
    Real, StepInput,
};

/// Gravity fields of the world's [`GravityField`] entities, in spawn order. Fields that fail
/// validation were refused when spawned (see [`crate::Sim::add_gravity`]); any that slipped in
/// later are skipped.
pub fn gravity_fields(world: &World) -> GravityFields {
    let mut fields: Vec<(hecs::Entity, GravityField)> = world
        .query::<(hecs::Entity, &GravityField)>()
        .iter()
        .map(|(e, f)| (e, *f))
        .collect();
    fields.sort_by_key(|(e, _)| e.id());
    let mut set = GravityFields::new();
    for (_, field) in fields {
        let _ = set.add(field);
    }
    set
}

/// Moves every character's [`Body`] collider to its pose (world), so the others collide with
/// where it stands at the start of the step.
pub fn sync_bodies(world: &World, collision: &mut CollisionWorld) {
    let mut moves: Vec<(ColliderId, Iso)> = world
        .query::<(&Body, &Pose)>()
        .iter()
        .map(|(body, pose)| (body.0, body_pose(pose)))
        .collect();
    moves.sort_by_key(|(id, _)| *id);
    // NOTE: bodies are inserted by the runtime with finite poses, and the motor never makes a
    // pose non-finite; a refused batch leaves the bodies where they were.
    let _ = collision.set_poses(&moves);
}

/// The world pose of a body collider for a character at `pose`.
pub fn body_pose(pose: &Pose) -> Iso {
    Iso::from_parts(Translation3::from(pose.position.coords), pose.orientation)
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
/// under the gravity at the middle of its stack.
pub fn step_characters(world: &mut World, collision: &CollisionWorld, dt: Real, parallel: bool) {
    let fields = gravity_fields(world);
    let mut items: Vec<Item<'_>> = world.query_mut::<Item<'_>>().into_iter().collect();
    let step_one = |item: &mut Item<'_>| {
        let (character, pose, previous, state, intent, last) = item;
        previous.0 = **pose;
        let middle = pose.centre_at(0.5 * character.motor.stack().height());
        let input = StepInput::new(**intent, fields.at(&middle), dt);
        character
            .motor
            .step(collision, pose, state, &input, &mut last.0);
    };
    super::for_each(&mut items, parallel, step_one);
}
