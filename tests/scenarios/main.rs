//! Scenario tests of the runtime: the hecs `Sim`, scene files and the geometry generators.
//!
//! Tests of the motor and collision world alone live with the core, in
//! `crates/spherewalk-core/tests/scenarios/` (`cargo test -p spherewalk-core --test scenarios`);
//! `cargo test --workspace` runs both binaries.

mod budget;
mod common;
mod crowds;
mod generate;
mod levels;
#[cfg(feature = "rapier")]
mod physics;
mod platforms;
mod player;
mod runtime;
mod scenes;
mod snapshot;
mod worlds;
