//! Stairs: climbing stairs and ledges up to the stair height (Unity's step offset) when a
//! grounded move was blocked; in `Surface` mode a blocking wall that is not a stair is
//! climbed instead.

use super::ground::{probe_ground, probe_shrink};
use super::movement::{Moved, move_substepped};
use super::pushback::{Moving, PushBuffers, PushMode, max_penetration};
use super::{Step, StepContext};
use crate::math::{Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::settings::UpFrame;
use crate::world::cast::Sweep;
use crate::world::query::{cast_ray_among, cast_sphere_among};

/// Smallest rise (m) worth calling a stair; lower obstacles are rolled over by pushback.
const MIN_RISE: Real = 0.005;
/// Extra height tolerance (m) for the stair-depth probe.
const DEPTH_TOLERANCE: Real = 0.02;
/// Cosine of the widest angle (60 degrees) between a move and the face that stopped it for the
/// stop to count as head-on.
const HEAD_ON: Real = 0.5;
/// How far short of `min_stair_depth` (m) the stair-depth test looks (see `deep_enough`).
const DEPTH_EDGE: Real = 1e-3;

/// A move blocked by more than this speed (m/s) tries to climb a stair.
const BLOCKED_SPEED: Real = 1e-3;

/// The stairs phase of the step: when a grounded move was blocked by a collider that may be
/// stood on (and the stack is not crushed), [`try_climb_stair`] from where the move started with
/// the wanted move (the intent along the ground plus the carry); on success the character
/// stands on the tread moving at that velocity. In `Surface` mode a blocked move that does
/// not climb a stair latches the wall, which the next step's up frame turns to climb.
/// `moved` is what the movement phase did; `velocity` (m/s, world) is the step's, set to the
/// wanted move's on a climb.
pub(super) fn stairs(ctx: &StepContext<'_>, s: &mut Step<'_>, moved: &Moved, velocity: &mut Vec3) {
    let pass = moved.pass;
    if moved.mode == PushMode::Grounded && pass.wall.speed > BLOCKED_SPEED {
        let dt = s.input.dt;
        let want = project_on_plane(&s.input.intent.velocity, &moved.start.up()) + s.carry.velocity;
        let trial = PushBuffers::new(
            &mut s.report.scratch.contacts,
            &mut s.report.scratch.trial_hits,
        );
        // Nothing can be stood on past a collider flagged not walkable (another character's
        // body): the stairs phase is not tried against it. A crushed stack has no room to
        // rise either.
        let step = if pass.wall.walkable && !pass.crushed {
            let blocked = Blocked {
                start: moved.start,
                at: *s.pose,
                by: pass.wall.normal,
            };
            try_climb_stair(ctx, &blocked, &(want * dt), dt, trial)
        } else {
            None
        };
        if let Some(step) = step {
            *s.pose = step.pose;
            s.report.climbed = step.rise;
            *velocity = want;
        } else if s.motor.settings().up_frame == UpFrame::Surface {
            s.state.wall_normal = pass.wall.normal;
        }
    }
    s.report.scratch.trial_hits.clear();
}

/// A grounded move that something stopped, as the stairs phase sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blocked {
    /// The pose before the move (world).
    pub start: Pose,
    /// Where the plain move stopped (world).
    pub at: Pose,
    /// The surface normal (world) of what stopped it, if known.
    pub by: Option<UnitVec3>,
}

/// A stair climbed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StairClimb {
    /// Where the character stands on top of the stair.
    pub pose: Pose,
    /// Height climbed along up (m).
    pub rise: Real,
}

