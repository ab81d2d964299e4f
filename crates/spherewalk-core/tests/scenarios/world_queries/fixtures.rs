//! Shared fixtures of the world query tests: tolerances, filters, directions and worlds.

use approx::assert_abs_diff_eq;
use spherewalk_core::na::DMatrix;
use spherewalk_core::parry3d::bounding_volume::Aabb;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, Point3, Real, UnitVec3, Vec3, world::QueryFilter,
    world::SurfacePoint,
};

/// Exact-geometry tolerance (m): parry projects onto boxes, balls and capsules in closed form,
/// so only f32 rounding of coordinates up to ~10 m remains (ulp ~1e-6 m); 1e-5 m covers a few
/// of those.
pub const EXACT: Real = 1e-5;
/// Normals are unit vectors computed from the same f32 geometry: a few ulps of 1.
pub const NORMAL: Real = 1e-5;
/// Casts are refined with Newton steps on the exact distance to well under a micrometre; the
/// brief for this world is 1e-5 m on the distance.
pub const CAST: Real = 1e-5;

/// A filter that accepts every collider.
pub fn all() -> QueryFilter {
    QueryFilter::default()
}

/// World -Y.
pub fn down() -> UnitVec3 {
    -Vec3::y_axis()
}

/// The unit vector along `(x, y, z)`.
pub fn dir(x: Real, y: Real, z: Real) -> UnitVec3 {
    UnitVec3::new_normalize(Vec3::new(x, y, z))
}

/// Inserts `desc`, which the test knows is valid.
pub fn insert(world: &mut CollisionWorld, desc: ColliderDesc) -> ColliderId {
    world.insert(desc).expect("valid collider")
}

/// A 20 m x 20 m box floor, 1 m thick, whose top face is y = 0.
pub fn floor_box() -> ColliderDesc {
    ColliderDesc::new(SharedShape::cuboid(10.0, 0.5, 10.0)).translation(0.0, -0.5, 0.0)
}

/// A flat 10 m x 10 m trimesh square at y = 0, wound counter-clockwise seen from above, so
/// its front faces +Y. The two triangles share the diagonal x = z.
pub fn trimesh_floor() -> SharedShape {
    let vertices = vec![
        Point3::new(-5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, 5.0),
        Point3::new(-5.0, 0.0, 5.0),
    ];
    // (v3 - v0) x (v2 - v0) = (0,0,10) x (10,0,10) = (0,100,0): +Y, and likewise for the other.
    SharedShape::trimesh(vertices, vec![[0, 3, 2], [0, 2, 1]]).expect("valid trimesh")
}

/// A 10 m x 10 m heightfield (3 x 3 samples, 5 m cells) at constant height `h` (m).
pub fn flat_field(h: Real) -> SharedShape {
    SharedShape::heightfield(DMatrix::from_element(3, 3, h), Vec3::new(10.0, 1.0, 10.0))
}

/// A 10 m x 10 m heightfield on the plane y = 0.5 x (columns run along x: -5, 0, 5 m).
pub fn sloped_field() -> SharedShape {
    let heights = DMatrix::from_fn(3, 3, |_row, col| 0.5 * (-5.0 + 5.0 * col as Real));
    SharedShape::heightfield(heights, Vec3::new(10.0, 1.0, 10.0))
}

/// Checks a surface point: signed distance, contact normal and closest point.
pub fn assert_surface(sp: &SurfacePoint, distance: Real, normal: Vec3, point: Point3, eps: Real) {
    assert_abs_diff_eq!(sp.distance, distance, epsilon = eps);
    assert_abs_diff_eq!(
        sp.contact_normal.into_inner(),
        normal,
        epsilon = NORMAL.max(eps)
    );
    assert_abs_diff_eq!(sp.point, point, epsilon = eps);
}

/// The closest surface point to `p` within `max` metres, over every collider.
pub fn closest(world: &CollisionWorld, p: Point3, max: Real) -> Option<(ColliderId, SurfacePoint)> {
    world.closest_point(&p, max, &all())
}

/// The ids of the colliders whose AABB overlaps `aabb` and pass `filter`.
pub fn overlap(world: &CollisionWorld, aabb: &Aabb, filter: &QueryFilter) -> Vec<ColliderId> {
    let mut out = Vec::new();
    world.overlap_aabb(aabb, filter, &mut out);
    out
}
