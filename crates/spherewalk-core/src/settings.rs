//! Tuning of the motor, validated once.

use crate::math::{Real, UnitVec3, Vec3};
use crate::shape::SphereStack;
use thiserror::Error;

/// How a character's up axis is chosen each step. The orientation turns toward the target up
/// at [`MotorSettings::up_turn_rate`] by the shortest arc, carrying the heading along.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UpFrame {
    /// Up is opposite the gravity passed to the step (planets, rotating gravity).
    #[default]
    Gravity,
    /// Up follows the stable ground's surface normal, and turns toward a wall that blocks a
    /// grounded move so the character climbs it (wall and ceiling walking). Gravity keeps its
    /// magnitude but pulls along the character's -up.
    Surface,
    /// Up turns toward a fixed world direction (need not be unit length; must not be zero).
    Fixed(Vec3),
}

/// Motor tuning. Angles in radians, lengths in metres, times in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct MotorSettings {
    /// Steepest walkable slope (rad, in `[0, pi/2)`): steeper ground is a wall while walking and
    /// slides under gravity when stood on.
    pub slope_limit: Real,
    /// Highest stair (an obstacle with a top to stand on) the stairs phase climbs (m, >= 0):
    /// Unity's step offset. Was `step_height`; serde still reads that name.
    #[cfg_attr(feature = "serde", serde(alias = "step_height"))]
    pub stair_height: Real,
    /// How deep a stair's top must be, measured along the move, to be climbed (m, >= 0). Was
    /// `min_step_depth`; serde still reads that name.
    #[cfg_attr(feature = "serde", serde(alias = "min_step_depth"))]
    pub min_stair_depth: Real,
    /// How far below the feet stable ground is snapped to while walking (m, >= 0).
    pub ground_clamp_distance: Real,
    /// Gap under which the feet count as touching the ground (m, at least [`MIN_SKIN_WIDTH`]).
    pub skin_width: Real,
    /// Pushback stops once the deepest penetration is below this (m, > 0).
    pub penetration_tolerance: Real,
    /// Pushback iterations per substep (in `[1, 64]`).
    pub max_pushback_iterations: u32,
    /// Longest substep as a fraction of the smallest sphere radius (in `[0.01, 1]`).
    pub max_substep_fraction: Real,
    /// Highest speed the motor moves at (m/s, > 0); faster velocities are clamped and flagged.
    pub max_speed: Real,
    /// Longest time step (s, in `(0, 1]`); longer ones are clamped and flagged.
    pub max_dt: Real,
    /// Rate at which the up axis turns toward its target (rad/s, > 0).
    pub up_turn_rate: Real,
    /// How much the velocity along the ground may change per second while not grounded
    /// (m/s², >= 0). On stable ground the intent applies at once.
    pub air_acceleration: Real,
    /// How the up axis is chosen.
    pub up_frame: UpFrame,
    /// Fastest a character is pushed out of an overlap it did not move into (m/s, > 0): a
    /// character spawned or squeezed inside geometry eases out at this speed instead of
    /// popping out in one step. Each pushback pass moves at most its own motion's length plus
    /// `penetration_recovery_speed * dt`. `None` (the default): resolved at once.
    pub penetration_recovery_speed: Option<Real>,
    /// Whether a character that leaves the ground (jumps, walks or is thrown off) keeps the
    /// velocity the ground carried it at (a moving platform's, a conveyor's). `true` (the
    /// default): a jump off a ferry flies on with the ferry; `false`: it leaves with its own
    /// velocity only.
    pub keep_ground_velocity: bool,
    /// Coyote time (s, in `[0, 10]`): how long after walking (or sliding) off stable ground a
    /// jump still launches as if from the ground. Not after a jump. 0 turns it off.
    pub coyote_time: Real,
    /// How fast a knock ([`crate::MotorState::knock`]) wears off while the character stands
    /// on stable ground (m/s², >= 0): a character knocked aside at 1 m/s slides on for
    /// 0.1 s at the default 10 m/s². 0 keeps a knock until the character leaves the ground.
    pub knock_deceleration: Real,
    /// The dash ([`crate::motor::Mode::Dash`]): its speed, length and cooldown.
    pub dash: DashSettings,
    /// Climbing ([`crate::motor::Mode::Climb`]) and the mantle at its top
    /// ([`crate::motor::Mode::Mantle`]): their speeds and the jump off.
    pub climb: ClimbSettings,
}

/// A dash's tuning ([`MotorSettings::dash`]): a burst at `speed` for `duration`, along the
/// ground or, in the air, in the character's ground plane with gravity held off; then
/// `cooldown` before the next. Speeds in m/s, times in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DashSettings {
    /// The dash's speed (m/s, > 0; the step caps it at [`MotorSettings::max_speed`], as it
    /// caps every speed). Default 12.
    pub speed: Real,
    /// How long a dash lasts unless a wall ends it (s, in `(0, 10]`). Default 0.2.
    pub duration: Real,
    /// Time after a dash before the next may start (s, in `[0, 60]`). Default 0.5.
    pub cooldown: Real,
    /// Whether a wall that takes away more than half the dash's speed along its direction
    /// ends it (default `true`); when `false` the dash slides along the wall to its end.
    pub stop_at_walls: bool,
}

