//! Scenario tests of the core motor and collision world: one module per capability, one binary.
//!
//! These use `spherewalk-core` alone (no hecs, ron or rayon): build a [`CollisionWorld`], step a
//! [`Motor`], check poses and reports. Tests of the runtime, scene files and generators live in
//! the root package's `tests/scenarios/`. Cargo finds this binary by the default layout
//! (`tests/<name>/main.rs`), so it is the test target `scenarios` of `spherewalk-core`:
//! `cargo test -p spherewalk-core --test scenarios`.
//!
//! [`CollisionWorld`]: spherewalk_core::CollisionWorld
//! [`Motor`]: spherewalk_core::Motor

mod backfaces;
mod bad_input;
mod carry;
mod climb;
mod common;
mod composed;
mod dash;
mod determinism;
mod golden;
mod gravity;
mod ground;
mod hooks;
mod interop;
mod knock;
mod patch;
mod peers_jolt;
mod peers_rapier;
mod planet;
mod pushout;
mod resize;
mod seams;
mod settings_fuzz;
mod shape;
mod slopes;
mod squeeze;
mod stairs;
mod surface;
mod walls;
mod world_queries;
