//! Character items: sphere stacks, motor settings, up frames and inputs.

use super::*;

/// A character's sphere stack as written (character-local, m).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum StackDesc {
    /// `spheres` equal spheres spaced from the feet to the head ([`SphereStack::capsule`]).
    Capsule {
        /// Total height, feet bottom to head top (m).
        height: Real,
        /// Sphere radius (m).
        radius: Real,
        /// Number of spheres.
        spheres: usize,
    },
    /// Explicit `(offset along up, radius)` pairs, feet first (m).
    Spheres(Vec<(Real, Real)>),
}

impl StackDesc {
    pub(super) fn stack(&self) -> Result<SphereStack, String> {
        match self {
            StackDesc::Capsule {
                height,
                radius,
                spheres,
            } => SphereStack::capsule(*height, *radius, *spheres),
            StackDesc::Spheres(list) => SphereStack::new(list),
        }
        .map_err(|e| e.to_string())
    }
}

/// Motor settings as written: every field optional (the default when left out), angles in
/// degrees. See [`MotorSettings`] for what each does.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct SettingsDesc {
    /// Steepest walkable slope (degrees).
    pub slope_limit_deg: Option<Real>,
    /// Highest stair climbed (m). `step_height`, its name before 0.x, still reads.
    #[serde(alias = "step_height")]
    pub stair_height: Option<Real>,
    /// Least depth of a climbed stair's top (m). `min_step_depth` still reads.
    #[serde(alias = "min_step_depth")]
    pub min_stair_depth: Option<Real>,
    /// Ground clamp distance (m).
    pub ground_clamp_distance: Option<Real>,
    /// Skin width (m).
    pub skin_width: Option<Real>,
    /// Pushback tolerance (m).
    pub penetration_tolerance: Option<Real>,
    /// Pushback iterations per substep.
    pub max_pushback_iterations: Option<u32>,
    /// Longest substep as a fraction of the smallest radius.
    pub max_substep_fraction: Option<Real>,
    /// Speed cap (m/s).
    pub max_speed: Option<Real>,
    /// Longest step (s).
    pub max_dt: Option<Real>,
    /// Up turn rate (degrees per second).
    pub up_turn_rate_deg: Option<Real>,
    /// Change of velocity along the ground while airborne (m/s²).
    pub air_acceleration: Option<Real>,
    /// Fastest push out of an overlap (m/s); unlimited when left out.
    pub penetration_recovery_speed: Option<Real>,
    /// Keep the ground's velocity on leaving it (default true).
    pub keep_ground_velocity: Option<bool>,
    /// Coyote time (s).
    pub coyote_time: Option<Real>,
    /// How fast a knock wears off on the ground (m/s²).
    pub knock_deceleration: Option<Real>,
    /// The dash's tuning (each field optional).
    pub dash: DashDesc,
    /// Climbing's tuning (each field optional).
    pub climb: ClimbDesc,
}

/// Climbing's settings as written (`climb: (speed: 1.5)`): every field optional, the default
/// when left out. See [`spherewalk_core::motor::ClimbSettings`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct ClimbDesc {
    /// Climb speed (m/s).
    pub speed: Option<Real>,
    /// Speed away from the surface a jump leaves it with (m/s).
    pub jump_off_speed: Option<Real>,
    /// Speed of the mantle over the top (m/s).
    pub mantle_speed: Option<Real>,
}

/// Writes each value given over its slot: the settings a scene file names, over the defaults.
fn overwrite<const N: usize>(given: [(&mut Real, Option<Real>); N]) {
    for (slot, v) in given {
        if let Some(v) = v {
            *slot = v;
        }
    }
}

impl ClimbDesc {
    /// `climb` with every field given written over it.
    fn apply(&self, climb: &mut spherewalk_core::motor::ClimbSettings) {
        overwrite([
            (&mut climb.speed, self.speed),
            (&mut climb.jump_off_speed, self.jump_off_speed),
            (&mut climb.mantle_speed, self.mantle_speed),
        ]);
    }
}

/// A dash's settings as written (`dash: (speed: 15.0, duration: 0.25)`): every field
/// optional, the default when left out. See [`spherewalk_core::motor::DashSettings`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct DashDesc {
    /// Dash speed (m/s).
    pub speed: Option<Real>,
    /// How long a dash lasts (s).
    pub duration: Option<Real>,
    /// Time between dashes (s).
    pub cooldown: Option<Real>,
    /// Whether a wall ends a dash (default true).
    pub stop_at_walls: Option<bool>,
}

