//! Input components: where a character's [`spherewalk_core::MoveIntent`] comes from. A
//! character carries one of [`PlayerInput`], [`Wander`] or [`Script`]; the systems in
//! [`crate::systems`] turn it into the intent, so every character uses the same motor.

use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use spherewalk_core::{Quat, Real};

/// Where a character's intent comes from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Input {
    /// Nothing: the intent stays as the game writes it.
    #[default]
    None,
    /// Player controls (written by the game each frame).
    Player(PlayerInput),
    /// Wandering AI.
    Wander(Wander),
    /// A script of timed commands.
    Script(Script),
}

/// Player controls, written by the game (the demo) each frame and read at the next step.
///
/// Jumping: call [`PlayerInput::press_jump`] when the jump button goes down (it is latched
/// until a step takes it, so a tap between two steps is never lost) and keep `jump` true while
/// it is held. A press is remembered for `jump_buffer` seconds, so one made just before
/// landing jumps on landing; the motor's [`spherewalk_core::MotorSettings::coyote_time`] lets
/// one made just after walking off a ledge still jump. Letting go while rising from the jump
/// keeps only `jump_cut` of the upward speed: short taps make short hops.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInput {
    /// Stick or WASD: x = right, y = forward, each in [-1, 1] (relative to the camera).
    pub axes: [Real; 2],
    /// Jump held. Its going down counts as a press too, when a step sees it.
    pub jump: bool,
    /// Crouch held.
    pub crouch: bool,
    /// Camera orientation (world): its local -Z is where "forward" points, projected onto the
    /// character's ground plane.
    pub camera: Quat,
    /// Walking speed at full stick (m/s).
    pub speed: Real,
    /// Jump launch speed (m/s).
    pub jump_speed: Real,
    /// How fast the character turns to face where it walks (rad/s); 0 keeps its heading.
    pub turn_rate: Real,
    /// How long a jump press waits for ground to jump from (s); 0 still gives it one step.
    pub jump_buffer: Real,
    /// Share of the upward speed kept when jump is let go while rising from a jump (in
    /// [0, 1]; 1 turns variable jump height off).
    pub jump_cut: Real,
    pub(crate) pressed: bool,
    pub(crate) held_before: bool,
    pub(crate) buffered: Real,
    pub(crate) rising: bool,
}

impl PlayerInput {
    /// Latches a jump press (the button went down): the next step sees it even when the
    /// button is up again by then.
    pub fn press_jump(&mut self) {
        self.pressed = true;
    }
}

impl Default for PlayerInput {
    fn default() -> Self {
        Self {
            axes: [0.0, 0.0],
            jump: false,
            crouch: false,
            camera: Quat::identity(),
            speed: 5.0,
            jump_speed: 5.0,
            turn_rate: 12.0,
            jump_buffer: 0.1,
            jump_cut: 0.5,
            pressed: false,
            held_before: false,
            buffered: 0.0,
            rising: false,
        }
    }
}

/// Wandering AI: walks forward at `speed`, turning at a rate that changes every 1 to 3 s, and
/// turns away harder for a while after bumping into something. Deterministic: its own random
/// sequence comes from `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wander {
    /// Walking speed (m/s).
    pub speed: Real,
    /// Largest turn rate (rad/s).
    pub max_turn_rate: Real,
    pub(crate) rng: SplitMix64,
    pub(crate) turn_rate: Real,
    pub(crate) timer: Real,
}

impl Wander {
    /// A wanderer walking at `speed` (m/s), turning at most `max_turn_rate` (rad/s), with its
    /// random sequence seeded by `seed`.
    pub fn new(speed: Real, max_turn_rate: Real, seed: u64) -> Self {
        Self {
            speed,
            max_turn_rate,
            rng: SplitMix64::new(seed),
            turn_rate: 0.0,
            timer: 0.0,
        }
    }

    /// The next number of the wanderer's own sequence, uniform in [0, 1).
    pub(crate) fn next_unit(&mut self) -> Real {
        self.rng.unit_real()
    }
}

/// One scripted command. Durations in seconds, speeds in m/s, angles in degrees (scene files
/// are written by hand).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Walk at `forward` m/s along the heading and `right` m/s to its right for `seconds`,
    /// crouched when `crouch`.
    Walk {
        /// Speed along the heading (m/s).
        forward: Real,
        /// Speed to the right (m/s).
        #[serde(default)]
        right: Real,
        /// Duration (s).
        seconds: Real,
        /// Crouch while walking.
        #[serde(default)]
        crouch: bool,
    },
    /// Turn left by `degrees` (negative: right) evenly over `seconds`, standing.
    Turn {
        /// Angle (degrees, positive = left).
        degrees: Real,
        /// Duration (s).
        seconds: Real,
    },
    /// Jump at `speed` m/s (one step), then continue.
    Jump {
        /// Launch speed along up (m/s).
        speed: Real,
    },
    /// Stand still for `seconds`.
    Wait {
        /// Duration (s).
        seconds: Real,
    },
    /// Crouch (standing still) for `seconds`, then ask to stand up.
    Crouch {
        /// Duration (s).
        seconds: Real,
    },
}

impl Command {
    /// How long the command lasts (s); a jump lasts one step.
    pub fn seconds(&self) -> Real {
        match *self {
            Command::Walk { seconds, .. }
            | Command::Turn { seconds, .. }
            | Command::Wait { seconds }
            | Command::Crouch { seconds } => seconds,
            Command::Jump { .. } => 0.0,
        }
    }
}

/// A script of timed commands, run in order (and from the start again when `looping`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Script {
    /// The commands.
    pub commands: Vec<Command>,
    /// Start over after the last command.
    pub looping: bool,
    pub(crate) index: usize,
    pub(crate) elapsed: Real,
}

impl Script {
    /// A script running `commands` once (or forever when `looping`).
    pub fn new(commands: Vec<Command>, looping: bool) -> Self {
        Self {
            commands,
            looping,
            index: 0,
            elapsed: 0.0,
        }
    }

    /// The command running now, if the script has not finished.
    pub fn current(&self) -> Option<&Command> {
        self.commands.get(self.index)
    }
}
