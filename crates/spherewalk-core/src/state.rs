//! What the motor remembers between steps, and what the caller asks of it each step.

use crate::contact::{ColliderId, GroundHit, GroundState};
use crate::math::{Real, UnitVec3, Vec3};

/// Per-character motor memory, carried from one step to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotorState {
    /// Velocity (m/s, world) at the end of the last step.
    pub velocity: Vec3,
    /// Ground state at the end of the last step.
    pub ground: GroundState,
    /// The ground under the feet at the end of the last step, if any was probed.
    pub ground_hit: Option<GroundHit>,
    /// In [`crate::UpFrame::Surface`] mode: the surface normal (world) of the wall that blocked
    /// the last move; the up frame turns toward it to climb. `None` otherwise.
    pub wall_normal: Option<UnitVec3>,
    /// Coyote time left (s): while airborne and above 0, a jump still launches as if from the
    /// ground. Refilled to [`crate::MotorSettings::coyote_time`] on stable ground, emptied by
    /// a jump, and counted down in the air.
    pub coyote: Real,
    /// A velocity given from outside (m/s, world): a hit from a dynamic body, a blast. The
    /// game (or `spherewalk-rapier`) adds to it; the motor moves the character by it on top
    /// of the intent while grounded (its part along the ground) and wears it off at
    /// [`crate::MotorSettings::knock_deceleration`]; in the air it joins the velocity at once
    /// and is emptied. A non-finite knock is ignored and emptied. Zero by default.
    #[cfg_attr(feature = "serde", serde(default = "zero_vec"))]
    pub knock: Vec3,
    /// The movement rule the character follows ([`Mode::Walk`] by default).
    #[cfg_attr(feature = "serde", serde(default))]
    pub mode: Mode,
    /// Time (s) before another dash may start: set to [`crate::motor::DashSettings::cooldown`]
    /// when a dash ends, counted down while walking. 0 by default.
    #[cfg_attr(feature = "serde", serde(default))]
    pub dash_cooldown: Real,
}

/// The movement rule a character follows, carried from step to step in [`MotorState::mode`]
/// (so snapshots and rollback keep it). A change is reported as
/// [`crate::motor::StepEvent::ModeChanged`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Mode {
    /// Walking, jumping and falling under gravity: the step's usual rule.
    #[default]
    Walk,
    /// A dash (asked for by [`MoveIntent::dash`]): `left` seconds more at
    /// [`crate::motor::DashSettings::speed`] along `direction` (unit, world, in the character's
    /// ground plane when it began), gravity held off.
    Dash {
        /// The dash's direction (unit, world).
        direction: UnitVec3,
        /// Time left (s).
        left: Real,
    },
    /// Climbing a collider flagged [`crate::world::ColliderFlags::climbable`], gravity held off:
    /// the walk intent moves the character in the surface's plane (into the surface is up it,
    /// away is down, sideways is sideways; on a ceiling, as on the ground), at most
    /// [`crate::motor::ClimbSettings::speed`].
    Climb {
        /// The climbed surface's normal where the stack touches it (unit, world, from the
        /// surface toward the character), as of the last step.
        normal: UnitVec3,
        /// The collider climbed.
        collider: ColliderId,
        /// How far (m) the stack's nearest sphere was from the face beyond its radius, as of
        /// the last step: the next step's press closes it (to half a skin).
        gap: Real,
    },
    /// Pulling up over an edge onto the ground on top of it (at the top of a climb), at
    /// [`crate::motor::ClimbSettings::mantle_speed`]: first `rise` metres more along up,
    /// then along `direction` until stably grounded, for at most `left` seconds more.
    Mantle {
        /// Where the top lies from the edge (unit, world, in the character's ground plane).
        direction: UnitVec3,
        /// How far (m) the feet still rise before moving onto the top.
        rise: Real,
        /// Time left (s) before the mantle gives up and the character walks (or falls).
        left: Real,
    },
}

impl Mode {
    /// The mode's name in lower case (`"walk"`, `"dash"`, `"climb"`, `"mantle"`), for traces
    /// and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Walk => "walk",
            Self::Dash { .. } => "dash",
            Self::Climb { .. } => "climb",
            Self::Mantle { .. } => "mantle",
        }
    }

    /// Whether the mode moves along the ground the character stands on (walking, dashing):
    /// the ground clamp and the grounded pushback apply. Climbing and mantling hold on to
    /// something else.
    pub(crate) fn follows_ground(&self) -> bool {
        matches!(self, Self::Walk | Self::Dash { .. })
    }

    /// Whether every number the mode holds is finite, its directions unit length (within
    /// 1e-3) and its times and lengths not negative: what a step accepts from a snapshot.
    pub(crate) fn is_sane(&self) -> bool {
        let unit = |u: &UnitVec3| crate::math::is_finite_vec(u) && (u.norm() - 1.0).abs() < 1e-3;
        let amount = |x: Real| x.is_finite() && x >= 0.0;
        match self {
            Self::Walk => true,
            Self::Dash { direction, left } => unit(direction) && left.is_finite(),
            Self::Climb { normal, gap, .. } => unit(normal) && gap.is_finite(),
            Self::Mantle {
                direction,
                rise,
                left,
            } => unit(direction) && amount(*rise) && left.is_finite(),
        }
    }
}

