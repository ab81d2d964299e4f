//! Climb: a character that moves into a face of a collider flagged
//! [`crate::world::ColliderFlags::climbable`] too steep to stand on holds on
//! ([`Mode::Climb`]), and the walk intent moves it in the surface's plane with gravity held
//! off: into a wall is up it, away is down, sideways is sideways, and on a ceiling the intent
//! moves it as on the ground. A jump lets go, away from the surface, and so does a knock; so
//! does moving off its face, at the bottom onto the ground, and at the top over an edge,
//! where a mantle pulls it up onto what is there ([`super::mantle`]). All in the character's
//! own up frame, so a ladder up a planet's tower climbs like one on flat ground.

use super::contacts::surface_near;
use super::{Step, StepContext, knock, mantle, mode};
use crate::contact::{ColliderId, GroundState};
use crate::math::{Point3, Real, UnitVec3, Vec3, clamp_length, project_on_plane};
use crate::state::Mode;
use crate::world::query::cast_ray_among;

/// How far past a sphere's radius and the skin (m) a climbable face still holds it.
const HOLD_REACH: Real = 0.02;
/// Fastest (m/s) a climb presses the stack toward its surface, so it keeps touching one that
/// curves away (a round tower): it closes the gap the last step left down to half a skin,
/// no further, so the press does not push the stack into the face.
const PRESS_SPEED: Real = 0.5;
/// A sphere holds the climbed face where a ray from its centre against the face's normal hits
/// it with a normal within this of the face's (cos 35 deg): the face turns from step to step
/// round a tower, but an edge it passes is let go.
const FACE_COS: Real = 0.819_152;
/// A climbable contact this far (m) or more below its sphere's centre, along up, with no
/// sphere on the face any more, is the face's top edge: the stack rose past it.
const EDGE_BELOW: Real = 1e-3;
/// A face whose normal points down by more than this (cos 60 deg) is a ceiling: it is
/// climbed as ground is walked, and held by touching it in the air.
const CEILING_COS: Real = 0.5;
/// A walk intent moves into a wall when it is within this of straight at it (cos 60 deg).
const INTO_COS: Real = 0.5;

/// The climb's velocity this step (m/s, world), while one runs and no knock throws it off
/// (then `None`: the walk's rule moves it), and whether it jumped off: the intent mapped into
/// the surface's plane, at most the climb speed, pressed toward the surface (at most
/// [`PRESS_SPEED`], down to half a skin from it); a jump lets go instead, with the jump-off
/// speed along the normal and the jump's speed along the surface's up.
pub(super) fn velocity(s: &mut Step<'_>) -> Option<(Vec3, bool)> {
    let Mode::Climb { normal, gap, .. } = s.state.mode else {
        return None;
    };
    // A knock (a blast, a body's hit) throws the climber off: this step walks, and the walk
    // takes the knock as it does in the air.
    if knock::usable(s.state).is_some() {
        mode::switch(s, Mode::Walk);
        return None;
    }
    let up = s.pose.up();
    let settings = s.motor.settings.climb;
    let intent = &s.input.intent;
    if intent.jump_speed > 0.0 {
        let along = surface_up(&normal, &up).map_or(Vec3::zeros(), |u| u.into_inner());
        let jump = normal.into_inner() * settings.jump_off_speed + along * intent.jump_speed;
        mode::switch(s, Mode::Walk);
        return Some((jump, true));
    }
    let mapped = map_intent(&intent.velocity, &normal, &up);
    let climb = clamp_length(&mapped, settings.speed).0;
    let close = gap - 0.5 * s.motor.settings.skin_width;
    let press = (close / s.input.dt).clamp(0.0, PRESS_SPEED);
    Some((climb - normal.into_inner() * press, false))
}

