//! Phase 2: closest-point pushback of every sphere out of the geometry.

use super::StepContext;
use crate::math::{Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::report::Hit;
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// Below this horizontal length (of a unit normal) a contact is treated as flat and never
/// flattened into a wall.
const FLAT_EPS: Real = 0.1;

/// How contacts push the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushMode {
    /// Along the true contact normal (airborne, sliding, after an up-frame turn).
    Free,
    /// Walking on stable ground: walkable contacts under the feet sphere lift the character
    /// straight up (no speed lost on ramps and bumps); steep or upper-body contacts facing up
    /// push only sideways, like walls (no climbing slopes over the limit).
    Grounded,
    /// Step-offset trial: every contact facing up pushes only sideways.
    Walls,
}

/// What a pushback pass found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PushbackSummary {
    /// Iterations run.
    pub iterations: u32,
    /// Number of pushes applied.
    pub pushes: u32,
    /// Surface normal (world) of the contact that removed the most velocity while acting as a
    /// wall, if any: what blocked the move.
    pub blocked_by: Option<UnitVec3>,
    /// Velocity removed by that blocking contact (m/s, >= 0).
    pub blocked_speed: Real,
}

/// Pushes every sphere of the stack out of the primitives in `ctx`, deepest contact first and
/// re-checking each contact before pushing, until the deepest penetration is below the
/// tolerance or the iteration budget is spent. Removes from `velocity` (m/s, world) the part
/// that points into each contact. Appends the contacts to `hits`.
pub fn pushback(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    velocity: &mut Vec3,
    mode: PushMode,
    contacts: &mut Vec<(usize, Real)>,
    hits: &mut Vec<Hit>,
) -> PushbackSummary {
    let settings = &ctx.motor.settings;
    let tol = settings.penetration_tolerance;
    let up = pose.up();
    let mut summary = PushbackSummary::default();
    for _ in 0..settings.max_pushback_iterations {
        summary.iterations += 1;
        let mut deepest: Real = 0.0;
        for (index, sphere) in ctx.motor.stack.spheres().iter().enumerate() {
            let r = sphere.radius;
            collect_contacts(ctx, &pose.centre_at(sphere.offset_local), r, tol, contacts);
            for &(k, _) in contacts.iter() {
                let prim = &ctx.prims[k];
                let centre = pose.centre_at(sphere.offset_local);
                let Some(sp) = ctx.world.primitive_closest(prim, &centre, r) else {
                    continue;
                };
                let depth = r - sp.distance;
                if depth <= tol {
                    continue;
                }
                let walkable = prim.walkable && sp.contact_normal.dot(&up) >= ctx.cos_slope;
                let (dir, dist, as_wall) = push_direction(&sp.contact_normal, depth, &up, mode, index == 0 && walkable, r);
                pose.position += dir * dist;
                deepest = deepest.max(depth);
                summary.pushes += 1;
                let removed = remove_velocity(velocity, &dir, &up, mode, as_wall || !walkable);
                if as_wall && removed > summary.blocked_speed {
                    summary.blocked_speed = removed;
                    summary.blocked_by = Some(sp.surface_normal);
                }
                hits.push(Hit {
                    collider: prim.collider,
                    sphere: index,
                    point: sp.point,
                    contact_normal: sp.contact_normal,
                    surface_normal: sp.surface_normal,
                    depth,
                });
            }
        }
        if deepest <= tol {
            break;
        }
    }
    summary
}

/// Fills `out` with `(primitive index, depth)` of every primitive the sphere penetrates by more
/// than `tol`, deepest first (ties by index, so the order is deterministic).
fn collect_contacts(
    ctx: &StepContext<'_>,
    centre: &crate::math::Point3,
    radius: Real,
    tol: Real,
    out: &mut Vec<(usize, Real)>,
) {
    out.clear();
    let r = Vec3::repeat(radius);
    let bounds = Aabb::new(centre - r, centre + r);
    for (k, prim) in ctx.prims.iter().enumerate() {
        if !prim.aabb.intersects(&bounds) {
            continue;
        }
        if let Some(sp) = ctx.world.primitive_closest(prim, centre, radius) {
            let depth = radius - sp.distance;
            if depth > tol {
                out.push((k, depth));
            }
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// Direction (unit, world), distance (m) and wall-ness of the push resolving `depth` along a
/// contact of normal `n`.
fn push_direction(
    n: &UnitVec3,
    depth: Real,
    up: &UnitVec3,
    mode: PushMode,
    walkable_feet: bool,
    radius: Real,
) -> (Vec3, Real, bool) {
    let nu = n.dot(up);
    let as_ground = mode == PushMode::Grounded && walkable_feet;
    if as_ground {
        // Lift straight up by the amount that clears the contact plane.
        return (up.into_inner(), (depth / nu).min(2.0 * radius), false);
    }
    if mode != PushMode::Free && nu > 0.0 {
        let side = n.into_inner() - up.into_inner() * nu;
        let len = side.norm();
        if len > FLAT_EPS {
            return (side / len, (depth / len).min(2.0 * radius), true);
        }
    }
    // A contact facing sideways or down acts as a wall too when walking.
    (n.into_inner(), depth, mode != PushMode::Free && nu <= 0.0)
}

/// Removes from `v` the part pointing into a contact pushing along `dir`, and returns the speed
/// removed (m/s). Walking on walkable ground keeps the speed along the ground (the up part is
/// re-derived); a non-walkable contact never adds upward speed (no climbing by pressing).
fn remove_velocity(v: &mut Vec3, dir: &Vec3, up: &UnitVec3, mode: PushMode, steep: bool) -> Real {
    let into = v.dot(dir);
    if into >= 0.0 {
        return 0.0;
    }
    let up_before = v.dot(up);
    if mode == PushMode::Grounded && !steep {
        // Lifted straight up: walking continues along the surface, horizontal speed intact.
        return 0.0;
    }
    *v -= dir * into;
    if steep {
        let cap = up_before.max(0.0);
        let up_after = v.dot(up);
        if up_after > cap {
            *v -= up.into_inner() * (up_after - cap);
        }
    }
    -into
}

/// Deepest penetration (m, >= 0) of any sphere of the stack at `pose` into the primitives.
pub fn max_penetration(ctx: &StepContext<'_>, pose: &Pose) -> Real {
    let mut deepest: Real = 0.0;
    for sphere in ctx.motor.stack.spheres() {
        let centre = pose.centre_at(sphere.offset_local);
        let r = Vec3::repeat(sphere.radius);
        let bounds = Aabb::new(centre - r, centre + r);
        for prim in ctx.prims {
            if !prim.aabb.intersects(&bounds) {
                continue;
            }
            if let Some(sp) = ctx.world.primitive_closest(prim, &centre, sphere.radius) {
                deepest = deepest.max(sphere.radius - sp.distance);
            }
        }
    }
    deepest
}
