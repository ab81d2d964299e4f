//! Phase 3: the ground probe under the feet sphere and the ground clamp.

use super::StepContext;
use super::pushback::{ContactBuffer, PushMode, max_penetration, pushback};
use crate::contact::{GroundHit, GroundState, Hit};
use crate::math::{Point3, Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::world::query::{cast_ray_among, cast_sphere_among, swept_box};

/// Contacts whose normal is more than this far from up (rad, 75 deg) are the side of the feet
/// sphere, not ground: an edge that far out cannot hold the character.
const MAX_SUPPORT_COS: Real = 0.258_819;
/// Contacts of the feet sphere facing up by less than this (88 deg from up) are walls, not
/// even steep ground.
const MIN_STEEP_COS: Real = 0.034_899;
/// Speed (m/s) along the ground's contact normal above which the feet are leaving the ground.
const SEPARATION_SPEED: Real = 1e-3;
/// A contact normal this close to up is its own surface normal (no ray needed).
const FLAT_COS: Real = 0.999_9;
/// Height above the contact (m) the surface rays start from, and half their length.
const RAY_REACH: Real = 0.02;
/// Sideways offset (m) of the surface rays on each side of an edge contact.
const RAY_SIDE: Real = 0.01;

/// Casts the feet sphere along -up from its current place, up to `max_distance` (m) below it,
/// and describes the ground found: contact point and normal, the face's surface normal, the
/// slope angle against up, whether it is stable, and the gap (m) before touching.
///
/// The cast starts `skin_width` above the sphere with a radius `skin_width / 2` smaller, so
/// walls the sphere merely touches are not mistaken for ground.
pub fn probe_ground(ctx: &StepContext<'_>, pose: &Pose, max_distance: Real) -> Option<GroundHit> {
    let settings = &ctx.motor.settings;
    let up = pose.up();
    let feet = ctx.motor.stack.feet();
    let skin = settings.skin_width;
    let shrink = (0.5 * skin).min(0.5 * feet.radius);
    let start = pose.centre_at(feet.offset_local + skin);
    let down = -up;
    let reach = skin + shrink + max_distance;
    let radius = feet.radius - shrink;
    let found = cast_support(ctx, &start, radius, &up, reach, skin)
        .or_else(|| support_below(ctx, &start, radius, &up, reach));
    let (k, hit) = found.filter(|(_, h)| h.normal.dot(&up) >= MAX_SUPPORT_COS)?;
    // The smaller sphere found the surface; the true radius's distance differs (edges do not
    // map the shrink one-to-one onto distance along the cast). Closed-form primitives are cast
    // again with the true radius against that one primitive; others, and a true sphere that
    // already overlaps it at the start, are polished with Newton steps.
    let rough = (hit.distance, hit.point, hit.normal);
    let prim = &ctx.prims[k];
    let exact = ctx
        .world
        .exact_cast_sphere(prim, &start, feet.radius, &down, reach + shrink);
    let (toi, point, normal) = exact.unwrap_or_else(|| {
        ctx.world
            .refine_cast(prim, &start, feet.radius, &down, rough)
    });
    let hit = crate::world::SphereCastHit {
        distance: toi,
        point,
        normal,
        ..hit
    };
    let surface_normal = surface_normal_at(ctx, &hit.point, &hit.normal, &up);
    let cos = surface_normal.dot(&up).clamp(-1.0, 1.0);
    Some(GroundHit {
        collider: hit.collider,
        point: hit.point,
        contact_normal: hit.normal,
        surface_normal,
        slope_angle: crate::math::acos(cos),
        stable: ctx.walkable(k, &surface_normal, &up),
        distance: hit.distance - skin,
    })
}

/// Where [`probe_ground`] finds nothing: a face too steep for it (more than 75 deg from up)
/// but still facing up (by more than [`MIN_STEEP_COS`], 88 deg) that the feet sphere touches
/// within `skin` (m). Steep ground to slide on, never stable; its surface normal is the
/// contact normal, and its distance the gap along that normal (m). The step asks only once,
/// for its final ground, never inside the step offset or the ground clamp.
fn steep_touch(ctx: &StepContext<'_>, pose: &Pose, skin: Real) -> Option<GroundHit> {
    let up = pose.up();
    let feet = ctx.motor.stack.feet();
    let centre = pose.centre_at(feet.offset_local);
    let mut best: Option<GroundHit> = None;
    for prim in ctx.prims {
        let Some(sp) = ctx
            .world
            .primitive_closest(prim, &centre, feet.radius + skin)
        else {
            continue;
        };
        let cos = sp.contact_normal.dot(&up);
        let gap = sp.distance - feet.radius;
        if cos < MIN_STEEP_COS || best.is_some_and(|b| b.contact_normal.dot(&up) >= cos) {
            continue;
        }
        best = Some(GroundHit {
            collider: prim.collider,
            point: sp.point,
            contact_normal: sp.contact_normal,
            surface_normal: sp.contact_normal,
            slope_angle: crate::math::acos(cos),
            stable: false,
            distance: gap,
        });
    }
    best
}

/// The sphere cast along -`up` for the ground: the nearest hit, or when that one is steeper
/// than the slope limit, the most level of the hits within `skin` (m) of it. Feet resting in
/// a crease between a walkable face and a steep one stand on the walkable one.
fn cast_support(
    ctx: &StepContext<'_>,
    start: &Point3,
    radius: Real,
    up: &UnitVec3,
    reach: Real,
    skin: Real,
) -> Option<(usize, crate::world::SphereCastHit)> {
    let down = -*up;
    let (k0, nearest) = cast_sphere_among(ctx.world, ctx.prims, start, radius, &down, reach)?;
    let mut best = (k0, nearest);
    if nearest.normal.dot(up) >= ctx.cos_slope {
        return Some(best);
    }
    let limit = (nearest.distance + skin).min(reach);
    let swept = swept_box(start, &down, limit, radius);
    for (k, prim) in ctx.prims.iter().enumerate() {
        if k == k0 || !crate::world::boxes_overlap(&prim.aabb, &swept) {
            continue;
        }
        // A sphere moving at most `limit` cannot touch a solid further than that from it: one
        // closest point rules most candidates out before a cast.
        let solid = prim.shape.is_solid();
        if solid
            && ctx
                .world
                .primitive_closest(prim, start, radius + limit)
                .is_none()
        {
            continue;
        }
        let Some((distance, point, normal)) = ctx
            .world
            .primitive_cast_sphere(prim, start, radius, &down, limit)
        else {
            continue;
        };
        if normal.dot(up) > best.1.normal.dot(up) + 1e-4 {
            let hit = crate::world::SphereCastHit {
                collider: prim.collider,
                distance,
                point,
                normal,
            };
            best = (k, hit);
        }
    }
    Some(best)
}

/// Fallback for a sphere cast that found nothing (GJK can miss a resting contact on curved
/// solids such as cylinders): the closest point below the sphere within `reach` (m), its
/// distance along -`up` estimated from the contact plane. [`CollisionWorld::refine_cast`]
/// then makes it exact.
///
/// [`CollisionWorld::refine_cast`]: crate::CollisionWorld
fn support_below(
    ctx: &StepContext<'_>,
    centre: &Point3,
    radius: Real,
    up: &UnitVec3,
    reach: Real,
) -> Option<(usize, crate::world::SphereCastHit)> {
    let mut best: Option<(usize, crate::world::SphereCastHit)> = None;
    for (k, prim) in ctx.prims.iter().enumerate() {
        let Some(sp) = ctx.world.primitive_closest(prim, centre, radius + reach) else {
            continue;
        };
        let facing = sp.contact_normal.dot(up);
        if facing < MAX_SUPPORT_COS || sp.distance < radius {
            continue;
        }
        let distance = (sp.distance - radius) / facing;
        if distance <= reach && best.is_none_or(|(_, b)| distance < b.distance) {
            let hit = crate::world::SphereCastHit {
                collider: prim.collider,
                distance,
                point: sp.point,
                normal: sp.contact_normal,
            };
            best = Some((k, hit));
        }
    }
    best
}

/// The face normal under a ground contact: for an edge contact, the most level of the faces
/// found by two short rays along -up on either side of the contact (standing on a step's
/// edge is standing on the step); the contact normal when no ray finds a face.
pub fn surface_normal_at(
    ctx: &StepContext<'_>,
    point: &Point3,
    contact_normal: &UnitVec3,
    up: &UnitVec3,
) -> UnitVec3 {
    if contact_normal.dot(up) >= FLAT_COS {
        return *contact_normal;
    }
    let side = project_on_plane(&contact_normal.into_inner(), up);
    let side = UnitVec3::try_new(side, 1e-6).map_or(Vec3::zeros(), |s| s.into_inner() * RAY_SIDE);
    let down = -*up;
    let mut best = *contact_normal;
    for offset in [side, -side] {
        let origin = point + offset + up.into_inner() * RAY_REACH;
        if let Some((_, hit)) =
            cast_ray_among(ctx.world, ctx.prims, &origin, &down, 2.0 * RAY_REACH)
            && hit.normal.dot(up) > best.dot(up)
        {
            best = hit.normal;
        }
    }
    best
}

/// Ground clamp past an edge: when the feet sphere hangs over an edge it can only roll around,
/// look straight down the axis for stable ground within `max_distance` (m) below the feet and
/// move `pose` down onto it, nudged sideways (by at most a quarter radius, and up by at most the skin width) off the
/// edge it leaves if needed. Returns the ground probed there.
///
/// This is what walks a character smoothly down stairs: it drops onto the next tread instead
/// of rolling over the nosing and falling.
fn drop_to_ground(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    max_distance: Real,
    scratch: (&mut ContactBuffer, &mut Vec<Hit>),
) -> Option<GroundHit> {
    let up = pose.up();
    let feet = ctx.motor.stack.feet();
    let centre = pose.centre_at(feet.offset_local);
    let down = -up;
    let (k, ray) = cast_ray_among(
        ctx.world,
        ctx.prims,
        &centre,
        &down,
        feet.radius + max_distance,
    )?;
    if !ctx.walkable(k, &ray.normal, &up) {
        return None;
    }
    let mut candidate = *pose;
    candidate.position -= up.into_inner() * (ray.distance - feet.radius).max(0.0);
    let dropped = candidate.position;
    let (contacts, hits) = scratch;
    let mut velocity = Vec3::zeros();
    pushback(
        ctx,
        &mut candidate,
        &mut velocity,
        PushMode::Walls,
        &Vec3::zeros(),
        contacts,
        hits,
    );
    hits.clear();
    let nudge = candidate.position - dropped;
    let settings = &ctx.motor.settings;
    let (tol, skin) = (settings.penetration_tolerance, settings.skin_width);
    if nudge.norm() > 0.25 * feet.radius
        || nudge.dot(&up) > skin
        || max_penetration(ctx, &candidate) > tol
    {
        return None;
    }
    let hit = probe_ground(ctx, &candidate, ctx.motor.settings.skin_width)?;
    *pose = candidate;
    Some(hit)
}

/// How [`clamp_to_ground`] treats the probed ground.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClampRules {
    /// Walking on stable ground last step (and not jumping): snap down onto stable ground up
    /// to `ground_clamp_distance` below, dropping past an edge the feet hang over.
    pub clamp: bool,
    /// The character jumped this step: it leaves whatever it touches.
    pub jumped: bool,
}