impl DashDesc {
    /// `dash` with every field given written over it.
    fn apply(&self, dash: &mut spherewalk_core::motor::DashSettings) {
        overwrite([
            (&mut dash.speed, self.speed),
            (&mut dash.duration, self.duration),
            (&mut dash.cooldown, self.cooldown),
        ]);
        if let Some(stop) = self.stop_at_walls {
            dash.stop_at_walls = stop;
        }
    }
}

impl SettingsDesc {
    /// The defaults overridden by every field given, with `up_frame`, validated.
    pub(super) fn settings(&self, up_frame: UpFrame) -> Result<MotorSettings, String> {
        // The fields written in degrees are checked in degrees, under their own names; the
        // others share the core's names and units.
        if let Some(d) = self.slope_limit_deg
            && !(d.is_finite() && (0.0..90.0).contains(&d))
        {
            return Err(format!(
                "`slope_limit_deg` = {d} is out of range (0 <= x < 90 degrees)"
            ));
        }
        if let Some(d) = self.up_turn_rate_deg
            && !(d.is_finite() && d > 0.0)
        {
            return Err(format!(
                "`up_turn_rate_deg` = {d} is out of range (> 0 degrees per second)"
            ));
        }
        let mut s = {
            let mut v = MotorSettings::default();
            v.up_frame = up_frame;
            v
        };
        let set = |slot: &mut Real, v: Option<Real>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        set(
            &mut s.slope_limit,
            self.slope_limit_deg.map(Real::to_radians),
        );
        set(&mut s.stair_height, self.stair_height);
        set(&mut s.min_stair_depth, self.min_stair_depth);
        set(&mut s.ground_clamp_distance, self.ground_clamp_distance);
        set(&mut s.skin_width, self.skin_width);
        set(&mut s.penetration_tolerance, self.penetration_tolerance);
        set(&mut s.max_substep_fraction, self.max_substep_fraction);
        set(&mut s.max_speed, self.max_speed);
        set(&mut s.max_dt, self.max_dt);
        set(
            &mut s.up_turn_rate,
            self.up_turn_rate_deg.map(Real::to_radians),
        );
        set(&mut s.air_acceleration, self.air_acceleration);
        set(&mut s.coyote_time, self.coyote_time);
        set(&mut s.knock_deceleration, self.knock_deceleration);
        s.penetration_recovery_speed = self.penetration_recovery_speed;
        if let Some(keep) = self.keep_ground_velocity {
            s.keep_ground_velocity = keep;
        }
        if let Some(n) = self.max_pushback_iterations {
            s.max_pushback_iterations = n;
        }
        self.dash.apply(&mut s.dash);
        self.climb.apply(&mut s.climb);
        s.validate().map_err(|e| e.to_string())?;
        Ok(s)
    }
}

/// How the up axis is chosen, as written: `Gravity`, `Surface` or `Fixed((x, y, z))`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub(crate) enum UpDesc {
    /// Opposite the gravity at the character.
    #[default]
    Gravity,
    /// Along the ground's surface normal (wall and ceiling walking).
    Surface,
    /// Toward a fixed world direction.
    Fixed(Xyz),
}

impl From<UpDesc> for UpFrame {
    fn from(up: UpDesc) -> Self {
        match up {
            UpDesc::Gravity => UpFrame::Gravity,
            UpDesc::Surface => UpFrame::Surface,
            UpDesc::Fixed(v) => UpFrame::Fixed(Vec3::from(v)),
        }
    }
}

/// Where a character's intent comes from, as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum InputDesc {
    /// Nothing moves it.
    #[default]
    None,
    /// The player (the demo's keyboard).
    Player {
        /// Walking speed (m/s).
        #[serde(default = "five")]
        speed: Real,
        /// Jump launch speed (m/s).
        #[serde(default = "five")]
        jump_speed: Real,
    },
    /// Wandering AI.
    Wander {
        /// Walking speed (m/s).
        speed: Real,
        /// Largest turn rate (degrees per second).
        #[serde(default = "default_turn_deg")]
        max_turn_deg: Real,
        /// Seed of its random sequence.
        #[serde(default)]
        seed: u64,
    },
    /// Timed commands (see [`Command`]).
    Script {
        /// The commands, in order.
        commands: Vec<Command>,
        /// Start over after the last one.
        #[serde(default)]
        looping: bool,
    },
}

fn five() -> Real {
    5.0
}

