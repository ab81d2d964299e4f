//! Closest points of primitives to a query point, with sidedness: one-sided triangles, and in
//! closed form balls, cuboids and capsules (no dynamic dispatch, no world lookup); other solid
//! shapes go through parry's point projection.
//!
//! Every function returns a [`SurfacePoint`] when the signed distance is at most
//! `max_distance` (m), or `None`. Conventions: metres, world frame unless a name says `local`.

use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::shape::Shape;

/// Below this length (m) a direction is treated as degenerate.
pub(super) const DEGENERATE: Real = 1e-7;
/// How far (m per metre of coordinate magnitude) a point behind a face may lie outside the
/// face's prism and still count as under it: f32 rounding on a shared edge, no more.
const PRISM_SLACK: Real = 1e-5;
/// Relative size (per metre of coordinate magnitude) under which the offset between a point
/// and its projection is f32 rounding (16 ulps), too noisy to give a direction: the
/// feature's own normal is used instead.
const ROUNDING: Real = 2e-6;

/// The closest point of a primitive to a query point, with sidedness.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfacePoint {
    /// Closest point on the surface (world, m).
    pub point: Point3,
    /// Unit direction in which to move the query point to leave the surface the short way
    /// (world): from the surface toward the query point when outside, reversed when inside.
    pub contact_normal: UnitVec3,
    /// The face's own normal at that point (world); equal to `contact_normal` for solids.
    pub surface_normal: UnitVec3,
    /// Signed distance from the query point to the surface along `contact_normal` (m):
    /// negative when the point is inside (behind a one-sided face or within a solid).
    pub distance: Real,
}

/// Which part of a triangle a closest point lies on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TriRegion {
    Face,
    Boundary,
}

/// Closest point on triangle `t` to `p`, and whether it lies inside the face or on its boundary.
#[inline]
pub(super) fn closest_on_triangle(t: &[Point3; 3], p: &Point3) -> (Point3, TriRegion) {
    let (a, b, c) = (t[0], t[1], t[2]);
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, TriRegion::Boundary);
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, TriRegion::Boundary);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (a + ab * v, TriRegion::Boundary);
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, TriRegion::Boundary);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (a + ac * w, TriRegion::Boundary);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, TriRegion::Boundary);
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    (a + ab * v + ac * w, TriRegion::Face)
}

/// One-sided closest point on a triangle.
///
/// In front of the face (or over its boundary from the front) the distance is the plain
/// distance. Behind the face, inside its prism and no deeper than `max_distance`, the point is
/// inside (negative distance, pushed out along the face normal). Behind the plane but outside
/// the prism, the triangle is ignored: a neighbour whose prism holds the point owns it.
pub(super) fn closest_triangle(
    corners: &[Point3; 3],
    normal: &UnitVec3,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    let height = (query - corners[0]).dot(normal);
    // Further from the plane than `max_distance` is further from the triangle: refused before
    // finding the closest point, with room for the rounding of the distance computed below.
    if height.abs() - max_distance > rounding_at(query) {
        return None;
    }
    let (point, region) = closest_on_triangle(corners, query);
    match region {
        TriRegion::Face => {
            if height > max_distance || height < -max_distance {
                return None;
            }
            Some(SurfacePoint {
                point,
                contact_normal: *normal,
                surface_normal: *normal,
                distance: height,
            })
        }
        TriRegion::Boundary => {
            if height < 0.0 {
                // Behind the plane: inside only when the point lies on the prism's side (right
                // under a shared edge, where each neighbour's closest point is on its boundary).
                let in_plane = query - normal.into_inner() * height;
                let slack = PRISM_SLACK * query.coords.amax().max(1.0);
                if height < -max_distance || (point - in_plane).norm() > slack {
                    return None;
                }
                return Some(SurfacePoint {
                    point: in_plane,
                    contact_normal: *normal,
                    surface_normal: *normal,
                    distance: height,
                });
            }
            let offset = query - point;
            let distance = offset.norm();
            if distance > max_distance {
                return None;
            }
            let contact_normal = UnitVec3::try_new(offset, rounding_at(query)).unwrap_or(*normal);
            Some(SurfacePoint {
                point,
                contact_normal,
                surface_normal: *normal,
                distance,
            })
        }
    }
}

