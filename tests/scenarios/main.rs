//! Scenario tests of the public API: one module per capability, one binary.

mod common;
mod determinism;
mod ground;
mod planet;
mod pushout;
mod seams;
mod slopes;
mod stairs;
mod surface;
mod walls;
