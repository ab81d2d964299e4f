//! The components a game puts on its entities: characters, their intents and status,
//! colliders and gravity fields. Vectors are Bevy's (glam), in metres, seconds and radians,
//! world frame unless a name says otherwise.

use bevy::math::{Quat, Vec3};
use bevy::prelude::{Component, Entity, Transform};
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{GroundState, MotorSettings, SettingsError, SphereStack, WorldError};

/// A character: a stack of spheres along its local up axis and the motor's settings. The
/// plugin validates both, and its [`Transform`], when the component is added or changed
/// ([`Motor::new`](spherewalk_core::Motor::new)'s rules, a finite pose): a valid character
/// walks from where its [`Transform`] puts its feet (the lowest point of its lowest sphere,
/// its local +Y up, local -Z forward); an invalid one gets a [`CharacterRefused`] with the
/// typed reason, is logged, has no body and does not move.
///
/// A solid character (the default) has a body the other characters collide with during
/// their steps (the core's [`spherewalk_core::walker::body_collider`]: its spheres, never
/// walkable); characters that still overlap after their steps are pushed apart, half each,
/// in their ground planes.
#[derive(Component, Clone, Debug)]
#[require(Transform, CharacterIntent, CharacterStatus, Walking)]
pub struct Character {
    /// The character's shape (character-local, metres).
    pub stack: SphereStack,
    /// The motor's tuning.
    pub settings: MotorSettings,
    /// Whether the other characters collide with it (default `true`). A character that is
    /// not solid walks through the others and they through it.
    pub solid: bool,
}

impl Character {
    /// A solid character of `stack` with the default settings.
    pub fn new(stack: SphereStack) -> Self {
        Self {
            stack,
            settings: MotorSettings::default(),
            solid: true,
        }
    }

    /// The same character with `settings`.
    pub fn with_settings(self, settings: MotorSettings) -> Self {
        Self { settings, ..self }
    }

    /// The same character, not solid: no body, so the others walk through it.
    pub fn not_solid(self) -> Self {
        Self {
            solid: false,
            ..self
        }
    }
}

/// A [`Character`] the plugin refused, and why. The character stands still, with no body,
/// until the cause is fixed: a [`Character`] with valid settings replaces it, or, for a
/// refused pose, its [`Transform`] is written with a valid one. The plugin adds and removes it
/// by command, applied when the plugin's schedule ends (the refused character already stands
/// still in that step).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct CharacterRefused(pub RefusalReason);

/// Why the plugin refused a [`Character`] (the same rules as `spherewalk::Sim::spawn_character`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RefusalReason {
    /// Its settings do not fit its stack, or are out of range
    /// ([`Motor::new`](spherewalk_core::Motor::new)'s rules).
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// Its [`Transform`]'s translation or rotation holds NaN or infinity.
    #[error("the character's transform is not finite: {translation}, {rotation}")]
    NonFinitePose {
        /// The translation it was given (m, world).
        translation: Vec3,
        /// The rotation it was given.
        rotation: Quat,
    },
    /// Its stack would start deeper inside the scenery than it is tall: no push of the step
    /// could bring it out. Moving its [`Transform`] somewhere clear admits it.
    #[error(
        "the character at {translation} would start {depth} m inside the scenery, deeper than its {height} m height"
    )]
    Buried {
        /// Where it was placed (m, world).
        translation: Vec3,
        /// The deepest sphere's penetration there (m).
        depth: f32,
        /// The stack's height (m).
        height: f32,
    },
    /// The character world refused its body (a pose too far out for the world's bounds,
    /// say).
    #[error("the character's body was refused: {0}")]
    Body(#[from] WorldError),
}

/// What a character wants this step, written by the game (input, AI) before the plugin's
/// [`crate::SpherewalkSystems::Step`]. Not finite numbers are ignored by the motor's
/// documented rules (a NaN walk stands still).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct CharacterIntent {
    /// Wanted velocity along the ground (m/s, world); its part along up is ignored.
    pub walk: Vec3,
    /// Jump with this speed along up (m/s) when grounded or within coyote time; 0: no jump.
    pub jump_speed: f32,
    /// Turn toward this direction (world; projected onto the ground plane), if any.
    pub facing: Option<Vec3>,
    /// The fastest turn toward `facing` (rad/s, >= 0).
    pub turn_rate: f32,
    /// Turn about up at this rate (rad/s, counter-clockwise seen from above).
    pub yaw_rate: f32,
    /// Start a dash (the core's [`MoveIntent::dash`](spherewalk_core::MoveIntent::dash),
    /// tuned by the settings' `dash`): along `walk`, or forward when `walk` is zero.
    pub dash: bool,
}

