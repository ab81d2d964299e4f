//! Up frame: choosing the target up and turning toward it with the heading carried along,
//! then the intent's turn about up.

use super::pushback::{Moving, PushBuffers, PushMode, pushback};
use super::{Motor, Step, StepContext};
use crate::contact::GroundState;
use crate::math::{Point3, Quat, Real, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::settings::{UpFrame, fixed_up};
use crate::state::{MotorState, MoveIntent, StepInput};

/// The up frame phase of the step: turns up toward [`target_up`] about [`pivot`] by at most
/// [`turn_limit`], applies the intent's yaw and facing turn, and resolves what the turn swept
/// into. Returns the velocity (m/s, world) the rest of the step starts from: the state's,
/// clipped by that pushback.
pub(super) fn up_frame(ctx: &StepContext<'_>, s: &mut Step<'_>) -> Vec3 {
    let (turn, dt) = (s.turn, s.input.dt);
    s.report.up_turned = turn_up(s.pose, &turn.pivot, &turn.target, turn.limit);
    let intent = &s.input.intent;
    yaw(
        s.pose,
        intent.yaw_rate * dt + facing_turn(s.pose, intent, dt),
    );
    let mut velocity = s.state.velocity;
    if s.report.up_turned > 0.0 {
        let stack = Moving::new(s.pose, &mut velocity);
        let buffers = PushBuffers::new(&mut s.report.scratch.contacts, &mut s.report.hits);
        let pass = pushback(ctx, stack, PushMode::Free, &Vec3::zeros(), buffers);
        s.report.note_pushback(&pass);
    }
    velocity
}

/// The up frame's turn for one step, worked out once where the step starts: the gather
/// phase's region reaches as far as it sweeps, and the up frame phase makes it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Turn {
    /// The up to turn toward ([`target_up`]).
    pub target: UnitVec3,
    /// The point (world, m) to turn about ([`pivot`]).
    pub pivot: Point3,
    /// The most to turn (rad, [`turn_limit`]).
    pub limit: Real,
}

/// The turn of a step that starts at `pose` with `state` under `input`.
pub(super) fn plan_turn(motor: &Motor, pose: &Pose, state: &MotorState, input: &StepInput) -> Turn {
    Turn {
        target: target_up(&motor.settings().up_frame, pose, state, &input.gravity),
        pivot: pivot(motor, pose, state),
        limit: turn_limit(motor, pose, state, input.dt),
    }
}

/// The most the up may turn this step (rad): `up_turn_rate * dt`, or, for grounded feet
/// rolling over the ground, as far as they roll (speed along the ground times `dt` over the
/// feet radius) when that is more: round a sharp edge the ground's normal turns as fast as
/// the feet roll, 10 rad/s for 0.15 m feet at 1.5 m/s, and an up that lags it leaves the
/// edge.
fn turn_limit(motor: &Motor, pose: &Pose, state: &MotorState, dt: Real) -> Real {
    let rate = motor.settings().up_turn_rate * dt;
    if state.ground != GroundState::Grounded {
        return rate;
    }
    let along = project_on_plane(&state.velocity, &pose.up()).norm();
    rate.max(along * dt / motor.stack().feet().radius)
}

/// The point (world, m) the up frame turns about: the ground contact while grounded (the
/// feet roll over the ground), else the feet sphere's centre. Turning to climb a wall that
/// blocked the move (`Surface` mode) is about the feet sphere's centre too: the feet stay in
/// the corner against the wall and the body swings away from it, where turning about the
/// floor contact would roll them away from the wall, unblock the next move and give the turn
/// up.
fn pivot(motor: &Motor, pose: &Pose, state: &MotorState) -> Point3 {
    match (state.ground, state.ground_hit, state.wall_normal) {
        (GroundState::Grounded, Some(hit), None) => hit.point,
        _ => pose.centre_at(motor.stack().feet().offset_local),
    }
}

