//! Exact sphere casts against the common primitives: triangles, cuboids, balls and capsules.
//!
//! A sphere of radius `r` moving along a ray first touches a shape when its centre enters the
//! shape grown by `r` (the Minkowski sum of the shape and a ball of radius `r`), so each cast is
//! a ray cast against a rounded shape. The grown shape is a union of simple convex pieces: the
//! faces pushed out by `r`, the edges as cylinders of radius `r`, the corners as balls of
//! radius `r`. A ray starting outside every piece enters the union when it first enters one of
//! them, so the cast is the earliest entry over the pieces, each found in closed form.
//!
//! These casts are exact for starts that do not overlap the shape (no GJK tolerance, no Newton
//! polish needed). A start that already overlaps is reported as [`SphereCast::Fallback`] so the
//! caller keeps its GJK path there, as are shapes and inputs not handled here.
//!
//! Conventions: metres, world frame unless a name says `local`; `dir` is a unit vector.

use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
#[cfg(test)]
use parry3d::shape::{Shape, ShapeType};

/// Below this squared length (m²) an edge or a capsule axis is a point: its cylinder is
/// skipped and the balls at its ends alone stand for it.
const TINY_SEGMENT_SQ: Real = 1e-14;
/// Below this length (m²: the cross product of two edges) a triangle has no usable face
/// normal: its face is skipped and its edges and corners alone stand for it.
const TINY_AREA: Real = 1e-12;
/// Below this size a direction component (per unit length) counts as parallel to a box face.
const PARALLEL: Real = 1e-20;
/// Room (m, per metre of the cast's scale: its radius plus its start's distance from the
/// triangle's first corner, plus one) a triangle's edges and corners must lie beyond the reach
/// of a cast for [`LocalTriangle::beyond_reach`] to call it a miss unseen: far more than f32
/// rounding of the exact test could move a touch, so the answer is always the exact test's.
const REACH_SLACK: Real = 1e-4;
/// Below this length (m) a contact normal is degenerate (a zero-radius cast on an edge).
const TINY_NORMAL: Real = 1e-9;
/// Most stretches a ray can cross through a box's Voronoi regions: six planes cut it into at
/// most seven.
const MAX_STRETCHES: usize = 7;

/// Outcome of an analytic sphere cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SphereCast {
    /// The sphere touches the shape after travelling `toi` (m, in `[0, max_distance]`), at
    /// `point` on the shape's surface (world, m), with `normal` pointing from the surface
    /// toward the sphere's centre (world, `normal · dir <= 0`).
    Hit {
        /// Distance travelled along the cast direction (m).
        toi: Real,
        /// Contact point on the shape's surface (world, m).
        point: Point3,
        /// Contact normal from the surface toward the sphere's centre (world).
        normal: UnitVec3,
    },
    /// The sphere does not touch the shape within the cast's length.
    Miss,
    /// Not answered here: the sphere overlaps the shape at the start, the shape kind is not
    /// handled, or an input is not finite. The caller falls back on GJK.
    Fallback,
}

/// How a ray meets one convex piece of a grown shape.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    /// The ray starts inside the piece.
    Inside,
    /// The ray enters the piece after travelling this far (m, at least 0 up to rounding).
    At(Real),
    /// The ray never enters the piece.
    Miss,
}

/// A sphere swept along a ray: the query of every sphere cast
/// ([`crate::world::WorldQueries::cast_sphere`] and the kernels under it). Metres, world
/// frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Where the sphere's centre starts (world, m).
    pub centre: Point3,
    /// The sphere's radius (m, at least 0).
    pub radius: Real,
    /// Which way it moves (world, unit).
    pub dir: UnitVec3,
    /// How far it may move (m).
    pub max_distance: Real,
}

impl Sweep {
    /// A sphere of `radius` (m) centred at `centre` (world, m), moving along unit `dir`
    /// (world) at most `max_distance` (m). Nothing is checked here: a cast of a sweep with a
    /// non-finite or negative part hits nothing.
    pub fn new(centre: Point3, radius: Real, dir: UnitVec3, max_distance: Real) -> Self {
        Self {
            centre,
            radius,
            dir,
            max_distance,
        }
    }

    /// True when the sweep is usable here: finite centre, radius (non-negative) and direction,
    /// and a maximum distance that is not NaN.
    fn is_finite(&self) -> bool {
        point_finite(&self.centre)
            && self.radius.is_finite()
            && self.radius >= 0.0
            && vec_finite(&self.dir)
            && !self.max_distance.is_nan()
    }

    /// Where the centre is after travelling `toi` (world, m).
    pub(crate) fn at(&self, toi: Real) -> Point3 {
        self.centre + self.dir.into_inner() * toi
    }
}

/// Casts the sphere of `sweep` against a solid parry `shape` at `pose` (world). Handles
/// cuboids, balls and capsules; every other shape kind gives [`SphereCast::Fallback`]. The
/// motor calls the closed forms directly on resolved primitives; this entry point serves the
/// tests.
#[cfg(test)]
fn cast_sphere_solid(shape: &dyn Shape, pose: &Iso, sweep: &Sweep) -> SphereCast {
    if !sweep.is_finite() {
        return SphereCast::Fallback;
    }
    match shape.shape_type() {
        ShapeType::Cuboid => shape.as_cuboid().map_or(SphereCast::Fallback, |c| {
            cast_sphere_cuboid(&c.half_extents, pose, sweep)
        }),
        ShapeType::Ball => shape.as_ball().map_or(SphereCast::Fallback, |b| {
            let at = Point3::from(pose.translation.vector);
            cast_sphere_ball(&at, b.radius, sweep)
        }),
        ShapeType::Capsule => shape.as_capsule().map_or(SphereCast::Fallback, |c| {
            let (a, b) = (pose * c.segment.a, pose * c.segment.b);
            cast_sphere_capsule(&a, &b, c.radius, sweep)
        }),
        _ => SphereCast::Fallback,
    }
}

/// Casts the sphere of `sweep` against the triangle `corners` (world, m), from either side:
/// ray against the triangle grown by the sphere's radius (the face plane pushed out toward the
/// start, the edges as cylinders, the corners as balls). One-sidedness is the caller's test on
/// the face normal.
pub(super) fn cast_sphere_triangle(corners: &[Point3; 3], sweep: &Sweep) -> SphereCast {
    if !sweep.is_finite() || !corners.iter().all(point_finite) {
        return SphereCast::Fallback;
    }
    // Everything relative to corner `a` (m), which keeps f32 rounding at the scale of the
    // triangle rather than of the world.
    let tri = LocalTriangle::new(corners, &sweep.centre);
    match tri.face_entry(sweep) {
        FaceEntry::Decided(found) => found,
        FaceEntry::Beside(beside) if tri.beyond_reach(&beside, sweep) => SphereCast::Miss,
        FaceEntry::Beside(_) | FaceEntry::NoNormal => tri.edge_or_corner_entry(sweep),
    }
}

/// What the face plane of a triangle says of a cast ([`LocalTriangle::face_entry`]).
enum FaceEntry {
    /// The face decides: a hit right over it, a miss before or beside the plane, an
    /// overlapping start.
    Decided(SphereCast),
    /// The ray meets the grown triangle's slab beside the face: an edge or a corner decides.
    Beside(Beside),
    /// The triangle has no usable normal: its edges and corners alone stand for it.
    NoNormal,
}

