//! Systems: plain functions over the hecs [`hecs::World`] and the collision world, run in a
//! fixed order by [`crate::Sim::step`]:
//!
//! 1. [`move_platforms`] — kinematic platforms move and record their step's motion;
//! 2. [`script_intents`], [`wander_intents`], [`player_intents`] — inputs write `MoveIntent`;
//! 3. [`apply_stances`] — crouch / stand up (only where the standing stack fits);
//! 4. [`sync_bodies`] — every character's body collider moves to its pose;
//! 5. [`step_characters`] — the motor step of every character (serial or parallel);
//! 6. [`separate_characters`] — overlapping characters are pushed apart, half each.

mod intent;
mod motor;
mod platforms;
mod separate;
mod stance;

pub use intent::{player_intents, script_intents, wander_intents};
pub use motor::{body_pose, gravity_fields, step_characters, sync_bodies};
pub use platforms::{carry, move_platforms, platform_deltas};
pub use separate::separate_characters;
pub use stance::{apply_stances, body_shape};