/// The zero vector, for serde's defaults.
#[cfg(feature = "serde")]
fn zero_vec() -> Vec3 {
    Vec3::zeros()
}

impl MotorState {
    /// The ground under the feet when the character stands on it stably
    /// ([`GroundState::Grounded`]); `None` on steep ground, touching something else, or in
    /// the air.
    pub fn stable_ground(&self) -> Option<GroundHit> {
        self.ground_hit
            .filter(|_| self.ground == GroundState::Grounded)
    }

    /// Throws the character (a jump pad, a cannon): its velocity becomes `velocity` (m/s,
    /// world) and it is airborne, with no ground and no coyote time, so the next step flies
    /// rather than snapping back onto what it stood on. A non-finite `velocity` is ignored.
    pub fn launch(&mut self, velocity: Vec3) {
        if !velocity.iter().all(|c| c.is_finite()) {
            return;
        }
        self.velocity = velocity;
        self.ground = GroundState::Airborne;
        self.ground_hit = None;
        self.coyote = 0.0;
    }

    /// The jump pad rule every host applies after a step: a character that ended it stably
    /// grounded on a pad's collider is thrown ([`Self::launch`]) with that pad's launch
    /// velocity. `launch_of(collider)` is the launch (m/s, world) of the pad on `collider`, or
    /// `None` where it is no pad. Returns whether it was thrown.
    pub fn launch_from_pad(&mut self, launch_of: impl FnOnce(ColliderId) -> Option<Vec3>) -> bool {
        let Some(launch) = self.stable_ground().and_then(|hit| launch_of(hit.collider)) else {
            return false;
        };
        self.launch(launch);
        true
    }
}

impl Default for MotorState {
    fn default() -> Self {
        Self {
            velocity: Vec3::zeros(),
            ground: GroundState::Airborne,
            ground_hit: None,
            wall_normal: None,
            coyote: 0.0,
            knock: Vec3::zeros(),
            mode: Mode::Walk,
            dash_cooldown: 0.0,
        }
    }
}

/// What the character wants to do this step: the one input of a host's input systems (player,
/// AI, scripts) to the motor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveIntent {
    /// Desired velocity along the ground (m/s, world). The component along the character's up is
    /// dropped (and flagged in the report when it is not negligible).
    pub velocity: Vec3,
    /// Jump launch speed along up (m/s); 0 for no jump. Only acts while stably grounded.
    pub jump_speed: Real,
    /// Turn rate about the character's up (rad/s); positive turns left (counter-clockwise seen
    /// from above).
    pub yaw_rate: Real,
    /// A direction (world) to turn the heading toward, about up, at most `turn_rate`: the
    /// character faces where it walks, or where the game points it. Its part along up is
    /// ignored; `None`, or a direction along up, keeps the heading (but for `yaw_rate`).
    pub facing: Option<UnitVec3>,
    /// Fastest turn toward `facing` (rad/s, >= 0; negative counts as 0).
    pub turn_rate: Real,
    /// Start a dash this step ([`Mode::Dash`], tuned by [`crate::motor::DashSettings`]): along
    /// `velocity`'s part in the ground plane, or the character's forward when that is zero.
    /// Ignored while a dash runs or cools down. Default `false`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub dash: bool,
}

impl MoveIntent {
    /// Walk at `velocity` (m/s, world) without jumping or turning.
    pub fn walk(velocity: Vec3) -> Self {
        Self {
            velocity,
            ..Self::default()
        }
    }
}

/// The per-step inputs of [`crate::Motor::step`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepInput {
    /// What the character wants.
    pub intent: MoveIntent,
    /// Gravity acceleration at the character (m/s², world).
    pub gravity: Vec3,
    /// Time step (s). Non-finite or non-positive values make the step a no-op; values above
    /// [`crate::MotorSettings::max_dt`] are clamped. Both are flagged in the report.
    pub dt: Real,
}

impl StepInput {
    /// Inputs for one step of `dt` seconds under `gravity` (m/s², world).
    pub fn new(intent: MoveIntent, gravity: Vec3, dt: Real) -> Self {
        Self {
            intent,
            gravity,
            dt,
        }
    }
}
