//! The RON scene format: what a scene file says, validated while it is parsed.
//!
//! Each item of a scene (a collider group, a platform, a character, a crowd, a gravity field)
//! is read into a plain description and converted at once into checked core types (a
//! [`SphereStack`], validated [`MotorSettings`], generated [`Part`]s ...). A bad value fails
//! the conversion inside the RON parser, so its error carries the file position of the item.
//!
//! Scene files are written by hand: lengths in metres, times in seconds, and angles in
//! **degrees** in the fields ending `_deg` (everything else in the library is radians).
//! Rotations are `rot_deg: (x, y, z)`: turn about world X, then world Y, then world Z.

use super::generate::{self, Part};
use crate::components::PlatformMotion;
use crate::input::{Command, PlayerInput, Script, Wander};
use crate::sim::Input;
use serde::Deserialize;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    GravityField, Iso, MotorSettings, Point3, Pull, Real, SphereStack, UnitVec3, UpFrame, Vec3,
    Volume, math,
};
use std::path::PathBuf;

/// Most characters one crowd may spawn.
pub const MAX_CROWD: u32 = 100_000;

/// Three numbers as written in a scene: `(x, y, z)`.
type Xyz = [Real; 3];

/// A scene file after parsing: every item validated, nothing built yet (see
/// [`SceneFile::build`](crate::scene::SceneFile::build)).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scene")]
pub struct SceneFile {
    /// Display name.
    #[serde(default)]
    pub name: String,
    /// One line about the scene.
    #[serde(default)]
    pub description: String,
    /// Fixed step (s, in (0, 1]); 1/60 when left out.
    #[serde(default = "default_dt")]
    pub dt: Real,
    /// Gravity fields (world).
    #[serde(default)]
    pub gravity: Vec<GravityItem>,
    /// Static scenery: primitives and generated groups.
    #[serde(default)]
    pub colliders: Vec<ColliderItem>,
    /// Kinematic platforms.
    #[serde(default)]
    pub platforms: Vec<PlatformItem>,
    /// Single characters.
    #[serde(default)]
    pub characters: Vec<CharacterItem>,
    /// Crowds of wandering characters.
    #[serde(default)]
    pub crowds: Vec<CrowdItem>,
}

fn default_dt() -> Real {
    1.0 / 60.0
}

fn yes() -> bool {
    true
}

/// Failure message of an item's conversion: `what "name": problem`.
fn fail(what: &str, name: &str, problem: impl std::fmt::Display) -> String {
    format!("{what} {name:?}: {problem}")
}

fn vec3(field: &str, v: Xyz) -> Result<Vec3, String> {
    if v.iter().all(|c| c.is_finite()) {
        Ok(Vec3::from(v))
    } else {
        Err(format!("`{field}` must be finite, got {v:?}"))
    }
}

/// A length (m) checked by the generators' own rule: finite, > 0 and at most
/// [`generate::MAX_LENGTH`].
fn length(field: &'static str, v: Real) -> Result<Real, String> {
    generate::check_length(field, v).map_err(|e| e.to_string())
}

/// World pose from `at` (m) and `rot_deg` (degrees about X, then Y, then Z).
fn place(at: Xyz, rot_deg: Xyz) -> Result<Iso, String> {
    let at = vec3("at", at)?;
    let r = vec3("rot_deg", rot_deg)?;
    let rotation = math::euler_xyz(r.x.to_radians(), r.y.to_radians(), r.z.to_radians());
    Ok(Iso::from_parts(at.into(), rotation))
}

