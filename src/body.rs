//! A character's body collider in the runtime: where the runtime inserts, reshapes and moves
//! it. Its shape, pose and layer are the core's ([`spherewalk_core::crowd`]).

use crate::lent::Lent;
use hecs::World;
use spherewalk_core::crowd;
pub use spherewalk_core::crowd::{CHARACTER_LAYER, body_pose};
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{ColliderId, CollisionWorld, Pose, SphereStack, math::Iso};
use std::cell::RefCell;

/// The character's own collider in the shared [`CollisionWorld`]: a compound of its spheres
/// that the other characters collide with (never walkable, so nobody stands on a head). Moved
/// to the character's pose at the start of every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body(pub ColliderId);

/// The collider of a character's body: a compound of its spheres (character-local frame).
pub fn body_shape(stack: &SphereStack) -> SharedShape {
    stack.body_shape()
}

/// Resizes a body to `stack` (crouching, standing up, a restored snapshot) and puts it at
/// `pose` (world).
pub fn reshape_body(collision: &mut CollisionWorld, body: Body, stack: &SphereStack, pose: &Pose) {
    // NOTE: a body whose id vanished (removed by the game) keeps nothing to resize; the motor
    // no longer sees it.
    let done = collision
        .set_shape(body.0, body_shape(stack))
        .and_then(|()| collision.set_pose(body.0, body_pose(pose)));
    if let Err(e) = done {
        log::warn!("body {:?} not reshaped: {e}", body.0);
    }
}

/// Moves every character's [`Body`] collider to its pose (world), so the others collide with
/// where it stands at the start of the step.
pub fn sync_bodies(ecs: &World, collision: &mut CollisionWorld) {
    let mut bodies = ecs.query::<(&Body, &Pose)>();
    move_bodies(bodies.iter().map(|(body, pose)| (body.0, pose)), collision);
}

/// Moves each body collider to its character's pose (world), in one batch (the core's
/// [`move_bodies`]).
pub(crate) fn move_bodies<'a>(
    bodies: impl Iterator<Item = (ColliderId, &'a Pose)>,
    collision: &mut CollisionWorld,
) {
    let mut moves = Lent::take(&MOVES);
    // NOTE: bodies are inserted by the runtime with finite poses, and the motor never makes a
    // pose non-finite; a body the game removed stays removed, and the others move.
    if let Err(e) = crowd::move_bodies(collision, bodies, &mut moves) {
        log::warn!("a body not moved this step: {e}");
    }
}

/// Moves one body collider to its character's pose (world): [`move_bodies`] of one body.
pub(crate) fn move_body(body: ColliderId, pose: &Pose, collision: &mut CollisionWorld) {
    // NOTE: as in `move_bodies`, a body the game removed stays removed.
    if let Err(e) = collision.set_pose(body, body_pose(pose)) {
        log::warn!("body {body:?} not moved this step: {e}");
    }
}

thread_local! {
    /// Each thread's spare list of body moves, between [`sync_bodies`] runs.
    static MOVES: RefCell<Vec<(ColliderId, Iso)>> = RefCell::default();
}
