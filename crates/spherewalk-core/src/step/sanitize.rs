//! Input sanitising: the documented clamps a step applies to its inputs and to the carried
//! velocity before anything moves (see [`crate::StepInput`] and [`super::InputFlags`]).

use super::StepReport;
use crate::math::{Real, clamp_length, is_finite_vec};
use crate::pose::Pose;
use crate::settings::MotorSettings;
use crate::state::{Mode, MotorState, MoveIntent, StepInput};

/// Longest gravity vector a step accepts (m/s², about 10 000 g); longer ones are clamped.
pub const MAX_GRAVITY: Real = 1e5;

/// Longest a mantle may still take (s): a snapshot's longer one is cut to it.
const MAX_MANTLE_TIME: Real = 10.0;

/// The mode's times within what its settings allow (a snapshot from elsewhere may hold
/// more): a dash's time left at most its duration, a mantle's at most [`MAX_MANTLE_TIME`].
fn clamp_mode(settings: &MotorSettings, state: &mut MotorState) {
    match &mut state.mode {
        Mode::Dash { left, .. } => *left = left.min(settings.dash.duration),
        Mode::Mantle { left, .. } => *left = left.min(MAX_MANTLE_TIME),
        _ => {}
    }
}

/// Applies the documented clamps of `settings` to the per-step `input` and to the carried
/// velocity in `state`, flagging each in `report`; `None` when the step must not run (a
/// non-finite pose or velocity, a time step that is not a positive number).
pub(super) fn sanitize(
    settings: &MotorSettings,
    pose: &Pose,
    state: &mut MotorState,
    input: &StepInput,
    report: &mut StepReport,
) -> Option<StepInput> {
    let flags = &mut report.flags;
    if !pose.is_finite() || !is_finite_vec(&state.velocity) || !state.mode.is_sane() {
        flags.state_invalid = true;
        return None;
    }
    if !(input.dt.is_finite() && input.dt > 0.0) {
        flags.dt_invalid = true;
        return None;
    }
    clamp_mode(settings, state);
    let mut clean = *input;
    if clean.dt > settings.max_dt {
        clean.dt = settings.max_dt;
        flags.dt_clamped = true;
    }
    let i = &input.intent;
    let facing_ok = i.facing.is_none_or(|f| is_finite_vec(&f));
    let rates_ok = i.yaw_rate.is_finite() && i.turn_rate.is_finite();
    if !(is_finite_vec(&i.velocity) && i.jump_speed.is_finite() && rates_ok && facing_ok) {
        clean.intent = MoveIntent::default();
        flags.intent_invalid = true;
    }
    // Lengths are clamped before any dot product, so huge finite inputs cannot overflow.
    let (velocity, intent_fast) = clamp_length(&clean.intent.velocity, settings.max_speed);
    let (carried, carried_fast) = clamp_length(&state.velocity, settings.max_speed);
    clean.intent.velocity = velocity;
    state.velocity = carried;
    let jump = clean.intent.jump_speed.clamp(0.0, settings.max_speed);
    flags.speed_clamped = intent_fast || carried_fast || jump < clean.intent.jump_speed;
    clean.intent.jump_speed = jump;
    let along_up = clean.intent.velocity.dot(&pose.up());
    if along_up.abs() > 1e-3 * clean.intent.velocity.norm().max(1.0) {
        flags.intent_off_plane = true;
    }
    if !is_finite_vec(&clean.gravity) {
        clean.gravity = crate::math::Vec3::zeros();
        flags.gravity_invalid = true;
    }
    let (gravity, strong) = clamp_length(&clean.gravity, MAX_GRAVITY);
    clean.gravity = gravity;
    flags.gravity_clamped = strong;
    Some(clean)
}
