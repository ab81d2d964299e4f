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
pub use budget::{Excess, SceneOptions};
pub use build::{
    MAX_OBJ_BYTES, MAX_SCENE_BYTES, Scene, SceneError, load, load_with, read_scene_text,
};
pub use format::{CameraHint, MAX_CROWD, SceneFile};
pub use generate::{
    GenerateError, MAX_HEIGHTFIELD_CELLS, MAX_LENGTH, MAX_PARTS, MAX_TERRAIN_DETAIL,
    MAX_TERRAIN_FEATURES, MAX_TORUS_SEGMENTS, MIN_LENGTH, ObjError, Part, TerrainDesc, box_grid,
    heightfield, planet, ramp, stairs, terrain_planet, torus, trimesh_from_obj,
};
