//! Jump pad items: static colliders that throw the characters standing on them.

use super::collider::ShapeDesc;
use super::*;

/// A jump pad as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Pad")]
pub(crate) struct PadRon {
    #[serde(default)]
    name: Option<String>,
    shape: ShapeDesc,
    #[serde(default)]
    at: Xyz,
    #[serde(default)]
    rot_deg: Xyz,
    launch: Xyz,
}

/// A validated jump pad.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "PadRon")]
pub(crate) struct PadItem {
    /// Name for traces.
    pub name: String,
    /// Its shape.
    pub shape: SharedShape,
    /// Its pose (world).
    pub pose: Iso,
    /// Velocity given to a character standing on it (m/s, world).
    pub launch: Vec3,
}

impl TryFrom<PadRon> for PadItem {
    type Error = String;

    fn try_from(d: PadRon) -> Result<Self, String> {
        let name = d.name.clone().unwrap_or_else(|| "pad".to_owned());
        let err = |e: String| fail("pad", &name, e);
        Ok(Self {
            shape: d.shape.shape().map_err(err)?,
            pose: place(d.at, d.rot_deg).map_err(err)?,
            launch: vec3("launch", d.launch).map_err(err)?,
            name,
        })
    }
}
