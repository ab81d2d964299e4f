//! # spherewalk-core
//!
//! The spherewalk character motor without any ECS. A character is a [`SphereStack`] (N
//! overlapping spheres along its local up axis) moved by [`Motor::step`] through a
//! [`CollisionWorld`] (or any other collision backend implementing [`backend::Geometry`]) in five
//! phases: gather (the primitives within reach), up frame (turning the character's up),
//! movement (substepped, closest-point pushback after each substep, so nothing tunnels),
//! stairs (climbing what blocks a walk, up to the stair height) and ground (ground probe, slope limit, ground clamp), all in a
//! rotatable up frame ([`UpFrame`]) so the same code walks on floors, stairs, walls, ceilings
//! and planets.
//!
//! Conventions: metres, seconds, radians; world frame unless a name says `local`. A
//! character's local +Y is its up, local -Z its forward, local +X its right; its position is
//! the lowest point of the feet sphere.
//!
//! Priorities: robustness first (no tunnelling, no sticking on seams, no jitter in corners,
//! never a panic on bad input), then speed, then features. Non-goals here: rigid-body
//! dynamics (the `spherewalk-rapier` crate pushes and weighs on rapier's bodies) and
//! networking.
//!
//! # Walkthrough
//! A world, a character, and a fixed-step loop. Here the character walks up a flight of five
//! 0.2 m stairs (the stairs phase climbs each) and stops on the landing at 1 m:
//! ```
//! use spherewalk_core::parry3d::shape::SharedShape;
//! use spherewalk_core::{
//!     ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose,
//!     SphereStack, StepInput, StepReport, Vec3,
//! };
//! let mut world = CollisionWorld::new();
//! world.insert(ColliderDesc::new(SharedShape::cuboid(20.0, 0.5, 20.0)).translation(0.0, -0.5, 0.0))?;
//! // Step k rises to 0.2 (k + 1) m and reaches back to x = 4.5.
//! for k in 0..5 {
//!     let (front, top) = (1.0 + 0.3 * k as f32, 0.2 * (k + 1) as f32);
//!     let half = Vec3::new(0.5 * (4.5 - front), 0.5 * top, 2.0);
//!     let desc = ColliderDesc::new(SharedShape::cuboid(half.x, half.y, half.z));
//!     world.insert(desc.translation(front + half.x, half.y, 0.0))?;
//! }
//! // Three 0.3 m spheres in a 1.8 m stack; the default settings climb stairs up to 0.35 m.
//! let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
//! let mut pose = Pose::new(Point3::origin());
//! let (mut state, mut report) = (MotorState::default(), StepReport::new());
//! let gravity = Vec3::new(0.0, -9.81, 0.0);
//! for _ in 0..120 {
//!     // The game writes the intent each step: walk +X at 2 m/s.
//!     let input = StepInput::new(MoveIntent::walk(Vec3::new(2.0, 0.0, 0.0)), gravity, 1.0 / 60.0);
//!     motor.step(&world, &mut pose, &mut state, &input, &mut report);
//! }
//! assert!(report.is_grounded());
//! assert!((pose.position.y - 1.0).abs() < 1e-3, "on the landing: {:?}", pose.position);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! The same step walks round planets when the gravity passed in points at their centre
//! ([`GravityFields`] picks it by position), and up walls in [`UpFrame::Surface`] mode.
//!
//! # Glossary
//! - **character**: a [`SphereStack`] moved by a [`Motor`]; its **feet** are the lowest
//!   sphere, its **position** the lowest point of the feet ([`Pose`]).
//! - **up**, **forward**, **right**: the character's local +Y, -Z and +X. The **up frame**
//!   ([`UpFrame`]) is what up turns toward: against gravity, the ground (`Surface`), or fixed.
//! - **step**: one fixed tick of the motor ([`Motor::step`], [`StepReport`]), and nothing
//!   else. A **stair** is an obstacle with a top to stand on; the **stairs** phase climbs it
//!   (`stair_height`, Unity's step offset; [`phases::try_climb_stair`], [`phases::StairClimb`],
//!   [`StepReport::climbed`]).
//! - **phases**: gather, up frame, movement, stairs, ground, in that order; **pushback**
//!   is the building block they call to move the stack out of what it overlaps.
//! - **primitive**: a piece of a collider the motor measures against (a one-sided triangle,
//!   a ball, a box, a capsule, another solid): [`backend::Primitive`]. **Gather** collects
//!   those near the character each step.
//! - **walkable**: a collider flag: it may be stood on at all (off for another character's
//!   body: [`ColliderDesc::not_walkable`]). **Stable**: a contact with a walkable collider
//!   within the slope limit of up. **Steep**: standing ground beyond the slope limit.
//!   [`GroundState`] says which the character ended on: `Grounded` (stable),
//!   `SteepGround`, `Touching` (something, not ground) or `Airborne`.
//! - **skin width**: the gap the motor keeps from surfaces; **penetration tolerance**: the
//!   overlap it leaves alone.
//! - **carry**: what the ground moves a grounded character by (a platform's motion, a
//!   belt's surface velocity). **Knock**: a velocity from outside (a blast, a body's hit).
//!   **Coyote time**: how long after walking off an edge a jump still works.
//! - **body**: a character's own collider, the compound of its spheres the other
//!   characters meet ([`walker::body_collider`]); **solid** characters have one. **Crowd**:
//!   the characters of one host after their steps; the **separation** pass pushes the
//!   overlapping ones apart ([`crowd::Crowd`], [`crowd::resolve_push`]).
//! - **world**: here the collision world ([`CollisionWorld`], or any
//!   [`backend::Geometry`]), never an ECS world.