/// Where a ray that meets a triangle's slab beside its face goes on: its foot in the plane
/// (`foot`, m, relative to the first corner) where it meets the slab or starts, the cosine of
/// its angle with the plane's normal on the start's side (`approach`, negative toward the
/// plane), how far it goes on (`length`, m), and the least height above or below the plane it
/// reaches on that stretch (`lowest`, m).
struct Beside {
    foot: Vec3,
    approach: Real,
    length: Real,
    lowest: Real,
}

/// A triangle seen from a cast's start, relative to its first corner `a` (m): the start `m`,
/// the edges `ab` and `ac`, and their cross product `raw` (unnormalised normal); `b` and `c`
/// for the third edge, which only an edge or corner hit needs.
struct LocalTriangle {
    a: Point3,
    b: Point3,
    c: Point3,
    m: Vec3,
    ab: Vec3,
    ac: Vec3,
    raw: Vec3,
}

impl LocalTriangle {
    /// The triangle `corners` (world, m) seen from `centre` (world, m).
    fn new(corners: &[Point3; 3], centre: &Point3) -> Self {
        let [a, b, c] = *corners;
        let (ab, ac) = (b - a, c - a);
        Self {
            a,
            b,
            c,
            m: centre - a,
            ab,
            ac,
            raw: ab.cross(&ac),
        }
    }

    /// The cast's entry through the face plane pushed out by the radius toward the start:
    /// decided when the face decides it (a hit right over the face, a miss before or beside
    /// the plane, an overlapping start), else where the ray meets the slab of the grown
    /// triangle beside the face, for an edge or a corner to decide.
    fn face_entry(&self, sweep: &Sweep) -> FaceEntry {
        let Some(n) = UnitVec3::try_new(self.raw, TINY_AREA) else {
            return FaceEntry::NoNormal;
        };
        let (m, d, radius) = (self.m, sweep.dir.into_inner(), sweep.radius);
        let h = m.dot(&n);
        // The side the start is on: the face plane pushed out by `radius` toward it is the
        // only face of the grown triangle the ray can enter through.
        let (side, height) = if h >= 0.0 { (n, h) } else { (-n, -h) };
        let approach = d.dot(&side);
        if height < radius {
            // Within `radius` of the plane: right over the face the start overlaps.
            let below = m - n.into_inner() * h;
            if self.inside(&below) {
                return FaceEntry::Decided(SphereCast::Fallback);
            }
            // Toward the plane the start gets as close to it as the sweep's length takes it;
            // away from it, no closer than it starts.
            let lowest = if approach < 0.0 {
                (height + approach * sweep.max_distance).max(0.0)
            } else {
                height
            };
            return FaceEntry::Beside(Beside {
                foot: below,
                approach,
                length: sweep.max_distance,
                lowest,
            });
        }
        if approach >= 0.0 {
            // Level or receding, and every point of the grown triangle is at most `radius`
            // from the plane: never touched (a level graze at exactly `radius` is a miss).
            return FaceEntry::Decided(SphereCast::Miss);
        }
        let toi = (height - radius) / -approach;
        if toi > sweep.max_distance {
            // No point of the grown triangle is reached before the pushed-out plane.
            return FaceEntry::Decided(SphereCast::Miss);
        }
        let at = m + d * toi;
        let in_plane = at - side.into_inner() * at.dot(&side);
        if self.inside(&in_plane) {
            let hit = finish(toi, self.a + in_plane, side.into_inner(), sweep);
            return FaceEntry::Decided(hit);
        }
        // Outside the face the first touch is on an edge or a corner, on the rest of the
        // sweep, in which the start sinks from `radius` above the plane.
        let length = sweep.max_distance - toi;
        FaceEntry::Beside(Beside {
            foot: in_plane,
            approach,
            length,
            lowest: (radius + approach * length).max(0.0),
        })
    }

    /// True when no edge or corner can be touched: the ray's foot, moving along the plane at
    /// most `sqrt(1 - approach²)` per metre for the rest of the sweep, stays further from the
    /// triangle than the grown triangle's widest cross-section at the least height the ray
    /// reaches, with [`REACH_SLACK`] to spare. (Points of the grown triangle `z` from the
    /// plane lie within `sqrt(radius² - z²)` of the triangle along it.)
    ///
    /// A miss seen this way is one the exact test (three cylinders, three balls) finds too, so
    /// the answer is the same; it spares that work in the common case of a neighbour's
    /// triangle that passed the box test but lies beside the cast: 86 % of the edge tests of
    /// a character's ground probes on Jolt's scene.
    fn beyond_reach(&self, beside: &Beside, sweep: &Sweep) -> bool {
        let Beside {
            foot,
            approach,
            length,
            lowest,
        } = *beside;
        let radius = sweep.radius;
        let drift = (1.0 - approach * approach).max(0.0).sqrt() * length;
        let across = (radius * radius - lowest * lowest).max(0.0).sqrt();
        let slack = REACH_SLACK * (1.0 + radius + self.m.amax());
        let reach = drift + across + slack;
        let corners = [
            Point3::origin(),
            Point3::from(self.ab),
            Point3::from(self.ac),
        ];
        let (near, _) = super::closest::closest_on_triangle(&corners, &Point3::from(foot));
        // Not finite (a sweep of unbounded length) compares false: no shortcut.
        (foot - near.coords).norm_squared() > reach * reach
    }

    /// The cast's earliest entry into the edges' cylinders and the corners' balls.
    fn edge_or_corner_entry(&self, sweep: &Sweep) -> SphereCast {
        let (m, d, radius) = (self.m, sweep.dir.into_inner(), sweep.radius);
        // Edges as cylinders (start relative to the edge's first corner, edge vector), corners
        // as balls (start relative to the corner); the earliest entry wins.
        let edges = [
            (m, self.ab),
            (m - self.ab, self.c - self.b),
            (m - self.ac, -self.ac),
        ];
        let mut best: Option<(Real, Vec3)> = None;
        for (start, edge) in edges {
            match ray_cylinder(&start, &edge, &d, radius) {
                Entry::Inside => return SphereCast::Fallback,
                Entry::At(toi) if best.is_none_or(|(t, _)| toi < t) => {
                    // Feature point relative to `a`: the point of the edge the sphere touches.
                    let s = axial(&start, &edge, &d, toi);
                    best = Some((toi, (m - start) + edge * s));
                }
                Entry::At(_) | Entry::Miss => {}
            }
        }
        for corner in [Vec3::zeros(), self.ab, self.ac] {
            match ray_ball(&(m - corner), &d, radius) {
                Entry::Inside => return SphereCast::Fallback,
                Entry::At(toi) if best.is_none_or(|(t, _)| toi < t) => best = Some((toi, corner)),
                Entry::At(_) | Entry::Miss => {}
            }
        }
        match best {
            Some((toi, feature)) => {
                let normal = m + d * toi - feature;
                finish(toi, self.a + feature, normal, sweep)
            }
            None => SphereCast::Miss,
        }
    }

    /// True when `x` (m, in the triangle's plane, relative to `a`) lies in the triangle,
    /// boundary included.
    fn inside(&self, x: &Vec3) -> bool {
        let (ab, ac, raw) = (&self.ab, &self.ac, &self.raw);
        ab.cross(x).dot(raw) >= 0.0
            && (ac - ab).cross(&(x - ab)).dot(raw) >= 0.0
            && (-ac).cross(&(x - ac)).dot(raw) >= 0.0
    }
}

