//! # spherewalk
//!
//! Kinematic character movement in any gravity. The controller itself is
//! [`spherewalk_core`] (re-exported here); this package adds the runtime on hecs:
//!
//! - [`components`] and [`input`]: data-only components (characters, platforms, inputs);
//! - [`systems`]: plain functions run in a fixed order by [`Sim::step`];
//! - [`Sim`]: the hecs world, the collision world and the fixed-step clock ([`FixedStep`],
//!   interpolated render poses), with gravity fields, platforms, character-vs-character
//!   collision and [`Event`]s;
//! - [`scene`]: the RON scene format, loading scenes into a [`Sim`], and the geometry
//!   generators scene files use;
//! - [`trace`]: JSON Lines traces of every character after every step.
//!
//! # Walkthrough
//! The runtime holds the collision world, the characters and the clock; the game adds
//! scenery, spawns characters, writes their inputs and reads their poses. Here a lift (a
//! kinematic platform going up 3 m and back every 4 s) carries a character standing on it:
//! ```
//! use spherewalk::components::PlatformMotion;
//! use spherewalk::parry3d::shape::SharedShape;
//! use spherewalk::{CharacterDesc, ColliderDesc, CollisionWorld, GravityField, Point3, Pose};
//! use spherewalk::{Sim, SphereStack, Vec3};
//! let mut sim = Sim::new(CollisionWorld::new(), 1.0 / 60.0)?;
//! sim.add_gravity(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))?;
//! // A 2 m square lift whose top starts at y = 0.
//! let lift = ColliderDesc::new(SharedShape::cuboid(1.0, 0.2, 1.0)).translation(0.0, -0.2, 0.0);
//! let up_and_down = PlatformMotion::Oscillate { offset: Vec3::new(0.0, 3.0, 0.0), period: 4.0 };
//! sim.add_platform(lift, up_and_down)?;
//! let stack = SphereStack::capsule(1.8, 0.3, 3)?;
//! let rider = sim.spawn_character(CharacterDesc::new("rider", stack, Pose::new(Point3::origin())))?;
//! // Half a period later the lift is at the top, and so is its rider.
//! for _ in 0..120 {
//!     sim.step();
//! }
//! let view = sim.character(rider).expect("a character");
//! assert!((view.pose.position.y - 3.0).abs() < 0.01, "{:?}", view.pose.position);
//! assert_eq!(view.ground, spherewalk::GroundState::Grounded);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Scene files say the same in RON ([`scene::load`]). The README walks through both (two
//! planets and a scene file); its examples run as doctests too.

#![forbid(unsafe_code)]

/// Marks the rest of the enclosing block as a named phase for a profiler (feature
/// `profiling`); without the feature it is nothing at all.
macro_rules! phase {
    ($name:literal) => {
        #[cfg(feature = "profiling")]
        profiling::scope!($name);
    };
}

mod body;
pub mod components;
mod events;
pub mod input;
pub mod scene;
mod schedule;
// The step's functions stay short enough to read as an outline: at most clippy.toml's
// `too-many-lines-threshold` (40 lines of code), an error under CI's `-D warnings`.
#[warn(clippy::too_many_lines)]
mod sim;
#[warn(clippy::too_many_lines)]
pub mod systems;
pub mod trace;

pub use events::{Event, EventKind};
pub use input::Input;
pub use schedule::{FixedStep, ScheduleError};
pub use sim::{
    CHARACTER_LAYER, CharacterDesc, CharacterError, CharacterView, MAX_PENDING_EVENTS,
    PlatformError, Sim, Snapshot, SnapshotError, SpawnError, TuneError,
};

/// The hecs ECS the runtime is built on (re-exported so games use the same version).
pub use hecs;

/// Dynamic bodies (feature `rapier`): the sim's rapier world, part of [`Sim`].
#[cfg(feature = "rapier")]
pub use sim::physics;

/// The rapier3d the sim's dynamic bodies run on (feature `rapier`), re-exported so a game
/// adds bodies with the same version.
#[cfg(feature = "rapier")]
pub use spherewalk_rapier::rapier3d;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[doc = include_str!("../docs/runtime.md")]
#[cfg(doctest)]
pub struct RuntimeDocDoctests;

#[doc = include_str!("../docs/backends.md")]
#[cfg(doctest)]
pub struct BackendsDocDoctests;

// The core's root names (the prelude, less the three the prelude adds) and its rooms, by name.
pub use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, ContactHooks, GravityError, GravityField,
    GravityFields, GroundState, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Quat,
    Real, SettingsError, ShapeError, SphereStack, StepInput, StepReport, UnitVec3, UpFrame, Vec3,
    WorldError,
};
pub use spherewalk_core::{
    backend, contact, gravity, hooks, interop, math, motor, na, parry3d, phases, shape, world,
};

/// Everything a game needs to run a sim and walk characters in it, for
/// `use spherewalk::prelude::*`: the core's prelude and the runtime's own main types.
pub mod prelude {
    pub use crate::{CharacterDesc, Event, EventKind, Input, Sim, SpawnError};
    pub use spherewalk_core::prelude::*;
}
