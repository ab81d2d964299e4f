//! Dynamic items: rigid bodies simulated by rapier (feature `rapier`), pushed by characters
//! and falling under the scene's gravity fields.

use super::collider::ShapeDesc;
use super::*;

/// A dynamic body as written: a shape, a pose, its mass (or density) and friction.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Dynamic")]
pub(crate) struct DynamicDescRon {
    #[serde(default)]
    name: Option<String>,
    shape: ShapeDesc,
    #[serde(default)]
    at: Xyz,
    #[serde(default)]
    rot_deg: Xyz,
    #[serde(default)]
    mass: Option<Real>,
    #[serde(default)]
    density: Option<Real>,
    #[serde(default = "default_friction")]
    friction: Real,
}

/// rapier's default friction coefficient.
fn default_friction() -> Real {
    0.5
}

/// How heavy a dynamic body is.
#[cfg_attr(not(feature = "rapier"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Heft {
    /// Its whole mass (kg).
    Mass(Real),
    /// Its density (kg/m³); the mass follows from the shape's volume.
    Density(Real),
}

/// A validated dynamic body (built only with the `rapier` feature; without it, only its name
/// is read, to refuse the scene).
#[cfg_attr(not(feature = "rapier"), allow(dead_code))]
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "DynamicDescRon")]
pub(crate) struct DynamicItem {
    /// Name for traces and errors.
    pub name: String,
    /// Its shape (local).
    pub shape: SharedShape,
    /// Its pose at the start (world).
    pub pose: Iso,
    /// Its mass or density.
    pub heft: Heft,
    /// Friction coefficient (>= 0).
    pub friction: Real,
}

/// Heaviest mass (kg) and density (kg/m³) a scene may give a body: beyond them the solver's
/// mass ratios with 70 kg characters stop meaning anything.
const MAX_MASS: Real = 1.0e6;

impl TryFrom<DynamicDescRon> for DynamicItem {
    type Error = String;

    fn try_from(d: DynamicDescRon) -> Result<Self, String> {
        let name = d.name.clone().unwrap_or_else(|| "dynamic".to_owned());
        let err = |e: String| fail("dynamic", &name, e);
        let positive = |field: &str, v: Real| {
            if v.is_finite() && v > 0.0 && v <= MAX_MASS {
                Ok(v)
            } else {
                Err(err(format!(
                    "`{field}` must be in (0, {MAX_MASS}], got {v}"
                )))
            }
        };
        let heft = match (d.mass, d.density) {
            (Some(_), Some(_)) => return Err(err("give `mass` or `density`, not both".into())),
            (Some(m), None) => Heft::Mass(positive("mass", m)?),
            (None, Some(rho)) => Heft::Density(positive("density", rho)?),
            // Water's density: a 1 m crate weighs a tonne unless told otherwise.
            (None, None) => Heft::Density(1000.0),
        };
        if !(d.friction.is_finite() && (0.0..=10.0).contains(&d.friction)) {
            return Err(err(format!(
                "`friction` must be in [0, 10], got {}",
                d.friction
            )));
        }
        Ok(Self {
            shape: d.shape.shape().map_err(err)?,
            pose: place(d.at, d.rot_deg).map_err(err)?,
            heft,
            friction: d.friction,
            name,
        })
    }
}
