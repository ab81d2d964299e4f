//! Kinematic platforms: move their colliders and carry the characters standing on them.

use crate::components::Platform;
use hecs::World;
use spherewalk_core::{ColliderId, CollisionWorld, GroundState, Iso, MotorState, Pose, Real};

/// Moves every platform's collider to its pose at the new time, records the step's motion in
/// [`Platform::delta`], and sets the collider's velocities (world) to match. Runs before the
/// characters step, so a character standing on a platform is carried by that delta.
pub fn move_platforms(world: &mut World, collision: &mut CollisionWorld, dt: Real) {
    for platform in world.query_mut::<&mut Platform>() {
        let before = platform.pose_at(platform.time);
        platform.time += f64::from(dt);
        let after = platform.pose_at(platform.time);
        platform.delta = after * before.inverse();
        // NOTE: a platform whose collider id is unknown (removed) simply does not move.
        let _ = collision.set_pose(platform.collider, after);
    }
}

/// The step's motion of every platform, sorted by collider id for lookups.
pub fn platform_deltas(world: &World, out: &mut Vec<(ColliderId, Iso)>) {
    out.clear();
    out.extend(
        world
            .query::<&Platform>()
            .iter()
            .map(|p| (p.collider, p.delta)),
    );
    out.sort_by_key(|(id, _)| *id);
}

/// Carries a character standing on a moving collider: applies the collider's motion `deltas`
/// (from [`platform_deltas`]) to the pose, turning its heading with the platform. The ground
/// hit moves along so the next step's pivot and ground clamp start from the moved contact.
pub fn carry(deltas: &[(ColliderId, Iso)], pose: &mut Pose, state: &mut MotorState) {
    if state.ground != GroundState::Grounded {
        return;
    }
    let Some(hit) = state.ground_hit.as_mut() else {
        return;
    };
    let Ok(k) = deltas.binary_search_by_key(&hit.collider, |(id, _)| *id) else {
        return;
    };
    let delta = deltas[k].1;
    pose.position = delta * pose.position;
    // Only the twist about the character's up is carried: a tilting platform must not tip the
    // character over (the up frame decides where up is).
    let q = delta.rotation.quaternion();
    let twist = 2.0 * q.imag().dot(&pose.up()).atan2(q.w);
    spherewalk_core::yaw(pose, twist);
    hit.point = delta * hit.point;
}
