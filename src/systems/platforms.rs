//! Kinematic platforms: move their colliders and give them the velocities of that motion, so
//! the motor carries the characters standing on them.

use crate::components::{Platform, PlatformMotion};
use hecs::World;
use spherewalk_core::{CollisionWorld, Real};

/// Moves every platform's collider to its pose at the new time (a driven platform to the pose
/// game code gave it) with the velocities of that motion over `dt` (the core's
/// [`CollisionWorld::move_kinematic`]). Runs before the characters step: the motor carries a
/// character grounded on the collider by those velocities.
pub fn move_platforms(ecs: &mut World, collision: &mut CollisionWorld, dt: Real) {
    for platform in ecs.query_mut::<&mut Platform>() {
        let after = match platform.motion {
            PlatformMotion::Driven => platform.target.take().unwrap_or(platform.pose),
            _ => {
                platform.time += f64::from(dt);
                platform.pose_at(platform.time)
            }
        };
        platform.pose = after;
        // NOTE: a platform whose collider was removed simply does not move; a driven target
        // is checked finite when given.
        if let Err(e) = collision.move_kinematic(platform.collider, after, dt) {
            log::warn!("platform on {:?} not moved: {e}", platform.collider);
        }
    }
}

/// The linear (m/s) and angular (rad/s) velocities, world, that take a body from `before` to
/// `after` in `dt` seconds: the core's [`spherewalk_core::math::velocities_between`].
pub use spherewalk_core::math::velocities_between as velocities;
