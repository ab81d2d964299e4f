//! Reading scene files and building a [`Sim`] from them.

use super::budget::{Excess, Over, SceneOptions, check_counts, check_triangles};
use super::format::{CharacterItem, ColliderSource, CrowdItem, GravityItem, SceneFile, Spread};
use super::generate::{ObjError, Part, direction_at, obj_triangles, trimesh_from_obj};
use crate::input::Input;
use crate::input::Wander;
use crate::schedule::ScheduleError;
use crate::sim::{CharacterDesc, Sim, SpawnError};
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderDesc, CollisionWorld, GravityField, GravityFields, Point3, Pose, Real, UnitVec3, Vec3,
    gravity::Surface, math,
};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a scene could not be loaded. Each variant names the file; parse and validation errors
/// give the line and column in it.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The file could not be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The scene (or OBJ) file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// The RON is malformed, or an item holds a bad value (the message names the item and the
    /// field). Line and column are 1-based and point at or just after the problem.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The scene file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// An OBJ mesh named by the scene is malformed (the error carries its line).
    #[error("{path}: {item:?}: {obj}: {source}")]
    Obj {
        /// The scene file.
        path: PathBuf,
        /// The collider item's name.
        item: String,
        /// The OBJ file.
        obj: PathBuf,
        /// What is wrong with it.
        source: ObjError,
    },
    /// The fixed step `dt` is out of range.
    #[error("{path}: {source}")]
    Schedule {
        /// The scene file.
        path: PathBuf,
        /// What is wrong with it.
        source: ScheduleError,
    },
    /// The scene is bigger than its budget ([`SceneOptions`]): counted before anything was
    /// built. `item` is the item at which the scene's running total passed the limit (or the
    /// crowd that is too dense); `excess` says what is over, with the scene's total and the
    /// limit.
    #[error(
        "{path}: {item:?}: over budget: {excess}; raise `SceneOptions::{option}` to load it",
        option = excess.option()
    )]
    OverBudget {
        /// The scene file.
        path: PathBuf,
        /// The item's name.
        item: String,
        /// What is over, by how much.
        excess: Excess,
    },
    /// The scene has dynamic bodies, and this build of spherewalk has no physics engine:
    /// enable the `rapier` feature.
    #[error("{path}: {item:?}: dynamic bodies need spherewalk's `rapier` feature")]
    NeedsRapier {
        /// The scene file.
        path: PathBuf,
        /// The first dynamic item's name.
        item: String,
    },
    /// A surface gravity field names a collider that is not in the scene, or one made of
    /// more than one part (a surface pull follows a single shape).
    #[error("{path}: gravity surface {collider:?}: {problem}")]
    Surface {
        /// The scene file.
        path: PathBuf,
        /// The collider name the field gives.
        collider: String,
        /// What is wrong.
        problem: String,
    },
    /// The runtime refused an item (a collider, platform or character).
    #[error("{path}: {item:?}: {source}")]
    Spawn {
        /// The scene file.
        path: PathBuf,
        /// The item's name.
        item: String,
        /// Why it was refused.
        source: SpawnError,
    },
}

impl Over {
    /// The scene error for this refusal in the scene file `path`.
    fn at(self, path: &Path) -> SceneError {
        SceneError::OverBudget {
            path: path.to_owned(),
            item: self.item,
            excess: self.excess,
        }
    }
}

/// A scene built and ready to step.
pub struct Scene {
    /// The scene's display name.
    pub name: String,
    /// One line about it.
    pub description: String,
    /// Where a viewer should start its camera, when the file says.
    pub camera: Option<super::format::CameraHint>,
    /// The runtime holding every collider, platform, field and character.
    pub sim: Sim,
}

