//! Contact hooks: game callbacks that veto colliders for a step and give surfaces a velocity.

use crate::contact::ColliderId;
use crate::math::{Point3, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::world::Geometry;

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

/// Game callbacks consulted by [`crate::Motor::step`] (through [`Surroundings`]). Every method has a default
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

/// What a step moves a character through: the collision geometry and the game's contact
/// hooks on it (which colliders count, how their surfaces move). [`crate::Motor::step`] takes
/// anything that converts into it: a world or any other [`Geometry`] alone (no hooks), or
/// `Surroundings::new(&world).with_hooks(&hooks)`.
///
/// # Example
/// ```
/// use spherewalk_core::hooks::{Candidate, ContactHooks, Surroundings};
/// use spherewalk_core::parry3d::shape::SharedShape;
/// use spherewalk_core::prelude::*;
/// /// Ignores every collider: the character falls through the floor.
/// struct Ghost;
/// impl ContactHooks for Ghost {
///     fn validate(&self, _candidate: &Candidate<'_>) -> bool {
///         false
///     }
/// }
/// let mut world = CollisionWorld::new();
/// world.insert(ColliderDesc::new(SharedShape::cuboid(5.0, 0.5, 5.0)).translation(0.0, -0.5, 0.0))?;
/// let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
/// let (mut pose, mut state, mut report) = (Pose::default(), MotorState::default(), StepReport::new());
/// let input = StepInput::new(MoveIntent::default(), Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0);
/// let ghostly = Surroundings::new(&world).with_hooks(&Ghost);
/// for _ in 0..30 {
///     motor.step(ghostly, &mut pose, &mut state, &input, &mut report);
/// }
/// // Half a second of free fall: about 1.2 m below the floor's top.
/// assert!(pose.position.y < -1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Surroundings<'a> {
    /// The geometry the character moves through.
    pub geometry: &'a dyn Geometry,
    /// The game's callbacks on its contacts.
    pub hooks: &'a dyn ContactHooks,
}

impl<'a> Surroundings<'a> {
    /// `geometry` with no hooks ([`NoHooks`]): every collider counts, surfaces move as their
    /// colliders do.
    pub fn new(geometry: &'a dyn Geometry) -> Self {
        Self {
            geometry,
            hooks: &NoHooks,
        }
    }

    /// The same geometry with `hooks`.
    pub fn with_hooks(self, hooks: &'a dyn ContactHooks) -> Self {
        Self { hooks, ..self }
    }
}

impl<'a, G: Geometry> From<&'a G> for Surroundings<'a> {
    fn from(geometry: &'a G) -> Self {
        Self::new(geometry)
    }
}

impl<'a> From<&'a dyn Geometry> for Surroundings<'a> {
    fn from(geometry: &'a dyn Geometry) -> Self {
        Self::new(geometry)
    }
}

impl std::fmt::Debug for Surroundings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Surroundings { .. }")
    }
}
