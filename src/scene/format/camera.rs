//! The camera a scene asks for at its start: a hint for viewers (the demo), which the runtime
//! itself never reads.

use super::*;

/// A starting camera as written: `Camera(yaw_deg: 0.0, pitch_deg: 20.0, distance: 7.0)`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Camera")]
pub(crate) struct CameraRon {
    #[serde(default)]
    yaw_deg: Real,
    #[serde(default = "default_pitch_deg")]
    pitch_deg: Real,
    #[serde(default = "default_distance")]
    distance: Real,
}

fn default_pitch_deg() -> Real {
    20.0
}

fn default_distance() -> Real {
    7.0
}

/// Where a viewer should put its camera when the scene starts, relative to the first
/// character it follows: behind it along its forward turned `yaw` to the left, `pitch` above
/// its horizon, `distance` back from it.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(try_from = "CameraRon")]
pub struct CameraHint {
    /// Turn of the view from the character's forward (rad, about its up, positive left).
    pub yaw: Real,
    /// Angle above the character's horizon (rad, in [-pi/2, pi/2]; negative looks up).
    pub pitch: Real,
    /// Distance from the character (m, in (0, 1000]).
    pub distance: Real,
}

impl TryFrom<CameraRon> for CameraHint {
    type Error = String;

    fn try_from(d: CameraRon) -> Result<Self, String> {
        let err = |e: String| fail("camera", "camera", e);
        if !d.yaw_deg.is_finite() {
            return Err(err(format!("`yaw_deg` must be finite, got {}", d.yaw_deg)));
        }
        if !(d.pitch_deg.is_finite() && (-90.0..=90.0).contains(&d.pitch_deg)) {
            return Err(err(format!(
                "`pitch_deg` must be in [-90, 90] degrees, got {}",
                d.pitch_deg
            )));
        }
        if !(d.distance.is_finite() && d.distance > 0.0 && d.distance <= 1000.0) {
            return Err(err(format!(
                "`distance` must be in (0, 1000] m, got {}",
                d.distance
            )));
        }
        Ok(Self {
            yaw: d.yaw_deg.to_radians(),
            pitch: d.pitch_deg.to_radians(),
            distance: d.distance,
        })
    }
}
