//! Input components: where a character's [`spherewalk_core::MoveIntent`] comes from. A
//! character carries one of [`PlayerInput`], [`Wander`] or [`Script`] (the core's, in
//! [`spherewalk_core::walker`]); the systems in [`crate::systems`] ask it for the intent, so
//! every character uses the same motor.

pub use spherewalk_core::walker::{Command, PlayerInput, Script, Wander};

/// Where a character's intent comes from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Input {
    /// Nothing: the intent stays as the game writes it.
    #[default]
    None,
    /// Player controls (written by the game each frame).
    Player(PlayerInput),
    /// Wandering AI.
    Wander(Wander),
    /// A script of timed commands.
    Script(Script),
}
