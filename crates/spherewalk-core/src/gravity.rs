//! Gravity fields: uniform, point (planet) and surface pulls, bounded by volumes with
//! priorities.
//!
//! The gravity at a point is the pull of the field of highest priority whose volume contains
//! it (ties go to the field added first), or zero when no field contains it. This is how a
//! level mixes planets: each planet's point field is bounded by a sphere a little larger than
//! the planet, and a character that jumps out of one sphere into another changes planets.
//!
//! A surface pull points at the closest point of a shape's surface, so "down" is always
//! straight at the ground under the feet: a cube, a capsule or a ring can be walked all the way
//! round, turning over each edge. Its volume is usually [`Volume::Near`] the same surface.

use crate::math::{Iso, Point3, Real, Vec3, is_finite_vec};
use parry3d::shape::SharedShape;
use std::sync::Arc;
use thiserror::Error;

/// A shape placed in the world, whose surface a [`Pull::Surface`] pulls toward and a
/// [`Volume::Near`] measures its reach from. Cloning shares the shape.
///
/// Two surfaces are equal when they share the same shape allocation (not merely equal
/// dimensions) at the same pose.
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Surface {
    /// The shape, in its own frame (m).
    pub shape: SharedShape,
    /// Where the shape's frame is (world).
    pub pose: Iso,
}

impl Surface {
    /// `shape` placed at `pose` (world).
    pub fn new(shape: SharedShape, pose: Iso) -> Self {
        Self { shape, pose }
    }

    /// The closest point (world, m) of the surface to `point` (world, m), and whether `point`
    /// lies inside the shape. Meshes without orientation data never report inside.
    pub fn closest(&self, point: &Point3) -> (Point3, bool) {
        let projection = self.shape.project_point(&self.pose, point, false);
        (projection.point, projection.is_inside)
    }

    /// Distance (m) from `point` (world) to the shape; 0 inside it.
    pub fn distance(&self, point: &Point3) -> Real {
        self.shape.distance_to_point(&self.pose, point, true)
    }

    /// True when the pose and the shape's bounds are finite.
    fn is_finite(&self) -> bool {
        let aabb = self.shape.compute_local_aabb();
        let rotation = self.pose.rotation.coords;
        is_finite_vec(&self.pose.translation.vector)
            && rotation.iter().all(|c| c.is_finite())
            && is_finite_vec(&aabb.mins.coords)
            && is_finite_vec(&aabb.maxs.coords)
    }
}

impl PartialEq for Surface {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shape.0, &other.shape.0) && self.pose == other.pose
    }
}

impl std::fmt::Debug for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Surface")
            .field("shape", &self.shape.shape_type())
            .field("pose", &self.pose)
            .finish()
    }
}

/// What a field pulls with, wherever it applies.
#[derive(Clone, Debug, PartialEq)]
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
    /// Toward the closest point of `surface` with a constant magnitude `strength` (m/s², >= 0),
    /// and away from it (deeper into the shape) from inside. Zero on the surface itself.
    Surface {
        /// The surface pulled toward.
        surface: Surface,
        /// Acceleration magnitude (m/s²).
        strength: Real,
    },
}

/// Where a field applies.
#[derive(Clone, Debug, PartialEq)]
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
    /// Within `reach` metres of a shape (inside it too): the volume of a small world's
    /// surface pull.
    Near {
        /// The shape measured from.
        surface: Surface,
        /// Largest distance from the shape (m, > 0).
        reach: Real,
    },
}

/// The closest point (world, m) of a surface to a query point, and whether the query point is
/// inside the shape ([`Surface::closest`]).
type Projection = (Point3, bool);

impl Volume {
    /// True when `point` (world, m) lies inside the volume or on its boundary.
    pub fn contains(&self, point: &Point3) -> bool {
        self.test(point).is_some()
    }

    /// `None` when `point` (world, m) is outside; inside, the projection onto the surface a
    /// near volume made to decide (so a surface pull on the same surface need not make it
    /// again), `None` for the other volumes.
    fn test(&self, point: &Point3) -> Option<Option<Projection>> {
        let inside = match self {
            Volume::Everywhere => true,
            Volume::Sphere { centre, radius } => (point - centre).norm_squared() <= radius * radius,
            Volume::Box { mins, maxs } => {
                (0..3).all(|i| mins[i] <= point[i] && point[i] <= maxs[i])
            }
            Volume::Near { surface, reach } => {
                let (closest, within) = surface.closest(point);
                // The distance to the shape, 0 inside it ([`Surface::distance`]).
                let distance = if within {
                    0.0
                } else {
                    (closest - point).norm()
                };
                return (distance <= *reach).then_some(Some((closest, within)));
            }
        };
        inside.then_some(None)
    }
}

