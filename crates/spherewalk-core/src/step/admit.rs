//! Admitting a character where it starts: the rules every host (the runtime's `Sim`, the Bevy
//! plugin) applies before a character's first step, written once here.

use super::Motor;
use crate::math::Real;
use crate::pose::Pose;
use crate::world::{Geometry, WorldError, WorldQueries};
use thiserror::Error;

/// Why [`Motor::admit`] refused a character's starting pose. Exhaustive on purpose: a rule
/// added here must be mapped by every host.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum AdmitError {
    /// The pose's position or orientation holds NaN or infinity.
    #[error("the starting pose is not finite")]
    NonFinitePose,
    /// The stack would start deeper inside the colliders around it than it is tall: no push of
    /// the step can bring it out, and every step of it would measure every piece around it.
    #[error(
        "the character would start {depth} m inside the scenery, deeper than its {height} m height"
    )]
    Buried {
        /// The deepest sphere's penetration at the pose (m).
        depth: Real,
        /// The stack's height (m).
        height: Real,
    },
    /// The world refused the character's body collider ([`crate::walker::Walker::admit`] only).
    #[error("the character's body was refused: {0}")]
    Body(#[from] WorldError),
}

impl Motor {
    /// Checks that a character of this motor may start at `pose` (world) in `world`: the pose
    /// is finite, and no sphere of the stack starts deeper in the colliders passing the motor's
    /// filter than the stack is tall (a shallower overlap is the step's to push out of).
    /// Returns the deepest penetration (m, >= 0) at the pose.
    ///
    /// # Errors
    /// [`AdmitError::NonFinitePose`], [`AdmitError::Buried`].
    pub fn admit(&self, world: &dyn Geometry, pose: &Pose) -> Result<Real, AdmitError> {
        if !pose.is_finite() {
            return Err(AdmitError::NonFinitePose);
        }
        let depth = world.stack_penetration(pose, &self.stack, &self.filter);
        let height = self.stack.height();
        if depth > height {
            return Err(AdmitError::Buried { depth, height });
        }
        Ok(depth)
    }
}
