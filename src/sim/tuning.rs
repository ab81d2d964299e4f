//! Changing a live character's shape and motor settings (a settings panel, a power-up, a
//! transformation), through the same checks as spawning it.

use super::Sim;
use crate::components::{Stance, Walker};
use hecs::Entity;
use spherewalk_core::{Motor, MotorSettings, Real, SettingsError, SphereStack, motor::ResizeError};
use thiserror::Error;

/// Why a change to a live character was refused. Nothing changes then.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum TuneError {
    /// The entity is not (or no longer) a character.
    #[error("the entity is not a character")]
    NotACharacter,
    /// The settings are out of range, or out of scale with the character's stack.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The new stack is out of scale with the settings, or does not fit where the character
    /// stands.
    #[error(transparent)]
    Resize(#[from] ResizeError),
}

impl Sim {
    /// Gives the character `entity` new motor settings from the next step on, checked as at
    /// spawn ([`Motor::new`]) against its current stack; its collision filter and state are
    /// kept.
    ///
    /// # Errors
    /// [`TuneError::NotACharacter`], or [`TuneError::Settings`] naming the bad setting.
    pub fn set_motor_settings(
        &mut self,
        entity: Entity,
        settings: MotorSettings,
    ) -> Result<(), TuneError> {
        let mut walker = self
            .ecs
            .get::<&mut Walker>(entity)
            .map_err(|_| TuneError::NotACharacter)?;
        let filter = *walker.motor.filter();
        let motor = Motor::new(walker.motor.stack().clone(), settings)?.with_filter(filter);
        walker.motor = motor;
        Ok(())
    }

    /// Gives the character `entity` a new standing sphere stack (character-local), taken only
    /// where it fits at the character's pose ([`Motor::resize`]); its body collider follows.
    /// A crouching character keeps its crouched stack and stands up into the new one
    /// ([`Stance::reshape`]).
    /// Returns the new stack's deepest penetration (m, >= 0).
    ///
    /// # Errors
    /// [`TuneError::NotACharacter`], or [`TuneError::Resize`] when the stack is out of scale
    /// with the settings or does not fit where the character stands.
    pub fn reshape_character(
        &mut self,
        entity: Entity,
        stack: SphereStack,
    ) -> Result<Real, TuneError> {
        let mut query = self
            .ecs
            .query_one::<(&mut Walker, Option<&mut Stance>)>(entity);
        let (walker, stance) = query.get().ok().ok_or(TuneError::NotACharacter)?;
        let depth = match stance {
            Some(stance) => stance.reshape(walker, &mut self.collision, stack)?,
            None => walker.resize(&mut self.collision, stack)?,
        };
        Ok(depth)
    }
}
