//! Carrying: what the ground under a grounded character moves it by (a kinematic collider's
//! motion, a conveyor belt's surface velocity), and what of it the character keeps.

use super::Step;
use crate::contact::GroundState;
use crate::hooks::Surroundings;
use crate::math::{Point3, Real, UnitVec3, Vec3, is_finite_vec, project_on_plane};
use crate::pose::Pose;
use crate::state::{Mode, MotorState};

/// What the ground carries a character by in one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Carry {
    /// Velocity (m/s, world): the ground's motion at the character plus a belt's surface
    /// velocity.
    pub velocity: Vec3,
    /// Turn about the character's up (rad) the ground's spin gives its heading.
    pub turn: Real,
}

/// What the ground under a grounded character carries it by this step, or the collider a
/// climbing one holds ([`Mode::Climb`]: its motion, no belt); nothing off the ground.
///
/// The velocity is the sum of the ground's [`crate::hooks::ContactHooks::surface_velocity`] (projected onto
/// the ground's plane: a conveyor belt) and the motion of a kinematic collider: its linear
/// velocity plus the arc its angular velocity sweeps the character's position through in `dt`
/// (s), divided by `dt`, so a rider on a turning disc keeps its radius exactly. The collider's
/// pose is taken as the end of its motion (game code moves it, then steps the character), so
/// the turn is about where its origin was at the start, `pose - linear * dt`: a rider on a
/// platform that glides and spins at once stays where it stands on it. The turn is the angular
/// velocity's part along up, times `dt`. The step caps the character's own velocity plus this
/// at `max_speed` (flagged).
pub(super) fn carried(
    around: &Surroundings<'_>,
    pose: &Pose,
    state: &MotorState,
    dt: Real,
) -> Carry {
    let (collider, belt) = match (state.mode, state.stable_ground()) {
        (Mode::Climb { collider, .. }, _) => (collider, Vec3::zeros()),
        (_, Some(hit)) => {
            let n = hit.surface_normal;
            let belt = around.hooks.surface_velocity(hit.collider, &hit.point, &n);
            // A hook's NaN or infinite velocity is ignored, like a bad intent.
            let belt = if is_finite_vec(&belt) {
                project_on_plane(&belt, &n)
            } else {
                Vec3::zeros()
            };
            (hit.collider, belt)
        }
        (_, None) => return Carry::default(),
    };
    let mut carry = Carry {
        velocity: belt,
        turn: 0.0,
    };
    if let Some(c) = around.geometry.motion(collider) {
        carry.velocity += c.linear;
        let spin = c.angular * dt;
        // The turn this step, as an axis and an angle reduced to one revolution; an angle too
        // large for f32 (a bad velocity) is ignored rather than turned into NaN.
        let angle = spin.norm();
        if angle > 0.0 && angle.is_finite() {
            let axis = UnitVec3::new_unchecked(spin / angle);
            let angle = angle.rem_euclid(std::f32::consts::TAU);
            // The collider is already where this step takes it (game code moves it, then
            // steps the character): the turn is about where its origin was when the step
            // began, and the move then carries the turned arm along.
            let centre = Point3::from(c.pose.translation.vector - c.linear * dt);
            let arm = pose.position - centre;
            let swept = crate::math::axis_angle(&axis, angle) * arm - arm;
            carry.velocity += swept / dt;
            carry.turn = axis.dot(&pose.up()) * angle;
        }
    }
    carry
}

/// After the ground phase: the ground's velocity is not the character's own. It is carried
/// again next step while grounded, and kept on leaving the ground only when
/// `keep_ground_velocity` says so.
pub(super) fn settle(s: &mut Step<'_>) {
    let grounded = s.state.ground == GroundState::Grounded;
    if grounded || !s.motor.settings.keep_ground_velocity {
        s.state.velocity -= s.carry.velocity;
    }
}
