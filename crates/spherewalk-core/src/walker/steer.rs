//! What steers a walker: player controls ([`PlayerInput`]), a wanderer ([`Wander`]) and a
//! script of timed commands ([`Script`]). Each turns its own state (a jump buffer, a random
//! walk, a script's clock) and the walker's pose into the [`MoveIntent`] of the next step, so
//! every host drives its characters with the same rules: the runtime's `Sim` runs them as
//! input components, a Bevy game or its own loop calls them for the intent it writes.

use super::Walker;
use crate::contact::GroundState;
use crate::math::{Quat, Real, SplitMix64, UnitVec3, Vec3, project_on_plane};
use crate::pose::Pose;
use crate::state::{MotorState, MoveIntent};

/// Player controls, written by the game (the demo) each frame and read at the next step.
///
/// Jumping: call [`PlayerInput::press_jump`] when the jump button goes down (it is latched
/// until a step takes it, so a tap between two steps is never lost) and keep `jump` true while
/// it is held. A press is remembered for `jump_buffer` seconds, so one made just before
/// landing jumps on landing; the motor's [`crate::MotorSettings::coyote_time`] lets
/// one made just after walking off a ledge still jump. Letting go while rising from the jump
/// keeps only `jump_cut` of the upward speed: short taps make short hops.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    pressed: bool,
    held_before: bool,
    buffered: Real,
    rising: bool,
    #[cfg_attr(feature = "serde", serde(default))]
    dash_pressed: bool,
}

impl PlayerInput {
    /// Latches a jump press (the button went down): the next step sees it even when the
    /// button is up again by then.
    pub fn press_jump(&mut self) {
        self.pressed = true;
    }

    /// Latches a dash press: the next step's intent asks for a dash
    /// ([`MoveIntent::dash`]; the motor ignores it while one runs or cools down).
    pub fn press_dash(&mut self) {
        self.dash_pressed = true;
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
            dash_pressed: false,
        }
    }
}

/// Wandering AI: walks forward at `speed`, turning at a rate that changes every 1 to 3 s, and
/// turns away harder for a while after bumping into something. Deterministic: its own random
/// sequence comes from `seed`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Wander {
    /// Walking speed (m/s).
    pub speed: Real,
    /// Largest turn rate (rad/s).
    pub max_turn_rate: Real,
    rng: SplitMix64,
    turn_rate: Real,
    timer: Real,
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
    fn next_unit(&mut self) -> Real {
        self.rng.unit_real()
    }
}