/// A collider shape in its own frame (m). Capsules, cylinders and cones stand along local +Y.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDesc {
    /// A box with half-extents (m).
    Cuboid {
        /// Half-extents along local X, Y, Z (m).
        half_extents: Xyz,
    },
    /// A ball.
    Ball {
        /// Radius (m).
        radius: Real,
    },
    /// A capsule along local Y.
    Capsule {
        /// Half the distance between the two cap centres (m).
        half_height: Real,
        /// Radius (m).
        radius: Real,
    },
    /// A cylinder along local Y.
    Cylinder {
        /// Half its height (m).
        half_height: Real,
        /// Radius (m).
        radius: Real,
    },
    /// A cone along local Y, apex up.
    Cone {
        /// Half its height (m).
        half_height: Real,
        /// Base radius (m).
        radius: Real,
    },
    /// The convex hull of points (m, local).
    ConvexHull {
        /// At least four points that are not all on one plane.
        points: Vec<Xyz>,
    },
}

impl ShapeDesc {
    /// The parry shape, with every length checked.
    fn shape(&self) -> Result<SharedShape, String> {
        Ok(match self {
            ShapeDesc::Cuboid { half_extents } => {
                let [x, y, z] = *half_extents;
                SharedShape::cuboid(
                    length("half_extents.x", x)?,
                    length("half_extents.y", y)?,
                    length("half_extents.z", z)?,
                )
            }
            ShapeDesc::Ball { radius } => SharedShape::ball(length("radius", *radius)?),
            ShapeDesc::Capsule {
                half_height,
                radius,
            } => SharedShape::capsule_y(
                length("half_height", *half_height)?,
                length("radius", *radius)?,
            ),
            ShapeDesc::Cylinder {
                half_height,
                radius,
            } => SharedShape::cylinder(
                length("half_height", *half_height)?,
                length("radius", *radius)?,
            ),
            ShapeDesc::Cone {
                half_height,
                radius,
            } => SharedShape::cone(
                length("half_height", *half_height)?,
                length("radius", *radius)?,
            ),
            ShapeDesc::ConvexHull { points } => {
                let mut pts = Vec::with_capacity(points.len());
                for p in points {
                    pts.push(Point3::from(vec3("points", *p)?));
                }
                SharedShape::convex_hull(&pts)
                    .ok_or_else(|| format!("the {} hull points are degenerate", pts.len()))?
            }
        })
    }
}