impl SceneError {
    /// The error as a person reads it once: the message, then, for an error with a place in
    /// the scene text (`source`, the file's contents), that line with a caret under the
    /// column, in the style of rustc:
    ///
    /// ```text
    /// error: character "hero": `slope_limit_deg` = 95 is out of range (0 <= x < 90 degrees)
    ///  --> scenes/bad.ron:8:52
    ///   |
    /// 8 |                   settings: (slope_limit_deg: 95.0)),
    ///   |                                                    ^
    /// ```
    ///
    /// Without the text, or for errors with no place, it is the one-line message.
    pub fn report(&self, source: Option<&str>) -> String {
        let Self::Parse {
            path,
            line,
            column,
            message,
        } = self
        else {
            return format!("error: {self}");
        };
        let mut out = format!("error: {message}\n --> {}:{line}:{column}", path.display());
        let Some(text) = source.and_then(|t| t.lines().nth(line.saturating_sub(1))) else {
            return out;
        };
        let number = line.to_string();
        let gutter = " ".repeat(number.len());
        // Tabs stay tabs so the caret lines up however the terminal shows them.
        let pad: String = text
            .chars()
            .take(column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&format!(
            "\n{gutter} |\n{number} | {text}\n{gutter} | {pad}^"
        ));
        out
    }
}

impl SceneFile {
    /// Sets how many characters every crowd of the file spawns (stress tests, the crowd
    /// bench), clamped to [`MAX_CROWD`](super::MAX_CROWD). The scene budget still applies when
    /// it is built: raise [`SceneOptions::max_characters`] and
    /// [`SceneOptions::max_characters_per_m2`] for crowds bigger or denser than the defaults.
    pub fn set_crowd_counts(&mut self, count: u32) {
        for crowd in &mut self.crowds {
            crowd.count = count.min(super::MAX_CROWD);
        }
    }

    /// Drops the file's dynamic bodies, so it builds without physics (and without the
    /// `rapier` feature): the scenery and characters alone.
    pub fn clear_dynamics(&mut self) {
        self.dynamics.clear();
    }

    /// How many dynamic bodies the file holds.
    pub fn dynamics_len(&self) -> usize {
        self.dynamics.len()
    }

    /// Parses scene text; `path` is only used in error messages.
    ///
    /// # Errors
    /// [`SceneError::Parse`] with the position of malformed RON or of an item holding a bad
    /// value.
    pub fn parse(text: &str, path: impl Into<PathBuf>) -> Result<Self, SceneError> {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        options
            .from_str(text)
            .map_err(|e: ron::error::SpannedError| SceneError::Parse {
                path: path.into(),
                line: e.span.start.line,
                column: e.span.start.col,
                message: e.code.to_string(),
            })
    }

    /// Reads and parses a scene file.
    ///
    /// # Errors
    /// [`SceneError::Io`] when it cannot be read, else as [`SceneFile::parse`].
    pub fn read(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        Self::parse(&read_scene_text(path)?, path)
    }

    /// Builds the scene within the default budget ([`SceneOptions::default`]); see
    /// [`SceneFile::build_with`].
    ///
    /// # Errors
    /// As [`SceneFile::build_with`].
    pub fn build(&self, dir: &Path, path: &Path) -> Result<Scene, SceneError> {
        self.build_with(dir, path, &SceneOptions::default())
    }

    /// Builds the scene: inserts the colliders and platforms, adds the gravity fields and
    /// spawns the characters (crowds last). OBJ paths are read relative to `dir`; `path` names
    /// the scene file in errors.
    ///
    /// First the scene is counted against `options`: crowd densities, colliders and
    /// characters from the parsed parameters, then triangles once the OBJ files are read (and
    /// counted before they are turned into meshes). Nothing is generated or spawned before
    /// the whole scene is within budget.
    ///
    /// # Errors
    /// [`SceneError::OverBudget`] when the scene is bigger than `options` allow,
    /// [`SceneError::Obj`] or [`SceneError::Io`] for a bad OBJ file, [`SceneError::Schedule`]
    /// for a bad `dt`, [`SceneError::Spawn`] when the runtime refuses an item.
    pub fn build_with(
        &self,
        dir: &Path,
        path: &Path,
        options: &SceneOptions,
    ) -> Result<Scene, SceneError> {
        check_counts(self, options).map_err(|o| o.at(path))?;
        let meshes = self.read_meshes(dir)?;
        let triangles: Vec<u64> = meshes
            .iter()
            .map(|m| m.as_ref().map_or(0, |(_, text)| obj_triangles(text)))
            .collect();
        check_triangles(self, options, &triangles).map_err(|o| o.at(path))?;
        let mut sim =
            Sim::new(CollisionWorld::new(), self.dt).map_err(|source| SceneError::Schedule {
                path: path.to_owned(),
                source,
            })?;
        let surfaces = self.insert_colliders(&mut sim, path, meshes)?;
        self.add_gravity(&mut sim, path, &surfaces)?;
        self.spawn(&mut sim, path)?;
        Ok(Scene {
            name: self.name.clone(),
            description: self.description.clone(),
            camera: self.camera,
            sim,
        })
    }

