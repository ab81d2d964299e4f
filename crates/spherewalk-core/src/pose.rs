//! Where a character is and which way it faces.

use crate::math::{Iso, Point3, Quat, Real, UnitVec3, Vec3};
use crate::shape::SphereStack;

/// A character's placement in the world.
///
/// `position` is the lowest point of the feet sphere (world, m). `orientation` maps the
/// character-local frame to the world: local +Y is the character's *up*, local -Z its
/// *forward* and local +X its *right*.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// Lowest point of the feet sphere (world, m).
    pub position: Point3,
    /// Rotation from the character-local frame to the world frame.
    pub orientation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::new(Point3::origin())
    }
}

impl Pose {
    /// The pose `alpha` (clamped to 0..1) of the way from `self` to `to`: positions lerped,
    /// orientations slerped along the shortest arc (`to`'s when the two are opposite). What a
    /// host draws a character at between the poses its last step started and ended at.
    pub fn interpolate(&self, to: &Pose, alpha: Real) -> Pose {
        let t = alpha.clamp(0.0, 1.0);
        Pose {
            position: self.position + (to.position - self.position) * t,
            orientation: self
                .orientation
                .try_slerp(&to.orientation, t, 1e-6)
                .unwrap_or(to.orientation),
        }
    }

    /// Upright (up = world +Y, forward = world -Z) at `position` (world, m).
    pub fn new(position: Point3) -> Self {
        Self {
            position,
            orientation: Quat::identity(),
        }
    }

    /// At `position` (world, m) with `up` as the character's up, and the heading that the shortest
    /// rotation from world +Y to `up` gives to world -Z.
    pub fn with_up(position: Point3, up: &UnitVec3) -> Self {
        // Straight down: a half turn about world X.
        let orientation = if up.y < -1.0 + 1e-6 {
            Quat::new_unchecked(crate::math::na::Quaternion::new(0.0, 1.0, 0.0, 0.0))
        } else {
            crate::math::rotation_between(&Vec3::y_axis(), up)
        };
        Self {
            position,
            orientation,
        }
    }

    /// The character's up axis (world): local +Y.
    #[inline]
    pub fn up(&self) -> UnitVec3 {
        self.orientation * Vec3::y_axis()
    }

    /// The character's forward axis (world): local -Z.
    #[inline]
    pub fn forward(&self) -> UnitVec3 {
        -(self.orientation * Vec3::z_axis())
    }

    /// The character's right axis (world): local +X.
    #[inline]
    pub fn right(&self) -> UnitVec3 {
        self.orientation * Vec3::x_axis()
    }

    /// The pose as an isometry from the character-local frame to the world: the pose of a
    /// character's body collider, or of anything placed in its frame.
    #[inline]
    pub fn iso(&self) -> Iso {
        Iso::from_parts(self.position.coords.into(), self.orientation)
    }

    /// World centre of sphere `index` of `stack` (m); `None` when the index is out of range.
    pub fn sphere_centre(&self, stack: &SphereStack, index: usize) -> Option<Point3> {
        let s = stack.spheres().get(index)?;
        Some(self.centre_at(s.offset_local))
    }

    /// World centres of every sphere of `stack` (m), feet first: the one place a stack is
    /// placed in the world.
    pub fn sphere_centres<'a>(
        &'a self,
        stack: &'a SphereStack,
    ) -> impl Iterator<Item = Point3> + 'a {
        // `centre_at` for each sphere, with up found once.
        let up = self.up();
        stack
            .spheres()
            .iter()
            .map(move |s| self.centre_along(&up, s.offset_local))
    }

    /// World point at `offset_local` metres along the character's up from `position`.
    #[inline]
    pub fn centre_at(&self, offset_local: Real) -> Point3 {
        self.centre_along(&self.up(), offset_local)
    }

    /// [`Self::centre_at`] given this pose's `up` (world), for callers that already have it.
    #[inline]
    pub(crate) fn centre_along(&self, up: &UnitVec3, offset_local: Real) -> Point3 {
        self.position + up.into_inner() * offset_local
    }

    /// True when the position and orientation hold only finite numbers.
    pub fn is_finite(&self) -> bool {
        self.position.iter().all(|c| c.is_finite())
            && self.orientation.coords.iter().all(|c| c.is_finite())
    }
}
