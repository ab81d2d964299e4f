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
//! See the README for a walkthrough; its examples run as doctests.

#![forbid(unsafe_code)]

mod body;
pub mod components;
mod events;
pub mod input;
mod rng;
pub mod scene;
mod schedule;
mod sim;
pub mod systems;
pub mod trace;

pub use events::{Event, EventKind, collect_events};
pub use schedule::{FixedStep, ScheduleError};
pub use sim::{
    CHARACTER_LAYER, CharacterDesc, CharacterError, CharacterView, Input, MAX_PENDING_EVENTS, Sim,
    Snapshot, SnapshotError, SpawnError, TuneError, interpolate,
};

/// The hecs ECS the runtime is built on (re-exported so games use the same version).
pub use hecs;

/// Dynamic bodies (feature `rapier`): the sim's rapier world, part of [`Sim`].
#[cfg(feature = "rapier")]
pub use sim::physics;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use spherewalk_core::*;
