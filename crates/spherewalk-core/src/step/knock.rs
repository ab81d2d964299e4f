//! Knock: a velocity the game gives a character from outside (a blast, a body's hit) in
//! [`MotorState::knock`]. In the air it is momentum; on the ground it slides the character
//! along on top of its intent and wears off at `knock_deceleration`.

use super::Step;
use crate::contact::GroundState;
use crate::math::{Vec3, is_finite_vec, project_on_plane};
use crate::pose::Pose;
use crate::state::MotorState;

/// The state's knock when there is one to apply: non-zero and finite.
pub(super) fn usable(state: &MotorState) -> Option<Vec3> {
    let k = state.knock;
    (k != Vec3::zeros() && is_finite_vec(&k)).then_some(k)
}

/// The velocity (m/s, world) the air steering starts from: `velocity` plus the usable
/// `knock` when the character is not on stable ground.
pub(super) fn momentum(state: &MotorState, knock: Option<Vec3>, velocity: Vec3) -> Vec3 {
    match knock {
        Some(k) if state.ground != GroundState::Grounded => velocity + k,
        _ => velocity,
    }
}

/// What the usable `knock` adds (m/s, world) to the velocity of a character on stable
/// ground: its part along the ground plane of `pose`'s up (a jump then takes it into the air).
pub(super) fn slide(state: &MotorState, knock: Option<Vec3>, pose: &Pose) -> Option<Vec3> {
    knock
        .filter(|_| state.ground == GroundState::Grounded)
        .map(|k| project_on_plane(&k, &pose.up()))
}

/// After the ground phase: a knock wears off while the character stays grounded (by
/// `knock_deceleration * dt`); one that went into the air's velocity, or was not usable, is
/// gone.
pub(super) fn wear(s: &mut Step<'_>) {
    let state = &mut *s.state;
    if state.knock == Vec3::zeros() {
        return;
    }
    state.knock = match usable(state) {
        Some(k) if s.was_grounded && state.ground == GroundState::Grounded => {
            let speed = k.norm();
            let slower = (speed - s.motor.settings.knock_deceleration * s.input.dt).max(0.0);
            k * (slower / speed)
        }
        _ => Vec3::zeros(),
    };
}