/// Where a character stands after the last step, written by the plugin.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CharacterStatus {
    /// On stable ground, steep ground, touching something else, or in the air.
    pub ground: GroundState,
    /// The ground's surface normal under the feet (world), when on ground.
    pub ground_normal: Option<Vec3>,
    /// The entity of the collider the feet stand on, when on ground.
    pub standing_on: Option<Entity>,
    /// Velocity (m/s, world).
    pub velocity: Vec3,
    /// The character's up (world, unit).
    pub up: Vec3,
}

impl Default for CharacterStatus {
    fn default() -> Self {
        Self {
            ground: GroundState::Airborne,
            ground_normal: None,
            standing_on: None,
            velocity: Vec3::ZERO,
            up: Vec3::Y,
        }
    }
}

/// A collider characters walk on and against: any parry shape, placed by the entity's
/// [`Transform`] composed with its ancestors' (scale is not applied: size the shape; one
/// mirrored from avian is avian's already scaled shape). Moving it (its transform or an
/// ancestor's) moves the collider at the next fixed step, with the velocity that move
/// implies, so the characters standing on it are carried.
#[derive(Component, Clone)]
#[require(Transform)]
pub struct Collider {
    /// The shape, in the entity's frame (metres).
    pub shape: SharedShape,
    /// Characters may stand on it (off for another character's body).
    pub walkable: bool,
    /// Mesh and heightfield triangles collide from both sides.
    pub two_sided: bool,
    /// Characters climb it: a ladder, a vine wall, a ceiling
    /// ([`spherewalk_core::world::ColliderFlags::climbable`]).
    pub climbable: bool,
}

impl Collider {
    /// A walkable, one-sided collider of `shape`, not climbable.
    pub fn new(shape: SharedShape) -> Self {
        Self {
            shape,
            walkable: true,
            two_sided: false,
            climbable: false,
        }
    }

    /// The same collider with its `climbable` field set: characters climb it.
    pub fn climbable(self) -> Self {
        Self {
            climbable: true,
            ..self
        }
    }
}

impl std::fmt::Debug for Collider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collider")
            .field("shape", &self.shape.shape_type())
            .field("walkable", &self.walkable)
            .field("two_sided", &self.two_sided)
            .field("climbable", &self.climbable)
            .finish()
    }
}

/// A jump pad: put it on a [`Collider`]'s entity. A character that ends a fixed step stably
/// grounded on that collider is thrown ([`spherewalk_core::MotorState::launch`]): its
/// velocity becomes `launch` and it is airborne. A non-finite launch throws nobody.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct JumpPad {
    /// Velocity given to a character standing on the pad (m/s, world).
    pub launch: Vec3,
}

/// A gravity field (the core's [`spherewalk_core::GravityField`]: uniform, toward a point,
/// toward a surface, within a volume, with a priority). Every character reads the field of
/// highest priority containing its feet; fields apply in the order their entities were
/// spawned on ties. A field that fails validation is logged and skipped.
#[derive(Component, Clone, Debug)]
pub struct GravityField(pub spherewalk_core::GravityField);

/// The motor's side of a character, kept by the plugin on every [`Character`] (a required
/// component, so that letting one in or refusing it writes this in place, with no command
/// to wait for): the core's [`spherewalk_core::walker::Walker`] once admitted, and what the
/// plugin last showed of it.
#[derive(Component, Debug, Default)]
pub(crate) struct Walking {
    /// Its motor, body, poses, motor state and last step's report; `None` until it is
    /// admitted, and while it is refused.
    pub(crate) walker: Option<spherewalk_core::walker::Walker>,
    /// The translation and rotation the plugin last wrote to the transform: a transform that
    /// differs from it was written by the game (a teleport).
    pub(crate) shown: (Vec3, Quat),
}
