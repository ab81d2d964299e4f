//! # spherewalk-core
//!
//! The spherewalk character motor without any ECS. A character is a [`SphereStack`] (N
//! overlapping spheres along its local up axis) moved by [`Motor::step`] through a
//! [`CollisionWorld`] in three phases: movement (substepped so nothing tunnels),
//! closest-point pushback, and resolution (step offset, ground probe, slope limit, ground
//! clamp), all in a rotatable up frame ([`UpFrame`]) so the same code walks on floors, stairs,
//! walls, ceilings and planets.
//!
//! Conventions: metres, seconds, radians; world frame unless a name says `local`. A
//! character's local +Y is its up, local -Z its forward, local +X its right; its position is
//! the lowest point of the feet sphere.
//!
//! Priorities: robustness first (no tunnelling, no sticking on seams, no jitter in corners,
//! never a panic on bad input), then speed, then features. Non-goals: rigid-body dynamics,
//! pushing dynamic bodies, networking.

#![forbid(unsafe_code)]

mod frame;
mod gravity;
pub mod math;
mod pose;
mod report;
mod settings;
mod shape;
mod state;
mod step;
mod world;

pub use frame::{target_up, turn_up, yaw};
pub use gravity::{GravityError, GravityField, GravityFields, Pull, Volume};
pub use math::{Iso, Point3, Quat, Real, UnitVec3, Vec3, na};
pub use parry3d;
pub use pose::Pose;
pub use report::{GroundHit, GroundState, Hit, InputFlags, StepReport};
pub use settings::{MotorSettings, SettingsError, UpFrame};
pub use shape::{ShapeError, SphereStack, StackSphere};
pub use state::{MotorState, MoveIntent, StepInput};
pub use step::{
    ContactBuffer, MAX_GRAVITY, Motor, PushMode, PushbackSummary, StepContext, StepUp,
    drop_to_ground, max_penetration, move_substepped, movement_velocity, probe_ground, pushback,
    sphere_centres, surface_normal_at, try_step_up,
};
pub use world::{
    Collider, ColliderDesc, ColliderFlags, ColliderId, CollisionWorld, DEFAULT_LAYER, Primitive,
    PrimitiveShape, QueryFilter, RayHit, SphereCastHit, SurfacePoint, WorldError,
};
