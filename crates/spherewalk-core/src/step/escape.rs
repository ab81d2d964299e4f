//! The way out of a squeeze: when pushback's pushes contradict each other (the stack was put
//! between steep faces, or geometry closed on it), the stack moves in a straight line by the
//! least that clears every contact, if one does: straight up first (out of a wedge), else
//! sideways along one of eight directions around up (from under a lowering ceiling, out
//! between closing walls), never through a piece.

use super::StepContext;
use super::contacts::SphereAt;
use crate::math::{Point3, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::world::sphere_box;
use crate::world::{Primitive, SurfacePoint, Sweep, WorldQueries, measure};
use parry3d::bounding_volume::BoundingVolume;

/// A contact whose normal points against the escape by more than this (cosine) lies ahead of
/// the sphere: moving on would cross it, so that direction is refused. Contacts facing along
/// it by more than this bound their exit along their own slope.
const MIN_ALONG: Real = 0.05;
/// Sideways directions tried, evenly around up from the character's forward.
const SIDEWAYS: usize = 8;
/// Rounds of "find every contact, move past the last exit" before giving up.
const MAX_ROUNDS: usize = 4;
/// Most bisection steps narrowing one contact's exit (a 4 m bracket to 0.06 mm).
const BISECTIONS: usize = 16;

/// A straight move out of a squeeze.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Escape {
    /// Which way the stack moves (unit, world).
    pub dir: UnitVec3,
    /// How far it moves (m).
    pub length: Real,
    /// True when the move stops short at the edge of the gathered region, before every contact
    /// is cleared; the rest waits for the next step.
    pub partial: bool,
}

/// The way out of a squeeze for the stack at `pose`: the rise out (see [`slide_out`]) when
/// there is one, else the shortest of the sideways slides (ties, to the penetration
/// tolerance, to the first direction, from forward turning left). `None` when no straight move of at most the stack's height clears
/// every contact without crossing a piece.
pub(super) fn escape(
    ctx: &StepContext<'_>,
    pose: &Pose,
    motion: &Vec3,
    contacts: &mut Vec<(usize, SurfacePoint)>,
) -> Option<Escape> {
    let up = pose.up();
    let tol = ctx.motor.settings.penetration_tolerance;
    if buried(ctx, pose, motion, contacts) {
        return None;
    }
    if let Some(rise) = slide_out(ctx, pose, motion, &up, contacts) {
        return Some(rise);
    }
    let (forward, left) = (pose.forward().into_inner(), -pose.right().into_inner());
    let mut best: Option<Escape> = None;
    for k in 0..SIDEWAYS {
        let angle = std::f32::consts::TAU * k as Real / SIDEWAYS as Real;
        let (s, c) = (crate::math::sin(angle), crate::math::cos(angle));
        let Some(dir) = UnitVec3::try_new(forward * c + left * s, 1e-6) else {
            continue;
        };
        if let Some(out) = slide_out(ctx, pose, motion, &dir, contacts)
            && best.is_none_or(|b| out.length < b.length - tol)
        {
            best = Some(out);
        }
    }
    best
}

/// True when a sphere of the stack at `pose` is deeper in a piece than the stack is tall: no
/// straight move of at most that height can clear it (a sphere `d` deep must move at least `d`
/// to leave), so no escape is searched for. A character spawned deep inside a huge rock is
/// then balanced at once instead of trying every direction against every piece around it
/// (a thousand such characters took seconds a step).
fn buried(
    ctx: &StepContext<'_>,
    pose: &Pose,
    motion: &Vec3,
    contacts: &mut Vec<(usize, SurfacePoint)>,
) -> bool {
    let tol = ctx.motor.settings.penetration_tolerance;
    let cap = ctx.motor.stack.height();
    ctx.motor.stack.spheres().iter().any(|sphere| {
        let centre = pose.centre_at(sphere.offset_local);
        let at = SphereAt {
            centre,
            from: centre - motion,
            radius: sphere.radius,
        };
        at.contacts(ctx, tol, contacts) > cap
    })
}

