//! Ground: the ground probe under the feet sphere, the ground clamp and the slope limit, and
//! what the step reports of the ground (state, landing and leaving it).

use super::contacts::surface_near;
use super::movement::Moved;
use super::pushback::{Moving, PushBuffers, PushMode, max_penetration, pushback};
use super::{Step, StepContext};
use crate::contact::{GroundHit, GroundState};
use crate::math::{Point3, Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::world::WorldQueries;
use crate::world::cast::{SphereCast, Sweep};
use crate::world::measure;
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
/// How far below the feet sphere (a fraction of its radius: 45 mm for 0.3 m feet) a walkable
/// face still supports it when the face it touches is too steep (see `patch_support`).
const SUPPORT_GAP: Real = 0.15;
/// Height above the contact (m) the surface rays start from, and half their length.
const RAY_REACH: Real = 0.02;
/// Sideways offset (m) of the surface rays on each side of an edge contact.
const RAY_SIDE: Real = 0.01;

/// The ground phase of the step: lands on (or clamps to) the ground under the feet
/// ([`land`]), then writes the ground state (`Touching` when the move touched anything but
/// found no ground), the landed and left-ground events, and the velocity the step ends with:
/// `velocity` (m/s, world) as the landing leaves it. `moved` is what the movement phase did.
pub(super) fn ground(ctx: &StepContext<'_>, s: &mut Step<'_>, moved: &Moved, mut velocity: Vec3) {
    let rules = ClampRules {
        clamp: s.was_grounded && !moved.jumped && s.state.mode.follows_ground(),
        jumped: moved.jumped,
    };
    let landing = land(ctx, s, rules, &mut velocity);
    let ground = match landing.ground {
        GroundState::Airborne if moved.pass.pushes > 0 => GroundState::Touching,
        g => g,
    };
    let grounded = ground == GroundState::Grounded;
    s.report.ground = ground;
    s.report.ground_hit = landing.hit;
    s.report.landed = !s.was_grounded && grounded;
    s.report.left_ground = s.was_grounded && !grounded;
    s.state.velocity = velocity;
    s.state.ground = ground;
    s.state.ground_hit = landing.hit;
}

/// [`probe_ground`] (as far as the clamp distance while walking), [`clamp_to_ground`], the
/// edge hold ([`hug_edge`]) when walking found no ground, and a pushback when the snap down
/// pressed the stack into a steep face beside the feet; `velocity` (m/s, world) loses what
/// the ground and that pushback stop.
fn land(
    ctx: &StepContext<'_>,
    s: &mut Step<'_>,
    rules: ClampRules,
    velocity: &mut Vec3,
) -> Landing {
    let settings = s.motor.settings();
    let reach = if rules.clamp {
        settings.ground_clamp_distance.max(settings.skin_width)
    } else {
        settings.skin_width
    };
    let probed = probe_ground(ctx, s.pose, reach);
    let buffers = PushBuffers::new(
        &mut s.report.scratch.contacts,
        &mut s.report.scratch.trial_hits,
    );
    let stack = Moving::new(s.pose, velocity);
    let mut landing = clamp_to_ground(ctx, stack, probed, rules, buffers);
    if rules.clamp
        && landing.ground != GroundState::Grounded
        && let Some(hit) = hug_edge(ctx, s.pose, velocity)
    {
        landing.ground = GroundState::Grounded;
        landing.hit = Some(hit);
    }
    s.report.clamped_down = landing.clamped_down;
    if landing.snapped > settings.penetration_tolerance {
        let snap = -s.pose.up().into_inner() * landing.snapped;
        let stack = Moving::new(s.pose, velocity);
        let buffers = PushBuffers::new(&mut s.report.scratch.contacts, &mut s.report.hits);
        let pass = pushback(ctx, stack, PushMode::Grounded, &snap, buffers);
        s.report.note_pushback(&pass);
    }
    landing
}

/// How much (m) a sphere of `radius` (m) is shrunk for a probing cast along up or down (the
/// ground probe, the stairs phase's free rise): half the skin width `skin` (m), at most half
/// the radius, so that faces the true sphere merely touches at its side, a wall beside it,
/// do not stop the cast at its start.
pub(super) fn probe_shrink(skin: Real, radius: Real) -> Real {
    (0.5 * skin).min(0.5 * radius)
}

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
    let shrink = probe_shrink(skin, feet.radius);
    let start = pose.centre_at(feet.offset_local + skin);
    let down = -up;
    let reach = skin + shrink + max_distance;
    let probe = Sweep {
        centre: start,
        radius: feet.radius - shrink,
        dir: down,
        max_distance: reach,
    };
    let found = cast_support(ctx, &probe, skin).or_else(|| support_below(ctx, &probe));
    let (k, hit) = found.filter(|(_, h)| h.normal.dot(&up) >= MAX_SUPPORT_COS)?;
    // The smaller sphere found the surface; the true radius's distance differs (edges do not
    // map the shrink one-to-one onto distance along the cast). Closed-form primitives are cast
    // again with the true radius against that one primitive; others, and a true sphere that
    // already overlaps it at the start, are polished with Newton steps.
    let rough = (hit.distance, hit.point, hit.normal);
    let prim = &ctx.prims[k];
    let true_feet = Sweep {
        radius: feet.radius,
        max_distance: reach + shrink,
        ..probe
    };
    let (toi, point, normal) = match measure::exact_cast_sphere(prim, &true_feet) {
        SphereCast::Hit { toi, point, normal } => (toi, point, normal),
        _ => measure::refine_cast(ctx.world, prim, &true_feet, rough),
    };
    let hit = crate::world::SphereCastHit {
        distance: toi,
        point,
        normal,
        ..hit
    };
    let mut surface_normal = surface_normal_at(ctx, &hit.point, &hit.normal, &up);
    let mut stable = ctx.stable(k, &surface_normal, &up);
    if !stable {
        // The feet stand on their whole contact patch, not one facet: judged where the
        // feet come to rest on this contact.
        let rest =
            pose.centre_at(feet.offset_local) - up.into_inner() * (hit.distance - skin).max(0.0);
        if let Some(n) = patch_support(ctx, &rest, feet.radius, &up) {
            (surface_normal, stable) = (n, true);
        }
    }
    let cos = surface_normal.dot(&up).clamp(-1.0, 1.0);
    Some(GroundHit {
        collider: hit.collider,
        point: hit.point,
        contact_normal: hit.normal,
        surface_normal,
        slope_angle: crate::math::acos(cos),
        stable,
        distance: hit.distance - skin,
    })
}

