//! The collision backend: what the motor asks of the geometry it moves through.
//!
//! The motor never walks a broad phase or a shape itself. Each step it asks its [`Geometry`]
//! for the [`Primitive`]s near the character (triangles, balls, boxes, capsules, and other
//! solids by reference), measures everything against those, and looks up a collider's motion
//! only to carry a character standing on it. [`CollisionWorld`] is the embedded backend; a
//! physics engine's own structures can be another (the `spherewalk-rapier` crate answers
//! from rapier's broad phase and collider set, with no copy of the scene).

use super::decompose::{Decompose, Owner, WHOLE};
use super::{ColliderFlags, ColliderId, Primitive, QueryFilter};
use crate::math::{Iso, Vec3};
use parry3d::bounding_volume::Aabb;
use parry3d::shape::Shape;

/// Where a collider is and how it moves, for carrying the characters standing on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderMotion {
    /// World pose (m, rad): its translation is the point the angular velocity turns about.
    pub pose: Iso,
    /// Linear velocity (m/s, world).
    pub linear: Vec3,
    /// Angular velocity (rad/s, world) about the pose's origin.
    pub angular: Vec3,
}

/// A collision backend: the geometry a [`crate::Motor`] moves characters through.
///
/// Implementations must be deterministic: the same scene and query give the same primitives in
/// the same order, or steps stop being reproducible (and parallel runs stop matching serial
/// ones). Every query of the motor (closest points, casts, penetration depths) is built on
/// these three calls; [`super::WorldQueries`] gives them to every backend.
pub trait Geometry: Sync {
    /// Appends to `out` every primitive (world frame) of the colliders passing `filter` whose
    /// bounding boxes overlap `aabb` (world, m): the triangles of meshes and heightfields
    /// within the box and the solid shapes, in a deterministic order (collider id, then part
    /// order, for [`crate::CollisionWorld`]). `ids` is scratch space the backend may use.
    ///
    /// A backend that keeps parry shapes can build the primitives of each collider with
    /// [`shape_primitives`].
    fn gather_primitives(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        ids: &mut Vec<ColliderId>,
        out: &mut Vec<Primitive>,
    );

    /// The parry shape (its own local frame) a [`crate::backend::PrimitiveShape::Solid`] primitive of
    /// `collider` refers to: the collider's whole shape when `part` is `u32::MAX`, else part
    /// `part` of its compound. `None` when the collider is gone.
    fn solid_shape(&self, collider: ColliderId, part: u32) -> Option<&dyn Shape>;

    /// The pose and velocities of `collider` (world); `None` when it is gone.
    fn motion(&self, collider: ColliderId) -> Option<ColliderMotion>;
}

/// Appends to `out` the primitives (world frame) of one collider, `collider` with `flags`,
/// whose parry shape stands at a pose (world, m, rad), both given as `placed`: the triangles
/// of a trimesh or heightfield whose boxes overlap `region` (world, m; one-sided unless
/// [`ColliderFlags::two_sided`]), the parts of a compound overlapping it, or the shape itself.
/// Balls, cuboids and capsules become closed-form primitives; other solids refer back to the
/// shape through [`Geometry::solid_shape`] (part `u32::MAX` for the whole shape, else the
/// compound part's index). The same decomposition [`super::CollisionWorld`] uses, for other
/// backends.
pub fn shape_primitives(
    collider: ColliderId,
    flags: &ColliderFlags,
    placed: (&dyn Shape, &Iso),
    region: &Aabb,
    out: &mut Vec<Primitive>,
) {
    let (shape, pose) = placed;
    let owner = Owner::new(collider, flags);
    let faces = None;
    Decompose {
        owner,
        region,
        out,
        faces,
    }
    .shape(shape, pose, WHOLE);
}

/// The shape a [`crate::backend::PrimitiveShape::Solid`] primitive's `part` names within its collider's
/// `shape`: the shape itself for `u32::MAX`, else that part of a compound; `None` for a part
/// the shape does not have. For [`Geometry::solid_shape`] implementations.
pub fn solid_part(shape: &dyn Shape, part: u32) -> Option<&dyn Shape> {
    if part == WHOLE {
        return Some(shape);
    }
    let compound = shape.as_compound()?;
    compound.shapes().get(part as usize).map(|(_, s)| &*s.0)
}

/// Whether boxes `a` and `b` (same frame, m) overlap or touch: parry's `intersects`, false
/// when a coordinate is NaN: six comparisons and-ed together. It tests the nodes of the BVH
/// walks (the collision world's, a mesh's) and, folded into a bit mask, the step's first cut
/// of its primitives.
#[inline]
pub fn boxes_overlap(a: &Aabb, b: &Aabb) -> bool {
    let (lo, hi) = (&a.mins, &a.maxs);
    let (other_lo, other_hi) = (&b.mins, &b.maxs);
    (lo.x <= other_hi.x)
        & (lo.y <= other_hi.y)
        & (lo.z <= other_hi.z)
        & (other_lo.x <= hi.x)
        & (other_lo.y <= hi.y)
        & (other_lo.z <= hi.z)
}
