//! What happened to characters in a step, as Bevy messages.

use bevy::math::{Quat, Vec3};
use bevy::prelude::{Entity, Message};
use spherewalk_core::interop::glam::{point_to_glam, vec3_to_glam};
use spherewalk_core::motor::{Mode, StepEvent};

/// One thing that happened to one character in a fixed step. Written in the plugin's
/// [`crate::SpherewalkSystems::WriteBack`], ordered by character (spawn order), then as
/// [`spherewalk_core::StepReport::events`] orders them; a reader that reads every frame sees
/// each once, however many fixed steps the frame ran.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct CharacterMessage {
    /// The character.
    pub character: Entity,
    /// What happened.
    pub event: CharacterEvent,
}

/// What happened to a character during a step.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum CharacterEvent {
    /// Became stably grounded after not being so.
    Landed,
    /// Stopped being stably grounded (walked off, jumped, slid onto steep ground).
    LeftGround,
    /// Jumped this step.
    Jumped,
    /// The movement rule changed (the core's [`Mode`]): a dash, a climb or a mantle began or
    /// ended.
    ModeChanged {
        /// The rule before the step.
        from: Mode,
        /// The rule after it.
        to: Mode,
    },
    /// Climbed a stair by `height` (m, along up).
    ClimbedStair {
        /// Height climbed (m).
        height: f32,
    },
    /// Geometry closed on the character and left it no way out (sent every step it lasts).
    Crushed {
        /// Deepest penetration of any sphere after the step (m).
        depth: f32,
    },
    /// Touched a collider other than the ground it stands on (first contact of the step with
    /// it).
    Hit {
        /// The collider's entity (a [`crate::Collider`]'s, or the character's whose body was
        /// hit); `None` when it was despawned since.
        collider: Option<Entity>,
        /// Contact point on the collider (world, m).
        point: Vec3,
        /// Contact normal, from the collider toward the character (world, unit).
        normal: Vec3,
    },
    /// The game wrote the character's transform (a teleport), but the plugin refused it: it
    /// holds NaN or infinity, or the character world refused the character's body there.
    /// The character and its body stay where its last step ended. Written in
    /// [`crate::SpherewalkSystems::Sync`], before the step's own messages.
    TeleportRefused {
        /// The translation written (m, world).
        translation: Vec3,
        /// The rotation written.
        rotation: Quat,
    },
}

impl CharacterEvent {
    /// The core's event with the collider named by its entity (`entity_of`); `None` for an
    /// event this version does not know.
    pub(crate) fn from_core(
        event: &StepEvent,
        entity_of: impl Fn(spherewalk_core::ColliderId) -> Option<Entity>,
    ) -> Option<Self> {
        Some(match *event {
            StepEvent::Landed => Self::Landed,
            StepEvent::LeftGround => Self::LeftGround,
            StepEvent::Jumped => Self::Jumped,
            StepEvent::ModeChanged { from, to } => Self::ModeChanged { from, to },
            StepEvent::ClimbedStair { height } => Self::ClimbedStair { height },
            StepEvent::Crushed { depth } => Self::Crushed { depth },
            StepEvent::Hit {
                collider,
                point,
                normal,
            } => Self::Hit {
                collider: entity_of(collider),
                point: point_to_glam(&point),
                normal: vec3_to_glam(&normal),
            },
            _ => return None,
        })
    }
}
