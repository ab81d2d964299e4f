//! Gamepads through gilrs (feature `gamepad`): the left stick walks, the right stick turns the
//! camera, the south button (A, cross) jumps and the east button (B, circle) crouches. What the
//! buttons and sticks mean lives in [`Controls`]; this only reads the pads.

use crate::input::{Controls, PadButton};

/// The connected gamepads; none when gilrs cannot start (no input devices readable), in which
/// case the demo runs on keyboard and mouse alone.
pub struct Pads {
    gilrs: Option<gilrs::Gilrs>,
}

impl Pads {
    /// Opens the gamepad subsystem, telling on stderr when it cannot.
    pub fn new() -> Self {
        let gilrs = match gilrs::Gilrs::new() {
            Ok(g) => Some(g),
            Err(e) => {
                eprintln!("gamepads off: {e}");
                None
            }
        };
        Self { gilrs }
    }

    /// Reads every button change since the last call and the sticks of the first connected
    /// pad into `controls`, and adds `dt` seconds of right-stick camera turn.
    pub fn poll(&mut self, controls: &mut Controls, dt: f32) {
        let Some(gilrs) = self.gilrs.as_mut() else {
            return;
        };
        while let Some(event) = gilrs.next_event() {
            let (button, down) = match event.event {
                gilrs::EventType::ButtonPressed(b, _) => (b, true),
                gilrs::EventType::ButtonReleased(b, _) => (b, false),
                _ => continue,
            };
            match button {
                gilrs::Button::South => controls.pad_button(PadButton::South, down),
                gilrs::Button::East => controls.pad_button(PadButton::East, down),
                _ => {}
            }
        }
        let (left, right) = gilrs
            .gamepads()
            .next()
            .map_or(([0.0; 2], [0.0; 2]), |(_, pad)| {
                let axis = |a| pad.value(a);
                (
                    [axis(gilrs::Axis::LeftStickX), axis(gilrs::Axis::LeftStickY)],
                    [
                        axis(gilrs::Axis::RightStickX),
                        axis(gilrs::Axis::RightStickY),
                    ],
                )
            });
        controls.pad_sticks(left, right);
        controls.pad_look(dt);
    }
}