pub(super) fn default_turn_deg() -> Real {
    90.0
}

pub(super) fn speed(field: &str, v: Real) -> Result<Real, String> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!(
            "`{field}` must be a finite speed >= 0 m/s, got {v}"
        ))
    }
}

impl InputDesc {
    fn input(&self) -> Result<Input, String> {
        Ok(match self {
            InputDesc::None => Input::None,
            InputDesc::Player {
                speed: s,
                jump_speed,
            } => {
                let mut player = PlayerInput::default();
                player.speed = speed("speed", *s)?;
                player.jump_speed = speed("jump_speed", *jump_speed)?;
                Input::Player(player)
            }
            InputDesc::Wander {
                speed: s,
                max_turn_deg,
                seed,
            } => Input::Wander(Wander::new(
                speed("speed", *s)?,
                speed("max_turn_deg", *max_turn_deg)?.to_radians(),
                *seed,
            )),
            InputDesc::Script { commands, looping } => {
                for (i, c) in commands.iter().enumerate() {
                    check_command(c).map_err(|e| format!("command {i}: {e}"))?;
                }
                Input::Script(Script::new(commands.clone(), *looping))
            }
        })
    }
}

fn check_command(c: &Command) -> Result<(), String> {
    let numbers: &[Real] = match c {
        Command::Walk {
            forward,
            right,
            seconds,
            ..
        } => &[*forward, *right, *seconds],
        Command::Turn { degrees, seconds } => &[*degrees, *seconds],
        Command::Jump { speed } => &[*speed],
        Command::Wait { seconds } | Command::Crouch { seconds } => &[*seconds],
    };
    if numbers.iter().any(|v| !v.is_finite()) {
        return Err(format!("{c:?} holds a non-finite number"));
    }
    if c.seconds() < 0.0 {
        return Err(format!("{c:?} lasts a negative time"));
    }
    Ok(())
}

/// One character as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Character")]
pub(crate) struct CharacterDescRon {
    name: String,
    stack: StackDesc,
    #[serde(default)]
    crouched: Option<StackDesc>,
    #[serde(default)]
    at: Xyz,
    #[serde(default)]
    up: Option<Xyz>,
    #[serde(default)]
    yaw_deg: Real,
    #[serde(default)]
    settings: SettingsDesc,
    #[serde(default)]
    up_frame: UpDesc,
    #[serde(default)]
    input: InputDesc,
    #[serde(default = "yes")]
    solid: bool,
    #[serde(default)]
    soft: bool,
}

/// A validated character, placed when the scene is built.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "CharacterDescRon")]
pub(crate) struct CharacterItem {
    /// Name for traces.
    pub name: String,
    /// Standing shape.
    pub stack: SphereStack,
    /// Crouched shape, if it can crouch.
    pub crouched: Option<SphereStack>,
    /// Feet position (m, world).
    pub at: Point3,
    /// Starting up (world); when `None`, opposite the gravity at `at` (or +Y without gravity).
    pub up: Option<UnitVec3>,
    /// Heading turned left about up from the default (rad).
    pub yaw: Real,
    /// Motor settings, validated, with the up frame.
    pub settings: MotorSettings,
    /// Where the intent comes from.
    pub input: Input,
    /// Whether other characters collide with it.
    pub solid: bool,
    /// Whether it meets the other characters only in the separation pass
    /// ([`crate::CharacterDesc::soft`]).
    pub soft: bool,
}

impl TryFrom<CharacterDescRon> for CharacterItem {
    type Error = String;

    fn try_from(d: CharacterDescRon) -> Result<Self, String> {
        let err = |e: String| fail("character", &d.name, e);
        let yaw = d.yaw_deg.to_radians();
        if !yaw.is_finite() {
            return Err(err(format!("`yaw_deg` must be finite, got {}", d.yaw_deg)));
        }
        Ok(Self {
            stack: d.stack.stack().map_err(err)?,
            crouched: match &d.crouched {
                Some(c) => Some(c.stack().map_err(|e| err(format!("crouched: {e}")))?),
                None => None,
            },
            at: Point3::from(vec3("at", d.at).map_err(err)?),
            up: match d.up {
                Some(up) => Some(unit("up", up).map_err(err)?),
                None => None,
            },
            yaw,
            settings: d.settings.settings(d.up_frame.into()).map_err(err)?,
            input: d.input.input().map_err(err)?,
            solid: d.solid,
            soft: d.soft,
            name: d.name,
        })
    }
}
