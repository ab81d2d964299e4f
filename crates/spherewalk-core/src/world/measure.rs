//! Measuring one primitive, for any backend: closest point, extent, sphere cast and ray cast.
//! One dispatch on [`PrimitiveShape`] per operation: the closed forms of `closest.rs` and
//! `cast.rs` for triangles, balls, cuboids and capsules, parry for other solids (reached
//! through [`Geometry::solid_shape`]). Where no closed form answers (a sphere cast starting in
//! overlap, a ray cast on a solid), the primitive is seen as a parry shape
//! ([`as_parry_shape`]).

use super::Geometry;
use super::cast::{self, SphereCast, Sweep};
use super::closest::{self, DEGENERATE, SurfacePoint};
use super::primitive::{Primitive, PrimitiveShape};
use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, Capsule, Cuboid, Shape, Triangle};

/// Newton steps polishing a sphere-cast hit.
const REFINE_STEPS: usize = 3;
/// Below this approach cosine a cast is grazing and the GJK result is kept as is.
const GRAZING: Real = 0.05;

/// A sphere-cast hit: the distance travelled (m), the contact point (world, m) and the contact
/// normal from the surface toward the sphere (world).
pub(crate) type CastHit = (Real, Point3, UnitVec3);

/// Closest point of `prim` to `query` (world, m), if the signed distance is at most
/// `max_distance` and, behind a one-sided triangle, no deeper than `max_distance`.
pub(crate) fn closest_primitive<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    match prim.shape {
        PrimitiveShape::Triangle { corners, normal } => {
            closest::closest_triangle(&corners, &normal, query, max_distance)
        }
        PrimitiveShape::Ball { centre, radius } => {
            closest::closest_ball(&centre, radius, query, max_distance)
        }
        PrimitiveShape::Cuboid { pose, half } => {
            closest::closest_cuboid(&pose, &half, query, max_distance)
        }
        PrimitiveShape::Capsule { a, b, radius } => {
            closest::closest_capsule(&a, &b, radius, query, max_distance)
        }
        PrimitiveShape::Solid { part, pose } => {
            let shape = world.solid_shape(prim.collider, part)?;
            closest::closest_solid(shape, &pose, query, max_distance)
        }
    }
}

/// The contact of a sphere of `radius` (m) centred at `centre` (world) with `prim`: its
/// closest point within `radius`, if the primitive holds it ([`Primitive::holds`]: not a
/// centre behind a one-sided face it did not cross from `from`). The sphere's depth is
/// `radius - distance`.
pub(crate) fn held_contact<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    centre: &Point3,
    radius: Real,
    from: &Point3,
) -> Option<SurfacePoint> {
    closest_primitive(world, prim, centre, radius).filter(|sp| prim.holds(sp, from))
}

/// How far `prim` reaches along unit `dir` (world): the largest `p . dir` (m) over its points.
/// Exact for triangles and convex solids; other solids answer from their bounding box, which
/// is never less.
pub(crate) fn extent_primitive<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    dir: &UnitVec3,
) -> Real {
    let corners_extent = |corners: &mut dyn Iterator<Item = Point3>| {
        corners
            .map(|p| p.coords.dot(dir))
            .fold(Real::NEG_INFINITY, Real::max)
    };
    match prim.shape {
        PrimitiveShape::Triangle { corners, .. } => corners_extent(&mut corners.into_iter()),
        PrimitiveShape::Ball { centre, radius } => centre.coords.dot(dir) + radius,
        PrimitiveShape::Cuboid { pose, half } => {
            let local = pose.inverse_transform_vector(dir);
            let corner = Vec3::new(
                half.x.copysign(local.x),
                half.y.copysign(local.y),
                half.z.copysign(local.z),
            );
            (pose * Point3::from(corner)).coords.dot(dir)
        }
        PrimitiveShape::Capsule { a, b, radius } => {
            a.coords.dot(dir).max(b.coords.dot(dir)) + radius
        }
        PrimitiveShape::Solid { part, pose } => {
            if let Some(support) = world
                .solid_shape(prim.collider, part)
                .and_then(|s| s.as_support_map())
            {
                return support.support_point(&pose, dir).coords.dot(dir);
            }
            let b = &prim.aabb;
            corners_extent(&mut (0..8).map(|i| {
                Point3::new(
                    if i & 1 == 0 { b.mins.x } else { b.maxs.x },
                    if i & 2 == 0 { b.mins.y } else { b.maxs.y },
                    if i & 4 == 0 { b.mins.z } else { b.maxs.z },
                )
            }))
        }
    }
}

/// Casts the sphere of `sweep` against `prim`: the closed form where there is one
/// ([`exact_cast_sphere`]), else parry's GJK polished by [`refine_cast`]. One-sided triangles
/// are only hit from the front.
pub(crate) fn cast_sphere_primitive<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    sweep: &Sweep,
) -> Option<CastHit> {
    match exact_cast_sphere(prim, sweep) {
        SphereCast::Hit { toi, point, normal } => Some((toi, point, normal)),
        SphereCast::Miss => None,
        SphereCast::Fallback => {
            let rough = as_parry_shape(world, prim, |shape, pose| {
                gjk_cast_sphere(shape, pose, sweep)
            })?;
            Some(refine_cast(world, prim, sweep, rough))
        }
    }
}

