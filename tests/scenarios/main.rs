//! Scenario tests of the public API: one module per capability, one binary.

mod bad_input;
mod common;
mod determinism;
mod generate;
mod gravity;
mod ground;
mod peers_jolt;
mod peers_rapier;
mod planet;
mod pushout;
mod runtime;
mod scenes;
mod seams;
mod shape;
mod slopes;
mod stairs;
mod surface;
mod walls;
mod world_queries;