/// Where [`clamp_to_ground`] left the character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Landing {
    /// The ground state.
    pub ground: GroundState,
    /// The ground under the feet (stable, or a steep face they touch), if any.
    pub hit: Option<GroundHit>,
    /// Distance the clamp moved the character down onto the ground (m, >= 0): the snap when
    /// longer than the skin width, else the drop past an edge; 0 when neither.
    pub clamped_down: Real,
    /// The last part of it, the snap onto the probed ground (m, >= 0).
    pub snapped: Real,
}

/// The ground clamp and the slope limit, given the ground `probed` under the feet
/// ([`probe_ground`]). With `rules.clamp`, unstable or missing ground within the clamp
/// distance is looked for past the edge the feet hang over (a straight drop onto a lower
/// tread). Stable ground that is touching (within `skin_width`), or within the clamp distance
/// when clamping, is snapped onto and removes the velocity (m/s, world) into it: `Grounded`.
/// Unstable ground touching the feet, or a face 75 to 88 degrees from up that they touch, is
/// `SteepGround`. A character moving away from the ground faster than 1 mm/s, or jumping,
/// leaves it: `Airborne`.
pub fn clamp_to_ground(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    velocity: &mut Vec3,
    probed: Option<GroundHit>,
    rules: ClampRules,
    scratch: (&mut ContactBuffer, &mut Vec<Hit>),
) -> Landing {
    let settings = &ctx.motor.settings;
    let skin = settings.skin_width;
    let mut landing = Landing {
        ground: GroundState::Airborne,
        hit: probed,
        clamped_down: 0.0,
        snapped: 0.0,
    };
    if rules.clamp && !probed.is_some_and(|h| h.stable) {
        let before = pose.position;
        if let Some(found) = drop_to_ground(ctx, pose, settings.ground_clamp_distance, scratch) {
            landing.clamped_down = (before - pose.position).norm();
            landing.hit = Some(found);
        }
    }
    landing.hit = landing.hit.or_else(|| steep_touch(ctx, pose, skin));
    let Some(hit) = landing.hit else {
        return landing;
    };
    let leaving =
        rules.jumped || (!rules.clamp && velocity.dot(&hit.contact_normal) > SEPARATION_SPEED);
    let touching = hit.distance <= skin && !leaving;
    if !(touching || (rules.clamp && hit.stable)) {
        return landing;
    }
    if !hit.stable {
        landing.ground = GroundState::SteepGround;
        return landing;
    }
    let snap = hit.distance.max(0.0);
    pose.position -= pose.up().into_inner() * snap;
    landing.snapped = snap;
    if snap > skin {
        landing.clamped_down = snap;
    }
    let n = hit.surface_normal;
    let into = velocity.dot(&n);
    if into < 0.0 {
        *velocity -= n.into_inner() * into;
    }
    landing.ground = GroundState::Grounded;
    landing
}