    /// The text of every collider item's OBJ file with its path (`None` for other items), in
    /// item order.
    fn read_meshes(&self, dir: &Path) -> Result<Vec<Option<(PathBuf, String)>>, SceneError> {
        let mut meshes = Vec::with_capacity(self.colliders.len());
        for item in &self.colliders {
            meshes.push(match &item.geometry {
                ColliderSource::Obj { path: obj, .. } => {
                    let obj = dir.join(obj);
                    let text = read_text(&obj, MAX_OBJ_BYTES)?;
                    Some((obj, text))
                }
                _ => None,
            });
        }
        Ok(meshes)
    }

    /// Generates and inserts every collider item (OBJ meshes from `meshes`, as
    /// [`SceneFile::read_meshes`] gives them), then optimises the world. Returns, in item
    /// order, the parts as placed in the world of each item a surface gravity field names
    /// (nothing for the others).
    fn insert_colliders(
        &self,
        sim: &mut Sim,
        path: &Path,
        meshes: Vec<Option<(PathBuf, String)>>,
    ) -> Result<Vec<Vec<Surface>>, SceneError> {
        let mut placed = Vec::with_capacity(self.colliders.len());
        for (item, mesh) in self.colliders.iter().zip(meshes) {
            let parts = match (&item.geometry, mesh) {
                (ColliderSource::Solid(shape), _) => vec![Part {
                    shape: shape.clone(),
                    pose: spherewalk_core::math::Iso::identity(),
                }],
                (ColliderSource::Generated(generator), _) => generator.parts(),
                (ColliderSource::Obj { scale, .. }, Some((obj, text))) => vec![Part {
                    shape: obj_shape(&text, &obj, *scale, &item.name, path)?,
                    pose: spherewalk_core::math::Iso::identity(),
                }],
                // NOTE: read_meshes reads one text per OBJ item; none is missing.
                (ColliderSource::Obj { .. }, None) => Vec::new(),
            };
            for part in &parts {
                let mut desc = part.collider(&item.pose);
                desc.flags.not_walkable = !item.walkable;
                desc.flags.two_sided = item.two_sided;
                desc.flags.climbable = item.climbable;
                let id = sim.collision.insert(desc).map_err(|e| SceneError::Spawn {
                    path: path.to_owned(),
                    item: item.name.clone(),
                    source: SpawnError::World(e),
                })?;
                sim.set_collider_name(id, &item.name);
            }
            // Only the items a surface field names are kept (a big grid of boxes is not).
            let named = self.gravity.iter().any(
                |g| matches!(g, GravityItem::Surface { collider, .. } if *collider == item.name),
            );
            placed.push(if named {
                parts
                    .into_iter()
                    .map(|part| Surface::new(part.shape, item.pose * part.pose))
                    .collect()
            } else {
                Vec::new()
            });
        }
        sim.collision.optimize();
        Ok(placed)
    }

