//! Changing a character's sphere stack in place (crouching, standing up, growing), checked
//! against its settings and against the geometry around it.

use super::Motor;
use crate::math::Real;
use crate::pose::Pose;
use crate::settings::SettingsError;
use crate::shape::SphereStack;
use crate::world::{Geometry, WorldQueries};
use thiserror::Error;

/// Why [`Motor::resize`] kept the old stack.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ResizeError {
    /// The motor's settings are out of scale with the new stack (see [`Motor::new`]).
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The new stack, placed at the character's pose, would overlap the world deeper than the
    /// old one does and than the penetration tolerance: `depth` metres.
    #[error("the new stack does not fit here: it would be {depth} m deep in the world")]
    Blocked {
        /// Deepest penetration (m) of any sphere of the new stack at the pose.
        depth: Real,
    },
}

impl Motor {
    /// Replaces the sphere stack (character-local) when it fits: its settings stay in scale
    /// (as [`Motor::new`] checks) and, placed at `pose`, it overlaps the colliders passing
    /// this motor's filter by no more than the penetration tolerance, or than the old stack
    /// already does (a character squeezed while standing may still crouch). On refusal the old
    /// stack stays and nothing changes. Returns the new stack's deepest penetration (m, >= 0).
    ///
    /// A bigger stack in a tight space is refused here instead of being pushed out through a
    /// wall or into the floor by the next steps' pushback.
    ///
    /// # Errors
    /// [`ResizeError::Settings`] when a setting is out of scale with `stack`;
    /// [`ResizeError::Blocked`] when it does not fit at `pose`.
    pub fn resize(
        &mut self,
        world: &dyn Geometry,
        pose: &Pose,
        stack: SphereStack,
    ) -> Result<Real, ResizeError> {
        self.settings.check_scale(&stack)?;
        let depth = world.stack_penetration(pose, &stack, &self.filter);
        if depth > self.settings.penetration_tolerance {
            let before = world.stack_penetration(pose, &self.stack, &self.filter);
            if depth > before {
                return Err(ResizeError::Blocked { depth });
            }
        }
        self.stack = stack;
        Ok(depth)
    }

    /// Replaces the sphere stack without looking at the world (restoring a saved state, a
    /// character not yet placed). Prefer [`Motor::resize`] for a character standing in a world:
    /// a bigger stack put in a tight space here is left to pushback, which may push it out
    /// through a one-sided wall or into the floor.
    ///
    /// # Errors
    /// [`SettingsError::OutOfScale`] when a setting is out of scale with `stack` (the old
    /// stack stays).
    pub fn set_stack(&mut self, stack: SphereStack) -> Result<(), SettingsError> {
        self.settings.check_scale(&stack)?;
        self.stack = stack;
        Ok(())
    }
}
