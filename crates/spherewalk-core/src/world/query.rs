//! The queries every [`Geometry`] answers ([`WorldQueries`]): on one primitive, and on the
//! whole world (closest point, penetration, sphere cast, ray cast), each gathering the
//! primitives around the query and measuring them as the motor does.

use super::cast::Sweep;
use super::measure;
use super::sphere_box;
use super::{ColliderId, Geometry, Primitive, QueryFilter, SurfacePoint};
use crate::math::{Point3, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::shape::SphereStack;
use parry3d::bounding_volume::Aabb;

/// Result of [`WorldQueries::cast_sphere`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereCastHit {
    /// The collider hit.
    pub collider: ColliderId,
    /// Distance the sphere centre travelled before touching (m).
    pub distance: Real,
    /// Contact point on the collider (world, m).
    pub point: Point3,
    /// Contact normal, from the collider toward the sphere (world).
    pub normal: UnitVec3,
}

/// Result of [`WorldQueries::cast_ray`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The collider hit.
    pub collider: ColliderId,
    /// Distance along the ray (m).
    pub distance: Real,
    /// Hit point (world, m).
    pub point: Point3,
    /// Surface normal facing the ray origin (world).
    pub normal: UnitVec3,
}

/// Half-width (m) given to a ray's bounding box (see [`swept_box`]).
const RAY_BOX_MARGIN: Real = 1e-4;

/// The bounding box (world, m) of a sphere of `radius` (m) moving `distance` (m) from `start`
/// along unit `dir`; a ray (radius 0) gets a little width.
pub(crate) fn swept_box(start: &Point3, dir: &UnitVec3, distance: Real, radius: Real) -> Aabb {
    let end = start + dir.into_inner() * distance;
    // A ray's box gets a little width: a zero-width box lying exactly on a heightfield's grid
    // line overlaps no cell in parry's lookup, and the ray would miss the field.
    let r = Vec3::repeat(radius.max(RAY_BOX_MARGIN));
    Aabb::new(start.inf(&end) - r, start.sup(&end) + r)
}

/// The box (world, m) the sphere of `sweep` passes through: [`swept_box`] of its parts.
fn sweep_box(sweep: &Sweep) -> Aabb {
    swept_box(&sweep.centre, &sweep.dir, sweep.max_distance, sweep.radius)
}

/// Deepest penetration (m, >= 0) of a sphere at rest at `centre` into `prims`.
fn deepest_of_sphere<G: Geometry + ?Sized>(
    world: &G,
    prims: &[Primitive],
    centre: &Point3,
    radius: Real,
) -> Real {
    let bounds = sphere_box(centre, radius);
    let mut deepest: Real = 0.0;
    super::each_overlapping(prims, &bounds, |k| {
        if let Some(sp) = measure::held_contact(world, &prims[k], centre, radius, centre) {
            deepest = deepest.max(radius - sp.distance);
        }
    });
    deepest
}

/// Deepest penetration (m, >= 0) of any sphere of `stack` at rest at `pose` into `prims`: the
/// one measure of a stack's overlap (the step report, traces, tests).
pub(crate) fn deepest_among<G: Geometry + ?Sized>(
    world: &G,
    prims: &[Primitive],
    pose: &Pose,
    stack: &SphereStack,
) -> Real {
    pose.sphere_centres(stack)
        .zip(stack.spheres())
        .map(|(centre, s)| deepest_of_sphere(world, prims, &centre, s.radius))
        .fold(0.0, Real::max)
}

/// Closest surface point among `prims` to `query` within `max_distance`: smallest signed
/// distance first, ties broken by primitive order (deterministic).
fn closest_among<G: Geometry + ?Sized>(
    world: &G,
    prims: &[Primitive],
    query: &Point3,
    max_distance: Real,
) -> Option<(ColliderId, SurfacePoint)> {
    let mut best: Option<(ColliderId, SurfacePoint)> = None;
    for prim in prims {
        if let Some(sp) = measure::closest_primitive(world, prim, query, max_distance)
            && best.is_none_or(|(_, b)| sp.distance < b.distance)
        {
            best = Some((prim.collider, sp));
        }
    }
    best
}

