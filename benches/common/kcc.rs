//! rapier's character controller as the benches set it up.

use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};

/// rapier3d 0.31's `KinematicCharacterController` with the settings that mirror spherewalk's
/// defaults: offset 0.01 m (our skin width), autostep 0.35 m high and 0.1 m wide (not onto
/// dynamic bodies), snap to ground 0.35 m, climb and slide slope limits 45 degrees.
pub fn kcc() -> KinematicCharacterController {
    KinematicCharacterController {
        offset: CharacterLength::Absolute(0.01),
        slide: true,
        autostep: Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(0.35),
            min_width: CharacterLength::Absolute(0.1),
            include_dynamic_bodies: false,
        }),
        max_slope_climb_angle: 45f32.to_radians(),
        min_slope_slide_angle: 45f32.to_radians(),
        snap_to_ground: Some(CharacterLength::Absolute(0.35)),
        ..KinematicCharacterController::default()
    }
}