/// After the ground phase: a walking character that moved into a climbable face holds on;
/// a climbing one follows its face as it turns, lets go at the bottom onto stable ground
/// and off the face's sides, and over its top edge mantles; a mantle rises and ends
/// ([`mantle::tick`]). Nothing more in a step whose mode changed already.
pub(super) fn settle(ctx: &StepContext<'_>, s: &mut Step<'_>, start: &Point3) {
    if s.report.mode_changed.is_some() {
        return;
    }
    match s.state.mode {
        Mode::Walk => attach(ctx, s),
        Mode::Climb { normal, .. } => hold(ctx, s, &normal),
        Mode::Mantle { .. } => mantle::tick(s, start),
        _ => {}
    }
}

/// Holds on to the climbable face the stack touches when the walk moves into it: a wall the
/// intent points at, or a ceiling the character was rising into. The velocity stops (the
/// hold catches a fall) and a latched wall is let go, so `Surface` mode does not walk up it.
fn attach(ctx: &StepContext<'_>, s: &mut Step<'_>) {
    let up = s.pose.up();
    // Nothing moves into anything, or nothing near is climbable: no query (a walk pays
    // only this scan).
    let still = s.input.intent.velocity == Vec3::zeros() && s.began.state.velocity == Vec3::zeros();
    if still || !ctx.prims.iter().any(|p| p.climbable) {
        return;
    }
    let Some((normal, collider, gap)) = face_near(ctx, s) else {
        return;
    };
    let into = if normal.dot(&up) < -CEILING_COS {
        // Moving up into it when the step began: a jump, not a fall past its edge.
        s.began.state.velocity.dot(&normal) < 0.0
    } else {
        let want = project_on_plane(&s.input.intent.velocity, &up);
        let speed = want.norm();
        let flat = UnitVec3::try_new(project_on_plane(&normal, &up), 1e-6);
        speed > 1e-3 && flat.is_some_and(|h| -want.dot(&h) > INTO_COS * speed)
    };
    if into {
        mode::switch(
            s,
            Mode::Climb {
                normal,
                collider,
                gap,
            },
        );
        s.state.velocity = Vec3::zeros();
        s.state.wall_normal = None;
    }
}

/// While climbing, after the move: on the face still, its normal as the stack touches it
/// now (walking again when that climb was down onto stable ground); past its top edge, a
/// mantle onto the top; off it any other way, walking (or falling) again.
fn hold(ctx: &StepContext<'_>, s: &mut Step<'_>, normal: &UnitVec3) {
    let up = s.pose.up();
    let rising = map_intent(&s.input.intent.velocity, normal, &up).dot(&up);
    if let Some((normal, collider, gap)) = face_again(ctx, s, normal) {
        if s.state.ground == GroundState::Grounded && rising < 0.0 {
            mode::walk_again(s);
        } else {
            s.state.mode = Mode::Climb {
                normal,
                collider,
                gap,
            };
        }
        return;
    }
    if rising > 0.0
        && let Some(edge) = top_edge(ctx, s)
    {
        mantle::begin(s, normal, &edge);
    } else {
        mode::walk_again(s);
    }
}

/// The walk intent `velocity` (m/s, world) as a climb on the face with `normal` (world) by a
/// character whose up is `up`: on a ceiling, its part in the ceiling's plane; on a wall, its
/// part toward the wall along the wall's up (away from it, down), and its part along the wall
/// kept.
fn map_intent(velocity: &Vec3, normal: &UnitVec3, up: &UnitVec3) -> Vec3 {
    let want = project_on_plane(velocity, up);
    let n = normal.into_inner();
    if n.dot(up) < -CEILING_COS {
        return project_on_plane(&want, normal);
    }
    let (Some(flat), Some(along)) = (
        UnitVec3::try_new(project_on_plane(&n, up), 1e-6),
        surface_up(normal, up),
    ) else {
        return project_on_plane(&want, normal);
    };
    let toward = -want.dot(&flat);
    let side = want + flat.into_inner() * toward;
    along.into_inner() * toward + project_on_plane(&side, normal)
}

/// Up along the face with `normal` (unit, world): `up` in the face's plane; `None` on a face
/// square to up.
fn surface_up(normal: &UnitVec3, up: &UnitVec3) -> Option<UnitVec3> {
    UnitVec3::try_new(project_on_plane(&up.into_inner(), normal), 1e-6)
}

