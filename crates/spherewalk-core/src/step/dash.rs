//! Dash: a short burst at [`DashSettings::speed`] ([`Mode::Dash`]), begun by the intent
//! ([`crate::MoveIntent::dash`]) before the movement phase, moving the character in its
//! ground plane instead of the walk's velocity, and timed (with its walls and cooldown) in
//! what the next step inherits. The direction is kept in the character's ground plane as up
//! turns, so a dash round a planet follows its curve.

use super::Step;
use crate::contact::GroundState;
use crate::math::{UnitVec3, Vec3, project_on_plane};
use crate::settings::DashSettings;
use crate::state::Mode;

/// Starts a dash when the intent asks for one and the character walks with no cooldown
/// left: along the intent's velocity in the ground plane, or the character's forward when
/// that is zero (no dash when both lie along up).
pub(super) fn begin(s: &mut Step<'_>) {
    let state = &*s.state;
    // Within half a step of its end the cooldown is over (whole steps, the nearest count).
    let cooling = state.dash_cooldown > 0.5 * s.input.dt;
    if !s.input.intent.dash || state.mode != Mode::Walk || cooling {
        return;
    }
    let up = s.pose.up();
    let along = |v: Vec3| UnitVec3::try_new(project_on_plane(&v, &up), 1e-6);
    let direction = along(s.input.intent.velocity).or_else(|| along(s.pose.forward().into_inner()));
    let Some(direction) = direction else { return };
    let dash = Mode::Dash {
        direction,
        left: s.motor.settings.dash.duration,
    };
    super::mode::switch(s, dash);
}

/// The dash's velocity this step (m/s, world), while one runs: its speed along its direction
/// in the character's ground plane and, on stable ground, along the ground's slope as a walk
/// follows it. No gravity acts.
pub(super) fn velocity(s: &Step<'_>) -> Option<Vec3> {
    let Mode::Dash { direction, .. } = s.state.mode else {
        return None;
    };
    let v = direction.into_inner() * s.motor.settings.dash.speed;
    if s.state.ground == GroundState::Grounded {
        return Some(crate::contact::along_ground(
            v,
            s.state.ground_hit.as_ref(),
            &s.pose.up(),
        ));
    }
    Some(v)
}

/// After the move: a running dash loses the step's time and ends when none is left (within
/// half a step: it lasts the nearest whole number of steps to its duration), when a
/// wall took more than half its speed along its direction ([`DashSettings::stop_at_walls`])
/// or when its direction lies along up; a dash always runs the step it began. Walking, the
/// cooldown counts down.
pub(super) fn tick(s: &mut Step<'_>) {
    let dt = s.input.dt;
    let settings = s.motor.settings.dash;
    let Mode::Dash { direction, left } = s.state.mode else {
        s.state.dash_cooldown = (s.state.dash_cooldown - dt).max(0.0);
        return;
    };
    let up = s.pose.up();
    let left = left - dt;
    let began = s.report.mode_changed.is_some();
    // Half the speed it moves at: the dash's, or `max_speed` where that caps it.
    let speed = settings.speed.min(s.motor.settings.max_speed);
    let blocked = settings.stop_at_walls && s.state.velocity.dot(&direction) < 0.5 * speed;
    let turned = UnitVec3::try_new(project_on_plane(&direction.into_inner(), &up), 1e-6);
    match turned {
        // Within half a step of its end it ends: a dash lasts whole steps, the nearest count.
        Some(direction) if began || (left > 0.5 * dt && !blocked) => {
            s.state.mode = Mode::Dash { direction, left };
        }
        _ => end(s, &settings),
    }
}

/// Ends the dash: walking again ([`super::mode::walk_again`]: the velocity brought down to
/// the intent's, none along up, since the dash had none but what the curve of a turning up
/// gave it) and the cooldown set.
fn end(s: &mut Step<'_>, settings: &DashSettings) {
    super::mode::walk_again(s);
    s.state.dash_cooldown = settings.cooldown;
}
