//! What a game reads and writes of its characters every frame, without a raw hecs query.

use super::Sim;
use crate::body::body_pose;
use crate::components::{Platform, Walker};
use crate::input::{PlayerInput, Script, Wander};
use hecs::Entity;
use spherewalk_core::motor::AdmitError;
use spherewalk_core::na::Matrix4;
use spherewalk_core::{ColliderId, GroundState, MotorState, Pose, Real, UnitVec3, Vec3, math::Iso};
use thiserror::Error;

/// What a character is doing, read in one call ([`Sim::character`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterView {
    /// Pose after the last fixed step (world).
    pub pose: Pose,
    /// Pose to draw this frame: interpolated between the last two steps (world).
    pub render_pose: Pose,
    /// Velocity (m/s, world).
    pub velocity: Vec3,
    /// Ground state after the last step.
    pub ground: GroundState,
    /// Surface normal (world) of the ground under the feet, when any was found.
    pub ground_normal: Option<UnitVec3>,
    /// The collider under the feet, when any.
    pub ground_collider: Option<ColliderId>,
}

/// Why a write to a character was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CharacterError {
    /// The entity is not (or no longer) a character.
    #[error("the entity is not a character")]
    NotACharacter,
    /// The pose holds NaN or infinity.
    #[error("a character pose must be finite")]
    NonFinitePose,
    /// The collision world refused the character's body at the pose (a pose so far out that
    /// the body's box overflows).
    #[error("the collision world refused the character's body at that pose")]
    BodyRefused,
}

impl Sim {
    /// What `entity` is doing: pose, render pose, velocity and ground. `None` for an entity
    /// that is not a character.
    pub fn character(&self, entity: Entity) -> Option<CharacterView> {
        let walker = self.ecs.get::<&Walker>(entity).ok()?;
        let (pose, state) = (walker.pose, &walker.state);
        let hit = state.ground_hit;
        Some(CharacterView {
            pose,
            render_pose: walker.shown_at(self.alpha()),
            velocity: state.velocity,
            ground: state.ground,
            ground_normal: hit.map(|h| h.surface_normal),
            ground_collider: hit.map(|h| h.collider),
        })
    }

    /// Where the platform `entity` is now (world), to draw it; `None` for an entity that is not
    /// a platform.
    pub fn platform_pose(&self, entity: Entity) -> Option<Iso> {
        self.ecs.get::<&Platform>(entity).ok().map(|p| p.pose)
    }

    /// The render pose of `entity` ([`Sim::render_pose`]) as a 4x4 homogeneous transform
    /// (world, m): character-local points to world points, ready for a renderer.
    pub fn render_transform(&self, entity: Entity) -> Option<Matrix4<Real>> {
        self.render_pose(entity)
            .map(|p| body_pose(&p).to_homogeneous())
    }

    /// Gives `entity` player controls: replaces its input (wander AI or script) with `input`,
    /// read at the next step.
    ///
    /// # Errors
    /// [`CharacterError::NotACharacter`] for an entity that is not a character.
    pub fn set_player_input(
        &mut self,
        entity: Entity,
        input: PlayerInput,
    ) -> Result<(), CharacterError> {
        if !self.ecs.satisfies::<&Walker>(entity) {
            return Err(CharacterError::NotACharacter);
        }
        let _ = self.ecs.remove_one::<Wander>(entity);
        let _ = self.ecs.remove_one::<Script>(entity);
        self.ecs
            .insert_one(entity, input)
            .map_err(|_| CharacterError::NotACharacter)
    }

    /// Moves `entity` to `pose` (world) at once: no interpolation from where it was (its
    /// previous pose is the new one), no velocity, airborne until its next step finds ground,
    /// and its body collider moved along.
    ///
    /// # Errors
    /// [`CharacterError::NotACharacter`] for an entity that is not a character,
    /// [`CharacterError::NonFinitePose`] for a pose holding NaN or infinity,
    /// [`CharacterError::BodyRefused`] when the world refuses the body there; nothing moves
    /// then.
    pub fn teleport(&mut self, entity: Entity, pose: Pose) -> Result<(), CharacterError> {
        let mut walker = self
            .ecs
            .get::<&mut Walker>(entity)
            .map_err(|_| CharacterError::NotACharacter)?;
        match walker.teleport(&mut self.collision, pose) {
            Ok(()) => {
                walker.state = MotorState::default();
                Ok(())
            }
            Err(AdmitError::NonFinitePose) => Err(CharacterError::NonFinitePose),
            Err(_) => Err(CharacterError::BodyRefused),
        }
    }
}
