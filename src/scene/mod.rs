//! Scenes: the RON scene format ([`SceneFile`], validated while parsed), building a [`Sim`]
//! from it ([`load`], [`SceneFile::build`]) within a budget counted before anything is built
//! ([`SceneOptions`], [`load_with`], [`SceneFile::build_with`]), and the geometry generators
//! scene files call (stairs, ramps, box grids, planets, heightfields and OBJ trimeshes), each
//! built in its own local frame.
//!
//! [`Sim`]: crate::Sim

mod budget;
mod build;
mod format;
mod generate;
pub use budget::*;
pub use build::*;
pub use format::*;
pub use generate::*;