/// One scripted command. Durations in seconds, speeds in m/s, angles in degrees (scene files
/// are written by hand).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Command {
    /// Walk at `forward` m/s along the heading and `right` m/s to its right for `seconds`,
    /// crouched when `crouch`.
    Walk {
        /// Speed along the heading (m/s).
        forward: Real,
        /// Speed to the right (m/s).
        #[cfg_attr(feature = "serde", serde(default))]
        right: Real,
        /// Duration (s).
        seconds: Real,
        /// Crouch while walking.
        #[cfg_attr(feature = "serde", serde(default))]
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
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Script {
    /// The commands.
    pub commands: Vec<Command>,
    /// Start over after the last command.
    pub looping: bool,
    index: usize,
    elapsed: Real,
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

impl PlayerInput {
    /// The intent of `walker`'s next step of `dt` seconds: the stick relative to the camera,
    /// projected onto the walker's ground plane (so "forward" on a wall or a planet is where
    /// the camera looks along that surface), facing where it walks; a latched or buffered jump
    /// press; a latched dash press ([`PlayerInput::press_dash`]), taken. A jump let go while
    /// rising cuts the walker's upward velocity here (see [`PlayerInput::jump_cut`]).
    pub fn steer(&mut self, walker: &mut Walker, dt: Real) -> MoveIntent {
        let pose = &walker.pose;
        let up = pose.up();
        let forward = ground_direction(&(self.camera * -Vec3::z()), &up)
            .or_else(|| ground_direction(&(self.camera * Vec3::y()), &up))
            .unwrap_or_else(|| pose.forward());
        let right = forward.cross(&up);
        let [x, y] = self.axes.map(|a| {
            if a.is_finite() {
                a.clamp(-1.0, 1.0)
            } else {
                0.0
            }
        });
        let mut stick = right * x + forward.into_inner() * y;
        if stick.norm() > 1.0 {
            stick.normalize_mut();
        }
        let jumped = walker.report.jumped;
        let intent = MoveIntent {
            velocity: stick * self.speed,
            jump_speed: self.jump_wish(jumped, dt),
            yaw_rate: 0.0,
            facing: UnitVec3::try_new(stick, 1e-3),
            turn_rate: self.turn_rate,
            dash: std::mem::take(&mut self.dash_pressed),
        };
        self.cut_jump(&mut walker.state, &up, jumped);
        intent
    }

    /// The jump speed (m/s) to ask for this step: a press (latched, or `jump` going down) is
    /// asked for until the motor jumps (`jumped`: the last step did) or `jump_buffer` runs out.
    fn jump_wish(&mut self, jumped: bool, dt: Real) -> Real {
        let went_down = self.jump && !self.held_before;
        self.held_before = self.jump;
        if jumped {
            self.buffered = 0.0;
            self.rising = true;
        }
        if std::mem::take(&mut self.pressed) || went_down {
            // A press always gets at least this step.
            self.buffered = self.jump_buffer.max(0.0) + dt;
        }
        if self.buffered <= 0.0 {
            return 0.0;
        }
        self.buffered -= dt;
        self.jump_speed
    }

    /// Variable jump height: letting go of jump while still rising from a jump keeps only
    /// `jump_cut` of the upward speed (along `up`), once.
    fn cut_jump(&mut self, state: &mut MotorState, up: &UnitVec3, jumped: bool) {
        if !self.rising {
            return;
        }
        let v_up = state.velocity.dot(up);
        if v_up <= 0.0 || (state.ground == GroundState::Grounded && !jumped) {
            self.rising = false;
        } else if !self.jump {
            let keep = self.jump_cut.clamp(0.0, 1.0);
            state.velocity -= up.into_inner() * (v_up * (1.0 - keep));
            self.rising = false;
        }
    }
}

/// `v` projected onto the plane normal to `up`, normalised; `None` when `v` is along `up`.
fn ground_direction(v: &Vec3, up: &UnitVec3) -> Option<UnitVec3> {
    UnitVec3::try_new(project_on_plane(v, up), 1e-3)
}

impl Wander {
    /// The intent of `walker`'s next step of `dt` seconds: forward at the wanderer's speed,
    /// turning at a rate redrawn every 1 to 3 s, and at full rate for a second after its last
    /// step bumped something above the feet.
    pub fn steer(&mut self, walker: &Walker, dt: Real) -> MoveIntent {
        let bumped = walker.report.hits.iter().any(|h| h.sphere > 0);
        self.timer -= dt;
        if bumped && self.timer < 0.5 {
            self.turn_rate = self.max_turn_rate;
            self.timer = 1.0;
        } else if self.timer <= 0.0 {
            self.turn_rate = (2.0 * self.next_unit() - 1.0) * self.max_turn_rate;
            self.timer = 1.0 + 2.0 * self.next_unit();
        }
        MoveIntent {
            velocity: walker.pose.forward().into_inner() * self.speed,
            yaw_rate: self.turn_rate,
            ..MoveIntent::default()
        }
    }
}

impl Script {
    /// Whether the command running now asks to crouch (a crouch, or a crouched walk).
    pub fn wants_crouch(&self) -> bool {
        matches!(
            self.current(),
            Some(Command::Crouch { .. } | Command::Walk { crouch: true, .. })
        )
    }

    /// The intent the command running now gives a character at `pose` (world), then the
    /// script's clock moved on by `dt` seconds: to the next command when this one is done (a
    /// jump is done after one step), back to the first when looping. A finished script
    /// stands still.
    pub fn steer(&mut self, pose: &Pose, dt: Real) -> MoveIntent {
        let Some(command) = self.current().copied() else {
            return MoveIntent::default();
        };
        self.elapsed += dt;
        // Half a step of slack so an N-step command never runs N + 1 steps from f32 rounding.
        let seconds = command.seconds();
        if self.elapsed + 0.5 * dt >= seconds.max(0.0) || !seconds.is_finite() {
            self.index += 1;
            self.elapsed = 0.0;
            if self.looping && self.index >= self.commands.len() {
                self.index = 0;
            }
        }
        command.intent(pose)
    }
}

impl Command {
    /// The intent this command gives a character at `pose` (world).
    fn intent(&self, pose: &Pose) -> MoveIntent {
        match *self {
            Command::Walk { forward, right, .. } => MoveIntent::walk(
                pose.forward().into_inner() * forward + pose.right().into_inner() * right,
            ),
            Command::Turn { degrees, seconds } => MoveIntent {
                yaw_rate: if seconds > 0.0 {
                    degrees.to_radians() / seconds
                } else {
                    0.0
                },
                ..MoveIntent::default()
            },
            Command::Jump { speed } => MoveIntent {
                jump_speed: speed,
                ..MoveIntent::default()
            },
            Command::Wait { .. } | Command::Crouch { .. } => MoveIntent::default(),
        }
    }
}
