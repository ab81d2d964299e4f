//! Coyote time: how long after leaving the ground without jumping a character may still
//! jump ([`MotorState::coyote`], s).

use super::Step;
use crate::contact::GroundState;
use crate::state::MotorState;

/// After the ground phase: full (`coyote_time`) while grounded, spent by a jump (`jumped`),
/// else counting down by the step's time.
pub(super) fn tick(s: &mut Step<'_>, jumped: bool) {
    let state: &mut MotorState = s.state;
    state.coyote = if state.ground == GroundState::Grounded {
        s.motor.settings.coyote_time
    } else if jumped {
        0.0
    } else {
        (state.coyote - s.input.dt).max(0.0)
    };
}