/// The least move along unit `dir` (m) that clears every contact of the stack at `pose`, in
/// rounds: each finds the contacts still overlapping, the distance at which each is left (see
/// [`Pair::exit`]), and moves to the last of them, after checking by sphere casts that the
/// move crosses nothing it was not already inside. `None` when moving along `dir` cannot clear
/// them: a piece lies ahead of a sphere, the move would cross another primitive, or more than
/// the stack's own height is needed. A move that would leave the gathered region stops at its
/// edge ([`Escape::partial`]). `motion` is the displacement that led to `pose` (see
/// [`crate::backend::Primitive::holds`]).
fn slide_out(
    ctx: &StepContext<'_>,
    pose: &Pose,
    motion: &Vec3,
    dir: &UnitVec3,
    contacts: &mut Vec<(usize, SurfacePoint)>,
) -> Option<Escape> {
    let tol = ctx.motor.settings.penetration_tolerance;
    let spheres = ctx.motor.stack.spheres();
    // Exits further than the stack's own height are refused; a move past the gathered region
    // stops at its edge.
    let cap = ctx.motor.stack.height();
    let room = cap.min(room_along(ctx, pose, dir));
    let mut height: Real = 0.0;
    for _ in 0..MAX_ROUNDS {
        let mut exit = height;
        for sphere in spheres {
            let start = pose.centre_at(sphere.offset_local);
            let from = start - motion;
            let centre = start + dir.into_inner() * height;
            let at = SphereAt {
                centre,
                from,
                radius: sphere.radius,
            };
            at.contacts(ctx, tol, contacts);
            for (k, sp) in contacts.iter() {
                let pair = Pair {
                    prim: &ctx.prims[*k],
                    from,
                    radius: sphere.radius,
                };
                let sweep = Sweep::new(centre, sphere.radius, *dir, cap - height);
                let left = pair.exit(ctx, &sweep, sp)?;
                exit = exit.max(height + left);
            }
        }
        if exit <= height {
            return (height > 0.0).then_some(Escape {
                dir: *dir,
                length: height,
                partial: false,
            });
        }
        let partial = exit > room;
        let next = exit.min(room);
        let offset = dir.into_inner() * height;
        let step = next - height;
        let slide = Slide {
            dir,
            length: step,
            touching: Touching::Stops,
        };
        if slide.free_length(ctx, pose, &offset, contacts) < step {
            return None;
        }
        if partial {
            return (next > 0.0).then_some(Escape {
                dir: *dir,
                length: next,
                partial,
            });
        }
        height = next;
    }
    None
}

/// One sphere against one primitive it overlaps.
struct Pair<'a> {
    prim: &'a Primitive,
    from: Point3,
    radius: Real,
}