/// A gravity field: a pull, the volume it applies in, and its priority against overlapping
/// fields (higher wins).
#[derive(Clone, Debug, PartialEq)]
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
#[non_exhaustive]
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
    /// A surface's pose or shape bounds are not finite.
    #[error("gravity surface must have a finite pose and finite shape bounds")]
    BadSurface,
    /// A near volume's reach is not finite and positive (m).
    #[error("gravity volume reach must be finite and > 0, got {0}")]
    BadReach(Real),
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
    ///
    /// # Example
    /// ```
    /// use spherewalk_core::{GravityField, GravityFields, Point3, Vec3};
    /// let mut fields = GravityFields::new();
    /// fields.add(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))?;
    /// fields.add(GravityField::planet(Point3::new(0.0, 100.0, 0.0), 5.0, 30.0))?;
    /// // Beside the planet its own pull wins: 5 m/s² toward its centre.
    /// assert_eq!(fields.at(&Point3::new(20.0, 100.0, 0.0)), Vec3::new(-5.0, 0.0, 0.0));
    /// // Out of its reach, the level's default.
    /// assert_eq!(fields.at(&Point3::origin()), Vec3::new(0.0, -9.81, 0.0));
    /// # Ok::<(), spherewalk_core::GravityError>(())
    /// ```
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

    /// A small world of any shape: `strength` m/s² toward the closest point of `surface`,
    /// within `reach` metres of it, at priority 1 (so it wins over a level's uniform default).
    pub fn surface(surface: Surface, strength: Real, reach: Real) -> Self {
        Self {
            pull: Pull::Surface {
                surface: surface.clone(),
                strength,
            },
            volume: Volume::Near { surface, reach },
            priority: 1,
        }
    }

    /// Checks every number of the field.
    ///
    /// # Errors
    /// A [`GravityError`] naming the first bad value.
    pub fn validate(&self) -> Result<(), GravityError> {
        match &self.pull {
            Pull::Uniform(a) if !is_finite_vec(a) => {
                return Err(GravityError::NonFiniteAcceleration((*a).into()));
            }
            Pull::Point { centre, .. } if !is_finite_vec(&centre.coords) => {
                return Err(GravityError::NonFiniteCentre(centre.coords.into()));
            }
            Pull::Surface { surface, .. } if !surface.is_finite() => {
                return Err(GravityError::BadSurface);
            }
            Pull::Point { strength, .. } | Pull::Surface { strength, .. }
                if !(strength.is_finite() && *strength >= 0.0) =>
            {
                return Err(GravityError::BadStrength(*strength));
            }
            _ => {}
        }
        match &self.volume {
            Volume::Sphere { centre, radius } => {
                if !(radius.is_finite() && *radius > 0.0 && is_finite_vec(&centre.coords)) {
                    return Err(GravityError::BadSphere(*radius));
                }
            }
            Volume::Near { surface, reach } => {
                if !surface.is_finite() {
                    return Err(GravityError::BadSurface);
                }
                if !(reach.is_finite() && *reach > 0.0) {
                    return Err(GravityError::BadReach(*reach));
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
        self.pull_with(point, None)
    }

    /// [`Self::pull_at`], given the projection of `point` the field's near volume made when it
    /// was tested (reused when the pull's surface is the volume's).
    fn pull_with(&self, point: &Point3, tested: Option<Projection>) -> Vec3 {
        match &self.pull {
            Pull::Uniform(a) => *a,
            Pull::Point { centre, strength } => toward(centre - point, *strength),
            Pull::Surface { surface, strength } => {
                let reuse = match (&self.volume, tested) {
                    (Volume::Near { surface: near, .. }, Some(p)) if near == surface => Some(p),
                    _ => None,
                };
                let (closest, inside) = reuse.unwrap_or_else(|| surface.closest(point));
                let to_surface = closest - point;
                toward(if inside { -to_surface } else { to_surface }, *strength)
            }
        }
    }
}

/// `strength` along `direction` (not normalised); zero when `direction` is within a micrometre
/// of zero, where the pull has no direction.
fn toward(direction: Vec3, strength: Real) -> Vec3 {
    let distance = direction.norm();
    if distance > 1e-6 {
        direction * (strength / distance)
    } else {
        Vec3::zeros()
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
        self.select(point).map(|(i, _)| i)
    }

    /// Gravity (m/s², world) at `point` (world, m): the pull of [`Self::field_at`], or zero.
    pub fn at(&self, point: &Point3) -> Vec3 {
        self.select(point).map_or(Vec3::zeros(), |(i, tested)| {
            self.fields[i].pull_with(point, tested)
        })
    }

    /// The gravity (m/s², world) [`Self::at`] gives at every point alike, when it does: the
    /// field that wins everywhere (the first of the highest priority) applies everywhere and
    /// pulls uniformly; zero with no field. `None` when gravity depends on the point. A host
    /// stepping many characters asks once, and finds each one's gravity point only when it
    /// gets `None`.
    pub fn uniform(&self) -> Option<Vec3> {
        // The first of the highest priority: a later field of the same priority loses to it
        // wherever both apply, as in `select`.
        let top = self
            .fields
            .iter()
            .reduce(|best, f| if f.priority > best.priority { f } else { best });
        match top.map(|f| (&f.volume, &f.pull)) {
            None => Some(Vec3::zeros()),
            Some((Volume::Everywhere, Pull::Uniform(pull))) => Some(*pull),
            Some(_) => None,
        }
    }

    /// [`Self::field_at`], with the projection its near volume made, if any.
    fn select(&self, point: &Point3) -> Option<(usize, Option<Projection>)> {
        let mut best: Option<(usize, i32, Option<Projection>)> = None;
        for (i, f) in self.fields.iter().enumerate() {
            // The priority first: it is free, where a near volume's distance is not.
            if best.is_none_or(|(_, p, _)| f.priority > p)
                && let Some(tested) = f.volume.test(point)
            {
                best = Some((i, f.priority, tested));
            }
        }
        best.map(|(i, _, tested)| (i, tested))
    }
}

/// A host's gravity fields kept from one step to the next. Each step the host shows it the
/// fields it holds, each with a key (an entity's id, say; fields apply in key order on
/// ties): [`FieldCache::holds`] compares them with the ones it was built from (one comparison
/// each, no allocation), and only when one was added, removed or changed does
/// [`FieldCache::rebuild`] make the [`GravityFields`] anew.
#[derive(Clone, Debug, Default)]
pub struct FieldCache {
    /// The fields built from, sorted by key.
    seen: Vec<(u64, GravityField)>,
    /// The keys of those refused, sorted.
    refused: Vec<u64>,
    /// What they make, in key order, less those refused.
    fields: GravityFields,
}

impl FieldCache {
    /// Whether `given` (key, field pairs in any order; keys unique) are exactly the fields
    /// the cache was built from.
    pub fn holds<'a>(&self, given: impl IntoIterator<Item = (u64, &'a GravityField)>) -> bool {
        let mut count = 0;
        for (key, field) in given {
            count += 1;
            let found = self.seen.binary_search_by_key(&key, |(k, _)| *k);
            let Ok(i) = found else { return false };
            let seen = &self.seen[i].1;
            // A refused field may hold NaN, which equals nothing, itself included: it is
            // the same while it reads the same (rare, so the text costs little).
            let same = seen == field
                || (self.refused.binary_search(&key).is_ok()
                    && format!("{seen:?}") == format!("{field:?}"));
            if !same {
                return false;
            }
        }
        count == self.seen.len()
    }

    /// Builds the fields anew from `given` (key, field pairs in any order; keys unique), in
    /// key order. Returns the keys of the fields refused, with why: they are left out.
    pub fn rebuild<'a>(
        &mut self,
        given: impl IntoIterator<Item = (u64, &'a GravityField)>,
    ) -> Vec<(u64, GravityError)> {
        self.seen = given.into_iter().map(|(k, f)| (k, f.clone())).collect();
        self.seen.sort_by_key(|(k, _)| *k);
        self.fields.clear();
        let mut refused = Vec::new();
        for (key, field) in &self.seen {
            if let Err(e) = self.fields.add(field.clone()) {
                refused.push((*key, e));
            }
        }
        self.refused = refused.iter().map(|(k, _)| *k).collect();
        refused
    }

    /// The fields last built ([`FieldCache::rebuild`]).
    pub fn fields(&self) -> &GravityFields {
        &self.fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache sees every kind of change a host can make (a field changed in place, one
    /// added, one removed) and nothing else (the same fields in another order), and builds
    /// the fields in key order whatever order they came in.
    #[test]
    fn the_field_cache_sees_every_change_and_only_changes() {
        let down = GravityField::uniform(Vec3::new(0.0, -9.81, 0.0));
        let weak = GravityField::uniform(Vec3::new(0.0, -2.45, 0.0));
        let side = GravityField::uniform(Vec3::new(3.0, 0.0, 0.0));
        let mut cache = FieldCache::default();
        assert!(cache.holds([]), "an empty cache holds no field");
        let two = [(7, &down), (2, &side)];
        assert!(!cache.holds(two));
        assert!(cache.rebuild(two).is_empty());
        assert!(
            cache.holds([(2, &side), (7, &down)]),
            "order is not a change"
        );
        // Same priority: the lower key applies.
        assert_eq!(
            cache.fields().at(&Point3::origin()),
            Vec3::new(3.0, 0.0, 0.0)
        );
        assert!(!cache.holds([(7, &weak), (2, &side)]), "changed in place");
        assert!(!cache.holds([(7, &down)]), "one removed");
        assert!(
            !cache.holds([(7, &down), (2, &side), (9, &weak)]),
            "one added"
        );
        assert!(!cache.holds([(7, &down), (3, &side)]), "another key");
        let bad = GravityField::uniform(Vec3::new(Real::NAN, 0.0, 0.0));
        let refused = cache.rebuild([(7, &down), (1, &bad)]);
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].0, 1);
        assert_eq!(cache.fields().fields(), &[down.clone()][..]);
        assert!(
            cache.holds([(1, &bad), (7, &down)]),
            "a refused field (NaN and all) is still seen, so it is refused once, not every step"
        );
        assert!(
            !cache.holds([(1, &weak), (7, &down)]),
            "a refused field mended"
        );
    }
}
