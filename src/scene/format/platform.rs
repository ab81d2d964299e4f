//! Platform items: kinematic colliders and how they move.

use super::collider::ShapeDesc;
use super::*;
use crate::components::MotionError;

/// How a platform moves, as written.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum MotionDesc {
    /// Spins about `axis` through its start at `rate_deg` degrees per second.
    Rotate {
        /// Axis (world).
        axis: Xyz,
        /// Angular speed (degrees per second, right-handed).
        rate_deg: Real,
    },
    /// Moves to start + `offset` and back once per `period`.
    Oscillate {
        /// Far end relative to the start (m, world).
        offset: Xyz,
        /// Seconds per back-and-forth.
        period: Real,
    },
    /// Moved by game code through `Sim::drive_platform`; stays put until then.
    Driven,
}

/// A platform as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Platform")]
pub(crate) struct PlatformDescRon {
    #[serde(default)]
    name: Option<String>,
    shape: ShapeDesc,
    #[serde(default)]
    at: Xyz,
    #[serde(default)]
    rot_deg: Xyz,
    motion: MotionDesc,
}

/// A validated kinematic platform.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "PlatformDescRon")]
pub(crate) struct PlatformItem {
    /// Name for traces.
    pub name: String,
    /// Its shape.
    pub shape: SharedShape,
    /// Pose at time 0 (world).
    pub start: Iso,
    /// How it moves.
    pub motion: PlatformMotion,
}

impl TryFrom<PlatformDescRon> for PlatformItem {
    type Error = String;

    fn try_from(d: PlatformDescRon) -> Result<Self, String> {
        let name = d.name.clone().unwrap_or_else(|| "platform".to_owned());
        let err = |e: String| fail("platform", &name, e);
        let motion = match d.motion {
            MotionDesc::Rotate { axis, rate_deg } => PlatformMotion::Rotate {
                axis: unit("axis", axis).map_err(err)?,
                rate: rate_deg.to_radians(),
            },
            MotionDesc::Oscillate { offset, period } => PlatformMotion::Oscillate {
                offset: Vec3::from(offset),
                period,
            },
            MotionDesc::Driven => PlatformMotion::Driven,
        };
        // The runtime's own rule, reported under the scene's field names and units.
        motion.check().map_err(|e| {
            err(match (e, d.motion) {
                (MotionError::Rate(_), MotionDesc::Rotate { rate_deg, .. }) => {
                    format!("`rate_deg` must be finite, got {rate_deg}")
                }
                (MotionError::Period(p), _) => format!("`period` must be > 0 s, got {p}"),
                (MotionError::Offset(o), _) => format!("`offset` must be finite, got {o:?}"),
                (other, _) => other.to_string(),
            })
        })?;
        Ok(Self {
            shape: d.shape.shape().map_err(err)?,
            start: place(d.at, d.rot_deg).map_err(err)?,
            motion,
            name,
        })
    }
}
