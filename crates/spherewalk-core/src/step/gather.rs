//! Gather: the step's region (everything the phases can reach from where the character is)
//! and the primitives in it that the game's hooks keep.

use super::{Motor, Step};
use crate::hooks::Candidate;
use crate::math::{Point3, Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::state::{MotorState, StepInput};
use crate::world::Primitive;
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// Room (m) the step's region leaves beyond its computed reach: the surface rays' sideways
/// offsets and heights and f32 rounding.
pub(crate) const REGION_SLACK: Real = 0.05;

/// Fills `prims` with the primitives within `bounds` (world) that the motor's filter passes
/// and whose collider the step's hooks validate for the character where it stands.
pub(super) fn gather(s: &mut Step<'_>, bounds: &Aabb, prims: &mut Vec<Primitive>) {
    prims.clear();
    let ids = &mut s.report.scratch.ids;
    s.world
        .gather_primitives(bounds, s.motor.filter(), ids, prims);
    // Primitives come grouped by collider: ask once per collider.
    let mut last = None;
    prims.retain(|p| {
        if let Some((id, keep)) = last
            && id == p.collider
        {
            return keep;
        }
        let candidate = Candidate {
            collider: p.collider,
            pose: s.pose,
            velocity: s.state.velocity,
        };
        let keep = s.hooks.validate(&candidate);
        last = Some((p.collider, keep));
        keep
    });
}

/// The region (world, m) a step may touch anything in: the stack's bounding box where the
/// step starts, grown by how far any phase can take a sphere or look from it. `carried` below
/// is what the ground carries the character by (m/s, world).
///
/// Every direction gets the move (`speed * dt`, the speed capped at `max_speed`), the chord
/// the up frame's turn sweeps (the turn toward this step's target up, at most the turn limit,
/// times the farthest sphere surface from the pivot), twice the skin width and
/// [`REGION_SLACK`] for the surface rays. Along the wanted move (the intent's velocity along
/// the ground plus `carried`) it also reaches the stairs phase's look past the feet (twice the
/// least forward move it retries with, plus `min_stair_depth`); along up, `stair_height` above
/// and the ground probe's reach (`ground_clamp_distance` plus twice the skin width) below. A
/// push out of an overlap the character did not move into can go further: [`reached`] notices
/// a stack ending near the region's edge, and the step runs again over the [`wide`] region.
pub(super) fn tight(s: &Step<'_>) -> Aabb {
    let (motor, pose, input) = (s.motor, &*s.pose, &s.input);
    let carried = &s.carry.velocity;
    let settings = motor.settings();
    let stack_shape = motor.stack();
    let speed = speed(motor, s.state, input, carried.norm());
    let stack = stack_box(motor, pose, 0.0);
    let arm = pose
        .sphere_centres(stack_shape)
        .zip(stack_shape.spheres())
        .map(|(centre, sphere)| (centre - s.turn.pivot).norm() + sphere.radius)
        .fold(0.0, Real::max);
    let up = pose.up();
    // The chord of a turn is at most its angle, and at most the distance between the two
    // unit ups.
    let turn = (up.into_inner() - s.turn.target.into_inner())
        .norm()
        .min(s.turn.limit)
        * arm;
    let margin = speed * input.dt + turn + 2.0 * settings.skin_width + REGION_SLACK;
    let want = project_on_plane(&input.intent.velocity, &up) + carried;
    let least = motor.least_forward();
    let ahead = UnitVec3::try_new(want, 1e-6).map_or(Vec3::zeros(), |d| {
        d.into_inner() * (2.0 * least + settings.min_stair_depth)
    });
    let rise = up.into_inner() * settings.stair_height;
    let drop = probe_drop(motor, &up);
    let zero = Vec3::zeros();
    let below = rise.inf(&drop).inf(&zero) + ahead.inf(&zero);
    let above = rise.sup(&drop).sup(&zero) + ahead.sup(&zero);
    let m = Vec3::repeat(margin);
    Aabb::new(stack.mins + below - m, stack.maxs + above + m)
}

/// The wide region (world, m) a step falls back on when it reached past its [`tight`] one: a
/// cube around the position where the step starts, reaching the stack's height (the longest
/// squeeze escape) plus the move, the stair height, the clamp distance and twice the skin
/// width.
pub(super) fn wide(s: &Step<'_>) -> Aabb {
    let motor = s.motor;
    let settings = motor.settings();
    let carried = s.carry.velocity.norm();
    let reach = motor.stack().height()
        + speed(motor, s.state, &s.input, carried) * s.input.dt
        + settings.stair_height
        + settings.ground_clamp_distance
        + 2.0 * settings.skin_width;
    let r = Vec3::repeat(reach);
    Aabb::new(s.pose.position - r, s.pose.position + r)
}

/// True when the stack at `pose`, grown by the skin width and reaching the ground probe's
/// distance below (`ground_clamp_distance` plus twice the skin width along -up), lies inside
/// `bounds`: everything the next phases look at from there was gathered. False means the step
/// reached past its region.
pub(super) fn reached(motor: &Motor, pose: &Pose, bounds: &Aabb) -> bool {
    let stack = stack_box(motor, pose, motor.settings().skin_width);
    let drop = probe_drop(motor, &pose.up());
    let zero = Vec3::zeros();
    let reach = Aabb::new(stack.mins + drop.inf(&zero), stack.maxs + drop.sup(&zero));
    bounds.contains(&reach)
}

/// The bounding box (world, m) of the stack's spheres at `pose`, each grown by `grow` (m).
pub(crate) fn stack_box(motor: &Motor, pose: &Pose, grow: Real) -> Aabb {
    let mut lo = Point3::from(Vec3::repeat(Real::INFINITY));
    let mut hi = Point3::from(Vec3::repeat(Real::NEG_INFINITY));
    let stack = motor.stack();
    for (c, sphere) in pose.sphere_centres(stack).zip(stack.spheres()) {
        let r = Vec3::repeat(sphere.radius + grow);
        lo = lo.inf(&(c - r));
        hi = hi.sup(&(c + r));
    }
    Aabb::new(lo, hi)
}

/// How far below the feet (world, m, along -`up`) the ground probe may look: the ground clamp
/// distance plus twice the skin width.
fn probe_drop(motor: &Motor, up: &UnitVec3) -> Vec3 {
    let s = motor.settings();
    -up.into_inner() * (s.ground_clamp_distance + 2.0 * s.skin_width)
}

/// The fastest this step may move (m/s): the carried velocity plus gravity's pull, or the
/// intent's velocity and jump, whichever is more, plus the `carried` speed (m/s) of the
/// ground, at most `max_speed`.
fn speed(motor: &Motor, state: &MotorState, input: &StepInput, carried: Real) -> Real {
    let own = (state.velocity.norm() + input.gravity.norm() * input.dt)
        .max(input.intent.velocity.norm() + input.intent.jump_speed.max(0.0));
    (own + carried).min(motor.settings().max_speed)
}