/// A solid's surface point `radius` (m) from its core point `core` (world, m: a ball's centre,
/// the nearest point of a capsule's axis) toward `query`. The outward normal is the direction
/// from the core; a query on the core itself (no direction) takes `fallback()`.
#[inline]
fn rounded_closest(
    core: &Point3,
    radius: Real,
    query: &Point3,
    max_distance: Real,
    fallback: impl FnOnce() -> UnitVec3,
) -> Option<SurfacePoint> {
    let offset = query - core;
    let square = offset.norm_squared();
    // Clearly out of reach, decided without the square root: most queries of a step are.
    if beyond(square, radius + max_distance) {
        return None;
    }
    let distance = square.sqrt() - radius;
    if distance.is_nan() || distance > max_distance {
        // Too far, or not finite.
        return None;
    }
    let normal = UnitVec3::try_new(offset, 0.0).unwrap_or_else(fallback);
    Some(SurfacePoint {
        point: core + normal.into_inner() * radius,
        contact_normal: normal,
        surface_normal: normal,
        distance,
    })
}

/// True when a squared distance `square` (m²) is certainly longer than `reach` (m), by more
/// than f32 rounding could account for: a query that far needs no square root to be refused.
/// False for a negative or non-finite reach, and for NaN, which the exact test then decides.
#[inline]
fn beyond(square: Real, reach: Real) -> bool {
    // 1e-4 relative: far above the few ulps separating the squared and the rooted comparison,
    // so a refusal here is always one the exact test would make.
    reach >= 0.0 && square > reach * reach * (1.0 + 1e-4)
}

/// Closest point of the ball of `radius` (m) centred at `centre` (world, m). A query at the
/// exact centre leaves along world +Y.
pub(super) fn closest_ball(
    centre: &Point3,
    radius: Real,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    rounded_closest(centre, radius, query, max_distance, Vec3::y_axis)
}

