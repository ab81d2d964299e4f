//! Contact hooks: game callbacks that veto colliders for a step and give surfaces a velocity.

use crate::contact::ColliderId;
use crate::math::{Point3, UnitVec3, Vec3};
use crate::pose::Pose;

/// A collider near a character, offered to [`ContactHooks::validate`] before the step moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate<'a> {
    /// The collider.
    pub collider: ColliderId,
    /// The character's pose at the start of the step (world, m).
    pub pose: &'a Pose,
    /// The character's carried velocity at the start of the step (m/s, world).
    pub velocity: Vec3,
}

/// Game callbacks consulted by [`crate::Motor::step_with_hooks`]. Every method has a default
/// that changes nothing, so an implementation overrides only what it needs. Hooks must be
/// deterministic (the same inputs give the same answers) for steps to stay deterministic.
pub trait ContactHooks {
    /// Whether the character collides with `candidate.collider` during this step. Asked once
    /// per step for each collider within reach of the character, before it moves; `false`
    /// removes every contact with that collider for the whole step (pushback, ground probe,
    /// step offset, ground clamp and the reported penetration).
    ///
    /// One-way platforms: return `false` while the character's feet are below the platform's
    /// top, so it jumps up through it and lands on it. Ghost walls: return `false` always.
    fn validate(&self, candidate: &Candidate<'_>) -> bool {
        let _ = candidate;
        true
    }

    /// The velocity (m/s, world) of the surface of `collider` at `point` (world, m), whose
    /// face normal there is `normal` (world): a conveyor belt. A character grounded on it
    /// moves with this velocity on top of its own, projected onto the ground plane; when it
    /// leaves the ground it keeps it. Zero by default.
    fn surface_velocity(&self, collider: ColliderId, point: &Point3, normal: &UnitVec3) -> Vec3 {
        let _ = (collider, point, normal);
        Vec3::zeros()
    }
}

/// Hooks that change nothing: what [`crate::Motor::step`] uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoHooks;

impl ContactHooks for NoHooks {}