impl Default for DashSettings {
    fn default() -> Self {
        Self {
            speed: 12.0,
            duration: 0.2,
            cooldown: 0.5,
            stop_at_walls: true,
        }
    }
}

impl DashSettings {
    /// Checks each field against its range.
    fn validate(&self) -> Result<(), SettingsError> {
        check("dash.speed", self.speed, |v| v > 0.0, "> 0")?;
        check(
            "dash.duration",
            self.duration,
            |v| v > 0.0 && v <= 10.0,
            "0 < x <= 10",
        )?;
        check(
            "dash.cooldown",
            self.cooldown,
            |v| (0.0..=60.0).contains(&v),
            "0 <= x <= 60",
        )
    }
}

/// Climbing's tuning ([`MotorSettings::climb`]): how fast a character climbs a collider
/// flagged [`crate::world::ColliderFlags::climbable`], how hard it jumps off, and how fast it pulls
/// itself up over the top.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct ClimbSettings {
    /// Fastest climb along the surface (m/s, > 0): a walk intent at this speed or faster
    /// climbs at it, a slower one at its own speed. Default 2.
    pub speed: Real,
    /// Speed away from the surface (m/s, >= 0) a jump while climbing leaves it with, on top
    /// of the jump's speed along the surface's up. Default 4.
    pub jump_off_speed: Real,
    /// Speed of the mantle over the top (m/s, > 0): up past the edge, then onto the top.
    /// Default 2.5.
    pub mantle_speed: Real,
}

impl Default for ClimbSettings {
    fn default() -> Self {
        Self {
            speed: 2.0,
            jump_off_speed: 4.0,
            mantle_speed: 2.5,
        }
    }
}

impl ClimbSettings {
    /// Checks each field against its range.
    fn validate(&self) -> Result<(), SettingsError> {
        check("climb.speed", self.speed, |v| v > 0.0, "> 0")?;
        check(
            "climb.jump_off_speed",
            self.jump_off_speed,
            |v| v >= 0.0,
            ">= 0",
        )?;
        check("climb.mantle_speed", self.mantle_speed, |v| v > 0.0, "> 0")
    }
}

/// Thinnest [`MotorSettings::skin_width`] accepted (m): 10 um. The ground probe and the step
/// offset look from a skin width or two above the contacts they test; thinner than this is
/// below what f32 positions resolve a few tens of metres from the origin (7.6 um at 64 m), and
/// a 1e-9 m skin stopped a character at the first 0.2 m stair.
pub const MIN_SKIN_WIDTH: Real = 1e-5;

/// Most pushback iterations per substep a motor accepts.
pub const MAX_PUSHBACK_ITERATIONS: u32 = 64;

impl Default for MotorSettings {
    fn default() -> Self {
        Self {
            slope_limit: 45f32.to_radians(),
            stair_height: 0.35,
            min_stair_depth: 0.1,
            ground_clamp_distance: 0.35,
            skin_width: 0.01,
            penetration_tolerance: 1e-4,
            max_pushback_iterations: 8,
            max_substep_fraction: 0.5,
            max_speed: 500.0,
            max_dt: 0.25,
            up_turn_rate: 8.0,
            air_acceleration: 20.0,
            up_frame: UpFrame::Gravity,
            penetration_recovery_speed: None,
            keep_ground_velocity: true,
            coyote_time: 0.1,
            knock_deceleration: 10.0,
            dash: DashSettings::default(),
            climb: ClimbSettings::default(),
        }
    }
}

/// Why [`MotorSettings`] were refused. Each variant names the field and carries its value.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// A field is NaN or infinite, or outside its documented range.
    #[error("setting `{field}` = {value} is out of range ({expected})")]
    OutOfRange {
        /// Name of the field.
        field: &'static str,
        /// The rejected value.
        value: Real,
        /// The accepted range, in words.
        expected: &'static str,
    },
    /// A length out of scale with the stack it is used with ([`crate::Motor::new`]):
    /// `skin_width` over half the smallest radius, `penetration_tolerance` over a tenth of
    /// it, `stair_height` at or over the stack's height.
    #[error("setting `{field}` = {value} m is too large for this stack (at most {most} m)")]
    OutOfScale {
        /// Name of the field.
        field: &'static str,
        /// The rejected value (m).
        value: Real,
        /// The most the stack allows (m; `stair_height` must stay below it).
        most: Real,
    },
    /// `max_pushback_iterations` is zero.
    #[error("setting `max_pushback_iterations` must be at least 1")]
    NoPushbackIterations,
    /// `max_pushback_iterations` is above [`MAX_PUSHBACK_ITERATIONS`].
    #[error("setting `max_pushback_iterations` = {0} is above the most, 64")]
    TooManyPushbackIterations(u32),
    /// `UpFrame::Fixed` holds a zero or non-finite direction.
    #[error("fixed up direction {0:?} is zero or not finite")]
    InvalidFixedUp([Real; 3]),
}