    /// Adds the gravity fields, finding each surface field's collider among `surfaces` (the
    /// placed parts of each collider item, as [`SceneFile::insert_colliders`] returns them).
    fn add_gravity(
        &self,
        sim: &mut Sim,
        path: &Path,
        surfaces: &[Vec<Surface>],
    ) -> Result<(), SceneError> {
        for item in &self.gravity {
            let field = match item {
                GravityItem::Field(field) => field.clone(),
                GravityItem::Surface {
                    collider,
                    strength,
                    reach,
                    priority,
                } => {
                    let problem = |problem: String| SceneError::Surface {
                        path: path.to_owned(),
                        collider: collider.clone(),
                        problem,
                    };
                    let index = self
                        .colliders
                        .iter()
                        .position(|c| &c.name == collider)
                        .ok_or_else(|| problem("no collider item has this name".to_owned()))?;
                    let surface = match surfaces.get(index).map(Vec::as_slice) {
                        Some([one]) => one.clone(),
                        Some(parts) => {
                            return Err(problem(format!(
                                "it has {} parts; a surface pull needs a one-part collider",
                                parts.len()
                            )));
                        }
                        None => return Err(problem("it was not built".to_owned())),
                    };
                    GravityField {
                        priority: *priority,
                        ..GravityField::surface(surface, *strength, *reach)
                    }
                }
            };
            sim.add_gravity(field).map_err(|source| SceneError::Spawn {
                path: path.to_owned(),
                item: "gravity".to_owned(),
                source,
            })?;
        }
        Ok(())
    }

    /// Adds the platforms and jump pads, then spawns the characters and crowds.
    fn spawn(&self, sim: &mut Sim, path: &Path) -> Result<(), SceneError> {
        let spawn_err = |item: &str| {
            let item = item.to_owned();
            move |source: SpawnError| SceneError::Spawn {
                path: path.to_owned(),
                item,
                source,
            }
        };
        for pad in &self.pads {
            let desc = ColliderDesc::new(pad.shape.clone()).pose(pad.pose);
            let entity = sim
                .add_jump_pad(desc, pad.launch)
                .map_err(spawn_err(&pad.name))?;
            if let Some(id) = sim.jump_pad_collider(entity) {
                sim.set_collider_name(id, &pad.name);
            }
        }
        for p in &self.platforms {
            let desc = ColliderDesc::new(p.shape.clone()).pose(p.start);
            let entity = sim
                .add_platform(desc, p.motion)
                .map_err(spawn_err(&p.name))?;
            if let Some(id) = sim.platform_collider(entity) {
                sim.set_collider_name(id, &p.name);
            }
        }
        add_dynamics(self, sim, path)?;
        let fields = crate::systems::gravity_fields(&sim.ecs);
        for c in &self.characters {
            sim.spawn_character(character_desc(c, &fields))
                .map_err(spawn_err(&c.name))?;
        }
        for crowd in &self.crowds {
            spawn_crowd(sim, crowd).map_err(spawn_err(&crowd.name))?;
        }
        Ok(())
    }
}

/// Turns physics on and adds `scene`'s dynamic bodies, if it has any.
#[cfg(feature = "rapier")]
fn add_dynamics(scene: &SceneFile, sim: &mut Sim, _path: &Path) -> Result<(), SceneError> {
    use crate::sim::physics::spherewalk_rapier::rapier3d::prelude as rp;
    if scene.dynamics.is_empty() {
        return Ok(());
    }
    let physics = sim.enable_physics();
    let mut names = Vec::with_capacity(scene.dynamics.len());
    for d in &scene.dynamics {
        let body = rp::RigidBodyBuilder::dynamic().pose(d.pose);
        let body = physics.bodies.insert(body);
        let collider = rp::ColliderBuilder::new(d.shape.clone()).friction(d.friction);
        let collider = match d.heft {
            super::format::Heft::Mass(m) => collider.mass(m),
            super::format::Heft::Density(rho) => collider.density(rho),
        };
        let handle = physics
            .colliders
            .insert_with_parent(collider, body, &mut physics.bodies);
        names.push((handle, d.name.as_str()));
    }
    // Traces and events name a dynamic body by the id the motor sees it under.
    for (handle, name) in names {
        let id = crate::sim::physics::spherewalk_rapier::Layered::rapier_id(handle);
        sim.set_collider_name(id, name);
    }
    Ok(())
}

