//! Keyboard, mouse and gamepad state, and what it means for the controlled character.

use winit::event::{ElementState, MouseButton, MouseScrollDelta};
use winit::keyboard::KeyCode;

/// One-shot actions from key presses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Tab: control the next character.
    SwitchCharacter,
    /// F1: debug drawing on/off.
    ToggleDebug,
    /// 1-8: load that shipped scene (index into [`crate::scenes::SHIPPED_SCENES`]).
    LoadScene(usize),
    /// R: reload the current scene.
    Reload,
    /// Escape: quit.
    Quit,
}

/// Held keys and mouse state.
#[derive(Clone, Debug, Default)]
pub struct Controls {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
    /// Jump key held.
    jump_key: bool,
    /// Jump pressed since the last frame took it (a tap shorter than a frame still counts).
    pub jump_pressed: bool,
    /// Crouch key held.
    crouch_key: bool,
    /// Dash (Shift) pressed since the last frame took it.
    pub dash_pressed: bool,
    /// The gamepad's part.
    pad: Pad,
    dragging: bool,
    last_cursor: Option<(f64, f64)>,
    /// Mouse movement while dragging since the last [`Controls::take_look`] (pixels).
    look: (f32, f32),
    /// Wheel lines since the last [`Controls::take_zoom`].
    zoom: f32,
}

/// What a gamepad holds: its sticks (after the dead zone) and buttons. Without the `gamepad`
/// feature nothing writes it (the mapping is still built and tested).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
struct Pad {
    walk: [f32; 2],
    look: [f32; 2],
    jump: bool,
    crouch: bool,
}

/// Gamepad buttons the demo uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
pub enum PadButton {
    /// The bottom face button (A on Xbox, cross on PlayStation): jump.
    South,
    /// The right face button (B, circle): crouch.
    East,
}

/// Stick deflection below which a stick counts as centred (worn sticks rest off centre).
#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
pub const DEAD_ZONE: f32 = 0.15;

/// Camera turn of a fully deflected right stick, in the mouse's units (pixels a second; a
/// pixel turns the camera 0.005 rad, so this is 2.5 rad/s).
#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
const PAD_LOOK_RATE: f32 = 500.0;

#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
impl Controls {
    /// A gamepad's sticks now (each -1..1, x right, y up): the left walks, the right turns the
    /// camera.
    pub fn pad_sticks(&mut self, left: [f32; 2], right: [f32; 2]) {
        self.pad.walk = dead_zone(left);
        self.pad.look = dead_zone(right);
    }

    /// A gamepad button changed.
    pub fn pad_button(&mut self, button: PadButton, down: bool) {
        match button {
            PadButton::South => {
                self.jump_pressed |= down && !self.pad.jump;
                self.pad.jump = down;
            }
            PadButton::East => self.pad.crouch = down,
        }
    }

    /// Adds `dt` seconds of right-stick camera turn to the look (pushing the stick up looks
    /// up, as dragging the mouse down does).
    pub fn pad_look(&mut self, dt: f32) {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        self.look.0 += self.pad.look[0] * PAD_LOOK_RATE * dt;
        self.look.1 -= self.pad.look[1] * PAD_LOOK_RATE * dt;
    }
}

/// `stick` with the dead zone taken out and the rest rescaled to reach 1 again, its length at
/// most 1 (x right, y up / forward).
#[cfg_attr(not(feature = "gamepad"), allow(dead_code))]
pub fn dead_zone(stick: [f32; 2]) -> [f32; 2] {
    let [x, y] = stick.map(|v| if v.is_finite() { v } else { 0.0 });
    let len = (x * x + y * y).sqrt();
    if len <= DEAD_ZONE {
        return [0.0, 0.0];
    }
    let scaled = ((len - DEAD_ZONE) / (1.0 - DEAD_ZONE)).min(1.0);
    [x / len * scaled, y / len * scaled]
}

impl Controls {
    /// Jump held, on the keyboard or a gamepad.
    pub fn jump(&self) -> bool {
        self.jump_key || self.pad.jump
    }

    /// Crouch held, on the keyboard or a gamepad.
    pub fn crouch(&self) -> bool {
        self.crouch_key || self.pad.crouch
    }

    /// Walk axes from WASD and the left stick together: x = right, y = forward, length at
    /// most 1.
    pub fn axes(&self) -> [f32; 2] {
        let x = f32::from(u8::from(self.right)) - f32::from(u8::from(self.left)) + self.pad.walk[0];
        let y =
            f32::from(u8::from(self.forward)) - f32::from(u8::from(self.back)) + self.pad.walk[1];
        let len = (x * x + y * y).sqrt();
        if len > 1.0 {
            [x / len, y / len]
        } else {
            [x, y]
        }
    }

    /// Whether a key is the game's alone, never fed to the egui panel: egui moves keyboard
    /// focus between its widgets on Tab, and a focused widget then takes every key (the
    /// controlled character stopped answering WASD after one Tab, until the view was clicked).
    pub fn game_only(code: KeyCode) -> bool {
        code == KeyCode::Tab
    }

