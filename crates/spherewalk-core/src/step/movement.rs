//! Movement: velocity from intent, gravity, knock and the ground's carry, and the substepped
//! move with pushback after each substep.

use super::pushback::{Moving, PushBuffers, PushMode, PushbackSummary, max_penetration, pushback};
use super::{Step, StepContext, knock};
use crate::contact::GroundState;
use crate::math::{Real, UnitVec3, Vec3, clamp_length, project_on_plane};
use crate::pose::Pose;
use crate::settings::UpFrame;
use crate::state::{MotorState, StepInput};

/// What the movement phase did ([`super::Step::movement`]), for the phases after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moved {
    /// Where the move started from (world; the stairs phase retries from there).
    pub start: Pose,
    /// How the move's pushback treated the ground.
    pub mode: PushMode,
    /// Whether the character jumped this step.
    pub jumped: bool,
    /// What the move's pushback found.
    pub pass: PushbackSummary,
}

/// The movement phase of the step: the character's own velocity ([`movement_velocity`] from
/// `velocity`, the one the up frame left, with the knock, capped) plus what the ground
/// carries it by (a velocity, and a turn of the heading), moved by [`move_substepped`];
/// `velocity` (m/s, world) is then the one the move ended with. Returns where the move
/// started and what its pushback found, for the stairs and ground phases.
pub(super) fn movement(ctx: &StepContext<'_>, s: &mut Step<'_>, velocity: &mut Vec3) -> Moved {
    super::dash::begin(s);
    // The mode's own rule (a dash, a climb, a mantle), else the walk's.
    let ruled = super::dash::velocity(s)
        .map(|dash| (dash, false))
        .or_else(|| super::climb::velocity(s))
        .or_else(|| super::mantle::velocity(s).map(|mantle| (mantle, false)));
    let (own, jumped) = match ruled {
        Some(ruled) => ruled,
        None => own_velocity(ctx, s, *velocity),
    };
    // Climbing and mantling hold on to what they climb, not to the ground.
    let grounded = s.state.ground == GroundState::Grounded && s.state.mode.follows_ground();
    // The ground's turn about up turns the heading with it.
    super::frame::yaw(s.pose, s.carry.turn);
    let max_speed = s.motor.settings().max_speed;
    let (total, fast) = clamp_length(&(own + s.carry.velocity), max_speed);
    s.report.flags.speed_clamped |= fast;
    *velocity = total;
    let start = *s.pose;
    let mode = if grounded && !jumped {
        PushMode::Grounded
    } else {
        PushMode::Free
    };
    let buffers = PushBuffers::new(&mut s.report.scratch.contacts, &mut s.report.hits);
    let stack = Moving::new(s.pose, velocity);
    let (substeps, pass) = move_substepped(ctx, stack, s.input.dt, mode, buffers);
    s.report.substeps = substeps;
    s.report.note_pushback(&pass);
    s.report.jumped = jumped;
    s.state.wall_normal = None;
    Moved {
        start,
        mode,
        jumped,
        pass,
    }
}

/// The character's own velocity for this step (m/s, world): [`movement_velocity`] from
/// `velocity` (the one the up frame left), the intent and gravity (along -up in `Surface`
/// mode), with the knock as momentum in the air or a slide on the ground, capped at
/// `max_speed`; and whether it jumped.
fn own_velocity(ctx: &StepContext<'_>, s: &mut Step<'_>, velocity: Vec3) -> (Vec3, bool) {
    let settings = s.motor.settings();
    let input = &s.input;
    let gravity = match settings.up_frame {
        UpFrame::Surface => -s.pose.up().into_inner() * input.gravity.norm(),
        _ => input.gravity,
    };
    let knock = knock::usable(s.state);
    let moving = MotorState {
        velocity: knock::momentum(s.state, knock, velocity),
        ..*s.state
    };
    let pulled = StepInput { gravity, ..*input };
    let (mut own, jumped) = movement_velocity(ctx, s.pose, &moving, &pulled);
    if let Some(slide) = knock::slide(s.state, knock, s.pose) {
        own += slide;
    }
    let (own, fast) = clamp_length(&own, settings.max_speed);
    s.report.flags.speed_clamped |= fast;
    (own, jumped)
}

/// The velocity (m/s, world) the character moves with this step, from its `input`'s intent,
/// gravity and time step.
///
/// On stable ground the intent applies at once and follows the ground plane so the speed
/// along up's tangent plane is exactly the intent's (ramps cost no horizontal speed); a jump
/// (from stable ground, or in the air within [`MotorState::coyote`]) replaces the velocity by
/// the intent plus `jump_speed` along up, and gravity already acts on the launch step. Off stable ground
/// the tangential velocity moves toward the intent by at most `air_acceleration * dt` and
/// gravity is added; on steep ground the intent only steers across the slope or hastens the
/// slide (see `steer_on_steep`).
pub fn movement_velocity(
    ctx: &StepContext<'_>,
    pose: &Pose,
    state: &MotorState,
    input: &StepInput,
) -> (Vec3, bool) {
    let (intent, gravity, dt) = (&input.intent, &input.gravity, input.dt);
    let up = pose.up();
    let want = project_on_plane(&intent.velocity, &up);
    let stable = state.ground == GroundState::Grounded;
    // Within coyote time an airborne character jumps as if from the ground it just left.
    if intent.jump_speed > 0.0 && (stable || state.coyote > 0.0) {
        // The jump step is already a flight step: gravity acts on it.
        return (
            want + up.into_inner() * intent.jump_speed + gravity * dt,
            true,
        );
    }
    if stable {
        return (
            crate::contact::along_ground(want, state.ground_hit.as_ref(), &up),
            false,
        );
    }
    let v_up = up.into_inner() * state.velocity.dot(&up);
    let v_t = state.velocity - v_up;
    let max_change = ctx.motor.settings.air_acceleration * dt;
    let steep = match (state.ground, state.ground_hit) {
        (GroundState::SteepGround, Some(hit)) => downhill(&hit.surface_normal, &up),
        _ => None,
    };
    let v_t = match steep {
        Some(away) => steer_on_steep(v_t, want, &away, max_change),
        None => steer(v_t, want, max_change),
    };
    (v_t + v_up + gravity * dt, false)
}

