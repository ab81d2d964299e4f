//! # bevy_spherewalk
//!
//! spherewalk's character motor in Bevy 0.20: characters made of a stack of spheres that
//! walk on floors, stairs, slopes, moving platforms, walls and planets, in any gravity.
//! Bevy is the ECS here: the plugin drives `spherewalk-core`'s motor itself.
//!
//! - [`SpherewalkPlugin`] runs one motor step per run of its schedule (`FixedUpdate` by
//!   default), in three system sets ([`SpherewalkSystems`]): sync, step, write back.
//! - [`Character`] (a [`SphereStack`] and [`MotorSettings`]) with a [`Transform`] is a
//!   character; the game writes its [`CharacterIntent`] and reads its [`CharacterStatus`],
//!   its transform and [`CharacterMessage`]s (landed, left ground, jumped, climbed a stair,
//!   crushed, hit).
//! - [`Collider`] (any parry shape) with a [`Transform`] is level geometry; moving the
//!   transform makes it a kinematic collider that carries its riders.
//! - [`JumpPad`] on a collider throws the characters that stand on it.
//! - [`GravityField`] entities give gravity (uniform, toward a point or a surface, in
//!   volumes, by priority); without any, [`DefaultGravity`].
//!
//! Units: metres, seconds, radians; world frame. A character's transform is its feet: the
//! lowest point of its lowest sphere, its local +Y up and local -Z forward. In `FixedUpdate`
//! it is interpolated between fixed steps for each frame (and holds the last step's end
//! again when the fixed schedule runs); writing it teleports the character.
//!
//! [`Transform`]: bevy::prelude::Transform

#[cfg(feature = "avian")]
mod avian;
mod components;
mod messages;
mod plugin;
mod resources;
mod systems;

#[cfg(feature = "avian")]
pub use avian::FromAvian;
pub use components::{
    Character, CharacterIntent, CharacterRefused, CharacterStatus, Collider, GravityField, JumpPad,
    RefusalReason,
};
pub use messages::{CharacterEvent, CharacterMessage};
pub use plugin::{SpherewalkPlugin, SpherewalkSystems};
pub use resources::{CharacterWorld, DefaultGravity};
pub use spherewalk_core;
pub use spherewalk_core::{GroundState, MotorSettings, SettingsError, SphereStack, UpFrame};

/// Everything a game uses, for `use bevy_spherewalk::prelude::*`: the plugin, its sets and
/// components, the messages, and the core's shapes and settings.
pub mod prelude {
    pub use crate::{
        Character, CharacterEvent, CharacterIntent, CharacterMessage, CharacterRefused,
        CharacterStatus, CharacterWorld, Collider, DefaultGravity, GravityField, GroundState,
        JumpPad, MotorSettings, RefusalReason, SettingsError, SphereStack, SpherewalkPlugin,
        SpherewalkSystems, UpFrame,
    };
    pub use spherewalk_core::parry3d::shape::SharedShape;
}
