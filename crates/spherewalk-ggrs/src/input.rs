//! What one player sends each frame: [`NetInput`].

use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};
use spherewalk::input::PlayerInput;
use spherewalk::{Quat, Real, UnitVec3, Vec3};

/// One player's input for one frame, quantised as a game sends it: 6 bytes.
///
/// - `axes`: the walk stick, x right and y forward, each in [-127, 127] for [-1, 1];
/// - `buttons`: [`NetInput::JUMP`] and [`NetInput::CROUCH`] held, [`NetInput::DASH`]
///   pressed;
/// - `heading`: the camera's heading, a turn about the world's +Y axis in 1/65536 of a turn
///   (0 looks along -Z, a quarter turn along -X), which "forward" follows.
///
/// The default is no input: stick centred, nothing held, heading 0.
#[repr(C)]
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Pod, Zeroable, Serialize, Deserialize,
)]
pub struct NetInput {
    /// Walk stick: x right, y forward, each in [-127, 127].
    pub axes: [i8; 2],
    /// Buttons: [`NetInput::JUMP`], [`NetInput::CROUCH`] held, [`NetInput::DASH`] pressed.
    pub buttons: u8,
    /// Unused; zero (keeps the struct free of padding).
    pub reserved: u8,
    /// Camera heading about world +Y, in 1/65536 of a turn.
    pub heading: u16,
}

impl NetInput {
    /// Jump held.
    pub const JUMP: u8 = 1;
    /// Crouch held.
    pub const CROUCH: u8 = 2;
    /// Dash pressed this frame (set it on the frame the button goes down: each frame that
    /// holds it asks for a dash, which the motor takes once its cooldown is over).
    pub const DASH: u8 = 4;

    /// Quantises a frame's controls: `axes` each in [-1, 1] (clamped; NaN counts as 0),
    /// `heading` in radians about world +Y (any value; wrapped to one turn).
    pub fn new(axes: [Real; 2], jump: bool, crouch: bool, heading: Real) -> Self {
        let stick = |v: Real| {
            if v.is_finite() {
                (v.clamp(-1.0, 1.0) * 127.0).round() as i8
            } else {
                0
            }
        };
        let turns = if heading.is_finite() {
            (heading / std::f32::consts::TAU).rem_euclid(1.0)
        } else {
            0.0
        };
        Self {
            axes: [stick(axes[0]), stick(axes[1])],
            buttons: (u8::from(jump) * Self::JUMP) | (u8::from(crouch) * Self::CROUCH),
            reserved: 0,
            // A heading that rounds up to a whole turn is turn 0.
            heading: ((turns * 65536.0).round() as u32 % 65536) as u16,
        }
    }

    /// The walk stick in [-1, 1] (x right, y forward).
    pub fn stick(&self) -> [Real; 2] {
        self.axes.map(|a| (Real::from(a) / 127.0).clamp(-1.0, 1.0))
    }

    /// The camera heading (radians about world +Y, in [0, 2π)).
    pub fn heading_radians(&self) -> Real {
        Real::from(self.heading) / 65536.0 * std::f32::consts::TAU
    }

    /// The camera orientation this input stands for: a turn of [`Self::heading_radians`]
    /// about world +Y.
    pub fn camera(&self) -> Quat {
        Quat::from_axis_angle(&UnitVec3::new_normalize(Vec3::y()), self.heading_radians())
    }

    /// Writes this frame's controls into a character's `input`: the stick, jump and crouch
    /// held, a dash pressed, and the camera. Speeds, the jump buffer and what `input` remembers between steps
    /// (a press being held) are kept.
    pub fn apply(&self, input: &mut PlayerInput) {
        input.axes = self.stick();
        input.jump = self.buttons & Self::JUMP != 0;
        input.crouch = self.buttons & Self::CROUCH != 0;
        if self.buttons & Self::DASH != 0 {
            input.press_dash();
        }
        input.camera = self.camera();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn quantisation_round_trips_within_its_step() {
        let input = NetInput::new([0.5, -1.0], true, false, 1.0);
        assert_eq!(std::mem::size_of::<NetInput>(), 6);
        // One stick step is 1/127; one heading step is 2π/65536 rad.
        assert_relative_eq!(input.stick()[0], 0.5, epsilon = 0.5 / 127.0);
        assert_eq!(input.stick()[1], -1.0);
        assert_relative_eq!(input.heading_radians(), 1.0, epsilon = 1e-4);
        assert_eq!(input.buttons, NetInput::JUMP);
        // Out of range, NaN and many turns.
        let wild = NetInput::new(
            [7.0, Real::NAN],
            false,
            true,
            -3.0 * std::f32::consts::TAU - 0.5,
        );
        assert_eq!(wild.axes, [127, 0]);
        assert_eq!(wild.buttons, NetInput::CROUCH);
        assert_relative_eq!(
            wild.heading_radians(),
            std::f32::consts::TAU - 0.5,
            epsilon = 1e-4
        );
        assert_eq!(
            NetInput::new([0.0; 2], false, false, Real::INFINITY),
            NetInput::default()
        );
        // A heading a hair under a full turn wraps to 0, not to 65536.
        assert_eq!(
            NetInput::new([0.0; 2], false, false, std::f32::consts::TAU - 1e-6).heading,
            0
        );
    }

    #[test]
    fn the_camera_turns_forward_about_up() {
        // A quarter turn: forward (-Z) becomes -X.
        let input = NetInput::new([0.0, 1.0], false, false, std::f32::consts::FRAC_PI_2);
        let forward = input.camera() * -Vec3::z();
        assert_relative_eq!(forward, -Vec3::x(), epsilon = 1e-4);
        let mut player = PlayerInput::default();
        input.apply(&mut player);
        assert_eq!(player.axes, [0.0, 1.0]);
        assert!(!player.jump && !player.crouch);
    }
}
