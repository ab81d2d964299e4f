//! The way out of a wedge: when pushback's sideways pushes contradict each other (the stack
//! was put between steep faces, not moved there), the stack rises straight up by the least
//! that clears every contact, if rising alone can clear them.

use super::StepContext;
use super::contacts::collect_contacts;
use crate::math::{Point3, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::world::{Primitive, SurfacePoint};
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// A contact whose normal points down by more than this (cosine to -up) lies above the sphere:
/// rising would cross it, so the escape is refused. Contacts sloping up by more than this
/// bound their exit along their own slope.
const MIN_UP: Real = 0.05;
/// Rounds of "find every contact, rise past the last exit" before giving up.
const MAX_ROUNDS: usize = 4;
/// Most bisection steps narrowing one contact's exit (a 4 m bracket to 0.06 mm).
const BISECTIONS: usize = 16;

/// A rise out of a wedge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Rise {
    /// How far the stack rises (m, along up).
    pub height: Real,
    /// True when the rise stops short at the edge of the gathered region, before every contact
    /// is cleared; the rest waits for the next step.
    pub partial: bool,
}

/// The least rise along `up` (m) that clears every contact of the stack at `pose`, in rounds:
/// each finds the contacts still overlapping, the height at which each is left (see
/// [`Pair::exit`]), and rises to the last of them, after checking by sphere casts that the
/// rise crosses nothing it was not already inside. `None` when rising cannot clear them: a
/// piece lies above a sphere, the rise would cross another primitive, or more than the stack's
/// own height is needed. A rise that would leave the gathered region stops at its edge
/// ([`Rise::partial`]). `motion` is the displacement that led to `pose` (see
/// [`crate::Primitive::holds`]).
pub(super) fn rise_out(
    ctx: &StepContext<'_>,
    pose: &Pose,
    motion: &Vec3,
    contacts: &mut Vec<(usize, SurfacePoint)>,
) -> Option<Rise> {
    let tol = ctx.motor.settings.penetration_tolerance;
    let up = pose.up();
    let spheres = ctx.motor.stack.spheres();
    // Exits further than the stack's own height are refused; a rise past the gathered region
    // stops at its edge.
    let cap = ctx.motor.stack.height();
    let room = cap.min(room_above(ctx, pose, &up));
    let mut height: Real = 0.0;
    for _ in 0..MAX_ROUNDS {
        let mut exit = height;
        for sphere in spheres {
            let start = pose.centre_at(sphere.offset_local);
            let from = start - motion;
            let centre = start + up.into_inner() * height;
            collect_contacts(ctx, &centre, &from, sphere.radius, tol, contacts);
            for (k, sp) in contacts.iter() {
                let pair = Pair {
                    prim: &ctx.prims[*k],
                    from,
                    radius: sphere.radius,
                };
                let left = pair.exit(ctx, &centre, &up, sp, cap - height, tol)?;
                exit = exit.max(height + left);
            }
        }
        if exit <= height {
            return (height > 0.0).then_some(Rise {
                height,
                partial: false,
            });
        }
        let partial = exit > room;
        let next = exit.min(room);
        let offset = up.into_inner() * height;
        if free_length(ctx, pose, &offset, &up, next - height, contacts) < next - height {
            return None;
        }
        if partial {
            return (next > 0.0).then_some(Rise {
                height: next,
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
        match ctx.world.primitive_closest(self.prim, centre, self.radius) {
            Some(sp) if self.prim.holds(&sp, &self.from) => self.radius - sp.distance,
            _ => 0.0,
        }
    }

    /// How far (m) the sphere at `centre`, overlapping as `sp` says, rises along `up` before it
    /// leaves the primitive to within `tol / 2`; `None` when the primitive lies above the
    /// sphere (rising would cross it) or the exit lies beyond `limit` (m).
    ///
    /// The penetration of a sphere moving along a line into a convex piece first grows, then
    /// shrinks, and falls at most as fast as the sphere rises: it is still there `depth`
    /// higher, and gone once the sphere is above the piece's highest point. Between the two,
    /// bisection finds the exit; a contact sloping up gives a closer upper bound along its
    /// own slope (the distance to a convex piece is convex along a line).
    fn exit(
        &self,
        ctx: &StepContext<'_>,
        centre: &Point3,
        up: &UnitVec3,
        sp: &SurfacePoint,
        limit: Real,
        tol: Real,
    ) -> Option<Real> {
        let rising = sp.contact_normal.dot(up);
        if rising < -MIN_UP {
            return None;
        }
        let at = |s: Real| self.depth(ctx, &(centre + up.into_inner() * s));
        let mut lo = self.radius - sp.distance;
        let top = ctx.world.primitive_extent(self.prim, up);
        let mut hi = top - centre.coords.dot(up) + self.radius;
        if rising >= MIN_UP {
            let along = lo / rising;
            if along < hi && at(along) <= 0.5 * tol {
                hi = along;
            }
        }
        if hi > limit + tol {
            return None;
        }
        // Both bounds meet when the contact faces straight up (up to rounding).
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

/// Most the stack may rise (m, along `up`) and stay inside [`StepContext::bounds`], the region
/// whose primitives were gathered; unbounded without one.
fn room_above(ctx: &StepContext<'_>, pose: &Pose, up: &UnitVec3) -> Real {
    let Some(bounds) = ctx.bounds.as_ref() else {
        return Real::INFINITY;
    };
    let mut room = Real::INFINITY;
    for sphere in ctx.motor.stack.spheres() {
        let centre = pose.centre_at(sphere.offset_local);
        let radius = sphere.radius;
        for axis in 0..3 {
            let u = up[axis];
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

/// How far (m, at most `length`) the stack at `pose` moved by `offset` (m, world) can move on
/// along unit `dir` before a sphere meets a primitive it does not already overlap, or moves
/// into one it only touches: the pieces it is inside are being left, the others would be
/// crossed.
pub(super) fn free_length(
    ctx: &StepContext<'_>,
    pose: &Pose,
    offset: &Vec3,
    dir: &UnitVec3,
    length: Real,
    scratch: &mut Vec<(usize, SurfacePoint)>,
) -> Real {
    let tol = ctx.motor.settings.penetration_tolerance;
    let mut free = length;
    for sphere in ctx.motor.stack.spheres() {
        let start = pose.centre_at(sphere.offset_local) + offset;
        let end = start + dir.into_inner() * free;
        let r = Vec3::repeat(sphere.radius);
        let swept = Aabb::new(start - r, start + r).merged(&Aabb::new(end - r, end + r));
        collect_contacts(ctx, &start, &start, sphere.radius, -tol, scratch);
        for (k, prim) in ctx.prims.iter().enumerate() {
            if !prim.aabb.intersects(&swept) {
                continue;
            }
            if let Some((_, sp)) = scratch.iter().find(|(j, _)| *j == k) {
                let touching = sphere.radius - sp.distance <= tol;
                if touching && sp.contact_normal.dot(dir) < 0.0 {
                    return 0.0;
                }
                continue;
            }
            if let Some((toi, _, _)) =
                ctx.world
                    .primitive_cast_sphere(prim, &start, sphere.radius, dir, free)
            {
                free = free.min(toi.max(0.0));
            }
        }
    }
    free
}