/// Casts the sphere of `sweep` against a cuboid of `half` extents (m, local) at `pose`
/// (world): ray against the box grown by the radius, in the cuboid's local frame.
///
/// The ray is first clipped to the box grown by the radius on every side, which holds the
/// rounded box. Entering it over a face (the entry point within the box on the two other
/// axes) is the hit. Otherwise it enters beside an edge or a corner, and the exact first touch
/// is found by walking the stretches of the ray between the planes of the box's faces: on each
/// stretch the squared distance to the box is one quadratic (the sum over the axes the point
/// lies outside of), so its first crossing of the radius squared is in closed form.
pub(super) fn cast_sphere_cuboid(half: &Vec3, pose: &Iso, sweep: &Sweep) -> SphereCast {
    if !vec_finite(half) || !sweep.is_finite() {
        return SphereCast::Fallback;
    }
    let local = LocalBox {
        half: *half,
        pose,
        o: pose.inverse_transform_point(&sweep.centre).coords,
        d: pose.inverse_transform_vector(&sweep.dir.into_inner()),
    };
    let gap = local.o - clamp_box(&local.o, half);
    if gap.norm_squared() < sweep.radius * sweep.radius {
        return SphereCast::Fallback;
    }
    let Some((t_in, t_out)) = local.clip(sweep) else {
        return SphereCast::Miss;
    };
    let entry = local.o + local.d * t_in;
    let outside = (0..3).filter(|&i| entry[i].abs() > half[i]).count();
    if outside <= 1 {
        // Entered through a face of the grown box, right over the box's face.
        return local.hit(t_in, sweep);
    }
    // Beside an edge or a corner: walk the ray's stretches between the face planes.
    let mut start = t_in;
    for _ in 0..MAX_STRETCHES {
        let end = local.next_plane(start, t_out);
        if let Some(toi) = local.first_touch(start, end, sweep.radius) {
            return local.hit(toi, sweep);
        }
        if end >= t_out {
            return SphereCast::Miss;
        }
        start = end;
    }
    SphereCast::Miss
}

/// A cuboid cast in the cuboid's frame: its `half` extents (m), its `pose` (world), and the
/// cast's start `o` (m) and unit direction `d`, both local.
struct LocalBox<'a> {
    half: Vec3,
    pose: &'a Iso,
    o: Vec3,
    d: Vec3,
}

impl LocalBox<'_> {
    /// The stretch `(t_in, t_out)` (m) of the cast inside the box grown by the radius on
    /// every side, if the cast meets it within its length.
    fn clip(&self, sweep: &Sweep) -> Option<(Real, Real)> {
        let (o, d) = (&self.o, &self.d);
        let mut t_in: Real = 0.0;
        let mut t_out = sweep.max_distance;
        for i in 0..3 {
            let reach = self.half[i] + sweep.radius;
            if d[i].abs() <= PARALLEL {
                // Level with a face of the grown box and at or beyond it: at most a graze.
                if o[i].abs() >= reach {
                    return None;
                }
                continue;
            }
            let t1 = (-reach - o[i]) / d[i];
            let t2 = (reach - o[i]) / d[i];
            let (near, far) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
            t_in = t_in.max(near);
            t_out = t_out.min(far);
            if t_in > t_out {
                return None;
            }
        }
        Some((t_in, t_out))
    }

    /// The first face plane the ray crosses after `start` (m), or `end` if none comes first.
    fn next_plane(&self, start: Real, mut end: Real) -> Real {
        for i in 0..3 {
            if self.d[i].abs() > PARALLEL {
                for plane in [-self.half[i], self.half[i]] {
                    let t = (plane - self.o[i]) / self.d[i];
                    if t > start && t < end {
                        end = t;
                    }
                }
            }
        }
        end
    }

    /// Where on the stretch `[start, end]` (m), which crosses no face plane, the centre first
    /// comes within `radius` (m) of the box, if it does.
    fn first_touch(&self, start: Real, end: Real, radius: Real) -> Option<Real> {
        let (o, d, half) = (&self.o, &self.d, &self.half);
        // On this stretch the squared distance to the box is
        // sum over outside axes of (s_i (o_i + t d_i) - half_i)², s_i the side's sign.
        let mid = o + d * (0.5 * (start + end));
        let (mut qa, mut qb, mut qc) = (0.0, 0.0, -radius * radius);
        for i in 0..3 {
            let s = if mid[i] > half[i] {
                1.0
            } else if mid[i] < -half[i] {
                -1.0
            } else {
                continue;
            };
            let u = s * o[i] - half[i];
            let v = s * d[i];
            qa += v * v;
            qb += u * v;
            qc += u * u;
        }
        first_root(qa, qb, qc, start, end)
    }

    /// The hit at `toi` (m): the centre there, its closest point on the box and the normal
    /// from there, turned back to the world.
    fn hit(&self, toi: Real, sweep: &Sweep) -> SphereCast {
        let at = self.o + self.d * toi;
        let on_box = clamp_box(&at, &self.half);
        let point = self.pose * Point3::from(on_box);
        let normal = self.pose.rotation * (at - on_box);
        finish(toi, point, normal, sweep)
    }
}

/// Casts the sphere of `sweep` against a ball of radius `ball_radius` (m) centred at `at`
/// (world): ray against a ball of the summed radius.
pub(super) fn cast_sphere_ball(at: &Point3, ball_radius: Real, sweep: &Sweep) -> SphereCast {
    if !sweep.is_finite() || !point_finite(at) {
        return SphereCast::Fallback;
    }
    let m = sweep.centre - at;
    let d = sweep.dir.into_inner();
    match ray_ball(&m, &d, ball_radius + sweep.radius) {
        Entry::Inside => SphereCast::Fallback,
        Entry::Miss => SphereCast::Miss,
        Entry::At(toi) => surface_hit(toi, (at, ball_radius), &(m + d * toi), sweep),
    }
}

/// Casts the sphere of `sweep` against a capsule with axis `a`-`b` (world, m) and radius
/// `capsule_radius` (m): ray against a capsule of the summed radius (a cylinder and two end
/// balls).
pub(super) fn cast_sphere_capsule(
    a: &Point3,
    b: &Point3,
    capsule_radius: Real,
    sweep: &Sweep,
) -> SphereCast {
    if !point_finite(a) || !point_finite(b) || !sweep.is_finite() {
        return SphereCast::Fallback;
    }
    let (centre, d) = (&sweep.centre, sweep.dir.into_inner());
    let grown = capsule_radius + sweep.radius;
    let m = centre - a;
    let axis = b - a;
    // Entering the infinite cylinder within the axis' span is the first touch: the capsule
    // lies inside that cylinder. Otherwise the ray can only enter through an end ball.
    let mut best: Option<(Real, Point3)> = match ray_cylinder(&m, &axis, &d, grown) {
        Entry::Inside => return SphereCast::Fallback,
        Entry::At(toi) => Some((toi, a + axis * axial(&m, &axis, &d, toi))),
        Entry::Miss => None,
    };
    if best.is_none() {
        for end in [*a, *b] {
            match ray_ball(&(centre - end), &d, grown) {
                Entry::Inside => return SphereCast::Fallback,
                Entry::At(toi) if best.is_none_or(|(t, _)| toi < t) => best = Some((toi, end)),
                Entry::At(_) | Entry::Miss => {}
            }
        }
    }
    match best {
        Some((toi, on_axis)) => {
            let offset = centre + d * toi - on_axis;
            surface_hit(toi, (&on_axis, capsule_radius), &offset, sweep)
        }
        None => SphereCast::Miss,
    }
}