/// Without physics, a scene with dynamic bodies is refused, naming the first.
#[cfg(not(feature = "rapier"))]
fn add_dynamics(scene: &SceneFile, _sim: &mut Sim, path: &Path) -> Result<(), SceneError> {
    match scene.dynamics.first() {
        Some(d) => Err(SceneError::NeedsRapier {
            path: path.to_owned(),
            item: d.name.clone(),
        }),
        None => Ok(()),
    }
}

/// Reads, parses and builds the scene file at `path` (OBJ paths relative to its folder)
/// within the default budget ([`SceneOptions::default`]); see [`load_with`].
///
/// # Errors
/// Any [`SceneError`], naming the file and, for bad values, the line and column.
///
/// # Example
/// ```
/// let dir = std::env::temp_dir().join(format!("spherewalk-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("small.ron");
/// std::fs::write(&path, r#"Scene(
///     gravity: [Uniform(accel: (0.0, -9.81, 0.0))],
///     colliders: [Solid(name: "floor", shape: Cuboid(half_extents: (5.0, 0.5, 5.0)), at: (0.0, -0.5, 0.0))],
///     characters: [Character(name: "hero", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3))],
/// )"#)?;
/// let mut scene = spherewalk::scene::load(&path)?;
/// for _ in 0..30 {
///     scene.sim.step();
/// }
/// assert_eq!(scene.sim.steps(), 30);
/// // A bad value names the file, the line and the field.
/// std::fs::write(&path, "Scene(\n  dt: -1.0,\n)")?;
/// let error = spherewalk::scene::load(&path).err().expect("refused");
/// assert!(error.to_string().contains("small.ron"), "{error}");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load(path: impl AsRef<Path>) -> Result<Scene, SceneError> {
    load_with(path, &SceneOptions::default())
}

