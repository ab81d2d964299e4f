//! # spherewalk-core
//!
//! The spherewalk character motor without any ECS. A character is a [`SphereStack`] (N
//! overlapping spheres along its local up axis) moved by [`Motor::step`] through a
//! [`CollisionWorld`] (or any other collision backend implementing [`Geometry`]) in three
//! phases: movement (substepped so nothing tunnels), closest-point pushback, and resolution
//! (step offset, ground probe, slope limit, ground clamp), all in a rotatable up frame
//! ([`UpFrame`]) so the same code walks on floors, stairs, walls, ceilings and planets.
//!
//! Conventions: metres, seconds, radians; world frame unless a name says `local`. A
//! character's local +Y is its up, local -Z its forward, local +X its right; its position is
//! the lowest point of the feet sphere.
//!
//! Priorities: robustness first (no tunnelling, no sticking on seams, no jitter in corners,
//! never a panic on bad input), then speed, then features. Non-goals here: rigid-body
//! dynamics (the `spherewalk-rapier` crate pushes and weighs on rapier's bodies) and
//! networking.

#![forbid(unsafe_code)]

mod contact;
mod gravity;
mod hooks;
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
pub use settings::{MAX_PUSHBACK_ITERATIONS, MotorSettings, SettingsError, UpFrame};
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