/// The hit of a cast on a rounded surface: the sphere's centre is at `offset` (m) from its
/// closest core point (world, m: a ball's centre, a point of a capsule's axis) of the
/// `(core, core_radius)` pair; the contact lies `core_radius` (m) from the core toward the
/// centre.
fn surface_hit(
    toi: Real,
    (core, core_radius): (&Point3, Real),
    offset: &Vec3,
    sweep: &Sweep,
) -> SphereCast {
    let Some(toward) = UnitVec3::try_new(*offset, TINY_NORMAL) else {
        return SphereCast::Fallback;
    };
    let point = core + toward.into_inner() * core_radius;
    finish(toi, point, *offset, sweep)
}

/// Ray from `m` (m, relative to a ball's centre) along unit `d` against that ball of `radius`
/// (m).
fn ray_ball(m: &Vec3, d: &Vec3, radius: Real) -> Entry {
    let c = m.norm_squared() - radius * radius;
    if c < 0.0 {
        return Entry::Inside;
    }
    let b = m.dot(d);
    if b >= 0.0 {
        return Entry::Miss;
    }
    let disc = b * b - c;
    if disc < 0.0 {
        return Entry::Miss;
    }
    // Smaller root of t² + 2bt + c in the cancellation-free form (b < 0).
    Entry::At(c / (-b + disc.sqrt()))
}

/// Ray from `m` (m, relative to the segment's first end) along unit `d` against the side of the
/// finite cylinder of `radius` (m) around the segment `axis` (m). [`Entry::At`] only when the
/// ray enters the side within the segment's span; entries through the end discs are left to
/// the end balls, which hold them. [`Entry::Inside`] when the start lies within the finite
/// cylinder.
fn ray_cylinder(m: &Vec3, axis: &Vec3, d: &Vec3, radius: Real) -> Entry {
    let len_sq = axis.norm_squared();
    if len_sq <= TINY_SEGMENT_SQ {
        return Entry::Miss;
    }
    let s0 = m.dot(axis) / len_sq;
    let sd = d.dot(axis) / len_sq;
    // Components across the axis, taken as vectors (not as differences of squares) so a long
    // edge far from the start keeps its precision.
    let m_across = m - axis * s0;
    let d_across = d - axis * sd;
    let c = m_across.norm_squared() - radius * radius;
    if c < 0.0 {
        // Inside the infinite cylinder: inside the piece when within the span, otherwise it
        // can only be entered through an end disc (the end balls' business).
        return if (0.0..=1.0).contains(&s0) {
            Entry::Inside
        } else {
            Entry::Miss
        };
    }
    let b = m_across.dot(&d_across);
    if b >= 0.0 {
        return Entry::Miss;
    }
    let a = d_across.norm_squared();
    let disc = b * b - a * c;
    if disc < 0.0 {
        return Entry::Miss;
    }
    // Smaller root of a t² + 2bt + c in the cancellation-free form (b < 0); right for a ray
    // almost along the axis too (a -> 0 gives t -> c / -2b).
    let t = c / (-b + disc.sqrt());
    let s = s0 + sd * t;
    if (0.0..=1.0).contains(&s) {
        Entry::At(t)
    } else {
        Entry::Miss
    }
}

/// Where along `axis` (as a fraction in `[0, 1]`) the ray from `m` along `d`, both relative to
/// the axis' first end, is closest to the axis after travelling `toi` (m).
fn axial(m: &Vec3, axis: &Vec3, d: &Vec3, toi: Real) -> Real {
    let len_sq = axis.norm_squared();
    if len_sq <= TINY_SEGMENT_SQ {
        return 0.0;
    }
    ((m + d * toi).dot(axis) / len_sq).clamp(0.0, 1.0)
}