/// Nearest hit of the sphere of `sweep` among `prims` (deterministic tie-break by order), with
/// the index of the primitive hit.
pub(crate) fn cast_sphere_among<G: Geometry + ?Sized>(
    world: &G,
    prims: &[Primitive],
    sweep: &Sweep,
) -> Option<(usize, SphereCastHit)> {
    let mut best: Option<(usize, SphereCastHit)> = None;
    let swept = sweep_box(sweep);
    // Cast no further than the nearest hit so far.
    let mut shorter = *sweep;
    super::each_overlapping(prims, &swept, |k| {
        let prim = &prims[k];
        shorter.max_distance = best.map_or(sweep.max_distance, |(_, b)| b.distance);
        if let Some((distance, point, normal)) =
            measure::cast_sphere_primitive(world, prim, &shorter)
            && best.is_none_or(|(_, b)| distance < b.distance)
        {
            let hit = SphereCastHit {
                collider: prim.collider,
                distance,
                point,
                normal,
            };
            best = Some((k, hit));
        }
    });
    best
}

/// Nearest ray hit among `prims` (deterministic tie-break by order), with the index of the
/// primitive hit.
pub(crate) fn cast_ray_among<G: Geometry + ?Sized>(
    world: &G,
    prims: &[Primitive],
    origin: &Point3,
    dir: &UnitVec3,
    max_distance: Real,
) -> Option<(usize, RayHit)> {
    let mut best: Option<(usize, RayHit)> = None;
    let swept = swept_box(origin, dir, max_distance, 0.0);
    super::each_overlapping(prims, &swept, |k| {
        let prim = &prims[k];
        let limit = best.map_or(max_distance, |(_, b)| b.distance);
        if let Some((distance, normal)) =
            measure::cast_ray_primitive(world, prim, origin, dir, limit)
            && best.is_none_or(|(_, b)| distance < b.distance)
        {
            let hit = RayHit {
                collider: prim.collider,
                distance,
                point: origin + dir.into_inner() * distance,
                normal,
            };
            best = Some((k, hit));
        }
    });
    best
}

/// The primitives of the colliders passing `filter` around `bounds` (world, m).
fn gathered<G: Geometry + ?Sized>(
    world: &G,
    bounds: &Aabb,
    filter: &QueryFilter,
) -> Vec<Primitive> {
    let mut ids = Vec::new();
    let mut prims = Vec::new();
    world.gather_primitives(bounds, filter, &mut ids, &mut prims);
    prims
}

/// The queries of any collision backend, written once on its three calls: on one
/// [`Primitive`] (closest point, extent, sphere cast, ray cast) and on the whole world (the
/// same through [`Geometry::gather_primitives`], plus penetration depths). Implemented for
/// every [`Geometry`], so [`crate::CollisionWorld`], `dyn Geometry` and other backends all
/// answer them; bring it in scope with the prelude.
///
/// # Example
/// ```
/// use spherewalk_core::parry3d::shape::SharedShape;
/// use spherewalk_core::prelude::*;
/// let mut world = CollisionWorld::new();
/// world.insert(ColliderDesc::new(SharedShape::ball(1.0)))?;
/// let backend: &dyn spherewalk_core::backend::Geometry = &world;
/// // The same query on the world and on the backend trait object: 2 m from the ball's top.
/// let top = Point3::new(0.0, 3.0, 0.0);
/// let (_, on_world) = world.closest_point(&top, 5.0, &QueryFilter::default()).expect("near");
/// let (_, on_backend) = backend.closest_point(&top, 5.0, &QueryFilter::default()).expect("near");
/// assert_eq!(on_world, on_backend);
/// assert!((on_world.distance - 2.0).abs() < 1e-6);
/// # Ok::<(), spherewalk_core::WorldError>(())
/// ```
pub trait WorldQueries: Geometry {
    /// Closest point of `prim` to `query` (world, m), if the signed distance is at most
    /// `max_distance` and, behind a one-sided triangle, no deeper than `max_distance`.
    fn closest_primitive(
        &self,
        prim: &Primitive,
        query: &Point3,
        max_distance: Real,
    ) -> Option<SurfacePoint> {
        measure::closest_primitive(self, prim, query, max_distance)
    }