/// Reads, parses and builds the scene file at `path` (OBJ paths relative to its folder)
/// within the budget `options`, counted before anything is built.
///
/// # Errors
/// Any [`SceneError`], naming the file and, for bad values, the line and column;
/// [`SceneError::OverBudget`] for a scene bigger than `options` allow.
pub fn load_with(path: impl AsRef<Path>, options: &SceneOptions) -> Result<Scene, SceneError> {
    let path = path.as_ref();
    let file = SceneFile::read(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    file.build_with(dir, path, options)
}

/// Largest scene file read (bytes): 16 MiB.
pub const MAX_SCENE_BYTES: u64 = 16 << 20;
/// Largest OBJ file read (bytes): 256 MiB.
pub const MAX_OBJ_BYTES: u64 = 256 << 20;

/// The text of the scene file `path`, by the rule every scene read follows: a regular file of
/// at most [`MAX_SCENE_BYTES`] (tools that show a bad scene's line read it this way too).
///
/// # Errors
/// [`SceneError::Io`] for a file that cannot be read, is not a regular file or is too large.
pub fn read_scene_text(path: &Path) -> Result<String, SceneError> {
    read_text(path, MAX_SCENE_BYTES)
}

/// The text of `path`, a regular file of at most `limit` bytes. FIFOs, devices and
/// directories are refused before being opened (so `/dev/zero` or a pipe never blocks or
/// fills memory), and a file that grows past the limit while read is refused too.
fn read_text(path: &Path, limit: u64) -> Result<String, SceneError> {
    use std::io::Read;
    let io = |message: String| SceneError::Io {
        path: path.to_owned(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io(
            "not a regular file (a directory, a pipe or a device)".into()
        ));
    }
    let too_big = |len: u64| io(format!("{len} bytes is more than the {limit}-byte limit"));
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let mut text = String::new();
    file.take(limit + 1)
        .read_to_string(&mut text)
        .map_err(|e| io(e.to_string()))?;
    if text.len() as u64 > limit {
        return Err(too_big(text.len() as u64));
    }
    Ok(text)
}

/// The trimesh of the OBJ text `text` read from `obj`, scaled by `scale`.
fn obj_shape(
    text: &str,
    obj: &Path,
    scale: Real,
    item: &str,
    scene: &Path,
) -> Result<SharedShape, SceneError> {
    let shape = trimesh_from_obj(text).map_err(|source| SceneError::Obj {
        path: scene.to_owned(),
        item: item.to_owned(),
        obj: obj.to_owned(),
        source,
    })?;
    if scale == 1.0 {
        return Ok(shape);
    }
    match shape.as_trimesh() {
        Some(mesh) => Ok(SharedShape::new(mesh.clone().scaled(&Vec3::repeat(scale)))),
        None => Ok(shape),
    }
}

/// The pose of a character with its feet at `at`, up `up`, turned `yaw` rad left about up.
fn placed(at: Point3, up: &UnitVec3, yaw: Real) -> Pose {
    let mut pose = Pose::with_up(at, up);
    pose.orientation = math::axis_angle(up, yaw) * pose.orientation;
    pose
}

/// Up opposite the gravity at `at`, or world +Y where there is none.
fn up_from_gravity(fields: &GravityFields, at: &Point3) -> UnitVec3 {
    UnitVec3::try_new(-fields.at(at), 1e-6).unwrap_or_else(Vec3::y_axis)
}

fn character_desc(c: &CharacterItem, fields: &GravityFields) -> CharacterDesc {
    let up = c.up.unwrap_or_else(|| up_from_gravity(fields, &c.at));
    CharacterDesc {
        name: c.name.clone(),
        stack: c.stack.clone(),
        crouched: c.crouched.clone(),
        settings: c.settings,
        pose: placed(c.at, &up, c.yaw),
        input: c.input.clone(),
        solid: c.solid,
        soft: c.soft,
    }
}

/// The golden angle (rad): consecutive Fibonacci-lattice points turn by it.
const GOLDEN_ANGLE: f64 = 2.399_963_229_728_653;

/// Feet position and up of crowd member `i` of `n`.
fn spread_at(spread: &Spread, i: u32, n: u32) -> (Point3, UnitVec3) {
    match *spread {
        Spread::Sphere { centre, radius } => {
            // A Fibonacci lattice: equal-area latitude bands, longitudes turned by the golden
            // angle, so neighbours are about sqrt(4 pi r^2 / n) apart everywhere.
            let y = 1.0 - 2.0 * (f64::from(i) + 0.5) / f64::from(n);
            let dir = direction_at(y, f64::from(i) * GOLDEN_ANGLE);
            let up = UnitVec3::try_new(dir, 1e-6).unwrap_or_else(Vec3::y_axis);
            (Point3::from(centre) + up.into_inner() * radius, up)
        }
        Spread::Grid {
            origin,
            spacing,
            columns,
        } => {
            let (row, col) = (i / columns, i % columns);
            let offset = Vec3::new(col as Real * spacing, 0.0, row as Real * spacing);
            (Point3::from(origin) + offset, Vec3::y_axis())
        }
    }
}

fn spawn_crowd(sim: &mut Sim, crowd: &CrowdItem) -> Result<(), SpawnError> {
    for (i, stack) in (0..crowd.count).zip(crowd.stacks.iter().cycle()) {
        let (at, up) = spread_at(&crowd.spread, i, crowd.count);
        let yaw = (f64::from(i) * GOLDEN_ANGLE * 3.0).rem_euclid(std::f64::consts::TAU) as Real;
        let seed = crowd
            .seed
            .wrapping_add(u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        sim.spawn_character(CharacterDesc {
            name: format!("{}{i}", crowd.name),
            stack: stack.clone(),
            crouched: None,
            settings: crowd.settings,
            pose: placed(at, &up, yaw),
            input: Input::Wander(Wander::new(crowd.speed, crowd.max_turn_rate, seed)),
            solid: crowd.solid,
            soft: crowd.soft,
        })?;
    }
    Ok(())
}
