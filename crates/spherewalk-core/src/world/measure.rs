//! Measuring one primitive, for any backend: closest point, sphere cast and ray cast,
//! closed forms for triangles, balls, cuboids and capsules, parry for other solids.

use super::Geometry;
use super::closest::{
    DEGENERATE, SurfacePoint, ball_closest, capsule_closest, cuboid_closest, solid_closest,
    triangle_closest,
};
use super::primitive::{Primitive, PrimitiveShape};
use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, Capsule, Cuboid, Shape, Triangle};

/// Newton steps polishing a sphere-cast hit.
const REFINE_STEPS: usize = 3;
/// Below this approach cosine a cast is grazing and the GJK result is kept as is.
const GRAZING: Real = 0.05;

/// Queries on one primitive, for any backend: closed forms for triangles, balls, cuboids and
/// capsules; parry for other solids, reached through [`Geometry::solid_shape`].
impl dyn Geometry + '_ {
    /// The contact of a sphere of `radius` (m) centred at `centre` (world) with `prim`: its
    /// closest point within `radius`, if the primitive holds it ([`Primitive::holds`]: not a
    /// centre behind a one-sided face it did not cross from `from`). The sphere's depth is
    /// `radius - distance`.
    pub(crate) fn held_contact(
        &self,
        prim: &Primitive,
        centre: &Point3,
        radius: Real,
        from: &Point3,
    ) -> Option<SurfacePoint> {
        self.primitive_closest(prim, centre, radius)
            .filter(|sp| prim.holds(sp, from))
    }

    /// Closest point of `prim` to `query` (world, m), if the signed distance is at most
    /// `max_distance` and, behind a one-sided triangle, no deeper than `max_distance`.
    pub fn primitive_closest(
        &self,
        prim: &Primitive,
        query: &Point3,
        max_distance: Real,
    ) -> Option<SurfacePoint> {
        match prim.shape {
            PrimitiveShape::Triangle { corners, normal } => {
                triangle_closest(&corners, &normal, query, max_distance)
            }
            PrimitiveShape::Ball { centre, radius } => {
                ball_closest(&centre, radius, query, max_distance)
            }
            PrimitiveShape::Cuboid { pose, half } => {
                cuboid_closest(&pose, &half, query, max_distance)
            }
            PrimitiveShape::Capsule { a, b, radius } => {
                capsule_closest(&a, &b, radius, query, max_distance)
            }
            PrimitiveShape::Solid { part, pose } => {
                let shape = self.solid_shape(prim.collider, part)?;
                solid_closest(shape, &pose, query, max_distance)
            }
        }
    }

    /// How far the primitive reaches along unit `dir` (world): the largest `p . dir` (m) over
    /// its points. Exact for triangles and convex solids; other solids answer from their
    /// bounding box, which is never less.
    pub fn primitive_extent(&self, prim: &Primitive, dir: &UnitVec3) -> Real {
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
                if let Some(support) = self
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

    /// Casts a sphere of `radius` (m) from `centre` along unit `dir` (world) up to `max_distance`
    /// (m) against `prim`. One-sided triangles are only hit from the front. Returns the distance
    /// travelled, the contact point and the contact normal (world).
    pub fn primitive_cast_sphere(
        &self,
        prim: &Primitive,
        centre: &Point3,
        radius: Real,
        dir: &UnitVec3,
        max_distance: Real,
    ) -> Option<(Real, Point3, UnitVec3)> {
        use super::cast::SphereCast;
        // Triangles, cuboids, balls and capsules: exact casts in closed form. Starts that
        // already overlap, and other shapes, keep the GJK path below.
        let analytic = closed_form_cast(prim, centre, radius, dir, max_distance);
        match analytic {
            SphereCast::Hit { toi, point, normal } => return Some((toi, point, normal)),
            SphereCast::Miss => return None,
            SphereCast::Fallback => {}
        }
        let cast = |shape: &dyn Shape, pose: &Iso| {
            gjk_cast_sphere(shape, pose, centre, radius, dir, max_distance)
        };
        let rough = match prim.shape {
            PrimitiveShape::Triangle { corners, .. } => cast(
                &Triangle::new(corners[0], corners[1], corners[2]),
                &Iso::identity(),
            )?,
            PrimitiveShape::Ball {
                centre: at,
                radius: r,
            } => cast(&Ball::new(r), &Iso::translation(at.x, at.y, at.z))?,
            PrimitiveShape::Cuboid { pose, half } => cast(&Cuboid::new(half), &pose)?,
            PrimitiveShape::Capsule { a, b, radius: r } => {
                cast(&Capsule::new(a, b, r), &Iso::identity())?
            }
            PrimitiveShape::Solid { part, pose } => {
                cast(self.solid_shape(prim.collider, part)?, &pose)?
            }
        };
        Some(self.refine_cast(prim, centre, radius, dir, rough))
    }

    /// The closed-form sphere cast of [`Self::primitive_cast_sphere`] alone: `Some` only for a
    /// hit on a triangle (from its front), ball, cuboid or capsule by a sphere that does not
    /// overlap it at the start; `None` otherwise (a miss, another shape, an overlapping start).
    pub(crate) fn exact_cast_sphere(
        &self,
        prim: &Primitive,
        centre: &Point3,
        radius: Real,
        dir: &UnitVec3,
        max_distance: Real,
    ) -> Option<(Real, Point3, UnitVec3)> {
        match closed_form_cast(prim, centre, radius, dir, max_distance) {
            super::cast::SphereCast::Hit { toi, point, normal } => Some((toi, point, normal)),
            _ => None,
        }
    }

    /// Polishes a sphere-cast hit with Newton steps on the exact closest-point distance, so
    /// resting contacts are found to well under a micrometre: GJK hits (millimetre accurate)
    /// and the ground probe's hits for the true radius (it casts a slightly smaller sphere).
    pub(crate) fn refine_cast(
        &self,
        prim: &Primitive,
        centre: &Point3,
        radius: Real,
        dir: &UnitVec3,
        rough: (Real, Point3, UnitVec3),
    ) -> (Real, Point3, UnitVec3) {
        let (mut toi, mut point, mut normal) = rough;
        if normal.dot(dir) > 0.0 {
            normal = -normal;
        }
        for _ in 0..REFINE_STEPS {
            let at = centre + dir.into_inner() * toi;
            let Some(sp) = self.primitive_closest(prim, &at, Real::MAX) else {
                break;
            };
            let approach = sp.contact_normal.dot(dir);
            if approach > -GRAZING {
                break;
            }
            point = sp.point;
            normal = sp.contact_normal;
            let gap = sp.distance - radius;
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
    pub fn primitive_cast_ray(
        &self,
        prim: &Primitive,
        origin: &Point3,
        dir: &UnitVec3,
        max_distance: Real,
    ) -> Option<(Real, UnitVec3)> {
        let ray = Ray::new(*origin, dir.into_inner());
        let hit = match prim.shape {
            PrimitiveShape::Triangle { corners, normal } => {
                if normal.dot(dir) >= 0.0 {
                    return None;
                }
                let tri = Triangle::new(corners[0], corners[1], corners[2]);
                tri.cast_local_ray_and_get_normal(&ray, max_distance, true)?
            }
            PrimitiveShape::Ball { centre, radius } => {
                let pose = Iso::translation(centre.x, centre.y, centre.z);
                Ball::new(radius).cast_ray_and_get_normal(&pose, &ray, max_distance, true)?
            }
            PrimitiveShape::Cuboid { pose, half } => {
                Cuboid::new(half).cast_ray_and_get_normal(&pose, &ray, max_distance, true)?
            }
            PrimitiveShape::Capsule { a, b, radius } => Capsule::new(a, b, radius)
                .cast_local_ray_and_get_normal(&ray, max_distance, true)?,
            PrimitiveShape::Solid { part, pose } => {
                let shape = self.solid_shape(prim.collider, part)?;
                shape.cast_ray_and_get_normal(&pose, &ray, max_distance, true)?
            }
        };
        let mut normal = UnitVec3::try_new(hit.normal, DEGENERATE)?;
        if normal.dot(dir) > 0.0 {
            normal = -normal;
        }
        Some((hit.time_of_impact, normal))
    }
}

/// GJK sphere cast of a ball of `radius` (m) from `centre` along unit `dir` (world) up to
/// `max_distance` (m) against `shape` at `pose` (world): parry's `cast_shapes`, millimetre
/// accurate. An overlapping start reports its contact at distance 0. Returns the distance,
/// the contact point and the normal (world).
pub(crate) fn gjk_cast_sphere(
    shape: &dyn Shape,
    pose: &Iso,
    centre: &Point3,
    radius: Real,
    dir: &UnitVec3,
    max_distance: Real,
) -> Option<(Real, Point3, UnitVec3)> {
    let ball = Ball::new(radius);
    let ball_pose = Iso::translation(centre.x, centre.y, centre.z);
    let options = ShapeCastOptions {
        max_time_of_impact: max_distance,
        target_distance: 0.0,
        stop_at_penetration: false,
        compute_impact_geometry_on_penetration: true,
    };
    let hit = cast_shapes(&ball_pose, dir, &ball, pose, &Vec3::zeros(), shape, options).ok()??;
    Some((hit.time_of_impact, pose * hit.witness2, pose * hit.normal2))
}

/// The closed-form sphere cast (see [`CollisionWorld::primitive_cast_sphere`]) against a
/// triangle (a miss from behind), ball, cuboid or capsule; [`super::cast::SphereCast::Fallback`]
/// for other shapes and overlapping starts.
fn closed_form_cast(
    prim: &Primitive,
    centre: &Point3,
    radius: Real,
    dir: &UnitVec3,
    max_distance: Real,
) -> super::cast::SphereCast {
    use super::cast::{self, SphereCast};
    match prim.shape {
        PrimitiveShape::Triangle { normal, .. } if normal.dot(dir) >= 0.0 => SphereCast::Miss,
        PrimitiveShape::Triangle { corners, .. } => {
            cast::cast_sphere_triangle(&corners, centre, radius, dir, max_distance)
        }
        PrimitiveShape::Ball {
            centre: at,
            radius: r,
        } => cast::cast_sphere_ball(&at, r, centre, radius, dir, max_distance),
        PrimitiveShape::Cuboid { pose, half } => {
            cast::cast_sphere_cuboid(&half, &pose, centre, radius, dir, max_distance)
        }
        PrimitiveShape::Capsule { a, b, radius: r } => {
            cast::cast_sphere_capsule(&a, &b, r, centre, radius, dir, max_distance)
        }
        PrimitiveShape::Solid { .. } => SphereCast::Fallback,
    }
}
