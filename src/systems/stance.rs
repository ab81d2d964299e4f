//! Crouching and standing up: resizes the sphere stack of characters with a [`Stance`].

use crate::body::{Body, reshape_body};
use crate::components::{Character, Stance};
use hecs::World;
use spherewalk_core::{CollisionWorld, Pose, SphereStack};

/// Applies every character's crouch wish: crouches at once; stands up only when the standing
/// stack fits where the character is (every sphere clear of everything but its own body by
/// more than the penetration tolerance), so a low ceiling keeps it crouched. Resizes the
/// character's [`Body`] collider to match.
pub fn apply_stances(world: &mut World, collision: &mut CollisionWorld) {
    for (stance, character, pose, body) in
        world.query_mut::<(&mut Stance, &mut Character, &Pose, Option<&Body>)>()
    {
        let target = match (stance.want_crouch, stance.crouching) {
            (true, false) => true,
            (false, true) if fits(collision, character, &stance.standing, pose) => false,
            _ => continue,
        };
        stance.crouching = target;
        let stack = if target {
            &stance.crouched
        } else {
            &stance.standing
        };
        character.motor.set_stack(stack.clone());
        if let Some(body) = body {
            reshape_body(collision, *body, stack, pose);
        }
    }
}

/// True when `stack` placed at `pose` penetrates nothing the character collides with.
fn fits(
    collision: &CollisionWorld,
    character: &Character,
    stack: &SphereStack,
    pose: &Pose,
) -> bool {
    let filter = character.motor.filter();
    let tolerance = character.motor.settings().penetration_tolerance;
    stack.spheres().iter().all(|s| {
        let centre = pose.centre_at(s.offset_local);
        collision.sphere_penetration(&centre, s.radius, filter) <= tolerance
    })
}
