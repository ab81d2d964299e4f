//! Phase 3b: the step offset (climbing stairs and ledges up to the step height).

use super::StepContext;
use super::ground::probe_ground;
use super::movement::move_substepped;
use super::pushback::{ContactBuffer, PushMode};
use crate::math::{Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::report::Hit;
use crate::world::query::{cast_ray_among, cast_sphere_among};

/// Smallest rise (m) worth calling a step; lower obstacles are rolled over by pushback.
const MIN_RISE: Real = 0.005;
/// Extra height tolerance (m) for the step-depth probe.
const DEPTH_TOLERANCE: Real = 0.02;

/// A successful step offset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepUp {
    /// Where the character stands on top of the step.
    pub pose: Pose,
    /// Height climbed along up (m).
    pub rise: Real,
}

/// Tries to climb an obstacle that blocked a grounded move: from `start` (the pose before the
/// move) rise by up to the step height, move by `displacement` (m, world, along the ground)
/// with every up-facing contact acting as a wall, then drop onto what lies below.
///
/// The step is kept only when the landing is stable, the feet rise by at least 5 mm, the
/// contact on top of the obstacle is no higher than the step height, the landing is further along the move than `blocked` (the pose the plain move
/// reached), and the top stays stable and level for `min_step_depth` ahead.
pub fn try_step_up(
    ctx: &StepContext<'_>,
    start: &Pose,
    blocked: &Pose,
    displacement: &Vec3,
    dt: Real,
    scratch: (&mut ContactBuffer, &mut Vec<Hit>),
) -> Option<StepUp> {
    let settings = &ctx.motor.settings;
    let up = start.up();
    let dir = UnitVec3::try_new(*displacement, 1e-6)?;
    let lift = free_rise(ctx, start, settings.step_height)?;
    let mut trial = *start;
    trial.position += up.into_inner() * lift;
    let mut velocity = displacement / dt;
    let (contacts, hits) = scratch;
    move_substepped(
        ctx,
        &mut trial,
        &mut velocity,
        dt,
        PushMode::Walls,
        contacts,
        hits,
    );
    let ground = probe_ground(ctx, &trial, lift)?;
    if !ground.stable {
        return None;
    }
    trial.position -= up.into_inner() * ground.distance.max(0.0);
    let rise = (trial.position - start.position).dot(&up);
    // The obstacle's height is where the feet touch it, not how high the round feet sit.
    let top = (ground.point - start.position).dot(&up);
    if rise < MIN_RISE || top > settings.step_height + settings.skin_width {
        return None;
    }
    let progress = (trial.position - start.position).dot(&dir);
    let plain = (blocked.position - start.position).dot(&dir);
    if progress <= plain + 1e-4 {
        return None;
    }
    deep_enough(ctx, &ground.point, &dir, &up).then_some(StepUp { pose: trial, rise })
}

/// How far (m) the whole stack can rise along up from `pose`, at most `height`; `None` when
/// it cannot rise at all.
fn free_rise(ctx: &StepContext<'_>, pose: &Pose, height: Real) -> Option<Real> {
    let skin = ctx.motor.settings.skin_width;
    let up = pose.up();
    let mut rise = height;
    for sphere in ctx.motor.stack.spheres() {
        let shrink = (0.5 * skin).min(0.5 * sphere.radius);
        let centre = pose.centre_at(sphere.offset_local);
        let radius = sphere.radius - shrink;
        if let Some((_, hit)) =
            cast_sphere_among(ctx.world, ctx.prims, &centre, radius, &up, height + shrink)
        {
            rise = rise.min(hit.distance - shrink);
        }
    }
    (rise > MIN_RISE).then_some(rise)
}

/// True when the surface `min_step_depth` ahead of the landing contact is walkable and level
/// with it (within what the slope limit allows over that depth).
fn deep_enough(
    ctx: &StepContext<'_>,
    contact: &crate::math::Point3,
    dir: &UnitVec3,
    up: &UnitVec3,
) -> bool {
    let depth = ctx.motor.settings.min_step_depth;
    if depth <= 0.0 {
        return true;
    }
    let tan = ctx.motor.settings.slope_limit.tan();
    let reach = depth * tan + DEPTH_TOLERANCE;
    let origin = contact + dir.into_inner() * depth + up.into_inner() * reach;
    let down = -*up;
    match cast_ray_among(ctx.world, ctx.prims, &origin, &down, 2.0 * reach) {
        Some(hit) => {
            let walkable = ctx
                .world
                .get(hit.collider)
                .is_some_and(|c| !c.flags.not_walkable);
            walkable && hit.normal.dot(up) >= ctx.cos_slope
        }
        None => false,
    }
}