/// Tries to climb an obstacle that blocked a grounded move: from `blocked.start` (the pose
/// before the move) rise by up to the stair height, move by `displacement` (m, world, along
/// the ground, over `dt` s) with every up-facing contact acting as a wall, then drop onto what
/// lies below.
///
/// The climb is kept only when the landing is stable, the feet rise by at least 5 mm, the
/// contact on top of the obstacle is no higher than the stair height, the landing is further
/// along the move than `blocked.at` (the pose the plain move reached), and the top stays
/// stable and level for `min_stair_depth` ahead. `blocked.by` is the surface normal (world)
/// of what stopped the plain move. A move stopped within 60 degrees of head-on whose forward move is
/// too short to land the round feet on the tread (slow walking, high tick rates, or a riser
/// met late in the move) is retried with the least forward move that does; so is one whose
/// longer move (further than a tread) failed to land.
pub fn try_climb_stair(
    ctx: &StepContext<'_>,
    blocked: &Blocked,
    displacement: &Vec3,
    dt: Real,
    mut buffers: PushBuffers<'_>,
) -> Option<StairClimb> {
    let (start, blocked_by) = (&blocked.start, blocked.by);
    let blocked = &blocked.at;
    let settings = &ctx.motor.settings;
    let dir = UnitVec3::try_new(*displacement, 1e-6)?;
    let lift = free_rise(ctx, start, settings.stair_height)?;
    let forward = displacement.norm();
    let trial = Trial {
        start,
        plain: (blocked.position - start.position).dot(&dir),
        dir,
        lift,
        dt,
    };
    // A small move leaves the round feet on the nosing, where they can only roll back: then
    // go on just far enough past where the plain move stopped for the feet to stand on the
    // tread, their contact with the edge leaning back within the slope limit (Jolt's minimum
    // step forward plays this part). Only a move stopped nearly head-on goes further; one
    // sliding along a wall never does.
    let feet = ctx.motor.stack.feet();
    let least = ctx.motor.least_forward();
    let facing = blocked_by.map_or(0.0, |n| -n.dot(&dir));
    // Stopped at once (the plain move got under a quarter of the way) or by a face within 60
    // degrees of head-on: the retry goes `least` past the stop, further when oblique.
    let stopped = trial.plain <= 0.25 * forward;
    let needed = if facing >= HEAD_ON {
        trial.plain.max(0.0) + least / facing
    } else {
        least
    };
    let step = trial.attempt(ctx, forward, forward < needed, buffers.reborrow());
    if step.is_some() || !(stopped || facing >= HEAD_ON) {
        return step;
    }
    // A move longer than a tread (a long step: a hitch, a slow device) whose raised move ran
    // on into the next riser lands against its nosing, where the straight drop may leave the
    // feet inside it: it is retried with the least forward move that lands on the tread.
    if forward >= needed {
        return trial.attempt(ctx, needed, false, buffers);
    }
    // A cheap look first: a walkable top just past the feet, within the stair height and above
    // what the round feet roll over unaided (a contact within the slope limit lifts them), so
    // a floor that merely tilts up ahead (a planet's curve) is not taken for a stair.
    let up = start.up();
    let above = settings.stair_height + settings.skin_width;
    let ahead =
        start.position + dir.into_inner() * (feet.radius + needed) + up.into_inner() * above;
    let lowest = feet.radius * (1.0 - ctx.cos_slope);
    let top = cast_ray_among(ctx.world, ctx.prims, &ahead, &-up, above - lowest);
    if !top.is_some_and(|(k, hit)| ctx.stable(k, &hit.normal, &up)) {
        return None;
    }
    trial.attempt(ctx, needed, false, buffers)
}

/// One attempt at climbing a stair: what [`try_climb_stair`] tries, for a given forward distance.
struct Trial<'p> {
    start: &'p Pose,
    /// How far (m) along `dir` the plain, blocked move got.
    plain: Real,
    dir: UnitVec3,
    lift: Real,
    dt: Real,
}

