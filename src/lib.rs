//! # spherewalk
//!
//! Kinematic character movement in any gravity. This package re-exports the controller core
//! ([`spherewalk_core`]); the hecs runtime, scenes and traces build on it.
//!
//! See the README for a walkthrough; its example runs as a doctest.

#![forbid(unsafe_code)]

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod scene;

pub use spherewalk_core::*;
