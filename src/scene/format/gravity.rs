//! Gravity field items.

use super::*;

/// A gravity field as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum GravityDesc {
    /// The same acceleration inside `volume` (everywhere when left out), priority 0 by default.
    Uniform {
        /// Acceleration (m/s², world).
        accel: Xyz,
        /// Where it applies.
        #[serde(default)]
        volume: Option<VolumeDesc>,
        /// Higher wins where fields overlap.
        #[serde(default)]
        priority: i32,
    },
    /// A planet: `strength` m/s² toward `centre`, within `reach` metres of it (everywhere when
    /// left out), priority 1 by default.
    Point {
        /// The point pulled toward (m, world).
        centre: Xyz,
        /// Acceleration magnitude (m/s²).
        strength: Real,
        /// Radius of the ball it applies in (m).
        #[serde(default)]
        reach: Option<Real>,
        /// Higher wins where fields overlap.
        #[serde(default = "one_i32")]
        priority: i32,
    },
    /// A small world of any shape: `strength` m/s² toward the closest point of the collider
    /// named `collider` (a one-part collider item), within `reach` metres of it, priority 1
    /// by default.
    Surface {
        /// The `name` of a collider item of this scene.
        collider: String,
        /// Acceleration magnitude (m/s²).
        strength: Real,
        /// Largest distance from the collider's surface (m).
        reach: Real,
        /// Higher wins where fields overlap.
        #[serde(default = "one_i32")]
        priority: i32,
    },
}

fn one_i32() -> i32 {
    1
}

/// Where a uniform field applies.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum VolumeDesc {
    /// Everywhere.
    Everywhere,
    /// A ball (m, world).
    Sphere {
        /// Centre (m, world).
        centre: Xyz,
        /// Radius (m).
        radius: Real,
    },
    /// An axis-aligned box (m, world).
    Box {
        /// Lower corner.
        mins: Xyz,
        /// Upper corner.
        maxs: Xyz,
    },
}

/// A validated gravity field, or a surface field whose collider is found when the scene is
/// built.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "GravityDesc")]
pub(crate) enum GravityItem {
    /// A field complete as written.
    Field(GravityField),
    /// A surface pull toward a named collider, with its numbers checked.
    Surface {
        /// The collider item's name.
        collider: String,
        /// Acceleration magnitude (m/s², finite, >= 0).
        strength: Real,
        /// Reach from the surface (m, finite, > 0).
        reach: Real,
        /// Higher wins where fields overlap.
        priority: i32,
    },
}

impl TryFrom<GravityDesc> for GravityItem {
    type Error = String;

    fn try_from(desc: GravityDesc) -> Result<Self, String> {
        let field = match desc {
            GravityDesc::Surface {
                collider,
                strength,
                reach,
                priority,
            } => {
                if !(strength.is_finite() && strength >= 0.0) {
                    return Err(format!(
                        "gravity: surface strength must be finite and >= 0, got {strength}"
                    ));
                }
                if !(reach.is_finite() && reach > 0.0) {
                    return Err(format!(
                        "gravity: surface reach must be finite and > 0, got {reach}"
                    ));
                }
                return Ok(Self::Surface {
                    collider,
                    strength,
                    reach,
                    priority,
                });
            }
            GravityDesc::Uniform {
                accel,
                volume,
                priority,
            } => GravityField {
                pull: Pull::Uniform(Vec3::from(accel)),
                volume: match volume.unwrap_or(VolumeDesc::Everywhere) {
                    VolumeDesc::Everywhere => Volume::Everywhere,
                    VolumeDesc::Sphere { centre, radius } => Volume::Sphere {
                        centre: Point3::from(centre),
                        radius,
                    },
                    VolumeDesc::Box { mins, maxs } => Volume::Box {
                        mins: Point3::from(mins),
                        maxs: Point3::from(maxs),
                    },
                },
                priority,
            },
            GravityDesc::Point {
                centre,
                strength,
                reach,
                priority,
            } => {
                let centre = Point3::from(centre);
                GravityField {
                    pull: Pull::Point { centre, strength },
                    volume: match reach {
                        Some(radius) => Volume::Sphere { centre, radius },
                        None => Volume::Everywhere,
                    },
                    priority,
                }
            }
        };
        field.validate().map_err(|e| format!("gravity: {e}"))?;
        Ok(Self::Field(field))
    }
}
