//! Crouching and standing up: resizes the sphere stack of characters with a [`Stance`].

use crate::components::{Stance, Walker};
use hecs::World;
use spherewalk_core::CollisionWorld;

/// Applies every character's crouch wish through the core's checked [`Walker::resize`]: the
/// new stack is taken only where it fits (every sphere clear of everything but the
/// character's own body by the penetration tolerance, or no deeper than the old stack already
/// is), so a low ceiling keeps a crouched character crouched, and a crouched shape wider than
/// the standing one waits for room. A refused change is tried again next step. The
/// character's body collider is resized to match.
pub fn apply_stances(ecs: &mut World, collision: &mut CollisionWorld) {
    for (stance, walker) in ecs.query_mut::<(&mut Stance, &mut Walker)>() {
        if stance.want_crouch == stance.crouching {
            continue;
        }
        let target = stance.want_crouch;
        let stack = if target {
            &stance.crouched
        } else {
            &stance.standing
        };
        if let Err(e) = walker.resize(collision, stack.clone()) {
            log::trace!("stance change refused: {e}");
            continue;
        }
        stance.crouching = target;
    }
}