impl Pair<'_> {
    /// Penetration (m, > 0 overlapping) of the sphere centred at `centre`; 0 when apart or
    /// when a one-sided face does not hold it.
    fn depth(&self, ctx: &StepContext<'_>, centre: &Point3) -> Real {
        measure::held_contact(ctx.world, self.prim, centre, self.radius, &self.from)
            .map_or(0.0, |sp| self.radius - sp.distance)
    }

    /// How far (m) the sphere of `sweep` (this pair's sphere at `sweep.centre`), overlapping
    /// as `sp` says, moves along `sweep.dir` before it leaves the primitive to within
    /// `tol / 2`; `None` when the primitive lies ahead of the sphere (moving on would cross
    /// it) or the exit lies beyond `sweep.max_distance` (m).
    ///
    /// The penetration of a sphere moving along a line into a convex piece first grows, then
    /// shrinks, and falls at most as fast as the sphere moves: it is still there `depth`
    /// further, and gone once the sphere is past the piece's furthest point along `dir`.
    /// Between the two, bisection finds the exit; a contact facing along `dir` gives a closer
    /// upper bound along its own slope (the distance to a convex piece is convex along a
    /// line).
    fn exit(&self, ctx: &StepContext<'_>, sweep: &Sweep, sp: &SurfacePoint) -> Option<Real> {
        let (centre, dir, limit) = (&sweep.centre, &sweep.dir, sweep.max_distance);
        let tol = ctx.motor.settings.penetration_tolerance;
        let rising = sp.contact_normal.dot(dir);
        if rising < -MIN_ALONG {
            return None;
        }
        let at = |s: Real| self.depth(ctx, &(centre + dir.into_inner() * s));
        let mut lo = self.radius - sp.distance;
        let top = ctx.world.extent_primitive(self.prim, dir);
        let mut hi = top - centre.coords.dot(dir) + self.radius;
        if rising >= MIN_ALONG {
            let along = lo / rising;
            if along < hi && at(along) <= 0.5 * tol {
                hi = along;
            }
        }
        if hi > limit + tol {
            return None;
        }
        // Both bounds meet when the contact faces straight along `dir` (up to rounding).
        lo = lo.min(hi);
        for _ in 0..BISECTIONS {
            if hi - lo <= 0.5 * tol {
                break;
            }
            let mid = 0.5 * (lo + hi);
            if at(mid) > 0.5 * tol {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(hi)
    }
}

/// Most the stack may move (m, along unit `dir`) and stay inside [`StepContext::bounds`], the
/// region whose primitives were gathered; unbounded without one.
fn room_along(ctx: &StepContext<'_>, pose: &Pose, dir: &UnitVec3) -> Real {
    let Some(bounds) = ctx.bounds.as_ref() else {
        return Real::INFINITY;
    };
    let mut room = Real::INFINITY;
    for sphere in ctx.motor.stack.spheres() {
        let centre = pose.centre_at(sphere.offset_local);
        let radius = sphere.radius;
        for axis in 0..3 {
            let u = dir[axis];
            let limit = if u > 1e-6 {
                (bounds.maxs[axis] - radius - centre[axis]) / u
            } else if u < -1e-6 {
                (bounds.mins[axis] + radius - centre[axis]) / u
            } else {
                continue;
            };
            room = room.min(limit);
        }
    }
    room.max(0.0)
}

/// Which pieces a move may go into (see [`Slide::free_length`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Touching {
    /// A piece a sphere only touches stops a move into it (an escape leaves what it is in
    /// and enters nothing).
    Stops,
    /// A piece a sphere touches may be pressed (a crushed stack's balance).
    Yields,
}

/// A straight move of the whole stack: along unit `dir` (world), at most `length` (m), and
/// which pieces it may go into.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slide<'a> {
    pub(super) dir: &'a UnitVec3,
    pub(super) length: Real,
    pub(super) touching: Touching,
}

impl Slide<'_> {
    /// How far (m, at most its length) the stack at `pose` moved by `offset` (m, world) can
    /// slide on along its direction before a sphere meets a primitive it does not already
    /// overlap, or, as its `touching` says, moves into one it only touches: the pieces it is
    /// inside are being left (or pressed), the others would be crossed.
    pub(super) fn free_length(
        &self,
        ctx: &StepContext<'_>,
        pose: &Pose,
        offset: &Vec3,
        scratch: &mut Vec<(usize, SurfacePoint)>,
    ) -> Real {
        let (dir, touching) = (self.dir, self.touching);
        let tol = ctx.motor.settings.penetration_tolerance;
        let mut free = self.length;
        for sphere in ctx.motor.stack.spheres() {
            let start = pose.centre_at(sphere.offset_local) + offset;
            let end = start + dir.into_inner() * free;
            let swept = sphere_box(&start, sphere.radius).merged(&sphere_box(&end, sphere.radius));
            let at = SphereAt {
                centre: start,
                from: start,
                radius: sphere.radius,
            };
            at.contacts(ctx, -tol, scratch);
            for (k, prim) in ctx.prims.iter().enumerate() {
                if !crate::world::boxes_overlap(&prim.aabb, &swept) {
                    continue;
                }
                if let Some((_, sp)) = scratch.iter().find(|(j, _)| *j == k) {
                    let touches = sphere.radius - sp.distance <= tol;
                    if touching == Touching::Stops && touches && sp.contact_normal.dot(dir) < 0.0 {
                        return 0.0;
                    }
                    continue;
                }
                let sweep = Sweep::new(start, sphere.radius, *dir, free);
                if let Some((toi, _, _)) = ctx.world.cast_sphere_primitive(prim, &sweep) {
                    free = free.min(toi.max(0.0));
                }
            }
        }
        free
    }
}