    /// How far `prim` reaches along unit `dir` (world): the largest `p . dir` (m) over its
    /// points. Exact for triangles and convex solids; other solids answer from their bounding
    /// box, which is never less.
    fn extent_primitive(&self, prim: &Primitive, dir: &UnitVec3) -> Real {
        measure::extent_primitive(self, prim, dir)
    }

    /// Casts the sphere of `sweep` (world, m) against `prim`. One-sided triangles are only
    /// hit from the front. Returns the distance travelled (m), the contact point and the
    /// contact normal (world).
    fn cast_sphere_primitive(
        &self,
        prim: &Primitive,
        sweep: &Sweep,
    ) -> Option<(Real, Point3, UnitVec3)> {
        measure::cast_sphere_primitive(self, prim, sweep)
    }

    /// Casts a ray from `origin` along unit `dir` (world) up to `max_distance` (m) against
    /// `prim`. One-sided triangles are only hit from the front. Returns the distance and the
    /// surface normal facing the ray's origin (world).
    fn cast_ray_primitive(
        &self,
        prim: &Primitive,
        origin: &Point3,
        dir: &UnitVec3,
        max_distance: Real,
    ) -> Option<(Real, UnitVec3)> {
        measure::cast_ray_primitive(self, prim, origin, dir, max_distance)
    }

    /// The closest surface point to `query` (world, m) within `max_distance` (m), with
    /// sidedness: a negative distance means `query` is inside a solid or behind a one-sided
    /// mesh face (by at most `max_distance`).
    fn closest_point(
        &self,
        query: &Point3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<(ColliderId, SurfacePoint)> {
        let prims = gathered(self, &sphere_box(query, max_distance), filter);
        closest_among(self, &prims, query, max_distance)
    }

    /// Deepest penetration (m, >= 0) of a sphere of `radius` at `centre` (world) into any
    /// collider passing `filter`; 0 when it touches nothing. The sphere is at rest: a centre
    /// behind a one-sided face does not count ([`Primitive::holds`]).
    fn sphere_penetration(&self, centre: &Point3, radius: Real, filter: &QueryFilter) -> Real {
        let prims = gathered(self, &sphere_box(centre, radius), filter);
        deepest_of_sphere(self, &prims, centre, radius)
    }

    /// Deepest penetration (m, >= 0) of any sphere of `stack` at `pose` into the colliders
    /// passing `filter`, as the motor's [`crate::StepReport::max_penetration`] measures it.
    fn stack_penetration(&self, pose: &Pose, stack: &SphereStack, filter: &QueryFilter) -> Real {
        let r = Vec3::repeat(stack.height());
        let bounds = Aabb::new(pose.position - r, pose.position + r);
        let prims = gathered(self, &bounds, filter);
        deepest_among(self, &prims, pose, stack)
    }

    /// Casts the sphere of `sweep` (world, m) through the colliders passing `filter`; returns
    /// the first hit. Shapes the sphere already overlaps and is moving away from are ignored;
    /// one-sided faces are only hit from the front.
    fn cast_sphere(&self, sweep: &Sweep, filter: &QueryFilter) -> Option<SphereCastHit> {
        let prims = gathered(self, &sweep_box(sweep), filter);
        cast_sphere_among(self, &prims, sweep).map(|(_, hit)| hit)
    }

    /// Casts a ray from `origin` along unit `dir` (world) up to `max_distance` (m); returns the
    /// first hit with the surface normal facing the origin. One-sided faces are only hit from
    /// the front.
    fn cast_ray(
        &self,
        origin: &Point3,
        dir: &UnitVec3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<RayHit> {
        let prims = gathered(self, &swept_box(origin, dir, max_distance, 0.0), filter);
        cast_ray_among(self, &prims, origin, dir, max_distance).map(|(_, hit)| hit)
    }
}

impl<G: Geometry + ?Sized> WorldQueries for G {}
