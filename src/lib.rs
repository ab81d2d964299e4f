//! # spherewalk
//!
//! Kinematic character movement in any gravity. This package re-exports the controller core
//! ([`spherewalk_core`]); the hecs runtime, scenes and traces build on it.
//!
//! ```
//! use spherewalk::{ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent,
//!                  Point3, Pose, SphereStack, StepInput, StepReport, Vec3};
//! use spherewalk::parry3d::shape::SharedShape;
//!
//! // A 20 m x 20 m floor whose top is at y = 0.
//! let mut world = CollisionWorld::new();
//! world.insert(ColliderDesc::new(SharedShape::cuboid(10.0, 0.5, 10.0)).translation(0.0, -0.5, 0.0))?;
//!
//! // A 1.8 m character made of 3 spheres of radius 0.3 m, standing at the origin.
//! let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
//! let mut pose = Pose::new(Point3::origin());
//! let mut state = MotorState::default();
//! let mut report = StepReport::new();
//!
//! // One still step to land (a fresh state is airborne), then walk along +X at 5 m/s for one
//! // second at 60 Hz.
//! let gravity = Vec3::new(0.0, -9.81, 0.0);
//! let dt = 1.0 / 60.0;
//! motor.step(&world, &mut pose, &mut state, &StepInput::new(MoveIntent::default(), gravity, dt), &mut report);
//! let input = StepInput::new(MoveIntent::walk(Vec3::new(5.0, 0.0, 0.0)), gravity, dt);
//! for _ in 0..60 {
//!     motor.step(&world, &mut pose, &mut state, &input, &mut report);
//! }
//! assert!(report.is_grounded());
//! assert!((pose.position.x - 5.0).abs() < 1e-3);
//! assert!(pose.position.y.abs() < 0.001);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub use spherewalk_core::*;