/// The most level walkable face under the feet sphere (centre `centre`, `radius` m) within
/// [`SUPPORT_GAP`] of its radius below it: the contact patch's support when the face the
/// probe found is too steep. A face counts when its closest point lies beneath the centre
/// (within 75 degrees of -up) and it is walkable by its own normal. `None` when there is none.
///
/// This is the rule for small steep facets: a character crossing a sliver steeper than the
/// slope limit, between walkable faces within a few centimetres of its feet, keeps its footing
/// (Jolt and Godot judge the ground over every contact near the feet, not the nearest one).
/// A steep face with no walkable one that close is steep ground.
fn patch_support(
    ctx: &StepContext<'_>,
    centre: &Point3,
    radius: Real,
    up: &UnitVec3,
) -> Option<UnitVec3> {
    let mut best: Option<UnitVec3> = None;
    for (k, sp) in surface_near(ctx, *centre, radius * (1.0 + SUPPORT_GAP)) {
        let n = sp.surface_normal;
        if sp.contact_normal.dot(up) < MAX_SUPPORT_COS
            || !ctx.stable(k, &n, up)
            || best.is_some_and(|b| b.dot(up) >= n.dot(up))
        {
            continue;
        }
        best = Some(n);
    }
    best
}

/// Where [`probe_ground`] finds nothing: a face too steep for it (more than 75 deg from up)
/// but still facing up (by more than [`MIN_STEEP_COS`], 88 deg) that the feet sphere touches
/// within `skin` (m). Steep ground to slide on, never stable; its surface normal is the
/// contact normal, and its distance the gap along that normal (m). The step asks only once,
/// for its final ground, never inside the stairs phase or the ground clamp.
fn steep_touch(ctx: &StepContext<'_>, pose: &Pose, skin: Real) -> Option<GroundHit> {
    let up = pose.up();
    let feet = ctx.motor.stack.feet();
    let centre = pose.centre_at(feet.offset_local);
    let mut best: Option<GroundHit> = None;
    for prim in ctx.prims {
        let Some(sp) = ctx
            .world
            .closest_primitive(prim, &centre, feet.radius + skin)
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

/// The sphere cast of `probe` down the up axis for the ground: the nearest hit, or when that
/// one is steeper than the slope limit, the most level of the hits within `skin` (m) of it.
/// Feet resting in a crease between a walkable face and a steep one stand on the walkable one.
fn cast_support(
    ctx: &StepContext<'_>,
    probe: &Sweep,
    skin: Real,
) -> Option<(usize, crate::world::SphereCastHit)> {
    let (start, radius, down) = (&probe.centre, probe.radius, probe.dir);
    let up = &-down;
    let (k0, nearest) = cast_sphere_among(ctx.world, ctx.prims, probe)?;
    let mut best = (k0, nearest);
    if nearest.normal.dot(up) >= ctx.cos_slope {
        return Some(best);
    }
    let limit = (nearest.distance + skin).min(probe.max_distance);
    let swept = swept_box(start, &down, limit, radius);
    let shorter = Sweep {
        max_distance: limit,
        ..*probe
    };
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
                .closest_primitive(prim, start, radius + limit)
                .is_none()
        {
            continue;
        }
        let Some((distance, point, normal)) =
            measure::cast_sphere_primitive(ctx.world, prim, &shorter)
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
/// solids such as cylinders): the closest point below the sphere of `probe` within its reach
/// (m), its distance down the cast estimated from the contact plane. The ground probe's
/// Newton polish then makes it exact.
fn support_below(
    ctx: &StepContext<'_>,
    probe: &Sweep,
) -> Option<(usize, crate::world::SphereCastHit)> {
    let (centre, radius, reach) = (&probe.centre, probe.radius, probe.max_distance);
    let up = &-probe.dir;
    let mut best: Option<(usize, crate::world::SphereCastHit)> = None;
    for (k, prim) in ctx.prims.iter().enumerate() {
        let Some(sp) = ctx.world.closest_primitive(prim, centre, radius + reach) else {
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
    // Only faces compete: at an edge shared by two coplanar faces the contact normal is an
    // interpolation that can be more level than the faces themselves (a 48.5 degree strip
    // read as 44.4 degrees), so it is the answer only when no ray finds a face.
    let mut best: Option<UnitVec3> = None;
    for offset in [side, -side] {
        let origin = point + offset + up.into_inner() * RAY_REACH;
        if let Some((_, hit)) =
            cast_ray_among(ctx.world, ctx.prims, &origin, &down, 2.0 * RAY_REACH)
            && best.is_none_or(|b| hit.normal.dot(up) > b.dot(up))
        {
            best = Some(hit.normal);
        }
    }
    best.unwrap_or(*contact_normal)
}

/// Ground clamp past an edge: when the feet sphere hangs over an edge it can only roll around,
/// look straight down the axis for stable ground within `max_distance` (m) below the feet and
/// move `pose` down onto it, nudged sideways (by at most 0.35 of the feet radius, and up by at
/// most the skin width) off the edge it leaves if needed. Returns the ground probed there.
///
/// This is what walks a character smoothly down stairs: it drops onto the next tread instead
/// of rolling over the nosing and falling.
fn drop_to_ground(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    max_distance: Real,
    buffers: PushBuffers<'_>,
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
    if !ctx.stable(k, &ray.normal, &up) {
        return None;
    }
    let mut candidate = *pose;
    candidate.position -= up.into_inner() * (ray.distance - feet.radius).max(0.0);
    let dropped = candidate.position;
    let PushBuffers { contacts, hits } = buffers;
    let mut velocity = Vec3::zeros();
    let stack = Moving::new(&mut candidate, &mut velocity);
    let zero = Vec3::zeros();
    pushback(
        ctx,
        stack,
        PushMode::Walls,
        &zero,
        PushBuffers::new(contacts, &mut *hits),
    );
    hits.clear();
    let nudge = candidate.position - dropped;
    let settings = &ctx.motor.settings;
    let (tol, skin) = (settings.penetration_tolerance, settings.skin_width);
    if nudge.norm() > 0.35 * feet.radius
        || nudge.dot(&up) > skin
        || max_penetration(ctx, &candidate) > tol
    {
        return None;
    }
    let hit = probe_ground(ctx, &candidate, ctx.motor.settings.skin_width)?;
    *pose = candidate;
    Some(hit)
}

/// Most faces [`wedged`] weighs.
const MAX_WEDGE_FACES: usize = 8;
/// Rounds of [`wedged`]'s projections.
const WEDGE_ROUNDS: usize = 16;
/// Below this share of a straight fall (along -up) left after the projections, the feet are
/// held.
const WEDGE_DESCENT: Real = 0.02;

/// True when the feet sphere at `pose` rests in a wedge of faces each too steep to stand on (a
/// V between two steep slopes, a crevice between walls at the foot of a slope): no way down
/// stays clear of every face it touches (within the skin width), so it cannot slide. Jolt's
/// `CharacterVirtual` calls such a character supported too.
///
/// The test: a fall along -up, projected in turn onto each face it would enter, a few rounds
/// over; what is left of the fall is under [`WEDGE_DESCENT`] of it.
fn wedged(ctx: &StepContext<'_>, pose: &Pose) -> bool {
    let up = pose.up();
    let feet = ctx.motor.stack.feet();
    let centre = pose.centre_at(feet.offset_local);
    let reach = feet.radius + ctx.motor.settings.skin_width;
    let mut normals = [Vec3::zeros(); MAX_WEDGE_FACES];
    let mut count = 0;
    for (slot, (_, sp)) in normals.iter_mut().zip(surface_near(ctx, centre, reach)) {
        *slot = sp.contact_normal.into_inner();
        count += 1;
    }
    if count < 2 {
        return false;
    }
    let mut fall = -up.into_inner();
    for _ in 0..WEDGE_ROUNDS {
        for n in &normals[..count] {
            let into = fall.dot(n);
            if into < 0.0 {
                fall -= n * into;
            }
        }
    }
    -fall.dot(&up) < WEDGE_DESCENT
}

/// Walking off a convex edge in `Surface` mode, or under a pull toward the edge (surface
/// gravity): the feet sphere's nearest surface point within the clamp distance (the edge it
/// rolls over), the stack pulled along that contact's normal until the feet touch it, and the
/// velocity (m/s, world) into it removed. The contact normal, turning as the feet roll, is the
/// ground's surface normal: the up follows it round the edge. `None` when nothing is that
/// near, when the pull would put a sphere into something, or (outside `Surface` mode) when
/// the edge is off to the side of the pull (a cliff under uniform gravity).
pub(super) fn hug_edge(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    velocity: &mut Vec3,
) -> Option<GroundHit> {
    let settings = &ctx.motor.settings;
    let feet = ctx.motor.stack.feet();
    let centre = pose.centre_at(feet.offset_local);
    let reach = feet.radius + settings.ground_clamp_distance;
    let mut best: Option<(usize, crate::world::SurfacePoint)> = None;
    for (k, sp) in surface_near(ctx, centre, reach) {
        if sp.distance > 0.0 && best.is_none_or(|(_, b)| sp.distance < b.distance) {
            best = Some((k, sp));
        }
    }
    let (k, sp) = best?;
    let n = sp.contact_normal;
    // Outside `Surface` mode only an edge the pull presses the feet onto is followed
    // (surface gravity round a sharp cube pulls toward the edge itself).
    if settings.up_frame != crate::settings::UpFrame::Surface
        && !ctx.fall.is_some_and(|f| -f.dot(&n) >= ctx.cos_slope)
    {
        return None;
    }
    let mut hugged = *pose;
    hugged.position -= n.into_inner() * (sp.distance - feet.radius);
    if max_penetration(ctx, &hugged) > settings.penetration_tolerance {
        return None;
    }
    *pose = hugged;
    let into = velocity.dot(&n);
    if into < 0.0 {
        *velocity -= n.into_inner() * into;
    }
    let cos = n.dot(&pose.up()).clamp(-1.0, 1.0);
    Some(GroundHit {
        collider: ctx.prims[k].collider,
        point: sp.point,
        contact_normal: n,
        surface_normal: n,
        slope_angle: crate::math::acos(cos),
        stable: true,
        distance: 0.0,
    })
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

/// The landing on ground `hit` the feet touch but cannot stand on (unless `leaving` it):
/// held in a wedge of steep faces it is level ground as far as walking goes (`Grounded`, the
/// velocity into it along up removed), else `SteepGround`.
fn unstable_landing(
    ctx: &StepContext<'_>,
    stack: Moving<'_>,
    hit: GroundHit,
    leaving: bool,
) -> (GroundState, GroundHit) {
    let Moving { pose, velocity } = stack;
    if leaving || !wedged(ctx, pose) {
        return (GroundState::SteepGround, hit);
    }
    let up = pose.up();
    let level = GroundHit {
        surface_normal: up,
        slope_angle: 0.0,
        stable: true,
        distance: 0.0,
        ..hit
    };
    let into = velocity.dot(&up);
    if into < 0.0 {
        *velocity -= up.into_inner() * into;
    }
    (GroundState::Grounded, level)
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
    stack: Moving<'_>,
    probed: Option<GroundHit>,
    rules: ClampRules,
    buffers: PushBuffers<'_>,
) -> Landing {
    let Moving { pose, velocity } = stack;
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
        if let Some(found) = drop_to_ground(ctx, pose, settings.ground_clamp_distance, buffers) {
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
        let (ground, hit) = unstable_landing(ctx, Moving { pose, velocity }, hit, leaving);
        landing.ground = ground;
        landing.hit = Some(hit);
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
