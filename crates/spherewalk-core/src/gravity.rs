//! Gravity fields: uniform and point (planet) pulls, bounded by volumes with priorities.
//!
//! The gravity at a point is the pull of the field of highest priority whose volume contains
//! it (ties go to the field added first), or zero when no field contains it. This is how a
//! level mixes planets: each planet's point field is bounded by a sphere a little larger than
//! the planet, and a character that jumps out of one sphere into another changes planets.

use crate::math::{Point3, Real, Vec3, is_finite_vec};
use thiserror::Error;

/// What a field pulls with, wherever it applies.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Pull {
    /// The same acceleration everywhere (m/s², world).
    Uniform(Vec3),
    /// Toward `centre` (world, m) with a constant magnitude `strength` (m/s², >= 0): planets
    /// in games keep weight constant over the walkable surface. Zero at the centre itself.
    Point {
        /// The point pulled toward (world, m).
        centre: Point3,
        /// Acceleration magnitude (m/s²).
        strength: Real,
    },
}

/// Where a field applies.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Volume {
    /// Everywhere (a level's default gravity).
    Everywhere,
    /// Inside a ball (world, m); the boundary counts as inside.
    Sphere {
        /// Ball centre (world, m).
        centre: Point3,
        /// Ball radius (m, > 0).
        radius: Real,
    },
    /// Inside an axis-aligned box (world, m); the boundary counts as inside.
    Box {
        /// Lower corner (world, m).
        mins: Point3,
        /// Upper corner (world, m), component-wise >= `mins`.
        maxs: Point3,
    },
}

impl Volume {
    /// True when `point` (world, m) lies inside the volume or on its boundary.
    pub fn contains(&self, point: &Point3) -> bool {
        match self {
            Volume::Everywhere => true,
            Volume::Sphere { centre, radius } => (point - centre).norm_squared() <= radius * radius,
            Volume::Box { mins, maxs } => {
                (0..3).all(|i| mins[i] <= point[i] && point[i] <= maxs[i])
            }
        }
    }
}

/// A gravity field: a pull, the volume it applies in, and its priority against overlapping
/// fields (higher wins).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GravityField {
    /// What the field pulls with.
    pub pull: Pull,
    /// Where it applies.
    pub volume: Volume,
    /// Higher priorities win where volumes overlap.
    pub priority: i32,
}

/// Why a gravity field was refused; each variant carries the bad value.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
pub enum GravityError {
    /// A uniform acceleration holds NaN or infinity (m/s²).
    #[error("uniform gravity is not finite: {0:?}")]
    NonFiniteAcceleration([Real; 3]),
    /// A point field's centre holds NaN or infinity (m).
    #[error("point gravity centre is not finite: {0:?}")]
    NonFiniteCentre([Real; 3]),
    /// A point field's strength is negative, NaN or infinite (m/s²).
    #[error("point gravity strength must be finite and >= 0, got {0}")]
    BadStrength(Real),
    /// A sphere volume's radius is not finite and positive, or its centre is not finite (m).
    #[error("gravity volume sphere must have a finite centre and a radius > 0, got radius {0}")]
    BadSphere(Real),
    /// A box volume has a non-finite corner or `mins > maxs` on some axis (m).
    #[error("gravity volume box must be finite with mins <= maxs, got {mins:?} .. {maxs:?}")]
    BadBox {
        /// The lower corner given.
        mins: [Real; 3],
        /// The upper corner given.
        maxs: [Real; 3],
    },
}

impl GravityField {
    /// A uniform field of `accel` (m/s², world) everywhere, at priority 0.
    pub fn uniform(accel: Vec3) -> Self {
        Self {
            pull: Pull::Uniform(accel),
            volume: Volume::Everywhere,
            priority: 0,
        }
    }

    /// A planet: `strength` m/s² toward `centre`, inside a ball of `reach` metres around it,
    /// at priority 1 (so it wins over a level's uniform default).
    pub fn planet(centre: Point3, strength: Real, reach: Real) -> Self {
        Self {
            pull: Pull::Point { centre, strength },
            volume: Volume::Sphere {
                centre,
                radius: reach,
            },
            priority: 1,
        }
    }

    /// Checks every number of the field.
    ///
    /// # Errors
    /// A [`GravityError`] naming the first bad value.
    pub fn validate(&self) -> Result<(), GravityError> {
        match self.pull {
            Pull::Uniform(a) if !is_finite_vec(&a) => {
                return Err(GravityError::NonFiniteAcceleration(a.into()));
            }
            Pull::Point { centre, .. } if !is_finite_vec(&centre.coords) => {
                return Err(GravityError::NonFiniteCentre(centre.coords.into()));
            }
            Pull::Point { strength, .. } if !(strength.is_finite() && strength >= 0.0) => {
                return Err(GravityError::BadStrength(strength));
            }
            _ => {}
        }
        match self.volume {
            Volume::Sphere { centre, radius } => {
                if !(radius.is_finite() && radius > 0.0 && is_finite_vec(&centre.coords)) {
                    return Err(GravityError::BadSphere(radius));
                }
            }
            Volume::Box { mins, maxs } => {
                let finite = is_finite_vec(&mins.coords) && is_finite_vec(&maxs.coords);
                if !finite || (0..3).any(|i| mins[i] > maxs[i]) {
                    return Err(GravityError::BadBox {
                        mins: mins.coords.into(),
                        maxs: maxs.coords.into(),
                    });
                }
            }
            Volume::Everywhere => {}
        }
        Ok(())
    }

    /// The acceleration (m/s², world) this field gives at `point`, ignoring its volume.
    pub fn pull_at(&self, point: &Point3) -> Vec3 {
        match self.pull {
            Pull::Uniform(a) => a,
            Pull::Point { centre, strength } => {
                let to_centre = centre - point;
                let distance = to_centre.norm();
                if distance > 1e-6 {
                    to_centre * (strength / distance)
                } else {
                    Vec3::zeros()
                }
            }
        }
    }
}

/// A set of validated gravity fields, queried by point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GravityFields {
    fields: Vec<GravityField>,
}

impl GravityFields {
    /// An empty set: zero gravity everywhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a field after validating it; returns its index.
    ///
    /// # Errors
    /// A [`GravityError`] when a number of the field is out of range.
    pub fn add(&mut self, field: GravityField) -> Result<usize, GravityError> {
        field.validate()?;
        self.fields.push(field);
        Ok(self.fields.len() - 1)
    }

    /// The fields, in the order added.
    pub fn fields(&self) -> &[GravityField] {
        &self.fields
    }

    /// Removes every field.
    pub fn clear(&mut self) {
        self.fields.clear();
    }

    /// Index of the field acting at `point` (world, m): the highest priority among those
    /// containing it, the first added on ties; `None` when none contains it.
    pub fn field_at(&self, point: &Point3) -> Option<usize> {
        let mut best: Option<(usize, i32)> = None;
        for (i, f) in self.fields.iter().enumerate() {
            if f.volume.contains(point) && best.is_none_or(|(_, p)| f.priority > p) {
                best = Some((i, f.priority));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Gravity (m/s², world) at `point` (world, m): the pull of [`Self::field_at`], or zero.
    pub fn at(&self, point: &Point3) -> Vec3 {
        self.field_at(point)
            .map_or(Vec3::zeros(), |i| self.fields[i].pull_at(point))
    }
}
