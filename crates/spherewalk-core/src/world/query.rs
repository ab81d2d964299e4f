//! Whole-world queries built on primitives: closest point, sphere cast and ray cast.

use super::sphere_box;
use super::{ColliderId, CollisionWorld, Geometry, Primitive, QueryFilter, SurfacePoint};
use crate::math::{Point3, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::shape::SphereStack;
use parry3d::bounding_volume::Aabb;

/// Result of [`CollisionWorld::cast_sphere`].
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

/// Result of [`CollisionWorld::cast_ray`].
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

pub(crate) fn swept_box(start: &Point3, dir: &UnitVec3, distance: Real, radius: Real) -> Aabb {
    let end = start + dir.into_inner() * distance;
    // A ray's box gets a little width: a zero-width box lying exactly on a heightfield's grid
    // line overlaps no cell in parry's lookup, and the ray would miss the field.
    let r = Vec3::repeat(radius.max(RAY_BOX_MARGIN));
    Aabb::new(start.inf(&end) - r, start.sup(&end) + r)
}

/// Deepest penetration (m, >= 0) of a sphere at rest at `centre` into `prims`.
fn deepest_of_sphere(
    world: &dyn Geometry,
    prims: &[Primitive],
    centre: &Point3,
    radius: Real,
) -> Real {
    let bounds = sphere_box(centre, radius);
    prims
        .iter()
        .filter(|p| super::boxes_overlap_counted(&p.aabb, &bounds))
        .filter_map(|p| world.held_contact(p, centre, radius, centre))
        .map(|sp| radius - sp.distance)
        .fold(0.0, Real::max)
}

/// Deepest penetration (m, >= 0) of any sphere of `stack` at rest at `pose` into `prims`: the
/// one measure of a stack's overlap (the step report, traces, tests).
pub(crate) fn deepest_among(
    world: &dyn Geometry,
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
pub(crate) fn closest_among(
    world: &dyn Geometry,
    prims: &[Primitive],
    query: &Point3,
    max_distance: Real,
) -> Option<(ColliderId, SurfacePoint)> {
    let mut best: Option<(ColliderId, SurfacePoint)> = None;
    for prim in prims {
        if let Some(sp) = world.primitive_closest(prim, query, max_distance)
            && best.is_none_or(|(_, b)| sp.distance < b.distance)
        {
            best = Some((prim.collider, sp));
        }
    }
    best
}

/// Nearest sphere-cast hit among `prims` (deterministic tie-break by order), with the index of
/// the primitive hit.
pub(crate) fn cast_sphere_among(
    world: &dyn Geometry,
    prims: &[Primitive],
    centre: &Point3,
    radius: Real,
    dir: &UnitVec3,
    max_distance: Real,
) -> Option<(usize, SphereCastHit)> {
    let mut best: Option<(usize, SphereCastHit)> = None;
    let swept = swept_box(centre, dir, max_distance, radius);
    for (k, prim) in prims.iter().enumerate() {
        if !super::boxes_overlap(&prim.aabb, &swept) {
            continue;
        }
        let limit = best.map_or(max_distance, |(_, b)| b.distance);
        if let Some((distance, point, normal)) =
            world.primitive_cast_sphere(prim, centre, radius, dir, limit)
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
    }
    best
}

/// Nearest ray hit among `prims` (deterministic tie-break by order), with the index of the
/// primitive hit.
pub(crate) fn cast_ray_among(
    world: &dyn Geometry,
    prims: &[Primitive],
    origin: &Point3,
    dir: &UnitVec3,
    max_distance: Real,
) -> Option<(usize, RayHit)> {
    let mut best: Option<(usize, RayHit)> = None;
    let swept = swept_box(origin, dir, max_distance, 0.0);
    for (k, prim) in prims.iter().enumerate() {
        if !super::boxes_overlap(&prim.aabb, &swept) {
            continue;
        }
        let limit = best.map_or(max_distance, |(_, b)| b.distance);
        if let Some((distance, normal)) = world.primitive_cast_ray(prim, origin, dir, limit)
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
    }
    best
}

/// Whole-world queries, for any backend: each gathers the primitives around the query and
/// measures them as the motor does.
impl dyn Geometry + '_ {
    /// The closest surface point to `query` (world, m) within `max_distance` (m), with
    /// sidedness: a negative distance means `query` is inside a solid or behind a one-sided
    /// mesh face (by at most `max_distance`).
    pub fn closest_point(
        &self,
        query: &Point3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<(ColliderId, SurfacePoint)> {
        let mut ids = Vec::new();
        let mut prims = Vec::new();
        self.gather_primitives(
            &sphere_box(query, max_distance),
            filter,
            &mut ids,
            &mut prims,
        );
        closest_among(self, &prims, query, max_distance)
    }

    /// Deepest penetration (m, >= 0) of a sphere of `radius` at `centre` (world) into any
    /// collider passing `filter`; 0 when it touches nothing. The sphere is at rest: a centre
    /// behind a one-sided face does not count ([`Primitive::holds`]).
    pub fn sphere_penetration(&self, centre: &Point3, radius: Real, filter: &QueryFilter) -> Real {
        let mut ids = Vec::new();
        let mut prims = Vec::new();
        self.gather_primitives(&sphere_box(centre, radius), filter, &mut ids, &mut prims);
        deepest_of_sphere(self, &prims, centre, radius)
    }

    /// Deepest penetration (m, >= 0) of any sphere of `stack` at `pose` into the colliders
    /// passing `filter`, as the motor's [`crate::StepReport::max_penetration`] measures it.
    pub fn stack_penetration(
        &self,
        pose: &Pose,
        stack: &SphereStack,
        filter: &QueryFilter,
    ) -> Real {
        let mut ids = Vec::new();
        let mut prims = Vec::new();
        let r = Vec3::repeat(stack.height());
        let bounds = Aabb::new(pose.position - r, pose.position + r);
        self.gather_primitives(&bounds, filter, &mut ids, &mut prims);
        deepest_among(self, &prims, pose, stack)
    }

    /// Casts a sphere of `radius` (m) from `centre` along unit `dir` (world) up to
    /// `max_distance` (m); returns the first hit. Shapes the sphere already overlaps and is
    /// moving away from are ignored; one-sided faces are only hit from the front.
    pub fn cast_sphere(
        &self,
        centre: &Point3,
        radius: Real,
        dir: &UnitVec3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<SphereCastHit> {
        let mut ids = Vec::new();
        let mut prims = Vec::new();
        let aabb = swept_box(centre, dir, max_distance, radius);
        self.gather_primitives(&aabb, filter, &mut ids, &mut prims);
        cast_sphere_among(self, &prims, centre, radius, dir, max_distance).map(|(_, hit)| hit)
    }

    /// Casts a ray from `origin` along unit `dir` (world) up to `max_distance` (m); returns the
    /// first hit with the surface normal facing the origin. One-sided faces are only hit from
    /// the front.
    pub fn cast_ray(
        &self,
        origin: &Point3,
        dir: &UnitVec3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<RayHit> {
        let mut ids = Vec::new();
        let mut prims = Vec::new();
        let aabb = swept_box(origin, dir, max_distance, 0.0);
        self.gather_primitives(&aabb, filter, &mut ids, &mut prims);
        cast_ray_among(self, &prims, origin, dir, max_distance).map(|(_, hit)| hit)
    }
}

/// The whole-world queries of `dyn Geometry`, callable on the world itself.
impl CollisionWorld {
    /// The closest surface point to `query` (world, m) within `max_distance` (m), with
    /// sidedness: a negative distance means `query` is inside a solid or behind a one-sided
    /// mesh face (by at most `max_distance`).
    pub fn closest_point(
        &self,
        query: &Point3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<(ColliderId, SurfacePoint)> {
        (self as &dyn Geometry).closest_point(query, max_distance, filter)
    }

    /// Deepest penetration (m, >= 0) of a sphere of `radius` at `centre` (world) into any
    /// collider passing `filter`; 0 when it touches nothing. The sphere is at rest: a centre
    /// behind a one-sided face does not count ([`Primitive::holds`]).
    pub fn sphere_penetration(&self, centre: &Point3, radius: Real, filter: &QueryFilter) -> Real {
        (self as &dyn Geometry).sphere_penetration(centre, radius, filter)
    }

    /// Deepest penetration (m, >= 0) of any sphere of `stack` at `pose` into the colliders
    /// passing `filter`, as the motor's [`crate::StepReport::max_penetration`] measures it.
    pub fn stack_penetration(
        &self,
        pose: &Pose,
        stack: &SphereStack,
        filter: &QueryFilter,
    ) -> Real {
        (self as &dyn Geometry).stack_penetration(pose, stack, filter)
    }

    /// Casts a sphere of `radius` (m) from `centre` along unit `dir` (world) up to
    /// `max_distance` (m); returns the first hit. Shapes the sphere already overlaps and is
    /// moving away from are ignored; one-sided faces are only hit from the front.
    pub fn cast_sphere(
        &self,
        centre: &Point3,
        radius: Real,
        dir: &UnitVec3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<SphereCastHit> {
        (self as &dyn Geometry).cast_sphere(centre, radius, dir, max_distance, filter)
    }

    /// Casts a ray from `origin` along unit `dir` (world) up to `max_distance` (m); returns the
    /// first hit with the surface normal facing the origin. One-sided faces are only hit from
    /// the front.
    pub fn cast_ray(
        &self,
        origin: &Point3,
        dir: &UnitVec3,
        max_distance: Real,
        filter: &QueryFilter,
    ) -> Option<RayHit> {
        (self as &dyn Geometry).cast_ray(origin, dir, max_distance, filter)
    }
}
