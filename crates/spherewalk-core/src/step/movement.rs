//! Phase 1: velocity from intent and gravity, and the substepped move.

use super::StepContext;
use super::pushback::{ContactBuffer, PushMode, PushbackSummary, pushback};
use crate::math::{Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::report::{GroundState, Hit};
use crate::state::{MotorState, MoveIntent};

/// The velocity (m/s, world) the character moves with this step.
///
/// On stable ground the intent applies at once and follows the ground plane so the speed
/// along up's tangent plane is exactly the intent's (ramps cost no horizontal speed); a jump
/// adds `jump_speed` along up. Off stable ground the tangential velocity moves toward the
/// intent by at most `air_acceleration * dt`, gravity is added, and on steep ground the uphill
/// part of the intent is removed.
pub fn movement_velocity(
    ctx: &StepContext<'_>,
    pose: &Pose,
    state: &MotorState,
    intent: &MoveIntent,
    gravity: &Vec3,
    dt: Real,
) -> (Vec3, bool) {
    let up = pose.up();
    let want = project_on_plane(&intent.velocity, &up);
    let stable = state.ground == GroundState::Grounded;
    if stable {
        if intent.jump_speed > 0.0 {
            return (want + up.into_inner() * intent.jump_speed, true);
        }
        if let Some(hit) = state.ground_hit {
            let n = hit.surface_normal;
            let nu = n.dot(&up);
            if nu > 1e-3 {
                return (want - up.into_inner() * (want.dot(&n) / nu), false);
            }
        }
        return (want, false);
    }
    let v_up = up.into_inner() * state.velocity.dot(&up);
    let mut v_t = state.velocity - v_up;
    if want.norm_squared() > 0.0 {
        let delta = want - v_t;
        let max_change = ctx.motor.settings.air_acceleration * dt;
        let len = delta.norm();
        v_t += if len > max_change {
            delta * (max_change / len)
        } else {
            delta
        };
    }
    if state.ground == GroundState::SteepGround
        && let Some(hit) = state.ground_hit
    {
        remove_uphill(&mut v_t, &hit.surface_normal, &up);
    }
    (v_t + v_up + gravity * dt, false)
}

/// Removes from the tangential velocity `v_t` the part heading into a steep slope of normal `n`.
fn remove_uphill(v_t: &mut Vec3, n: &UnitVec3, up: &UnitVec3) {
    let away = project_on_plane(&n.into_inner(), up);
    if let Some(away) = UnitVec3::try_new(away, 1e-6) {
        let into = v_t.dot(&away);
        if into < 0.0 {
            *v_t -= away.into_inner() * into;
        }
    }
}

/// Moves `pose` by `velocity * dt` in substeps no longer than the substep length, running
/// pushback after each, and returns the substep count and the merged pushback summary.
pub fn move_substepped(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    velocity: &mut Vec3,
    dt: Real,
    mode: PushMode,
    contacts: &mut ContactBuffer,
    hits: &mut Vec<Hit>,
) -> (u32, PushbackSummary) {
    let settings = &ctx.motor.settings;
    let max_len = settings.max_substep_fraction * ctx.motor.stack.min_radius();
    let distance = velocity.norm() * dt;
    let count = ((distance / max_len).ceil() as u32).max(1);
    let h = dt / count as Real;
    let mut total = PushbackSummary::default();
    for _ in 0..count {
        pose.position += *velocity * h;
        let s = pushback(ctx, pose, velocity, mode, contacts, hits);
        total.iterations += s.iterations;
        total.pushes += s.pushes;
        if s.blocked_speed > total.blocked_speed {
            total.blocked_speed = s.blocked_speed;
            total.blocked_by = s.blocked_by;
        }
    }
    (count, total)
}
