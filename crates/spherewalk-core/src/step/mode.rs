//! What every mode shares: changing the character's [`Mode`] with its report, and going back
//! to walking, as a dash, a climb and a mantle all end.

use super::Step;
use crate::math::{clamp_length, project_on_plane};
use crate::state::Mode;

/// Puts the character in `to`, reporting the change
/// ([`crate::motor::StepEvent::ModeChanged`]); nothing when it is in `to` already.
pub(super) fn switch(s: &mut Step<'_>, to: Mode) {
    let from = s.state.mode;
    if from == to {
        return;
    }
    s.state.mode = to;
    s.report.mode_changed = Some((from, to));
}

/// Walking again: the velocity in the ground plane brought down to the intent's speed there,
/// so the walk carries on from it, and none along up (the mode held gravity off), so a fall
/// starts from rest.
pub(super) fn walk_again(s: &mut Step<'_>) {
    switch(s, Mode::Walk);
    let up = s.pose.up();
    let cap = project_on_plane(&s.input.intent.velocity, &up).norm();
    s.state.velocity = clamp_length(&project_on_plane(&s.state.velocity, &up), cap).0;
}
