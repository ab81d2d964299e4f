//! # spherewalk-rapier
//!
//! spherewalk's character motor among a [rapier3d] world's colliders. rapier3d 0.31 is built
//! on the same parry3d 0.25 and nalgebra 0.34 as spherewalk, so its shapes are the motor's
//! shapes: [`RapierGeometry`] answers the motor's queries (see [`spherewalk_core::backend::Geometry`])
//! from rapier's own broad phase and collider set, with no second copy of the scene.
//!
//! ```
//! use spherewalk_core::{GroundState, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose};
//! use spherewalk_core::{SphereStack, StepInput, StepReport, Vec3};
//! use spherewalk_rapier::Physics;
//! use spherewalk_rapier::rapier3d::prelude::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A rapier world with a floor, stepped once so its broad phase holds the floor.
//! let mut physics = Physics::new();
//! let floor = ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(vector![0.0, -0.5, 0.0]);
//! physics.colliders.insert(floor);
//! physics.step(&vector![0.0, -9.81, 0.0]);
//!
//! // A character walks on it at 2 m/s for one second.
//! let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
//! let (mut pose, mut state) = (Pose::new(Point3::origin()), MotorState::default());
//! let walk = MoveIntent::walk(Vec3::new(0.0, 0.0, -2.0));
//! let input = StepInput::new(walk, Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0);
//! let mut report = StepReport::default();
//! for _ in 0..60 {
//!     motor.step(&physics.geometry(), &mut pose, &mut state, &input, &mut report);
//! }
//! assert!((pose.position.z + 2.0).abs() < 0.05, "{}", pose.position);
//! assert!(pose.position.y.abs() < 1e-3 && report.ground == GroundState::Grounded);
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]

mod geometry;
mod layered;
mod mirror;
mod physics;
mod push;
mod riders;

pub use geometry::{RapierGeometry, collider_handle, collider_id};
pub use layered::Layered;
pub use mirror::Mirror;
pub use physics::{Physics, PhysicsState};
pub use push::{BodySettings, BodySettingsError, CharacterBody, Pushed};
pub use rapier3d;
pub use riders::{Mirrored, Rider};
