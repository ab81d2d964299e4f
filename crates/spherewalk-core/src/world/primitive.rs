//! Primitives: the pieces of colliders the motor works on (world-space one-sided triangles of
//! meshes and heightfields, balls, cuboids and capsules resolved in closed form, and other
//! solid parry shapes). Making them from parry shapes is in `decompose.rs`; measuring them
//! (closest point, extent, sphere cast, ray cast) in `measure.rs`.

use super::ColliderId;
use super::closest::SurfacePoint;
use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::bounding_volume::Aabb;

/// The geometry of one primitive, in the world frame.
///
/// Balls, cuboids and capsules (whole colliders or compound parts) are resolved when gathered,
/// so their closest points, casts and extents are closed forms with no lookup and no dynamic
/// dispatch; every other solid shape stays a [`PrimitiveShape::Solid`] answered by parry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PrimitiveShape {
    /// A one-sided triangle of a trimesh or heightfield (world, m). Its front is the side its
    /// `normal` points to: counter-clockwise winding for trimeshes, up for heightfields.
    Triangle {
        /// The three corners (world, m).
        corners: [Point3; 3],
        /// The face normal (world), pointing to the front side.
        normal: UnitVec3,
    },
    /// A solid ball.
    Ball {
        /// Its centre (world, m).
        centre: Point3,
        /// Its radius (m).
        radius: Real,
    },
    /// A solid box.
    Cuboid {
        /// Its pose (world, m, rad): the box's centre and axes.
        pose: Iso,
        /// Half extents along its own axes (m).
        half: Vec3,
    },
    /// A solid capsule: the points within `radius` of the segment `a`-`b`.
    Capsule {
        /// One end of its axis (world, m).
        a: Point3,
        /// The other end of its axis (world, m).
        b: Point3,
        /// Its radius (m).
        radius: Real,
    },
    /// Any other solid parry shape: the whole collider, or part `part` of a compound.
    Solid {
        /// Index of the compound part, or `u32::MAX` for the collider's own shape.
        part: u32,
        /// World pose of the shape (m, rad).
        pose: Iso,
    },
}

impl PrimitiveShape {
    /// True for solids (everything but one-sided triangles).
    pub fn is_solid(&self) -> bool {
        !matches!(self, Self::Triangle { .. })
    }
}

/// A piece of a collider: what pushback, ground probing and casts iterate over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Primitive {
    /// The collider this primitive belongs to.
    pub collider: ColliderId,
    /// False when the collider is flagged not walkable.
    pub walkable: bool,
    /// True for a character's body ([`super::ColliderFlags::character`]).
    pub character: bool,
    /// True when the collider is climbable ([`super::ColliderFlags::climbable`]).
    pub climbable: bool,
    /// World bounding box of the primitive (m).
    pub aabb: Aabb,
    /// Its geometry (world frame).
    pub shape: PrimitiveShape,
}

impl Primitive {
    /// Whether a closest point `sp` of this primitive, found for a sphere centre whose move
    /// started at `from` (world, m; the centre itself for a sphere at rest), is a contact.
    ///
    /// False only for a centre behind a one-sided face that it did not cross from the front
    /// (`from` already behind the face's plane). Seen from behind, a one-sided face is not
    /// there: it is a flipped triangle of a floor the character stands on, or the back of a
    /// wall it walks out of. A centre that crossed the face during its move (tunnelling, a
    /// push from a moving platform) is inside and is pushed back out to the front. Solids and
    /// points in front of a face always count.
    pub fn holds(&self, sp: &SurfacePoint, from: &Point3) -> bool {
        match self.shape {
            PrimitiveShape::Triangle { corners, normal } if sp.distance < 0.0 => {
                (from - corners[0]).dot(&normal) >= 0.0
            }
            _ => true,
        }
    }
}
