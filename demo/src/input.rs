//! Keyboard and mouse state, and what it means for the controlled character.

use winit::event::{ElementState, MouseButton, MouseScrollDelta};
use winit::keyboard::KeyCode;

/// One-shot actions from key presses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Tab: control the next character.
    SwitchCharacter,
    /// F1: debug drawing on/off.
    ToggleDebug,
    /// 1-6: load that shipped scene (index into [`crate::scenes::SHIPPED_SCENES`]).
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
    /// Jump held.
    pub jump: bool,
    /// Jump pressed since the last frame took it (a tap shorter than a frame still counts).
    pub jump_pressed: bool,
    /// Crouch held.
    pub crouch: bool,
    dragging: bool,
    last_cursor: Option<(f64, f64)>,
    /// Mouse movement while dragging since the last [`Controls::take_look`] (pixels).
    look: (f32, f32),
    /// Wheel lines since the last [`Controls::take_zoom`].
    zoom: f32,
}

impl Controls {
    /// Stick axes from WASD: x = right, y = forward.
    pub fn axes(&self) -> [f32; 2] {
        let x = f32::from(u8::from(self.right)) - f32::from(u8::from(self.left));
        let y = f32::from(u8::from(self.forward)) - f32::from(u8::from(self.back));
        let len = (x * x + y * y).sqrt();
        if len > 1.0 {
            [x / len, y / len]
        } else {
            [x, y]
        }
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
                self.jump = down;
            }
            KeyCode::KeyC | KeyCode::ControlLeft => self.crouch = down,
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
    }
}
