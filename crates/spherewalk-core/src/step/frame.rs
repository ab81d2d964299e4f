//! The up frame: choosing the target up and turning toward it with the heading carried along.

use crate::contact::GroundState;
use crate::math::{Point3, Quat, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::settings::{UpFrame, fixed_up};
use crate::state::MotorState;

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