#![forbid(unsafe_code)]
// No function longer than clippy.toml's `too-many-lines-threshold` (60 lines of code, comments
// and blank lines not counted): CI's `-D warnings` makes this an error.
#![warn(clippy::too_many_lines)]

/// Marks the rest of the enclosing block (or, given an expression, that expression) as a
/// named phase for a profiler (feature `profiling`: the `profiling` crate, which the game
/// points at puffin, tracy, optick or superluminal); without the feature it is nothing at
/// all.
macro_rules! phase {
    ($name:literal) => {
        #[cfg(feature = "profiling")]
        profiling::scope!($name);
    };
    ($name:literal, $body:expr) => {{
        phase!($name);
        $body
    }};
}

pub mod contact;
pub mod crowd;
pub mod gravity;
pub mod hooks;
pub mod interop;
pub mod math;
mod pose;
mod settings;
pub mod shape;
mod state;
mod step;
pub mod walker;
pub mod world;

// The crate root: what a game uses to walk a character. The same names are in `prelude`.
pub use contact::{ColliderId, GroundState};
pub use gravity::{GravityError, GravityField, GravityFields};
pub use hooks::ContactHooks;
pub use math::{Point3, Quat, Real, UnitVec3, Vec3};
pub use pose::Pose;
pub use settings::{MotorSettings, SettingsError, UpFrame};
pub use shape::{ShapeError, SphereStack};
pub use state::{MotorState, MoveIntent, StepInput};
pub use step::{Motor, StepReport};
pub use world::{ColliderDesc, CollisionWorld, WorldError};

// The geometry crate and its linear algebra, re-exported so a game builds shapes and poses
// with the versions the motor uses.
pub use parry3d;
pub use parry3d::na;

/// Everything a game needs to walk a character, for `use spherewalk_core::prelude::*`: the
/// crate root's names, plus poses ([`math::Iso`]) to place colliders, the collision filter
/// ([`world::QueryFilter`]), the world's queries ([`world::WorldQueries`]: closest point,
/// casts, penetration depths) and a world with contact hooks ([`hooks::Surroundings`]).
pub mod prelude {
    pub use crate::hooks::Surroundings;
    pub use crate::math::Iso;
    pub use crate::world::{QueryFilter, WorldQueries};
    pub use crate::{
        ColliderDesc, ColliderId, CollisionWorld, ContactHooks, GravityError, GravityField,
        GravityFields, GroundState, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose,
        Quat, Real, SettingsError, ShapeError, SphereStack, StepInput, StepReport, UnitVec3,
        UpFrame, Vec3, WorldError,
    };
}

/// The motor's settings, state, input and report in full, with their limits: the root's
/// names plus the report's input flags, the scratch buffers a crowd reuses, resizing errors
/// and the documented clamps.
pub mod motor {
    pub use crate::settings::{
        ClimbSettings, DashSettings, MAX_PUSHBACK_ITERATIONS, MIN_SKIN_WIDTH, MotorSettings,
        SettingsError, UpFrame,
    };
    pub use crate::state::{Mode, MotorState, MoveIntent, StepInput};
    pub use crate::step::{
        AdmitError, InputFlags, MAX_GRAVITY, Motor, ResizeError, StepEvent, StepReport, StepScratch,
    };
}

/// The step phase by phase and its building blocks, for a game that composes a step of its
/// own: [`phases::Step`] runs [`Motor::step`]'s outline one public call at a time (gather, up
/// frame, movement, stairs, ground, what the next step inherits), and the blocks those phases
/// are made of each take a [`phases::StepContext`] (from [`phases::Step::context`], or
/// [`Motor::context`] over primitives a game gathered itself).
pub mod phases {
    pub use crate::step::{
        Blocked, ClampRules, ContactBuffer, Landing, MAX_HITS, MAX_SUBSTEPS, Moved, Moving,
        PushBuffers, PushMode, PushbackSummary, StairClimb, Step, StepContext, Wall,
        clamp_to_ground, max_penetration, move_substepped, movement_velocity, probe_ground,
        pushback, surface_normal_at, target_up, try_climb_stair, turn_up, yaw,
    };
}

/// What a collision backend implements for the motor to move through ([`backend::Geometry`]:
/// the primitives near a box, the shape behind a solid primitive, a collider's motion), the
/// helpers that turn parry shapes into primitives, and the queries every backend then answers
/// ([`backend::WorldQueries`]).
pub mod backend {
    pub use crate::world::geometry::{
        ColliderMotion, Geometry, boxes_overlap, shape_primitives, solid_part,
    };
    pub use crate::world::primitive::{Primitive, PrimitiveShape};
    pub use crate::world::query::WorldQueries;
}