impl Trial<'_> {
    /// Rise by `lift`, move `forward` metres along `dir` with walls only, drop onto what lies
    /// below and check the landing; with `walkable_contact`, the feet's contact itself must
    /// be within the slope limit (not merely an edge of a stable tread).
    fn attempt(
        &self,
        ctx: &StepContext<'_>,
        forward: Real,
        walkable_contact: bool,
        buffers: PushBuffers<'_>,
    ) -> Option<StairClimb> {
        let settings = &ctx.motor.settings;
        let up = self.start.up();
        let mut pose = *self.start;
        pose.position += up.into_inner() * self.lift;
        let mut velocity = self.dir.into_inner() * (forward / self.dt);
        let stack = Moving::new(&mut pose, &mut velocity);
        move_substepped(ctx, stack, self.dt, PushMode::Walls, buffers);
        let ground = probe_ground(ctx, &pose, self.lift)?;
        if !ground.stable || (walkable_contact && ground.contact_normal.dot(&up) < ctx.cos_slope) {
            return None;
        }
        pose.position -= up.into_inner() * ground.distance.max(0.0);
        let rise = (pose.position - self.start.position).dot(&up);
        // The obstacle's height is where the feet touch it, not how high the round feet sit.
        let top = (ground.point - self.start.position).dot(&up);
        if rise < MIN_RISE || top > settings.stair_height + settings.skin_width {
            return None;
        }
        let progress = (pose.position - self.start.position).dot(&self.dir);
        if progress <= self.plain + 1e-4 {
            return None;
        }
        // The drop is straight down for the whole stack: an upper sphere that was clear at
        // the raised height may come down beside a piece that juts out further lower down (a
        // railing's bars), so the whole stack is checked where it lands.
        if max_penetration(ctx, &pose) > settings.penetration_tolerance {
            return None;
        }
        deep_enough(ctx, &ground.point, &self.dir, &up).then_some(StairClimb { pose, rise })
    }
}

/// How far (m) the whole stack can rise along up from `pose`, at most `height`; `None` when
/// it cannot rise at all.
fn free_rise(ctx: &StepContext<'_>, pose: &Pose, height: Real) -> Option<Real> {
    let skin = ctx.motor.settings.skin_width;
    let up = pose.up();
    let mut rise = height;
    for sphere in ctx.motor.stack.spheres() {
        let shrink = probe_shrink(skin, sphere.radius);
        let sweep = Sweep {
            centre: pose.centre_at(sphere.offset_local),
            radius: sphere.radius - shrink,
            dir: up,
            max_distance: height + shrink,
        };
        if let Some((_, hit)) = cast_sphere_among(ctx.world, ctx.prims, &sweep) {
            rise = rise.min(hit.distance - shrink);
        }
    }
    (rise > MIN_RISE).then_some(rise)
}

/// True when the top is at least `min_stair_depth` deep along `dir` from the landing contact:
/// no steep face rises from it within that depth (a riser of a tread too shallow to stand on),
/// and the surface there is walkable and level with the contact (within what the slope limit
/// allows over that depth).
///
/// The far end is tested [`DEPTH_EDGE`] short of `min_stair_depth`, so a top exactly that deep
/// passes wherever it lies: float rounding on its far edge never decides.
fn deep_enough(
    ctx: &StepContext<'_>,
    contact: &crate::math::Point3,
    dir: &UnitVec3,
    up: &UnitVec3,
) -> bool {
    let settings = &ctx.motor.settings;
    if settings.min_stair_depth <= 0.0 {
        return true;
    }
    let depth = (settings.min_stair_depth - DEPTH_EDGE).max(0.0);
    let above = contact + up.into_inner() * (2.0 * settings.skin_width);
    if let Some((k, hit)) = cast_ray_among(ctx.world, ctx.prims, &above, dir, depth)
        && !ctx.stable(k, &hit.normal, up)
    {
        return false;
    }
    let reach = depth * crate::math::tan(settings.slope_limit) + DEPTH_TOLERANCE;
    let origin = contact + dir.into_inner() * depth + up.into_inner() * reach;
    cast_ray_among(ctx.world, ctx.prims, &origin, &-*up, 2.0 * reach)
        .is_some_and(|(k, hit)| hit.distance > 0.0 && ctx.stable(k, &hit.normal, up))
}