/// One entry of `colliders`, as written. Every entry has an optional `name` (traces report the
/// ground by it), `at` (m) and `rot_deg` placing its local frame in the world.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ColliderDesc {
    /// One primitive shape.
    Solid {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// The shape.
        shape: ShapeDesc,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
        /// Whether characters may stand on it.
        #[serde(default = "yes")]
        walkable: bool,
    },
    /// [`generate::stairs`]: a flight climbing along local +X from x = 0.
    Stairs {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Number of steps.
        steps: u32,
        /// Height of each step (m).
        rise: Real,
        /// Depth of each step (m).
        tread: Real,
        /// Width of the flight (m).
        width: Real,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// [`generate::ramp`]: a slab rising along local +X from the origin.
    Ramp {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Slope (degrees).
        angle_deg: Real,
        /// Length along the slope (m).
        length: Real,
        /// Width (m).
        width: Real,
        /// Thickness (m).
        thickness: Real,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// [`generate::box_grid`]: `nx * nz` edge-to-edge cubes, tops at local y = 0.
    BoxGrid {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Cubes along local X.
        nx: u32,
        /// Cubes along local Z.
        nz: u32,
        /// Cube edge (m).
        size: Real,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// [`generate::planet`]: a ball with half-buried rocks, centred on `at`.
    Planet {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Radius (m).
        radius: Real,
        /// Number of rocks.
        #[serde(default)]
        rocks: u32,
        /// Rock size (m).
        #[serde(default = "default_rock_size")]
        rock_size: Real,
        /// Seed of the rock places.
        #[serde(default)]
        seed: u64,
        /// Centre (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// [`generate::heightfield`]: rolling terrain centred on `at`.
    Heightfield {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Cells along each side.
        cells: u32,
        /// Side length (m).
        size: Real,
        /// Largest height (m).
        amplitude: Real,
        /// Seed of the waves.
        #[serde(default)]
        seed: u64,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// A triangle mesh read from a Wavefront OBJ file (path relative to the scene file),
    /// scaled uniformly by `scale`.
    Obj {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Path of the OBJ file, relative to the scene file.
        path: String,
        /// Uniform scale.
        #[serde(default = "one")]
        scale: Real,
        /// Whether its triangles collide from both sides (one-sided by default: seen from
        /// behind, a face is not there).
        #[serde(default)]
        two_sided: bool,
        /// Position (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
}

fn default_rock_size() -> Real {
    1.0
}

fn one() -> Real {
    1.0
}

/// What a collider group is made of.
#[derive(Clone, Debug)]
pub enum Geometry {
    /// Shapes ready to place.
    Parts(Vec<Part>),
    /// A mesh still to read when the scene is built.
    Obj {
        /// Path relative to the scene file.
        path: PathBuf,
        /// Uniform scale.
        scale: Real,
    },
}

/// One validated entry of `colliders`: shapes in a local frame placed at `pose`.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "ColliderDesc")]
pub struct ColliderItem {
    /// Name for traces (every part shares it).
    pub name: String,
    /// The shapes, in the group's local frame.
    pub geometry: Geometry,
    /// World pose of the group's local frame.
    pub pose: Iso,
    /// Whether characters may stand on it.
    pub walkable: bool,
    /// Whether mesh triangles collide from both sides.
    pub two_sided: bool,
}

impl TryFrom<ColliderDesc> for ColliderItem {
    type Error = String;

    fn try_from(desc: ColliderDesc) -> Result<Self, String> {
        let (kind, name, at, rot_deg) = match &desc {
            ColliderDesc::Solid {
                name, at, rot_deg, ..
            } => ("solid", name, at, rot_deg),
            ColliderDesc::Stairs {
                name, at, rot_deg, ..
            } => ("stairs", name, at, rot_deg),
            ColliderDesc::Ramp {
                name, at, rot_deg, ..
            } => ("ramp", name, at, rot_deg),
            ColliderDesc::BoxGrid {
                name, at, rot_deg, ..
            } => ("box_grid", name, at, rot_deg),
            ColliderDesc::Planet {
                name, at, rot_deg, ..
            } => ("planet", name, at, rot_deg),
            ColliderDesc::Heightfield {
                name, at, rot_deg, ..
            } => ("heightfield", name, at, rot_deg),
            ColliderDesc::Obj {
                name, at, rot_deg, ..
            } => ("obj", name, at, rot_deg),
        };
        let name = name.clone().unwrap_or_else(|| kind.to_owned());
        let err = |e: String| fail(kind, &name, e);
        let pose = place(*at, *rot_deg).map_err(err)?;
        let gen_err = |e: generate::GenerateError| fail(kind, &name, e);
        let mut walkable = true;
        let mut two_sided = false;
        let geometry = match desc {
            ColliderDesc::Solid {
                shape, walkable: w, ..
            } => {
                walkable = w;
                Geometry::Parts(vec![Part {
                    shape: shape.shape().map_err(err)?,
                    pose: Iso::identity(),
                }])
            }
            ColliderDesc::Stairs {
                steps,
                rise,
                tread,
                width,
                ..
            } => Geometry::Parts(generate::stairs(steps, rise, tread, width).map_err(gen_err)?),
            ColliderDesc::Ramp {
                angle_deg,
                length,
                width,
                thickness,
                ..
            } => Geometry::Parts(
                generate::ramp(angle_deg.to_radians(), length, width, thickness)
                    .map_err(gen_err)?,
            ),
            ColliderDesc::BoxGrid { nx, nz, size, .. } => {
                Geometry::Parts(generate::box_grid(nx, nz, size).map_err(gen_err)?)
            }
            ColliderDesc::Planet {
                radius,
                rocks,
                rock_size,
                seed,
                ..
            } => {
                Geometry::Parts(generate::planet(radius, rocks, rock_size, seed).map_err(gen_err)?)
            }
            ColliderDesc::Heightfield {
                cells,
                size,
                amplitude,
                seed,
                ..
            } => Geometry::Parts(
                generate::heightfield(cells, size, amplitude, seed).map_err(gen_err)?,
            ),
            ColliderDesc::Obj {
                path,
                scale,
                two_sided: both,
                ..
            } => {
                two_sided = both;
                Geometry::Obj {
                    path: PathBuf::from(path),
                    scale: length("scale", scale).map_err(err)?,
                }
            }
        };
        Ok(Self {
            name,
            geometry,
            pose,
            walkable,
            two_sided,
        })
    }
}

/// A gravity field as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum GravityDesc {
    /// The same acceleration inside `volume` (everywhere when left out), priority 0 by default.
    Uniform {
        /// Acceleration (m/s², world).
        accel: Xyz,
        /// Where it applies.
        #[serde(default)]
        volume: Option<VolumeDesc>,
        /// Higher wins where fields overlap.
        #[serde(default)]
        priority: i32,
    },
    /// A planet: `strength` m/s² toward `centre`, within `reach` metres of it (everywhere when
    /// left out), priority 1 by default.
    Point {
        /// The point pulled toward (m, world).
        centre: Xyz,
        /// Acceleration magnitude (m/s²).
        strength: Real,
        /// Radius of the ball it applies in (m).
        #[serde(default)]
        reach: Option<Real>,
        /// Higher wins where fields overlap.
        #[serde(default = "one_i32")]
        priority: i32,
    },
}

fn one_i32() -> i32 {
    1
}

/// Where a uniform field applies.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum VolumeDesc {
    /// Everywhere.
    Everywhere,
    /// A ball (m, world).
    Sphere {
        /// Centre (m, world).
        centre: Xyz,
        /// Radius (m).
        radius: Real,
    },
    /// An axis-aligned box (m, world).
    Box {
        /// Lower corner.
        mins: Xyz,
        /// Upper corner.
        maxs: Xyz,
    },
}

/// A validated gravity field.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "GravityDesc")]
pub struct GravityItem(pub GravityField);

impl TryFrom<GravityDesc> for GravityItem {
    type Error = String;

    fn try_from(desc: GravityDesc) -> Result<Self, String> {
        let field = match desc {
            GravityDesc::Uniform {
                accel,
                volume,
                priority,
            } => GravityField {
                pull: Pull::Uniform(Vec3::from(accel)),
                volume: match volume.unwrap_or(VolumeDesc::Everywhere) {
                    VolumeDesc::Everywhere => Volume::Everywhere,
                    VolumeDesc::Sphere { centre, radius } => Volume::Sphere {
                        centre: Point3::from(centre),
                        radius,
                    },
                    VolumeDesc::Box { mins, maxs } => Volume::Box {
                        mins: Point3::from(mins),
                        maxs: Point3::from(maxs),
                    },
                },
                priority,
            },
            GravityDesc::Point {
                centre,
                strength,
                reach,
                priority,
            } => {
                let centre = Point3::from(centre);
                GravityField {
                    pull: Pull::Point { centre, strength },
                    volume: match reach {
                        Some(radius) => Volume::Sphere { centre, radius },
                        None => Volume::Everywhere,
                    },
                    priority,
                }
            }
        };
        field.validate().map_err(|e| format!("gravity: {e}"))?;
        Ok(Self(field))
    }
}

/// A character's sphere stack as written (character-local, m).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum StackDesc {
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
    fn stack(&self) -> Result<SphereStack, String> {
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
pub struct SettingsDesc {
    /// Steepest walkable slope (degrees).
    pub slope_limit_deg: Option<Real>,
    /// Highest step climbed (m).
    pub step_height: Option<Real>,
    /// Least depth of a climbed step's top (m).
    pub min_step_depth: Option<Real>,
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
}

impl SettingsDesc {
    /// The defaults overridden by every field given, with `up_frame`, validated.
    fn settings(&self, up_frame: UpFrame) -> Result<MotorSettings, String> {
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
        let mut s = MotorSettings {
            up_frame,
            ..MotorSettings::default()
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
        set(&mut s.step_height, self.step_height);
        set(&mut s.min_step_depth, self.min_step_depth);
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
        s.penetration_recovery_speed = self.penetration_recovery_speed;
        if let Some(keep) = self.keep_ground_velocity {
            s.keep_ground_velocity = keep;
        }
        if let Some(n) = self.max_pushback_iterations {
            s.max_pushback_iterations = n;
        }
        s.validate().map_err(|e| e.to_string())?;
        Ok(s)
    }
}

/// How the up axis is chosen, as written: `Gravity`, `Surface` or `Fixed((x, y, z))`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub enum UpDesc {
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
pub enum InputDesc {
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

fn default_turn_deg() -> Real {
    90.0
}

fn speed(field: &str, v: Real) -> Result<Real, String> {
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
            } => Input::Player(PlayerInput {
                speed: speed("speed", *s)?,
                jump_speed: speed("jump_speed", *jump_speed)?,
                ..PlayerInput::default()
            }),
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
pub struct CharacterDescRon {
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
}

/// A validated character, placed when the scene is built.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "CharacterDescRon")]
pub struct CharacterItem {
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
}

fn unit(field: &str, v: Xyz) -> Result<UnitVec3, String> {
    let v = vec3(field, v)?;
    UnitVec3::try_new(v, 1e-6).ok_or_else(|| format!("`{field}` must not be zero, got {v:?}"))
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
            name: d.name,
        })
    }
}

/// Where a crowd stands, as written.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Spread {
    /// Evenly over a sphere's surface (a Fibonacci lattice), up pointing outward.
    Sphere {
        /// Centre (m, world).
        centre: Xyz,
        /// Radius of the feet (m): the planet's radius plus a little.
        radius: Real,
    },
    /// A grid of rows along +X and +Z from `origin`, up +Y.
    Grid {
        /// The first character's feet (m, world).
        origin: Xyz,
        /// Distance between neighbours (m).
        spacing: Real,
        /// Characters per row.
        columns: u32,
    },
}

/// A crowd as written: `count` wanderers named `name0`, `name1` ..., cycling through `stacks`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Crowd")]
pub struct CrowdDescRon {
    name: String,
    count: u32,
    spread: Spread,
    stacks: Vec<StackDesc>,
    #[serde(default)]
    settings: SettingsDesc,
    #[serde(default)]
    up_frame: UpDesc,
    speed: Real,
    #[serde(default = "default_turn_deg")]
    max_turn_deg: Real,
    #[serde(default)]
    seed: u64,
    #[serde(default = "yes")]
    solid: bool,
}

/// A validated crowd of wanderers.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "CrowdDescRon")]
pub struct CrowdItem {
    /// Name prefix; character `i` is named `{name}{i}`.
    pub name: String,
    /// Number of characters.
    pub count: u32,
    /// Where they stand.
    pub spread: Spread,
    /// Shapes, cycled through.
    pub stacks: Vec<SphereStack>,
    /// Motor settings, validated, with the up frame.
    pub settings: MotorSettings,
    /// Walking speed (m/s).
    pub speed: Real,
    /// Largest turn rate (rad/s).
    pub max_turn_rate: Real,
    /// Seed; each character's wander sequence is derived from it and its index.
    pub seed: u64,
    /// Whether characters collide with each other.
    pub solid: bool,
}

impl TryFrom<CrowdDescRon> for CrowdItem {
    type Error = String;

    fn try_from(d: CrowdDescRon) -> Result<Self, String> {
        let err = |e: String| fail("crowd", &d.name, e);
        if !(1..=MAX_CROWD).contains(&d.count) {
            return Err(err(format!(
                "`count` = {} is outside 1..={MAX_CROWD}",
                d.count
            )));
        }
        match d.spread {
            Spread::Sphere { centre, radius } => {
                vec3("centre", centre).map_err(err)?;
                length("radius", radius).map_err(err)?;
            }
            Spread::Grid {
                origin,
                spacing,
                columns,
            } => {
                vec3("origin", origin).map_err(err)?;
                length("spacing", spacing).map_err(err)?;
                if columns == 0 {
                    return Err(err("`columns` must be at least 1".into()));
                }
            }
        }
        if d.stacks.is_empty() {
            return Err(err("`stacks` is empty".into()));
        }
        let mut stacks = Vec::with_capacity(d.stacks.len());
        for s in &d.stacks {
            stacks.push(s.stack().map_err(err)?);
        }
        Ok(Self {
            count: d.count,
            spread: d.spread,
            stacks,
            settings: d.settings.settings(d.up_frame.into()).map_err(err)?,
            speed: speed("speed", d.speed).map_err(err)?,
            max_turn_rate: speed("max_turn_deg", d.max_turn_deg)
                .map_err(err)?
                .to_radians(),
            seed: d.seed,
            solid: d.solid,
            name: d.name,
        })
    }
}

/// How a platform moves, as written.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MotionDesc {
    /// Spins about `axis` through its start at `rate_deg` degrees per second.
    Rotate {
        /// Axis (world).
        axis: Xyz,
        /// Angular speed (degrees per second, right-handed).
        rate_deg: Real,
    },
    /// Moves to start + `offset` and back once per `period`.
    Oscillate {
        /// Far end relative to the start (m, world).
        offset: Xyz,
        /// Seconds per back-and-forth.
        period: Real,
    },
    /// Moved by game code through `Sim::drive_platform`; stays put until then.
    Driven,
}

/// A platform as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Platform")]
pub struct PlatformDescRon {
    #[serde(default)]
    name: Option<String>,
    shape: ShapeDesc,
    #[serde(default)]
    at: Xyz,
    #[serde(default)]
    rot_deg: Xyz,
    motion: MotionDesc,
}

/// A validated kinematic platform.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "PlatformDescRon")]
pub struct PlatformItem {
    /// Name for traces.
    pub name: String,
    /// Its shape.
    pub shape: SharedShape,
    /// Pose at time 0 (world).
    pub start: Iso,
    /// How it moves.
    pub motion: PlatformMotion,
}

impl TryFrom<PlatformDescRon> for PlatformItem {
    type Error = String;

    fn try_from(d: PlatformDescRon) -> Result<Self, String> {
        let name = d.name.clone().unwrap_or_else(|| "platform".to_owned());
        let err = |e: String| fail("platform", &name, e);
        let motion = match d.motion {
            MotionDesc::Rotate { axis, rate_deg } => {
                let rate = rate_deg.to_radians();
                if !rate.is_finite() {
                    return Err(err(format!("`rate_deg` must be finite, got {rate_deg}")));
                }
                PlatformMotion::Rotate {
                    axis: unit("axis", axis).map_err(err)?,
                    rate,
                }
            }
            MotionDesc::Oscillate { offset, period } => {
                if !(period.is_finite() && period > 0.0) {
                    return Err(err(format!("`period` must be > 0 s, got {period}")));
                }
                PlatformMotion::Oscillate {
                    offset: vec3("offset", offset).map_err(err)?,
                    period,
                }
            }
            MotionDesc::Driven => PlatformMotion::Driven,
        };
        Ok(Self {
            shape: d.shape.shape().map_err(err)?,
            start: place(d.at, d.rot_deg).map_err(err)?,
            motion,
            name,
        })
    }
}
