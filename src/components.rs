//! hecs components of the runtime: data only. The core's [`Walker`] (a character) and
//! [`MoveIntent`](spherewalk_core::MoveIntent) are used as components as they are; the
//! systems in [`crate::systems`] read and write them.

use serde::{Deserialize, Serialize};
use spherewalk_core::{ColliderId, Real, UnitVec3, Vec3, math::Iso};

/// A character: the core's [`Walker`] (its motor, body, poses, motor state and last step's
/// report), one component, as every host keeps it. Every entity holding one is stepped.
pub use spherewalk_core::walker::Walker;

/// A character's name: traces and the CLI summary use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name(pub String);

/// Crouching: the standing and crouched stacks, what the input wants and what is in effect
/// (the core's, whose [`Stance::apply`] the stance system runs).
pub use spherewalk_core::walker::Stance;

/// How a kinematic platform moves (world frame).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum PlatformMotion {
    /// Spins about the axis through its starting position at `rate` (rad/s, right-handed).
    Rotate {
        /// Rotation axis (world, unit).
        axis: UnitVec3,
        /// Angular speed (rad/s).
        rate: Real,
    },
    /// Moves back and forth between its start and start + `offset` (m, world), sinusoidally,
    /// once per `period` (s).
    Oscillate {
        /// The far end, relative to the start (m, world).
        offset: Vec3,
        /// Duration of one back-and-forth (s, > 0).
        period: Real,
    },
    /// Moved by game code: each step it goes to the pose last given to
    /// [`crate::Sim::drive_platform`], and stays put when none was given.
    Driven,
}

/// What is wrong with a [`PlatformMotion`] ([`PlatformMotion::check`]).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MotionError {
    /// A rotation rate that is NaN or infinite (rad/s).
    #[error("the rotation rate must be finite, got {0} rad/s")]
    Rate(Real),
    /// A rotation axis holding NaN or infinity.
    #[error("the rotation axis must be finite")]
    Axis,
    /// A period that is not finite and > 0 (s).
    #[error("the period must be finite and > 0 s, got {0}")]
    Period(Real),
    /// An offset holding NaN or infinity (m).
    #[error("the offset must be finite, got {0:?}")]
    Offset([Real; 3]),
}

impl PlatformMotion {
    /// Checks the motion's numbers: the one rule the runtime ([`crate::Sim::add_platform`])
    /// and scene files both apply.
    ///
    /// # Errors
    /// The first bad number, as a [`MotionError`].
    pub fn check(&self) -> Result<(), MotionError> {
        match *self {
            PlatformMotion::Rotate { axis, rate } => {
                if !axis.iter().all(|c| c.is_finite()) {
                    return Err(MotionError::Axis);
                }
                if !rate.is_finite() {
                    return Err(MotionError::Rate(rate));
                }
            }
            PlatformMotion::Oscillate { offset, period } => {
                if !(period.is_finite() && period > 0.0) {
                    return Err(MotionError::Period(period));
                }
                if !offset.iter().all(|c| c.is_finite()) {
                    return Err(MotionError::Offset([offset.x, offset.y, offset.z]));
                }
            }
            PlatformMotion::Driven => {}
        }
        Ok(())
    }
}

/// A jump pad: a static collider that throws whoever stands on it. A character that ends a
/// step stably grounded on `collider` leaves it with velocity `launch` (m/s, world) and is
/// airborne from then on (see [`crate::systems::launch_from_pads`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpPad {
    /// The pad's collider.
    pub collider: ColliderId,
    /// Velocity given to a character standing on it (m/s, world).
    pub launch: Vec3,
}

/// A kinematic platform: a collider moved by [`crate::systems::move_platforms`], which sets
/// the collider's velocities to match; the motor carries the characters standing on it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    /// The collider moved.
    pub collider: ColliderId,
    /// How it moves.
    pub motion: PlatformMotion,
    /// Its pose at time 0 (world).
    pub start: Iso,
    /// Time since the start (s).
    pub time: f64,
    /// Its pose now (world).
    pub pose: Iso,
    /// Where game code asked a [`PlatformMotion::Driven`] platform to be at the next step.
    pub target: Option<Iso>,
}

impl Platform {
    /// A platform on `collider`, starting at `start` (world).
    pub fn new(collider: ColliderId, motion: PlatformMotion, start: Iso) -> Self {
        Self {
            collider,
            motion,
            start,
            time: 0.0,
            pose: start,
            target: None,
        }
    }

    /// The pose (world) at `time` seconds after the start; a driven platform's current pose.
    pub fn pose_at(&self, time: f64) -> Iso {
        match self.motion {
            PlatformMotion::Driven => self.pose,
            PlatformMotion::Rotate { axis, rate } => {
                // f64 time keeps long runs exact; the angle wraps before going to f32.
                let angle = (time * f64::from(rate)).rem_euclid(std::f64::consts::TAU) as Real;
                let spin = spherewalk_core::math::axis_angle(&axis, angle);
                Iso::from_parts(self.start.translation, spin * self.start.rotation)
            }
            PlatformMotion::Oscillate { offset, period } => {
                let phase = (time / f64::from(period)).rem_euclid(1.0) * std::f64::consts::TAU;
                let k = (0.5 - 0.5 * spherewalk_core::math::cos64(phase)) as Real;
                let mut pose = self.start;
                pose.translation.vector += offset * k;
                pose
            }
        }
    }
}