/// The turn (rad, positive left) about up that brings the heading toward `intent.facing`,
/// at most `intent.turn_rate * dt` either way; 0 without a facing or with one along up.
fn facing_turn(pose: &Pose, intent: &MoveIntent, dt: Real) -> Real {
    let Some(facing) = intent.facing else {
        return 0.0;
    };
    let up = pose.up();
    let Some(target) = UnitVec3::try_new(project_on_plane(&facing, &up), 1e-6) else {
        return 0.0;
    };
    let forward = pose.forward();
    let angle = crate::math::atan2(forward.cross(&target).dot(&up), forward.dot(&target));
    let most = intent.turn_rate.max(0.0) * dt;
    angle.clamp(-most, most)
}

/// The up direction (world) the character should turn toward this step.
///
/// `Gravity`: opposite `gravity` (unchanged when gravity is zero). `Surface`: the normal of a
/// wall that blocked the last grounded move, else the ground's surface normal (stable or
/// steep: a character wedged on a face too steep for its current up turns to stand on it
/// rather than hang there), else the current up. `Fixed(v)`: `v` normalised.
pub fn target_up(up_frame: &UpFrame, pose: &Pose, state: &MotorState, gravity: &Vec3) -> UnitVec3 {
    let current = pose.up();
    match up_frame {
        UpFrame::Gravity => UnitVec3::try_new(-gravity, 1e-6).unwrap_or(current),
        UpFrame::Surface => {
            if let Some(wall) = state.wall_normal {
                return wall;
            }
            match (state.ground, state.ground_hit) {
                // The contact normal: on a face it is the face's, and round a convex edge it
                // turns with the feet as they roll over it, so up follows them round.
                (GroundState::Grounded | GroundState::SteepGround, Some(hit)) => hit.contact_normal,
                _ => current,
            }
        }
        UpFrame::Fixed(v) => fixed_up(v).unwrap_or(current),
    }
}

/// Turns `pose` toward `target` (world) by at most `max_angle` (rad) along the shortest arc,
/// pivoting about `pivot` (world, m) and carrying the heading along (parallel transport).
/// Returns the angle turned (rad).
///
/// The step pivots about the ground contact while grounded (the feet roll over the ground, so
/// walking speed is ground speed on a curved planet) and about the feet sphere's centre
/// otherwise (the feet sphere then never moves into geometry).
pub fn turn_up(pose: &mut Pose, pivot: &Point3, target: &UnitVec3, max_angle: Real) -> Real {
    let up = pose.up();
    let cross = up.cross(target);
    // atan2 of the sine and cosine keeps small angles exact (acos of a cosine rounded to f32
    // loses them below a few tenths of a milliradian).
    let (sin, cos) = (cross.norm(), up.dot(target));
    let angle = crate::math::atan2(sin, cos);
    if angle <= 1e-6 || max_angle <= 0.0 {
        return 0.0;
    }
    let turn = angle.min(max_angle);
    let rotation = if angle <= max_angle && sin > 1e-6 {
        // The whole turn: the shortest arc from up to the target, with no trigonometry.
        crate::math::rotation_between(&up, target)
    } else {
        let axis = UnitVec3::try_new(cross, 1e-6).unwrap_or_else(|| pose.right());
        crate::math::axis_angle(&axis, turn)
    };
    pose.orientation = Quat::new_normalize((rotation * pose.orientation).into_inner());
    pose.position = pivot + rotation * (pose.position - pivot);
    turn
}

/// Turns `pose` about its own up by `angle` (rad, positive = left, counter-clockwise seen from
/// above). The position does not move.
pub fn yaw(pose: &mut Pose, angle: Real) {
    if angle != 0.0 && angle.is_finite() {
        let rotation = crate::math::axis_angle(&pose.up(), angle);
        pose.orientation = Quat::new_normalize((rotation * pose.orientation).into_inner());
    }
}
