//! # spherewalk-core
//!
//! The spherewalk character motor without any ECS. A character is a [`SphereStack`] (N
//! overlapping spheres along its local up axis) moved by [`Motor::step`] through a
//! [`CollisionWorld`] (or any other collision backend implementing [`Geometry`]) in five
//! phases: gather (the primitives within reach), up frame (turning the character's up),
//! movement (substepped, closest-point pushback after each substep, so nothing tunnels),
//! stairs (the step offset) and ground (ground probe, slope limit, ground clamp), all in a
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
//! 0.2 m steps (its step offset climbs each) and stops on the landing at 1 m:
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
//! // Three 0.3 m spheres in a 1.8 m stack; the default settings climb steps up to 0.35 m.
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

#![forbid(unsafe_code)]

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

mod contact;
mod gravity;
mod hooks;
pub mod interop;
pub mod math;
mod pose;
mod settings;
mod shape;
mod state;
mod step;
mod world;

pub use contact::{ColliderId, GroundHit, GroundState, Hit};
pub use gravity::{GravityError, GravityField, GravityFields, Pull, Surface, Volume};
pub use hooks::{Candidate, ContactHooks, NoHooks};
pub use math::{Iso, Point3, Quat, Real, UnitVec3, Vec3, na};
pub use parry3d;
pub use pose::Pose;
pub use settings::{
    MAX_PUSHBACK_ITERATIONS, MIN_SKIN_WIDTH, MotorSettings, SettingsError, UpFrame,
};
pub use shape::{
    AUTO_WAIST_FRACTION, MAX_RADIUS, MAX_SPHERES, MIN_RADIUS, ShapeError, SphereStack, StackSphere,
};
pub use state::{MotorState, MoveIntent, StepInput};
pub use step::{
    ClampRules, ContactBuffer, InputFlags, Landing, MAX_GRAVITY, MAX_HITS, MAX_SUBSTEPS, Motor,
    PushMode, PushbackSummary, ResizeError, StepContext, StepReport, StepScratch, StepUp,
    clamp_to_ground, max_penetration, move_substepped, movement_velocity, probe_ground, pushback,
    surface_normal_at, target_up, try_step_up, turn_up, yaw,
};
pub use world::{
    Collider, ColliderDesc, ColliderFlags, ColliderMotion, CollisionWorld, DEFAULT_LAYER, Geometry,
    MAX_COORD, Primitive, PrimitiveShape, QueryFilter, RayHit, SphereCastHit, SurfacePoint,
    WorldError, boxes_overlap, shape_primitives, solid_part,
};