/// First `t` in `[start, end]` (m) where the convex quadratic `a t² + 2 b t + c` (with
/// `a >= 0`) falls to zero or below, if any. Not falling at `start` (half the slope there is
/// `a start + b`) means it never does on the stretch, even if it is already zero there (a
/// touch left behind or slid along). Falling and already at or below zero at `start`
/// (rounding at a touching start) gives `start`.
fn first_root(a: Real, b: Real, c: Real, start: Real, end: Real) -> Option<Real> {
    if a * start + b >= 0.0 {
        return None;
    }
    if (a * start + 2.0 * b) * start + c <= 0.0 {
        return Some(start);
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    // a start + b < 0 with a, start >= 0 implies b < 0: cancellation-free smaller root.
    let t = c / (-b + disc.sqrt());
    (t <= end).then_some(t.max(start))
}

/// The point of the box with `half` extents (local, m) closest to `p` (local, m).
fn clamp_box(p: &Vec3, half: &Vec3) -> Vec3 {
    Vec3::new(
        p.x.clamp(-half.x, half.x),
        p.y.clamp(-half.y, half.y),
        p.z.clamp(-half.z, half.z),
    )
}

/// Builds the hit of a cast at `toi` (m), at `point` (world, m), with the unnormalised contact
/// `normal` (world): a miss past the sweep's length or where the sphere does not move into the
/// surface (`normal · dir >= 0`: a touching start sliding along or leaving the surface, as
/// GJK has it, or an exact graze), `toi` clamped to 0 from below (rounding at a touching
/// start), and [`SphereCast::Fallback`] for anything not finite or a degenerate normal.
fn finish(toi: Real, point: Point3, normal: Vec3, sweep: &Sweep) -> SphereCast {
    if toi.is_nan() {
        return SphereCast::Fallback;
    }
    if toi > sweep.max_distance || normal.dot(&sweep.dir) >= 0.0 {
        return SphereCast::Miss;
    }
    match UnitVec3::try_new(normal, TINY_NORMAL) {
        Some(normal) if toi.is_finite() && point_finite(&point) => SphereCast::Hit {
            toi: toi.max(0.0),
            point,
            normal,
        },
        _ => SphereCast::Fallback,
    }
}

/// True when every coordinate of `v` is finite.
fn vec_finite(v: &Vec3) -> bool {
    v.iter().all(|c| c.is_finite())
}

/// True when every coordinate of `p` is finite.
fn point_finite(p: &Point3) -> bool {
    vec_finite(&p.coords)
}

/// Property checks against parry's GJK cast (random poses, starts, directions and radii from
/// a fixed-seed generator) and hand cases with exact numbers.
#[cfg(test)]
mod tests {
    use super::*;
    use parry3d::shape::{Ball, Capsule, Cuboid, Triangle};

    /// Time-of-impact agreement with GJK once polished (m).
    const TOI_TOL: Real = 1e-4;
    /// Normal agreement with GJK once polished, away from grazing hits.
    const NORMAL_TOL: Real = 1e-3;
    /// Time-of-impact agreement with raw GJK (m): parry's f32 GJK is only millimetre
    /// accurate (up to about 3 mm seen here).
    const RAW_TOI_TOL: Real = 5e-3;
    /// Grazing margin (m): a case whose hit or miss flips when the radius and the length
    /// change by this much is not compared for hit or miss.
    const GRAZE: Real = 1e-4;
    /// Random cases per shape kind.
    const CASES: usize = 400;

    use super::super::test_rng::Lcg;

    /// GJK reference: the motor's own GJK path, before its Newton polish.
    use super::super::measure::gjk_cast_sphere as gjk;

    /// Hit or miss, for the grazing test; `None` for a fallback.
    fn hits(cast: SphereCast) -> Option<bool> {
        match cast {
            SphereCast::Hit { .. } => Some(true),
            SphereCast::Miss => Some(false),
            SphereCast::Fallback => None,
        }
    }

    /// Tallies of a property run, so each test can check it exercised what it meant to.
    #[derive(Default, Debug)]
    struct Tally {
        /// Cases both casts hit.
        hits: usize,
        /// Cases both casts missed.
        misses: usize,
        /// Cases where hit or miss differ, all within the grazing margin.
        grazing: usize,
        /// Cases starting in overlap (left to GJK).
        overlaps: usize,
        /// Hits whose toi and normal were compared (not grazing).
        normals: usize,
        /// Largest time-of-impact gap to raw GJK seen (m).
        raw_toi: Real,
        /// Largest normal gap to raw GJK seen.
        raw_normal: Real,
    }

    impl Tally {
        /// Prints the tally and checks the run exercised more than `hits` hits and `misses`
        /// misses, with hit-or-miss disagreements (all grazing) in under 2 % of the cases.
        fn check(&self, name: &str, hits: usize, misses: usize) {
            eprintln!("{name}: {self:?}");
            assert!(
                self.hits > hits && self.misses >= misses,
                "{name}: {self:?}"
            );
            assert!(self.grazing < CASES / 50, "{name}: {self:?}");
        }
    }

    /// A solid shape and its pose (world), as the GJK reference takes them.
    type Placed<'a> = (&'a dyn Shape, &'a Iso);

    /// Polishes a GJK hit the way the motor's `refine_cast` does (Newton steps on the exact
    /// closest-point distance, stopping at grazing approaches): the GJK path's final answer.
    fn polish((shape, pose): Placed, sweep: &Sweep, rough: (Real, UnitVec3)) -> (Real, UnitVec3) {
        let (mut toi, mut normal) = rough;
        for _ in 0..8 {
            let at = sweep.at(toi);
            let proj = shape.project_point(pose, &at, true);
            let Some(n) = UnitVec3::try_new(at - proj.point, 1e-7) else {
                break;
            };
            let approach = n.dot(&sweep.dir);
            if approach > -0.05 {
                break;
            }
            normal = n;
            toi -= ((at - proj.point).norm() - sweep.radius) / approach;
        }
        (toi, normal)
    }

    /// One random case against the solid `shape` at `pose`: a start near its origin aimed
    /// within `spread` (m) of it ([`start_and_dir`]), a random radius and reach, and
    /// [`check_case`] on the result.
    fn solid_case(rng: &mut Lcg, tally: &mut Tally, case: usize, placed: Placed, spread: Real) {
        let (shape, pose) = placed;
        let target = Point3::from(pose.translation.vector);
        let (centre, dir) = start_and_dir(rng, &target, spread);
        let radius = rng.range(0.05, 1.0);
        let max = rng.range(0.5, 6.0);
        let cast = |r, m| cast_sphere_solid(shape, pose, &Sweep::new(centre, r, dir, m));
        check_case(
            tally,
            case,
            &cast,
            placed,
            &Sweep::new(centre, radius, dir, max),
        );
    }

    /// Compares `cast(radius, max_distance)` with GJK on the placed shape for one case of
    /// `sweep` and checks the hit's own invariants (on the surface, one radius from the centre,
    /// normal against the motion, toi in range).
    fn check_case(
        tally: &mut Tally,
        case: usize,
        cast: &dyn Fn(Real, Real) -> SphereCast,
        placed: Placed,
        sweep: &Sweep,
    ) {
        let (shape, pose) = placed;
        let (radius, max_distance) = (sweep.radius, sweep.max_distance);
        let ours = cast(radius, max_distance);
        let gap = shape.distance_to_point(pose, &sweep.centre, true);
        if gap < radius {
            assert_eq!(ours, SphereCast::Fallback, "case {case}: overlapping start");
            tally.overlaps += 1;
            return;
        }
        let reference = gjk(shape, pose, sweep);
        let graze = hits(cast(radius - GRAZE, max_distance - GRAZE))
            != hits(cast(radius + GRAZE, max_distance + GRAZE));
        match (ours, reference) {
            (SphereCast::Hit { toi, point, normal }, Some(gjk_hit)) => {
                tally.hits += 1;
                check_hit(tally, case, placed, sweep, ((toi, point, normal), gjk_hit));
            }
            (SphereCast::Miss, None) => tally.misses += 1,
            (ours, reference) => {
                assert!(
                    graze,
                    "case {case}: ours {ours:?} vs GJK {reference:?} (not grazing)"
                );
                tally.grazing += 1;
            }
        }
    }

    /// A hit and GJK's hit for the same case: `(toi, point, normal)` each.
    type HitPair = ((Real, Point3, UnitVec3), (Real, Point3, UnitVec3));

    /// Checks one hit of [`check_case`] against its own invariants and, away from grazing,
    /// against GJK's raw and polished answers.
    fn check_hit(tally: &mut Tally, case: usize, placed: Placed, sweep: &Sweep, hits: HitPair) {
        let ((toi, point, normal), (g_toi, _, g_normal)) = hits;
        let (shape, pose) = placed;
        let dir = &sweep.dir;
        assert!(
            (0.0..=sweep.max_distance).contains(&toi),
            "case {case}: toi {toi}"
        );
        assert!(normal.dot(dir) <= 0.0, "case {case}: normal along dir");
        // Exact: the contact is on the surface, one radius from the centre there, along the
        // normal.
        let surface = shape.distance_to_point(pose, &point, true);
        assert!(surface.abs() < 1e-5, "case {case}: point off the surface");
        let offset = sweep.at(toi) - point;
        let reach = offset.norm();
        assert!(
            (reach - sweep.radius).abs() < 1e-5,
            "case {case}: reach {reach}"
        );
        let across = (offset - normal.into_inner() * offset.dot(&normal)).norm();
        assert!(
            across < 1e-4,
            "case {case}: normal off the offset by {across}"
        );
        if -normal.dot(dir) <= 0.1 {
            return;
        }
        // Away from grazing: the raw GJK answer (about a millimetre off), and the GJK answer
        // once polished as the motor does.
        tally.normals += 1;
        let raw_toi = (toi - g_toi).abs();
        let raw_normal = (normal.into_inner() - g_normal.into_inner()).norm();
        tally.raw_toi = tally.raw_toi.max(raw_toi);
        tally.raw_normal = tally.raw_normal.max(raw_normal);
        assert!(
            raw_toi <= RAW_TOI_TOL,
            "case {case}: toi {toi} vs GJK {g_toi}"
        );
        let (p_toi, p_normal) = polish(placed, sweep, (g_toi, g_normal));
        let diff = (normal.into_inner() - p_normal.into_inner()).norm();
        assert!(
            (toi - p_toi).abs() <= TOI_TOL,
            "case {case}: toi {toi} vs polished GJK {p_toi}"
        );
        assert!(
            diff <= NORMAL_TOL,
            "case {case}: normal off polished GJK's by {diff}"
        );
    }

    /// A start near `target` (m), and a direction aimed near it three times in four.
    fn start_and_dir(rng: &mut Lcg, target: &Point3, spread: Real) -> (Point3, UnitVec3) {
        let start = target + rng.vec(3.0);
        let dir = if rng.unit() < 0.25 {
            rng.dir()
        } else {
            let aim = target + rng.vec(spread) - start;
            UnitVec3::try_new(aim, 1e-3).unwrap_or_else(|| rng.dir())
        };
        (start, dir)
    }

    #[test]
    fn triangles_agree_with_gjk() {
        let mut rng = Lcg(1);
        let mut tally = Tally::default();
        for case in 0..CASES {
            let pose = rng.pose(2.0);
            let corners = [
                pose * Point3::from(rng.vec(1.5)),
                pose * Point3::from(rng.vec(1.5)),
                pose * Point3::from(rng.vec(1.5)),
            ];
            let tri = Triangle::new(corners[0], corners[1], corners[2]);
            let target = tri.center();
            let (centre, dir) = start_and_dir(&mut rng, &target, 1.5);
            let radius = rng.range(0.05, 1.0);
            let max = rng.range(0.5, 6.0);
            let cast = |r, m| cast_sphere_triangle(&corners, &Sweep::new(centre, r, dir, m));
            let id = Iso::identity();
            let query = Sweep::new(centre, radius, dir, max);
            check_case(&mut tally, case, &cast, (&tri, &id), &query);
        }
        tally.check("triangles", CASES / 5, CASES / 10);
    }

    #[test]
    fn cuboids_agree_with_gjk() {
        let mut rng = Lcg(2);
        let mut tally = Tally::default();
        for case in 0..CASES {
            let pose = rng.pose(2.0);
            // Thin plates too: their edge and corner pockets are where a shortcut would fail.
            let half = Vec3::new(
                rng.range(0.005, 2.0),
                rng.range(0.005, 2.0),
                rng.range(0.005, 2.0),
            );
            let cuboid = Cuboid::new(half);
            solid_case(&mut rng, &mut tally, case, (&cuboid, &pose), 2.0);
        }
        tally.check("cuboids", CASES / 5, CASES / 10);
    }

    #[test]
    fn cuboid_pockets_agree_with_gjk() {
        // Starts right beside the edges and corners of thin boxes, moving mostly along them:
        // the rays that cross several of the box's Voronoi regions before touching.
        let mut rng = Lcg(3);
        let mut tally = Tally::default();
        for case in 0..CASES {
            let pose = rng.pose(1.0);
            let half = Vec3::new(rng.range(0.005, 0.3), rng.range(0.2, 2.0), 0.01);
            let cuboid = Cuboid::new(half);
            let radius = rng.range(0.05, 1.0);
            let corner = Vec3::new(
                half.x * rng.range(-1.2, 1.2).signum(),
                half.y * rng.range(-1.2, 1.2).signum(),
                half.z * rng.range(-1.2, 1.2).signum(),
            );
            let local = corner + rng.vec(radius * 1.5);
            let centre = pose * Point3::from(local);
            let dir = pose * UnitVec3::new_normalize(rng.vec(1.0) - corner * 2.0);
            let max = rng.range(0.5, 4.0);
            let cast = |r, m| cast_sphere_solid(&cuboid, &pose, &Sweep::new(centre, r, dir, m));
            let query = Sweep::new(centre, radius, dir, max);
            check_case(&mut tally, case, &cast, (&cuboid, &pose), &query);
        }
        tally.check("cuboid pockets", CASES / 10, 0);
    }

    #[test]
    fn balls_agree_with_gjk() {
        let mut rng = Lcg(4);
        let mut tally = Tally::default();
        for case in 0..CASES {
            let pose = rng.pose(2.0);
            let ball = Ball::new(rng.range(0.05, 2.0));
            solid_case(&mut rng, &mut tally, case, (&ball, &pose), 2.0);
        }
        tally.check("balls", CASES / 5, CASES / 10);
    }

    #[test]
    fn capsules_agree_with_gjk() {
        let mut rng = Lcg(5);
        let mut tally = Tally::default();
        for case in 0..CASES {
            let pose = rng.pose(2.0);
            let capsule = Capsule::new_y(rng.range(0.0, 1.5), rng.range(0.05, 1.0));
            solid_case(&mut rng, &mut tally, case, (&capsule, &pose), 1.5);
        }
        tally.check("capsules", CASES / 5, CASES / 10);
    }

    /// Unpacks a hit, failing the test on anything else.
    fn hit(cast: SphereCast) -> (Real, Point3, UnitVec3) {
        match cast {
            SphereCast::Hit { toi, point, normal } => (toi, point, normal),
            other => panic!("expected a hit, got {other:?}"),
        }
    }

    /// Asserts two vectors agree to 1e-5.
    fn close(a: &Vec3, b: &Vec3) {
        assert!((a - b).norm() < 1e-5, "{a:?} vs {b:?}");
    }

    /// The right triangle (0,0,0), (2,0,0), (0,2,0): front +Z.
    const TRI: [Point3; 3] = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(0.0, 2.0, 0.0),
    ];

    #[test]
    fn triangle_face_hit_head_on() {
        let c = Point3::new(0.5, 0.5, 3.0);
        let down = -Vec3::z_axis();
        let (toi, point, normal) = hit(cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, down, 10.0)));
        assert!((toi - 2.5).abs() < 1e-6);
        close(&point.coords, &Vec3::new(0.5, 0.5, 0.0));
        close(&normal, &Vec3::z());
        // Too short a cast stops before the face.
        assert_eq!(
            cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, down, 2.4)),
            SphereCast::Miss
        );
        // From behind, the two-sided sum is hit on the back face.
        let below = Point3::new(0.5, 0.5, -3.0);
        let (toi, _, normal) = hit(cast_sphere_triangle(
            &TRI,
            &Sweep::new(below, 0.5, Vec3::z_axis(), 9.0),
        ));
        assert!((toi - 2.5).abs() < 1e-6);
        close(&normal, &-Vec3::z());
    }

    #[test]
    fn triangle_edge_hit() {
        // Head-on onto the edge along X: the centre meets it at (1, -0.3, 0.4), 0.5 from it.
        let dir = UnitVec3::new_normalize(Vec3::new(0.0, 0.6, -0.8));
        let c = Point3::new(1.0, -1.5, 2.0);
        let (toi, point, normal) = hit(cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, dir, 10.0)));
        assert!((toi - 2.0).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(1.0, 0.0, 0.0));
        close(&normal, &Vec3::new(0.0, -0.6, 0.8));
    }

    #[test]
    fn triangle_corner_hit() {
        // Straight at corner (0,0,0) from outside its two edges' spans.
        let u = Vec3::new(-1.0, -1.0, 1.0).normalize();
        let c = Point3::from(u * 3.5);
        let dir = UnitVec3::new_normalize(-u);
        let (toi, point, normal) = hit(cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, dir, 10.0)));
        assert!((toi - 3.0).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::zeros());
        close(&normal, &u);
    }

    #[test]
    fn triangle_parallel_cases() {
        let along_x = Vec3::x_axis();
        // Level above the face by more than the radius: a miss, however long.
        let above = Point3::new(-3.0, 0.5, 0.6);
        assert_eq!(
            cast_sphere_triangle(&TRI, &Sweep::new(above, 0.5, along_x, 100.0)),
            SphereCast::Miss
        );
        // Exactly along the edge's line, 0.2 above it: the corner ball is met first, at
        // x = -sqrt(0.5² - 0.2²).
        let c = Point3::new(-3.0, 0.0, 0.2);
        let (toi, point, normal) = hit(cast_sphere_triangle(
            &TRI,
            &Sweep::new(c, 0.5, along_x, 10.0),
        ));
        let x = -(0.25f32 - 0.04).sqrt();
        assert!((toi - (3.0 + x)).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::zeros());
        close(&normal, &(Vec3::new(x, 0.0, 0.2) / 0.5));
        // Zero-area triangle (two corners equal): edges and corners still work.
        let flat = [TRI[0], TRI[1], TRI[1]];
        let (toi, _, _) = hit(cast_sphere_triangle(
            &flat,
            &Sweep::new(c, 0.5, along_x, 10.0),
        ));
        assert!((toi - (3.0 + x)).abs() < 1e-5, "{toi}");
    }

    #[test]
    fn triangle_overlap_falls_back() {
        let down = -Vec3::z_axis();
        let c = Point3::new(0.5, 0.5, 0.3);
        assert_eq!(
            cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, down, 1.0)),
            SphereCast::Fallback
        );
        // Beside the edge, within the radius of it.
        let c = Point3::new(1.0, -0.3, 0.1);
        assert_eq!(
            cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, down, 1.0)),
            SphereCast::Fallback
        );
        // Touching exactly is not an overlap: toi 0 when moving in.
        let c = Point3::new(0.5, 0.5, 0.5);
        let (toi, _, normal) = hit(cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, down, 1.0)));
        assert_eq!(toi, 0.0);
        close(&normal, &Vec3::z());
    }

    #[test]
    fn touching_starts_that_slide_or_leave_miss() {
        // As GJK has it: a sphere one radius from a surface hits it (toi 0) only when moving
        // into it.
        let down = -Vec3::y_axis();
        let east = Vec3::x_axis();
        let west = -Vec3::x_axis();
        // Sliding down a wall whose face is at x = 1 (the motor's wall-slide probe).
        let wall = Cuboid::new(Vec3::new(0.5, 2.0, 10.0));
        let pose = Iso::translation(1.5, 2.0, 0.0);
        let c = Point3::new(0.7, 2.0, 0.0);
        assert_eq!(
            cast_sphere_solid(&wall, &pose, &Sweep::new(c, 0.3, down, 5.0)),
            SphereCast::Miss
        );
        assert_eq!(
            cast_sphere_solid(&wall, &pose, &Sweep::new(c, 0.3, west, 5.0)),
            SphereCast::Miss
        );
        let (toi, _, normal) = hit(cast_sphere_solid(
            &wall,
            &pose,
            &Sweep::new(c, 0.3, east, 5.0),
        ));
        assert_eq!(toi, 0.0);
        close(&normal, &-Vec3::x());
        // Beside the wall's top edge (x = 1, y = 4), touching it (offset (-0.375, 0.5), radius
        // 0.625: exact in binary): along the edge or away from it, a miss; into it, toi 0.
        let c = Point3::new(0.625, 4.5, 0.0);
        let r = 0.625;
        let along = Vec3::z_axis();
        assert_eq!(
            cast_sphere_solid(&wall, &pose, &Sweep::new(c, r, along, 5.0)),
            SphereCast::Miss
        );
        assert_eq!(
            cast_sphere_solid(&wall, &pose, &Sweep::new(c, r, west, 5.0)),
            SphereCast::Miss
        );
        let into = UnitVec3::new_normalize(Vec3::new(0.375, -0.5, 0.0));
        let (toi, point, normal) = hit(cast_sphere_solid(
            &wall,
            &pose,
            &Sweep::new(c, r, into, 5.0),
        ));
        assert_eq!(toi, 0.0);
        close(&point.coords, &Vec3::new(1.0, 4.0, 0.0));
        close(&normal, &-into.into_inner());
        // Resting on a triangle, walking level across it.
        let c = Point3::new(0.5, 0.5, 0.5);
        assert_eq!(
            cast_sphere_triangle(&TRI, &Sweep::new(c, 0.5, east, 5.0)),
            SphereCast::Miss
        );
        // Touching a ball, moving tangentially.
        let ball = Ball::new(1.0);
        let c = Point3::new(0.0, 1.5, 0.0);
        assert_eq!(
            cast_sphere_solid(&ball, &Iso::identity(), &Sweep::new(c, 0.5, east, 5.0)),
            SphereCast::Miss
        );
    }

    #[test]
    fn hostile_inputs_never_panic_nor_give_nan() {
        let mut rng = Lcg(7);
        let tri = [
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ];
        let point_tri = [Point3::origin(); 3];
        let flat_box = Cuboid::new(Vec3::new(1.0, 0.0, 1.0));
        let dot_box = Cuboid::new(Vec3::zeros());
        let dot_capsule = Capsule::new_y(0.0, 0.5);
        let id = Iso::identity();
        let big = Real::MAX / 4.0;
        let starts = [
            Point3::new(0.3, 0.2, 2.0),
            Point3::new(1e30, -1e30, 1e30),
            Point3::new(big, big, big),
            Point3::new(0.0, 0.0, 0.0),
        ];
        let radii = [0.0, 1e-30, 0.3, 1e30];
        let lengths = [0.0, 1e-30, 5.0, Real::INFINITY, -1.0];
        for start in &starts {
            for &r in &radii {
                for &max in &lengths {
                    for _ in 0..4 {
                        let dir = rng.dir();
                        let casts = [
                            cast_sphere_triangle(&tri, &Sweep::new(*start, r, dir, max)),
                            cast_sphere_triangle(&point_tri, &Sweep::new(*start, r, dir, max)),
                            cast_sphere_solid(&flat_box, &id, &Sweep::new(*start, r, dir, max)),
                            cast_sphere_solid(&dot_box, &id, &Sweep::new(*start, r, dir, max)),
                            cast_sphere_solid(&dot_capsule, &id, &Sweep::new(*start, r, dir, max)),
                            cast_sphere_solid(
                                &Ball::new(0.0),
                                &id,
                                &Sweep::new(*start, r, dir, max),
                            ),
                        ];
                        for cast in casts {
                            if let SphereCast::Hit { toi, point, normal } = cast {
                                assert!(toi.is_finite() && (0.0..=max).contains(&toi));
                                assert!(point_finite(&point) && vec_finite(&normal));
                                assert!(normal.dot(&dir) < 0.0);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cuboid_face_edge_corner_and_parallel() {
        // A 2 x 1 x 4 box turned 90 degrees about Y, centred at (10, 0, 0): local X is world -Z.
        let pose = Iso::new(
            Vec3::new(10.0, 0.0, 0.0),
            Vec3::y() * std::f32::consts::FRAC_PI_2,
        );
        let cuboid = Cuboid::new(Vec3::new(1.0, 0.5, 2.0));
        let r = 0.25;
        let down = -Vec3::y_axis();
        // Face: from above, onto the top (world y = 0.5).
        let c = Point3::new(10.3, 3.0, 0.2);
        let (toi, point, normal) = hit(cast_sphere_solid(
            &cuboid,
            &pose,
            &Sweep::new(c, r, down, 5.0),
        ));
        assert!((toi - 2.25).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(10.3, 0.5, 0.2));
        close(&normal, &Vec3::y());
        // Edge: the world-space top edge at x = 12 (local z = 2 maps to world x = 12), met
        // head-on along the diagonal.
        let u = Vec3::new(1.0, 1.0, 0.0).normalize();
        let c = Point3::new(12.0, 0.5, 0.3) + u * 2.25;
        let dir = UnitVec3::new_normalize(-u);
        let (toi, point, normal) = hit(cast_sphere_solid(
            &cuboid,
            &pose,
            &Sweep::new(c, r, dir, 5.0),
        ));
        assert!((toi - 2.0).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(12.0, 0.5, 0.3));
        close(&normal, &u);
        // Corner (12, 0.5, 1) (local (-1, 0.5, 2)), head-on along its diagonal.
        let u = Vec3::new(1.0, 1.0, 1.0).normalize();
        let c = Point3::new(12.0, 0.5, 1.0) + u * 3.25;
        let dir = UnitVec3::new_normalize(-u);
        let (toi, point, normal) = hit(cast_sphere_solid(
            &cuboid,
            &pose,
            &Sweep::new(c, r, dir, 5.0),
        ));
        assert!((toi - 3.0).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(12.0, 0.5, 1.0));
        close(&normal, &u);
        // Parallel to the top, above it by more than the radius: a miss.
        let c = Point3::new(5.0, 0.8, 0.0);
        let east = Vec3::x_axis();
        assert_eq!(
            cast_sphere_solid(&cuboid, &pose, &Sweep::new(c, r, east, 20.0)),
            SphereCast::Miss
        );
        // Parallel to the top, lower: the side face at world x = 8, seen at toi 2.75.
        let c = Point3::new(5.0, 0.4, 0.0);
        let (toi, _, normal) = hit(cast_sphere_solid(
            &cuboid,
            &pose,
            &Sweep::new(c, r, east, 20.0),
        ));
        assert!((toi - 2.75).abs() < 1e-5, "{toi}");
        close(&normal, &-Vec3::x());
        // Overlap falls back.
        let c = Point3::new(10.0, 0.6, 0.0);
        assert_eq!(
            cast_sphere_solid(&cuboid, &pose, &Sweep::new(c, r, down, 5.0)),
            SphereCast::Fallback
        );
    }

    #[test]
    fn ball_and_capsule_hits() {
        let pose = Iso::translation(0.0, -30.0, 0.0);
        let planet = Ball::new(30.0);
        let c = Point3::new(0.0, 1.0, 0.0);
        let down = -Vec3::y_axis();
        let (toi, point, normal) = hit(cast_sphere_solid(
            &planet,
            &pose,
            &Sweep::new(c, 0.3, down, 2.0),
        ));
        assert!((toi - 0.7).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::zeros());
        close(&normal, &Vec3::y());
        // Capsule along Y (half height 1, radius 0.5) at the origin, hit from the side on its
        // cylinder and from above on its cap.
        let capsule = Capsule::new_y(1.0, 0.5);
        let id = Iso::identity();
        let c = Point3::new(-3.0, 0.5, 0.0);
        let east = Vec3::x_axis();
        let (toi, point, normal) = hit(cast_sphere_solid(
            &capsule,
            &id,
            &Sweep::new(c, 0.25, east, 5.0),
        ));
        assert!((toi - 2.25).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(-0.5, 0.5, 0.0));
        close(&normal, &-Vec3::x());
        let c = Point3::new(0.0, 4.0, 0.0);
        let (toi, point, normal) = hit(cast_sphere_solid(
            &capsule,
            &id,
            &Sweep::new(c, 0.25, down, 5.0),
        ));
        assert!((toi - 2.25).abs() < 1e-5, "{toi}");
        close(&point.coords, &Vec3::new(0.0, 1.5, 0.0));
        close(&normal, &Vec3::y());
        // Unhandled shapes and non-finite inputs fall back on GJK.
        let cyl = parry3d::shape::Cylinder::new(1.0, 0.5);
        assert_eq!(
            cast_sphere_solid(&cyl, &id, &Sweep::new(c, 0.25, down, 5.0)),
            SphereCast::Fallback
        );
        let nan = Point3::new(Real::NAN, 0.0, 0.0);
        assert_eq!(
            cast_sphere_solid(&capsule, &id, &Sweep::new(nan, 0.25, down, 5.0)),
            SphereCast::Fallback
        );
    }

    /// The shortcut past a triangle's edges and corners ([`LocalTriangle::beyond_reach`])
    /// never changes an answer. Random triangles (some far from the origin, some slivers)
    /// and casts whose end comes within a centimetre of the grown triangle's surface near an
    /// edge or a corner, where the shortcut's margin is thinnest, plus casts from anywhere
    /// around: the cast answers exactly what the face plane and then the three cylinders and
    /// three balls answer without it, hit for hit, and the shortcut is taken in many cases.
    #[test]
    fn the_edge_shortcut_never_changes_an_answer() {
        let mut rng = Lcg(33);
        let (mut taken, mut beside) = (0, 0);
        for case in 0..40_000 {
            let origin = if case % 4 == 0 {
                rng.vec(500.0)
            } else {
                Vec3::zeros()
            };
            let mut corners = [0; 3].map(|_| Point3::from(origin + rng.vec(1.0)));
            if case % 10 == 0 {
                // A sliver: the third corner near the first edge.
                let t = rng.unit();
                corners[2] = corners[0] + (corners[1] - corners[0]) * t + rng.vec(1e-3);
            }
            let radius = rng.range(0.02, 0.6);
            let dir = rng.dir();
            let max = rng.range(0.0, 2.0);
            let centre = if case % 3 == 0 {
                Point3::from(origin + rng.vec(2.0))
            } else {
                // The cast ends radius +- 1 cm from a point of an edge (or a corner).
                let (i, j) = [(0, 1), (1, 2), (2, 0)][(case / 3) % 3];
                let t = if case % 7 == 0 { 0.0 } else { rng.unit() };
                let on_edge = corners[i] + (corners[j] - corners[i]) * t;
                let end = on_edge + rng.dir().into_inner() * (radius + rng.range(-0.01, 0.01));
                end - dir.into_inner() * max
            };
            let sweep = Sweep::new(centre, radius, dir, max);
            let tri = LocalTriangle::new(&corners, &centre);
            let face = tri.face_entry(&sweep);
            if let FaceEntry::Beside(b) = &face {
                beside += 1;
                taken += usize::from(tri.beyond_reach(b, &sweep));
            }
            let plain = match face {
                FaceEntry::Decided(found) => found,
                FaceEntry::Beside(_) | FaceEntry::NoNormal => tri.edge_or_corner_entry(&sweep),
            };
            assert_eq!(cast_sphere_triangle(&corners, &sweep), plain, "case {case}");
        }
        // Most of these casts graze an edge, which the shortcut must leave to the exact test:
        // it is taken in about one in ten.
        assert!(
            taken > 2_000 && beside > 20_000,
            "shortcut taken {taken} times of {beside}"
        );
    }
}
