//! Mantle: pulling up over an edge onto the ground on top of it ([`Mode::Mantle`]), at the
//! top of a climb. The feet rise along up until they clear the edge, then the character
//! moves onto the top, gravity held off, until it stands there or its time runs out.

use super::{Step, mode};
use crate::contact::GroundState;
use crate::math::{Point3, Real, UnitVec3, Vec3, project_on_plane};
use crate::state::Mode;

/// Time (s) a mantle may take beyond what its rise and a feet sphere's width across the top
/// take at its speed, before it gives up.
const SPARE_TIME: Real = 0.25;

/// Starts a mantle from a climb on the face with `normal` (world) whose top `edge` (world,
/// m) the stack passed: toward the top (the face's normal flattened into the ground plane,
/// reversed), rising until the feet sphere's lowest point is half a skin above the edge.
/// Walking again instead where the face is square to up (a ceiling has no top to mantle
/// onto).
pub(super) fn begin(s: &mut Step<'_>, normal: &UnitVec3, edge: &Point3) {
    let up = s.pose.up();
    let Some(direction) = UnitVec3::try_new(-project_on_plane(&normal.into_inner(), &up), 1e-6)
    else {
        mode::walk_again(s);
        return;
    };
    let feet = s.motor.stack().feet();
    let bottom = s.pose.centre_at(feet.offset_local) - up.into_inner() * feet.radius;
    let settings = &s.motor.settings;
    let rise = ((edge - bottom).dot(&up) + 0.5 * settings.skin_width).max(0.0);
    let left = (rise + 2.0 * feet.radius) / settings.climb.mantle_speed + SPARE_TIME;
    mode::switch(
        s,
        Mode::Mantle {
            direction,
            rise,
            left,
        },
    );
    s.state.velocity = Vec3::zeros();
}

/// The mantle's velocity this step (m/s, world), while one runs: along up while the feet
/// still rise (no further than they have left to), then along its direction: half a skin
/// above the edge, the ground probe finds the top as soon as the feet are over it.
pub(super) fn velocity(s: &Step<'_>) -> Option<Vec3> {
    let Mode::Mantle {
        direction, rise, ..
    } = s.state.mode
    else {
        return None;
    };
    let up = s.pose.up().into_inner();
    let speed = s.motor.settings.climb.mantle_speed;
    if rise > 0.0 {
        return Some(up * speed.min(rise / s.input.dt));
    }
    Some(direction.into_inner() * speed)
}

/// After the ground phase of a mantle step that began at `start` (world, m): the rise less
/// what the move rose (never more again), the time less the step's; walking again once the
/// feet have risen and stand stably, or when the time is up (within half a step).
pub(super) fn tick(s: &mut Step<'_>, start: &Point3) {
    let Mode::Mantle {
        direction,
        rise,
        left,
    } = s.state.mode
    else {
        return;
    };
    let dt = s.input.dt;
    // What the move rose along up; pressing down onto the top (or a push down) gives no rise
    // back.
    let rose = (s.pose.position - start).dot(&s.pose.up()).max(0.0);
    // A rise left under a millimetre is done: the last of it would take steps of nothing.
    let rise = if rise - rose < 1e-3 { 0.0 } else { rise - rose };
    let left = left - dt;
    let stands = rise <= 0.0 && s.state.ground == GroundState::Grounded;
    if stands || left <= 0.5 * dt {
        mode::walk_again(s);
    } else {
        s.state.mode = Mode::Mantle {
            direction,
            rise,
            left,
        };
    }
}
