//! Crouching and standing up: resizes the sphere stack of characters with a [`Stance`].

use super::motor::body_pose;
use crate::components::{Body, Character, Stance};
use hecs::World;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{CollisionWorld, Iso, Pose, SphereStack};

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
            // NOTE: a body whose id vanished keeps its old shape; the motor no longer sees it.
            let _ = collision.set_shape(body.0, body_shape(stack));
            let _ = collision.set_pose(body.0, body_pose(pose));
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

/// The collider of a character's body: a compound of its spheres (character-local frame).
pub fn body_shape(stack: &SphereStack) -> SharedShape {
    let parts = stack
        .spheres()
        .iter()
        .map(|s| {
            (
                Iso::translation(0.0, s.offset_local, 0.0),
                SharedShape::ball(s.radius),
            )
        })
        .collect();
    SharedShape::compound(parts)
}