    /// Applies a key change; returns the action a press triggers.
    pub fn key(&mut self, code: KeyCode, state: ElementState, repeat: bool) -> Option<Action> {
        let down = state == ElementState::Pressed;
        match code {
            KeyCode::KeyW | KeyCode::ArrowUp => self.forward = down,
            KeyCode::KeyS | KeyCode::ArrowDown => self.back = down,
            KeyCode::KeyA | KeyCode::ArrowLeft => self.left = down,
            KeyCode::KeyD | KeyCode::ArrowRight => self.right = down,
            KeyCode::Space => {
                self.jump_pressed |= down && !repeat;
                self.jump_key = down;
            }
            KeyCode::KeyC | KeyCode::ControlLeft => self.crouch_key = down,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => self.dash_pressed |= down && !repeat,
            _ => {}
        }
        if !down || repeat {
            return None;
        }
        match code {
            KeyCode::Tab => Some(Action::SwitchCharacter),
            KeyCode::F1 => Some(Action::ToggleDebug),
            KeyCode::Digit1 => Some(Action::LoadScene(0)),
            KeyCode::Digit2 => Some(Action::LoadScene(1)),
            KeyCode::Digit3 => Some(Action::LoadScene(2)),
            KeyCode::Digit4 => Some(Action::LoadScene(3)),
            KeyCode::Digit5 => Some(Action::LoadScene(4)),
            KeyCode::Digit6 => Some(Action::LoadScene(5)),
            KeyCode::Digit7 => Some(Action::LoadScene(6)),
            KeyCode::Digit8 => Some(Action::LoadScene(7)),
            KeyCode::KeyR => Some(Action::Reload),
            KeyCode::Escape => Some(Action::Quit),
            _ => None,
        }
    }

    /// A mouse button changed: left or right drag looks around.
    pub fn button(&mut self, button: MouseButton, state: ElementState) {
        if matches!(button, MouseButton::Left | MouseButton::Right) {
            self.dragging = state == ElementState::Pressed;
        }
    }

    /// The cursor moved to `(x, y)` (window pixels).
    pub fn cursor(&mut self, x: f64, y: f64) {
        if let Some((lx, ly)) = self.last_cursor
            && self.dragging
        {
            self.look.0 += (x - lx) as f32;
            self.look.1 += (y - ly) as f32;
        }
        self.last_cursor = Some((x, y));
    }

    /// The wheel turned.
    pub fn wheel(&mut self, delta: MouseScrollDelta) {
        self.zoom += match delta {
            MouseScrollDelta::LineDelta(_, y) => y,
            MouseScrollDelta::PixelDelta(p) => (p.y / 40.0) as f32,
        };
    }

    /// Focus lost: release every key.
    pub fn release_all(&mut self) {
        *self = Self::default();
    }

    /// Mouse look since the last call.
    pub fn take_look(&mut self) -> (f32, f32) {
        std::mem::take(&mut self.look)
    }

    /// Wheel lines since the last call.
    pub fn take_zoom(&mut self) -> f32 {
        std::mem::take(&mut self.zoom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasd_gives_unit_axes() {
        let mut c = Controls::default();
        c.key(KeyCode::KeyW, ElementState::Pressed, false);
        c.key(KeyCode::KeyD, ElementState::Pressed, false);
        let [x, y] = c.axes();
        assert!((x * x + y * y - 1.0).abs() < 1e-5 && x > 0.0 && y > 0.0);
        assert_eq!(
            c.key(KeyCode::Tab, ElementState::Pressed, false),
            Some(Action::SwitchCharacter)
        );
        assert_eq!(c.key(KeyCode::Tab, ElementState::Pressed, true), None);
        // Tab switches characters and never reaches the panel; typing keys may.
        assert!(Controls::game_only(KeyCode::Tab));
        assert!(!Controls::game_only(KeyCode::KeyW));
    }

    #[test]
    fn the_left_stick_walks_past_its_dead_zone_and_adds_to_the_keys() {
        let mut c = Controls::default();
        // Resting 0.1 off centre: nothing.
        c.pad_sticks([0.1, -0.05], [0.0, 0.0]);
        assert_eq!(c.axes(), [0.0, 0.0]);
        // Half way forward: (0.5 - 0.15) / 0.85 = 0.41 after the dead zone (f32: 1e-6).
        c.pad_sticks([0.0, 0.5], [0.0, 0.0]);
        let [x, y] = c.axes();
        assert_eq!(x, 0.0);
        assert!((y - 0.35 / 0.85).abs() < 1e-6, "{y}");
        // Full right with D held is still one unit long; NaN from a broken pad is no input.
        c.key(KeyCode::KeyD, ElementState::Pressed, false);
        c.pad_sticks([1.0, 0.0], [0.0, 0.0]);
        assert_eq!(c.axes(), [1.0, 0.0]);
        c.pad_sticks([f32::NAN, 0.0], [0.0, 0.0]);
        assert_eq!(c.axes(), [1.0, 0.0]);
    }

    #[test]
    fn pad_buttons_jump_and_crouch_and_the_right_stick_turns_the_camera() {
        let mut c = Controls::default();
        c.pad_button(PadButton::South, true);
        assert!(c.jump() && c.jump_pressed);
        c.jump_pressed = false;
        // Held, not pressed again: no second jump latched.
        c.pad_button(PadButton::South, true);
        assert!(!c.jump_pressed);
        c.pad_button(PadButton::South, false);
        assert!(!c.jump());
        c.pad_button(PadButton::East, true);
        assert!(c.crouch());
        // Full right and up for 0.1 s: 50 "pixels" right and 50 up (looking up).
        c.pad_sticks([0.0, 0.0], [1.0, 1.0]);
        c.pad_look(0.1);
        let (dx, dy) = c.take_look();
        let r = 500.0 * 0.1 / 2f32.sqrt();
        assert!((dx - r).abs() < 1e-3 && (dy + r).abs() < 1e-3, "{dx} {dy}");
    }
}
