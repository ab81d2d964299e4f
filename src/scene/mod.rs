//! Scenes: the geometry generators scene files call (stairs, ramps, box grids, planets,
//! heightfields and OBJ trimeshes), each built in its own local frame.

mod generate;
pub use generate::*;
