//! Characters' body colliders in the runtime: where the runtime moves them all at once. Their
//! shape, pose and layer are the core's ([`spherewalk_core::walker`]); each character's own
//! body moves, reshapes and leaves through its [`Walker`].

use hecs::World;
use spherewalk_core::crowd::{self, Lent};
use spherewalk_core::walker::Walker;
pub use spherewalk_core::walker::{CHARACTER_LAYER, body_pose};
use spherewalk_core::{ColliderId, CollisionWorld, Pose, math::Iso};
use std::cell::RefCell;

/// Moves every character's body collider to its pose (world), so the others collide with
/// where it stands at the start of the step.
pub fn sync_bodies(ecs: &World, collision: &mut CollisionWorld) {
    let mut walkers = ecs.query::<&Walker>();
    let bodies = walkers.iter().filter_map(|w| Some((w.body?, &w.pose)));
    move_bodies(bodies, collision);
}

/// Moves each body collider to its character's pose (world), in one batch (the core's
/// [`crowd::move_bodies`]).
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