/// The closed-form sphere cast of `sweep` against `prim`: a triangle (a miss from behind),
/// ball, cuboid or capsule; [`SphereCast::Fallback`] for other solids and for starts that
/// overlap the primitive.
pub(crate) fn exact_cast_sphere(prim: &Primitive, sweep: &Sweep) -> SphereCast {
    match prim.shape {
        PrimitiveShape::Triangle { normal, .. } if normal.dot(&sweep.dir) >= 0.0 => {
            SphereCast::Miss
        }
        PrimitiveShape::Triangle { corners, .. } => cast::cast_sphere_triangle(&corners, sweep),
        PrimitiveShape::Ball { centre, radius } => cast::cast_sphere_ball(&centre, radius, sweep),
        PrimitiveShape::Cuboid { pose, half } => cast::cast_sphere_cuboid(&half, &pose, sweep),
        PrimitiveShape::Capsule { a, b, radius } => {
            cast::cast_sphere_capsule(&a, &b, radius, sweep)
        }
        PrimitiveShape::Solid { .. } => SphereCast::Fallback,
    }
}

/// Polishes a sphere-cast hit with Newton steps on the exact closest-point distance, so
/// resting contacts are found to well under a micrometre: GJK hits (millimetre accurate)
/// and the ground probe's hits for the true radius (it casts a slightly smaller sphere).
pub(crate) fn refine_cast<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    sweep: &Sweep,
    rough: CastHit,
) -> CastHit {
    let (mut toi, mut point, mut normal) = rough;
    if normal.dot(&sweep.dir) > 0.0 {
        normal = -normal;
    }
    for _ in 0..REFINE_STEPS {
        let Some(sp) = closest_primitive(world, prim, &sweep.at(toi), Real::MAX) else {
            break;
        };
        let approach = sp.contact_normal.dot(&sweep.dir);
        if approach > -GRAZING {
            break;
        }
        point = sp.point;
        normal = sp.contact_normal;
        let gap = sp.distance - sweep.radius;
        toi = (toi - gap / approach).max(0.0);
        if gap.abs() < 1e-7 {
            break;
        }
    }
    (toi, point, normal)
}

/// Casts a ray from `origin` along unit `dir` (world) up to `max_distance` (m) against
/// `prim`. One-sided triangles are only hit from the front. Returns the distance and the
/// surface normal facing the ray's origin (world).
pub(crate) fn cast_ray_primitive<G: Geometry + ?Sized>(
    world: &G,
    prim: &Primitive,
    origin: &Point3,
    dir: &UnitVec3,
    max_distance: Real,
) -> Option<(Real, UnitVec3)> {
    let ray = Ray::new(*origin, dir.into_inner());
    // Shapes already in the world frame are cast in it (no pose to carry the ray through).
    let hit = match prim.shape {
        PrimitiveShape::Triangle { corners, normal } => {
            if normal.dot(dir) >= 0.0 {
                return None;
            }
            let tri = Triangle::new(corners[0], corners[1], corners[2]);
            tri.cast_local_ray_and_get_normal(&ray, max_distance, true)?
        }
        PrimitiveShape::Capsule { a, b, radius } => {
            Capsule::new(a, b, radius).cast_local_ray_and_get_normal(&ray, max_distance, true)?
        }
        _ => as_parry_shape(world, prim, |shape, pose| {
            shape.cast_ray_and_get_normal(pose, &ray, max_distance, true)
        })?,
    };
    let mut normal = UnitVec3::try_new(hit.normal, DEGENERATE)?;
    if normal.dot(dir) > 0.0 {
        normal = -normal;
    }
    Some((hit.time_of_impact, normal))
}

/// Calls `measure` with `prim` as a parry shape and its pose (world): the one place a
/// primitive becomes a parry shape, for the queries with no closed form here (a sphere cast
/// starting in overlap, a ray cast on a solid). `None` when a solid's collider is gone or
/// `measure` finds nothing.
fn as_parry_shape<G: Geometry + ?Sized, R>(
    world: &G,
    prim: &Primitive,
    measure: impl FnOnce(&dyn Shape, &Iso) -> Option<R>,
) -> Option<R> {
    match prim.shape {
        PrimitiveShape::Triangle { corners, .. } => measure(
            &Triangle::new(corners[0], corners[1], corners[2]),
            &Iso::identity(),
        ),
        PrimitiveShape::Ball { centre, radius } => measure(
            &Ball::new(radius),
            &Iso::translation(centre.x, centre.y, centre.z),
        ),
        PrimitiveShape::Cuboid { pose, half } => measure(&Cuboid::new(half), &pose),
        PrimitiveShape::Capsule { a, b, radius } => {
            measure(&Capsule::new(a, b, radius), &Iso::identity())
        }
        PrimitiveShape::Solid { part, pose } => {
            measure(world.solid_shape(prim.collider, part)?, &pose)
        }
    }
}

/// GJK sphere cast of the sphere of `sweep` against `shape` at `pose` (world): parry's
/// `cast_shapes`, millimetre accurate. An overlapping start reports its contact at distance 0.
pub(crate) fn gjk_cast_sphere(shape: &dyn Shape, pose: &Iso, sweep: &Sweep) -> Option<CastHit> {
    let ball = Ball::new(sweep.radius);
    let centre = &sweep.centre;
    let ball_pose = Iso::translation(centre.x, centre.y, centre.z);
    let options = ShapeCastOptions {
        max_time_of_impact: sweep.max_distance,
        target_distance: 0.0,
        stop_at_penetration: false,
        compute_impact_geometry_on_penetration: true,
    };
    let hit = cast_shapes(
        &ball_pose,
        &sweep.dir,
        &ball,
        pose,
        &Vec3::zeros(),
        shape,
        options,
    )
    .ok()??;
    Some((hit.time_of_impact, pose * hit.witness2, pose * hit.normal2))
}