/// A face of a climbable collider the stack touches, as a walk meets it: every contact
/// within the skin and [`HOLD_REACH`] of each sphere that is not stable ground counts. Its
/// normal (the mean of theirs, world), the first one's collider, and the nearest one's gap
/// beyond its sphere's radius (m; negative when it overlaps).
fn face_near(ctx: &StepContext<'_>, s: &Step<'_>) -> Option<(UnitVec3, ColliderId, Real)> {
    let up = s.pose.up();
    let (mut normals, mut collider, mut gap) = (Vec3::zeros(), None, Real::INFINITY);
    for (sphere, centre) in spheres(s) {
        let reach = sphere.radius + s.motor.settings.skin_width + HOLD_REACH;
        for (k, sp) in surface_near(ctx, centre, reach) {
            let Some(prim) = climbable(ctx, k) else {
                continue;
            };
            if !ctx.stable(k, &sp.contact_normal, &up) {
                normals += sp.contact_normal.into_inner();
                collider.get_or_insert(prim.collider);
                gap = gap.min(sp.distance - sphere.radius);
            }
        }
    }
    Some((UnitVec3::try_new(normals, 1e-6)?, collider?, gap))
}

/// The held `face` (world) found again where the stack is now: the lowest sphere from whose
/// centre a ray against `face` hits a climbable collider first, within the skin and
/// [`HOLD_REACH`], with a normal within [`FACE_COS`] of it (so the face follows a tower
/// round, and is let go past an edge). That hit's normal (world), collider and gap beyond the
/// sphere's radius (m). The spheres above it cast no ray: the face is found, and their rays
/// would cost the step a fifth more.
fn face_again(
    ctx: &StepContext<'_>,
    s: &Step<'_>,
    face: &UnitVec3,
) -> Option<(UnitVec3, ColliderId, Real)> {
    spheres(s).find_map(|(sphere, centre)| {
        let reach = sphere.radius + s.motor.settings.skin_width + HOLD_REACH;
        let (k, ray) = cast_ray_among(ctx.world, ctx.prims, &centre, &-*face, reach)?;
        let prim = climbable(ctx, k).filter(|_| ray.normal.dot(face) > FACE_COS)?;
        Some((ray.normal, prim.collider, ray.distance - sphere.radius))
    })
}

/// The top edge of a face the stack rose past (world, m): the highest climbable contact,
/// within the skin and [`HOLD_REACH`] of a sphere, at least [`EDGE_BELOW`] below that
/// sphere's centre along up.
fn top_edge(ctx: &StepContext<'_>, s: &Step<'_>) -> Option<Point3> {
    let up = s.pose.up();
    let mut edge: Option<(Real, Point3)> = None;
    for (sphere, centre) in spheres(s) {
        let reach = sphere.radius + s.motor.settings.skin_width + HOLD_REACH;
        for (k, sp) in surface_near(ctx, centre, reach) {
            let below = (centre - sp.point).dot(&up);
            let height = sp.point.coords.dot(&up);
            let higher = edge.is_none_or(|(h, _)| height > h);
            if climbable(ctx, k).is_some() && below >= EDGE_BELOW && higher {
                edge = Some((height, sp.point));
            }
        }
    }
    edge.map(|(_, point)| point)
}

/// The stack's spheres, feet first, each with its centre (world) where the character is.
fn spheres<'a>(
    s: &'a Step<'_>,
) -> impl Iterator<Item = (&'a crate::shape::StackSphere, Point3)> + 'a {
    let stack = s.motor.stack();
    stack.spheres().iter().zip(s.pose.sphere_centres(stack))
}

/// Primitive `k` of the step, when its collider is climbable.
fn climbable<'p>(ctx: &StepContext<'p>, k: usize) -> Option<&'p crate::world::Primitive> {
    ctx.prims.get(k).filter(|p| p.climbable)
}