/// Closest point of the capsule with axis `a`-`b` (world, m) and `radius` (m). A query on the
/// axis leaves along a fixed direction square to it.
pub(super) fn closest_capsule(
    a: &Point3,
    b: &Point3,
    radius: Real,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    let axis = b - a;
    let len_sq = axis.norm_squared();
    let t = if len_sq > 0.0 {
        ((query - a).dot(&axis) / len_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let core = a + axis * t;
    let square = || {
        UnitVec3::try_new(axis.cross(&Vec3::y()), DEGENERATE)
            .or_else(|| UnitVec3::try_new(axis.cross(&Vec3::x()), DEGENERATE))
            .unwrap_or_else(Vec3::y_axis)
    };
    rounded_closest(&core, radius, query, max_distance, square)
}

/// Closest point of the cuboid with `half` extents (m, local) at `pose` (world). Outside, the
/// clamped point; inside (or on the surface), the nearest face, ties to the lower axis. The
/// distance is measured in the world from the transformed point, as for any other solid, so a
/// resting contact reads the same whichever way the box is turned.
pub(super) fn closest_cuboid(
    pose: &Iso,
    half: &Vec3,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    let p = pose.inverse_transform_point(query).coords;
    let outside = (0..3).any(|i| p[i].abs() > half[i]);
    if outside {
        let clamped = Vec3::new(
            p.x.clamp(-half.x, half.x),
            p.y.clamp(-half.y, half.y),
            p.z.clamp(-half.z, half.z),
        );
        let point = pose * Point3::from(clamped);
        let offset = query - point;
        let square = offset.norm_squared();
        if beyond(square, max_distance) {
            return None;
        }
        let distance = square.sqrt();
        if distance.is_nan() || distance > max_distance {
            return None;
        }
        let normal = UnitVec3::try_new(offset, rounding_at(query))
            .unwrap_or_else(|| pose.rotation * most_outside_face(&p, half));
        return Some(SurfacePoint {
            point,
            contact_normal: normal,
            surface_normal: normal,
            distance,
        });
    }
    let mut k = 0;
    for i in 1..3 {
        if half[i] - p[i].abs() < half[k] - p[k].abs() {
            k = i;
        }
    }
    let sign = if p[k] < 0.0 { -1.0 } else { 1.0 };
    let mut on_face = p;
    on_face[k] = sign * half[k];
    if !on_face.iter().all(|c| c.is_finite()) {
        return None;
    }
    let mut n = Vec3::zeros();
    n[k] = sign;
    let normal = pose.rotation * UnitVec3::new_unchecked(n);
    let point = pose * Point3::from(on_face);
    Some(SurfacePoint {
        point,
        contact_normal: normal,
        surface_normal: normal,
        distance: -(query - point).norm(),
    })
}

/// The outward normal (local) of the face of a box of `half` extents that `p` (local, m) lies
/// furthest outside of: the normal of a query on the surface to within rounding.
fn most_outside_face(p: &Vec3, half: &Vec3) -> UnitVec3 {
    let mut k = 0;
    for i in 1..3 {
        if p[i].abs() - half[i] > p[k].abs() - half[k] {
            k = i;
        }
    }
    let mut n = Vec3::zeros();
    n[k] = if p[k] < 0.0 { -1.0 } else { 1.0 };
    UnitVec3::new_unchecked(n)
}

/// Closest point on any other solid parry `shape` at `pose` (world), through parry's point
/// projection: outside gives a positive distance, inside a negative one.
pub(super) fn closest_solid(
    shape: &dyn Shape,
    pose: &Iso,
    query: &Point3,
    max_distance: Real,
) -> Option<SurfacePoint> {
    let proj = shape.project_point(pose, query, false);
    if !proj.point.iter().all(|c| c.is_finite()) {
        // NOTE: parry's projection can divide by zero on degenerate queries; no NaN contact.
        return None;
    }
    let offset = query - proj.point;
    let norm = offset.norm();
    if !proj.is_inside && norm > max_distance {
        return None;
    }
    let contact_normal = match UnitVec3::try_new(offset, rounding_at(query)) {
        Some(n) if proj.is_inside => -n,
        Some(n) => n,
        None => degenerate_normal(shape, pose, query),
    };
    let distance = if proj.is_inside { -norm } else { norm };
    Some(SurfacePoint {
        point: proj.point,
        contact_normal,
        surface_normal: contact_normal,
        distance,
    })
}

/// Length (m) under which an offset from `query` is rounding noise: [`ROUNDING`] relative to
/// the largest coordinate, at least [`DEGENERATE`].
fn rounding_at(query: &Point3) -> Real {
    (ROUNDING * query.coords.amax()).max(DEGENERATE)
}

/// Outward normal at a query point lying on a solid's surface, to within rounding.
fn degenerate_normal(shape: &dyn Shape, pose: &Iso, query: &Point3) -> UnitVec3 {
    let local = pose.inverse_transform_point(query);
    let (proj, feature) = shape.project_local_point_and_get_feature(&local);
    if let Some(n) = shape.feature_normal_at_point(feature, &proj.point) {
        return pose * n;
    }
    // NOTE: fall back on the direction from the shape's box centre; +Y if even that is degenerate.
    let centre = shape.compute_local_aabb().center();
    UnitVec3::try_new(pose * (local - centre), DEGENERATE).unwrap_or_else(Vec3::y_axis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d::query::PointQuery;
    use parry3d::shape::{Ball, Capsule, Cuboid};

    use super::super::test_rng::Lcg;

    /// Each closed form against parry's projection of the same shape, for random poses and
    /// queries inside and outside: the same side, the same point and a distance that matches
    /// the point. Tolerance 5e-5 m: f32 rounding of a pose transform at up to 30 m from the
    /// origin (about 30 × 2⁻²⁴ ≈ 2e-6 m per operation, over a handful of operations).
    #[test]
    fn closed_forms_match_parry() {
        let mut rng = Lcg(11);
        let tol = 5e-5;
        for case in 0..4000 {
            let pose = rng.pose(30.0);
            let query = pose * Point3::from(rng.vec(3.0));
            let (ours, theirs) = match case % 3 {
                0 => {
                    let r = rng.range(0.05, 2.0);
                    let centre = Point3::from(pose.translation.vector);
                    let ours = closest_ball(&centre, r, &query, Real::MAX);
                    (ours, Ball::new(r).project_point(&pose, &query, false))
                }
                1 => {
                    let half = Vec3::new(
                        rng.range(0.05, 2.0),
                        rng.range(0.05, 2.0),
                        rng.range(0.05, 2.0),
                    );
                    let ours = closest_cuboid(&pose, &half, &query, Real::MAX);
                    (ours, Cuboid::new(half).project_point(&pose, &query, false))
                }
                _ => {
                    let (h, r) = (rng.range(0.0, 1.5), rng.range(0.05, 1.0));
                    let capsule = Capsule::new_y(h, r);
                    let (a, b) = (pose * capsule.segment.a, pose * capsule.segment.b);
                    let ours = closest_capsule(&a, &b, r, &query, Real::MAX);
                    (ours, capsule.project_point(&pose, &query, false))
                }
            };
            let Some(ours) = ours else {
                panic!("case {case}: no closest point");
            };
            assert_eq!(ours.distance < 0.0, theirs.is_inside, "case {case}");
            let gap = (ours.point - theirs.point).norm();
            assert!(gap < tol, "case {case}: point {gap}");
            let measured = (query - ours.point).norm();
            assert!(
                (ours.distance.abs() - measured).abs() < tol,
                "case {case}: distance {} vs {measured}",
                ours.distance
            );
            if measured > 1e-3 {
                let along = (query - ours.point).normalize().dot(&ours.contact_normal);
                let want = if ours.distance < 0.0 { -1.0 } else { 1.0 };
                assert!((along - want).abs() < 1e-3, "case {case}: normal {along}");
            }
        }
    }

    /// The quick refusals (a squared distance, a triangle's plane) never refuse a query the
    /// exact test would answer: every closed form, asked with `max_distance` equal to the
    /// distance it gives without a limit, answers with the same point bit for bit, and asked
    /// a millimetre short of it, refuses. Queries from 0 to 4 m off shapes up to 30 m from
    /// the origin.
    #[test]
    fn quick_refusals_agree_with_the_exact_test() {
        let mut rng = Lcg(23);
        for case in 0..4000 {
            let pose = rng.pose(30.0);
            let query = pose * Point3::from(rng.vec(4.0));
            let closest = |limit: Real| match case % 4 {
                0 => {
                    let centre = Point3::from(pose.translation.vector);
                    closest_ball(&centre, 0.7, &query, limit)
                }
                1 => closest_cuboid(&pose, &Vec3::new(0.5, 1.0, 0.3), &query, limit),
                2 => {
                    let (a, b) = (pose * Point3::new(0.0, -0.6, 0.0), pose * Point3::origin());
                    closest_capsule(&a, &b, 0.4, &query, limit)
                }
                _ => {
                    let corners = [
                        pose * Point3::new(-1.0, 0.0, -1.0),
                        pose * Point3::new(1.5, 0.0, -0.5),
                        pose * Point3::new(0.0, 0.0, 1.2),
                    ];
                    let normal = pose * Vec3::y_axis();
                    closest_triangle(&corners, &normal, &query, limit)
                }
            };
            let Some(free) = closest(Real::MAX) else {
                // Behind a one-sided triangle and outside its prism: refused at any limit.
                assert_eq!(case % 4, 3, "case {case}: a solid always answers");
                continue;
            };
            let limit = free.distance.abs();
            assert_eq!(
                closest(limit),
                Some(free),
                "case {case}: at its own distance"
            );
            if free.distance > 1e-3 {
                assert_eq!(
                    closest(free.distance - 1e-3),
                    None,
                    "case {case}: 1 mm short"
                );
            }
        }
    }

    /// Degenerate queries get a finite answer: a ball's exact centre (up, inside by the radius),
    /// a capsule's axis (square to it), a point on a box face (that face's normal, depth 0).
    #[test]
    fn degenerate_queries_have_a_direction() {
        let centre = Point3::new(1.0, 2.0, 3.0);
        let sp = closest_ball(&centre, 0.5, &centre, 1.0).expect("inside");
        assert_eq!(sp.contact_normal, Vec3::y_axis());
        assert_eq!(sp.distance, -0.5);
        let (a, b) = (Point3::origin(), Point3::new(0.0, 2.0, 0.0));
        let sp = closest_capsule(&a, &b, 0.3, &Point3::new(0.0, 1.0, 0.0), 1.0).expect("inside");
        assert!(sp.contact_normal.dot(&Vec3::y()).abs() < 1e-6);
        assert!((sp.distance + 0.3).abs() < 1e-6);
        let half = Vec3::new(1.0, 1.0, 1.0);
        let on_top = Point3::new(0.2, 1.0, -0.4);
        let sp = closest_cuboid(&Iso::identity(), &half, &on_top, 1.0).expect("on the face");
        assert_eq!(sp.contact_normal, Vec3::y_axis());
        assert_eq!(sp.distance, 0.0);
        let nan = Point3::new(Real::NAN, 0.0, 0.0);
        assert!(closest_ball(&centre, 0.5, &nan, 1.0).is_none());
        assert!(closest_cuboid(&Iso::identity(), &half, &nan, 1.0).is_none());
    }
}
