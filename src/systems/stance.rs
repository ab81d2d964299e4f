//! Crouching and standing up: resizes the sphere stack of characters with a [`Stance`].

use crate::components::{Stance, Walker};
use hecs::World;
use spherewalk_core::CollisionWorld;

/// Applies every character's crouch wish through the core's [`Stance::apply`]: the new stack
/// is taken only where it fits (every sphere clear of everything but the character's own body
/// by the penetration tolerance, or no deeper than the old stack already is), so a low ceiling
/// keeps a crouched character crouched, and a crouched shape wider than the standing one waits
/// for room. A refused change is tried again next step. The character's body collider is
/// resized to match.
pub fn apply_stances(ecs: &mut World, collision: &mut CollisionWorld) {
    for (stance, walker) in ecs.query_mut::<(&mut Stance, &mut Walker)>() {
        if let Err(e) = stance.apply(walker, collision) {
            log::trace!("stance change refused: {e}");
        }
    }
}
