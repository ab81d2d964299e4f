//! The RON scene format: what a scene file says, validated while it is parsed.
//!
//! Each item of a scene (a collider group, a platform, a jump pad, a character, a crowd, a
//! gravity field, a dynamic body) is read into a plain description and converted at once into
//! checked core types (a [`SphereStack`], validated [`MotorSettings`], generator calls with
//! checked parameters ...).
//! A bad value fails the conversion inside the RON parser, so its error carries the file
//! position of the item. Generators do not run while parsing: a scene is held against its
//! budget ([`SceneOptions`](crate::scene::SceneOptions)) before anything big is made.
//!
//! Scene files are written by hand: lengths in metres, times in seconds, and angles in
//! **degrees** in the fields ending `_deg` (everything else in the library is radians).
//! Rotations are `rot_deg: (x, y, z)`: turn about world X, then world Y, then world Z.

use super::generate;
use crate::components::PlatformMotion;
use crate::input::Input;
use crate::input::{Command, PlayerInput, Script, Wander};
use serde::Deserialize;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    GravityField, MotorSettings, Point3, Real, SphereStack, UnitVec3, UpFrame, Vec3, gravity::Pull,
    gravity::Volume, math, math::Iso,
};
use std::path::PathBuf;

mod camera;
mod character;
mod collider;
mod crowd;
mod dynamic;
mod gravity;
mod pad;
mod platform;

pub use camera::CameraHint;
pub(crate) use character::CharacterItem;
pub(crate) use collider::{ColliderItem, ColliderSource};
pub(crate) use crowd::{CrowdItem, Spread};
pub(crate) use dynamic::DynamicItem;
#[cfg(feature = "rapier")]
pub(crate) use dynamic::Heft;
pub(crate) use gravity::GravityItem;
pub(crate) use pad::PadItem;
pub(crate) use platform::PlatformItem;

/// Most characters one crowd may spawn.
pub const MAX_CROWD: u32 = 100_000;

/// Three numbers as written in a scene: `(x, y, z)`.
type Xyz = [Real; 3];

/// A scene file after parsing: every item validated, nothing built yet (see
/// [`SceneFile::build`](crate::scene::SceneFile::build)).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scene")]
pub struct SceneFile {
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// One line about the scene.
    #[serde(default)]
    pub description: String,
    /// Fixed step (s, in (0, 1]); 1/60 when left out.
    #[serde(default = "default_dt")]
    pub dt: Real,
    /// Where a viewer should start its camera (the runtime ignores it).
    #[serde(default)]
    pub camera: Option<CameraHint>,
    /// Gravity fields (world).
    #[serde(default)]
    pub(crate) gravity: Vec<GravityItem>,
    /// Static scenery: primitives and generated groups.
    #[serde(default)]
    pub(crate) colliders: Vec<ColliderItem>,
    /// Kinematic platforms.
    #[serde(default)]
    pub(crate) platforms: Vec<PlatformItem>,
    /// Jump pads.
    #[serde(default)]
    pub(crate) pads: Vec<PadItem>,
    /// Single characters.
    #[serde(default)]
    pub(crate) characters: Vec<CharacterItem>,
    /// Crowds of wandering characters.
    #[serde(default)]
    pub(crate) crowds: Vec<CrowdItem>,
    /// Dynamic bodies (built only with the `rapier` feature).
    #[serde(default)]
    pub(crate) dynamics: Vec<DynamicItem>,
}

fn default_dt() -> Real {
    1.0 / 60.0
}

fn yes() -> bool {
    true
}

/// Failure message of an item's conversion: `what "name": problem`.
fn fail(what: &str, name: &str, problem: impl std::fmt::Display) -> String {
    format!("{what} {name:?}: {problem}")
}

fn vec3(field: &str, v: Xyz) -> Result<Vec3, String> {
    if v.iter().all(|c| c.is_finite()) {
        Ok(Vec3::from(v))
    } else {
        Err(format!("`{field}` must be finite, got {v:?}"))
    }
}

/// A length (m) checked by the generators' own rule: finite, > 0 and at most
/// [`generate::MAX_LENGTH`].
fn length(field: &'static str, v: Real) -> Result<Real, String> {
    generate::check_length(field, v).map_err(|e| e.to_string())
}

/// World pose from `at` (m) and `rot_deg` (degrees about X, then Y, then Z).
fn place(at: Xyz, rot_deg: Xyz) -> Result<Iso, String> {
    let at = vec3("at", at)?;
    let r = vec3("rot_deg", rot_deg)?;
    let rotation = math::euler_xyz(r.x.to_radians(), r.y.to_radians(), r.z.to_radians());
    Ok(Iso::from_parts(at.into(), rotation))
}

fn unit(field: &str, v: Xyz) -> Result<UnitVec3, String> {
    let v = vec3(field, v)?;
    UnitVec3::try_new(v, 1e-6).ok_or_else(|| format!("`{field}` must not be zero, got {v:?}"))
}