fn check(
    field: &'static str,
    value: Real,
    ok: impl Fn(Real) -> bool,
    expected: &'static str,
) -> Result<(), SettingsError> {
    if value.is_finite() && ok(value) {
        Ok(())
    } else {
        Err(SettingsError::OutOfRange {
            field,
            value,
            expected,
        })
    }
}

impl MotorSettings {
    /// Checks every field against its documented range.
    ///
    /// # Errors
    /// The first field found out of range, as a [`SettingsError`].
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.validate_reals()?;
        self.dash.validate()?;
        self.climb.validate()?;
        if self.max_pushback_iterations == 0 {
            return Err(SettingsError::NoPushbackIterations);
        }
        if self.max_pushback_iterations > MAX_PUSHBACK_ITERATIONS {
            return Err(SettingsError::TooManyPushbackIterations(
                self.max_pushback_iterations,
            ));
        }
        if let UpFrame::Fixed(v) = self.up_frame
            && fixed_up(&v).is_none()
        {
            return Err(SettingsError::InvalidFixedUp([v.x, v.y, v.z]));
        }
        Ok(())
    }

    /// Checks every real-valued field (lengths, angles, speeds, times) against its range, in
    /// the order of the fields.
    fn validate_reals(&self) -> Result<(), SettingsError> {
        use std::f32::consts::FRAC_PI_2;
        let non_neg = |v: Real| v >= 0.0;
        let pos = |v: Real| v > 0.0;
        check(
            "slope_limit",
            self.slope_limit,
            |v| (0.0..FRAC_PI_2).contains(&v),
            "0 <= x < pi/2",
        )?;
        check("stair_height", self.stair_height, non_neg, ">= 0")?;
        check("min_stair_depth", self.min_stair_depth, non_neg, ">= 0")?;
        check(
            "ground_clamp_distance",
            self.ground_clamp_distance,
            non_neg,
            ">= 0",
        )?;
        check(
            "skin_width",
            self.skin_width,
            |v| v >= MIN_SKIN_WIDTH,
            ">= 1e-5 (MIN_SKIN_WIDTH)",
        )?;
        check(
            "penetration_tolerance",
            self.penetration_tolerance,
            pos,
            "> 0",
        )?;
        check(
            "max_substep_fraction",
            self.max_substep_fraction,
            |v| (0.01..=1.0).contains(&v),
            "0.01 <= x <= 1",
        )?;
        check("max_speed", self.max_speed, pos, "> 0")?;
        check("max_dt", self.max_dt, |v| v > 0.0 && v <= 1.0, "0 < x <= 1")?;
        check("up_turn_rate", self.up_turn_rate, pos, "> 0")?;
        check("air_acceleration", self.air_acceleration, non_neg, ">= 0")?;
        check(
            "coyote_time",
            self.coyote_time,
            |v| (0.0..=10.0).contains(&v),
            "0 <= x <= 10",
        )?;
        check(
            "knock_deceleration",
            self.knock_deceleration,
            non_neg,
            ">= 0",
        )?;
        if let Some(v) = self.penetration_recovery_speed {
            check("penetration_recovery_speed", v, pos, "> 0")?;
        }
        Ok(())
    }
}

impl MotorSettings {
    /// Checks the lengths that must be in scale with the stack they are used with: a
    /// `skin_width` at most half the smallest radius (or the character is never grounded), a
    /// `penetration_tolerance` at most a tenth of it (or overlaps of most of a sphere are left
    /// alone and the character sinks through thin floors), a `stair_height` below the stack's
    /// height (or it climbs more than itself). [`crate::Motor::new`], [`crate::Motor::resize`]
    /// and [`crate::Motor::set_stack`] apply it; callers can ask before building anything.
    ///
    /// # Errors
    /// [`SettingsError::OutOfScale`] naming the first length out of scale.
    pub fn check_scale(&self, stack: &SphereStack) -> Result<(), SettingsError> {
        let smallest = stack.min_radius();
        let limits = [
            ("skin_width", self.skin_width, 0.5 * smallest),
            (
                "penetration_tolerance",
                self.penetration_tolerance,
                0.1 * smallest,
            ),
        ];
        for (field, value, most) in limits {
            if value > most {
                return Err(SettingsError::OutOfScale { field, value, most });
            }
        }
        if self.stair_height >= stack.height() {
            return Err(SettingsError::OutOfScale {
                field: "stair_height",
                value: self.stair_height,
                most: stack.height(),
            });
        }
        Ok(())
    }
}

/// The unit direction of a fixed up vector, if it is finite and not zero.
pub(crate) fn fixed_up(v: &Vec3) -> Option<UnitVec3> {
    if v.iter().all(|c| c.is_finite()) {
        UnitVec3::try_new(*v, 1e-6)
    } else {
        None
    }
}