/// `v` moved toward `want` by at most `max_change` (m/s); unchanged when there is no intent.
fn steer(v: Vec3, want: Vec3, max_change: Real) -> Vec3 {
    if want.norm_squared() == 0.0 {
        return v;
    }
    let delta = want - v;
    let len = delta.norm();
    if len > max_change {
        v + delta * (max_change / len)
    } else {
        want
    }
}

/// The unit horizontal (tangent to up) direction down a slope of normal `n`, if it has one.
fn downhill(n: &UnitVec3, up: &UnitVec3) -> Option<UnitVec3> {
    UnitVec3::try_new(project_on_plane(&n.into_inner(), up), 1e-6)
}

/// Steering while sliding on steep ground: the intent steers only across the slope and may
/// hasten the slide, never brake it or push uphill (the uphill part of the intent goes
/// before steering, so holding uphill slides like holding nothing).
fn steer_on_steep(v_t: Vec3, want: Vec3, away: &UnitVec3, max_change: Real) -> Vec3 {
    let a = away.into_inner();
    let (v_down, want_down) = (v_t.dot(&a), want.dot(&a));
    let across = steer(v_t - a * v_down, want - a * want_down, max_change);
    let down = if want_down > v_down {
        (v_down + max_change).min(want_down)
    } else {
        v_down
    };
    across + a * down.max(0.0)
}

/// Most substeps one move takes; a longer move takes longer substeps (and
/// [`crate::StepReport::substeps`] equals this).
pub const MAX_SUBSTEPS: u32 = 4096;

/// Moves `pose` by `velocity * dt` in substeps no longer than the substep length (at most
/// [`MAX_SUBSTEPS`] of them), running pushback after each, and returns the substep count and
/// the merged pushback summary.
pub fn move_substepped(
    ctx: &StepContext<'_>,
    stack: Moving<'_>,
    dt: Real,
    mode: PushMode,
    mut buffers: PushBuffers<'_>,
) -> (u32, PushbackSummary) {
    let Moving { pose, velocity } = stack;
    let settings = &ctx.motor.settings;
    let max_len = settings.max_substep_fraction * ctx.motor.stack.min_radius();
    let distance = velocity.norm() * dt;
    // NOTE: validated settings and stacks keep this far below the cap (500 m/s for 1 s with
    // 1 mm spheres at fraction 0.01 would need 5e7 substeps): it is a last guard, not a rule.
    let count = ((distance / max_len).ceil().min(MAX_SUBSTEPS as Real) as u32).max(1);
    let h = dt / count as Real;
    let mut total = PushbackSummary::default();
    for _ in 0..count {
        let motion = *velocity * h;
        let from = *pose;
        pose.position += motion;
        let s = pushback(
            ctx,
            Moving::new(pose, velocity),
            mode,
            &motion,
            buffers.reborrow(),
        );
        if s.exhausted {
            hold_if_deeper(ctx, pose, &from, velocity, &motion);
        }
        total.iterations += s.iterations;
        total.pushes += s.pushes;
        total.exhausted |= s.exhausted;
        if s.crushed {
            let before = !total.crushed || total.by_characters;
            total.by_characters = before && s.by_characters;
        }
        total.crushed |= s.crushed;
        total.wall.keep_stronger(s.wall);
    }
    (count, total)
}

/// After a substep whose pushback ran out of iterations: when the stack started the substep
/// clear (no sphere deeper than half the skin width) and ended it deeper than that, the
/// substep is undone and the velocity loses its part along the motion. A move into a cramped
/// corner (a wall, a sloping ceiling and the ground at once, or a passage lower than the
/// stack) then stops at the last clear pose instead of ending the step with a sphere
/// centimetres inside a wall. A stack that geometry moved into (a lift pressing it into a
/// ceiling) did not start clear and is left to the squeeze rules.
#[cold]
fn hold_if_deeper(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    from: &Pose,
    velocity: &mut Vec3,
    motion: &Vec3,
) {
    let clear = 0.5 * ctx.motor.settings.skin_width;
    if max_penetration(ctx, pose) <= clear || max_penetration(ctx, from) > clear {
        return;
    }
    *pose = *from;
    if let Some(dir) = UnitVec3::try_new(*motion, 1e-9) {
        let along = velocity.dot(&dir).max(0.0);
        *velocity -= dir.into_inner() * along;
    }
}
