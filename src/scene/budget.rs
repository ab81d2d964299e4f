//! Scene budgets: how much one scene may build, counted from its parameters before anything
//! is built ([`SceneOptions`], [`Excess`]).

use super::format::{SceneFile, Spread};
use spherewalk_core::Real;

/// Limits on what one scene may build. A scene file is counted against them before anything
/// big is made (no generator runs, no character spawns), so a hostile or mistaken file is
/// refused at once with [`SceneError::OverBudget`](super::SceneError::OverBudget) instead of taking minutes and gigabytes.
///
/// [`SceneOptions::default`] is the budget [`load`](super::load) and
/// [`SceneFile::build`] apply: every shipped scene and the benches' 10,000-character crowd fit
/// in it with room to spare. Raise a field to load a bigger scene on purpose
/// ([`load_with`](super::load_with), [`SceneFile::build_with`]):
///
/// ```
/// use spherewalk::scene::SceneOptions;
/// // The struct is non-exhaustive (it may gain limits): start from the defaults.
/// let mut options = SceneOptions::default();
/// options.max_characters = 50_000;
/// assert_eq!(options.max_colliders, 100_000);
/// ```
///
/// `u64::MAX` (and `f64::INFINITY` for the density) lifts a limit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SceneOptions {
    /// Most colliders the scene inserts into the collision world (count): one per primitive,
    /// per generated part (stair step, grid cube, planet ball and each rock), per heightfield,
    /// per OBJ mesh and per platform. Default 100,000.
    pub max_colliders: u64,
    /// Most triangles of all the scene's heightfields (2 per cell) and OBJ meshes (each face
    /// of `n` corners counts `n - 2`) together (count). Default 4,000,000.
    pub max_triangles: u64,
    /// Most characters the scene spawns (count): single characters plus every crowd's
    /// `count`. Default 20,000.
    pub max_characters: u64,
    /// Densest crowd spread over a sphere (characters per m²): `count / (4 pi radius²)`, the
    /// radius being the spread's (m). `f64::INFINITY` lifts it; NaN refuses every sphere
    /// crowd. Default 1.
    pub max_characters_per_m2: f64,
}

impl SceneOptions {
    /// Default of [`SceneOptions::max_colliders`] (count).
    pub const DEFAULT_MAX_COLLIDERS: u64 = 100_000;
    /// Default of [`SceneOptions::max_triangles`] (count).
    pub const DEFAULT_MAX_TRIANGLES: u64 = 4_000_000;
    /// Default of [`SceneOptions::max_characters`] (count).
    pub const DEFAULT_MAX_CHARACTERS: u64 = 20_000;
    /// Default of [`SceneOptions::max_characters_per_m2`] (characters per m²).
    pub const DEFAULT_MAX_CHARACTERS_PER_M2: f64 = 1.0;
}

/// The defaults, chosen from measurements (debug profile with optimisation, 2 cores):
///
/// - 100,000 colliders: the shipped scenes use at most 121 (`crowd.ron`); 100,000 planet rocks
///   take about 2 s to make, 100,000 grid cubes a quarter of a second.
/// - 4,000,000 triangles: the shipped scenes use 4,608 (`playground.ron`'s heightfield); the
///   largest heightfield ([`MAX_HEIGHTFIELD_CELLS`](super::MAX_HEIGHTFIELD_CELLS) squared,
///   2,097,152 triangles) fits, with room for a big OBJ mesh.
/// - 20,000 characters: the crowd bench spawns 10,001; 20,000 on `crowd.ron`'s planet load in
///   under a second and step in about 0.4 s.
/// - 1 character per m²: neighbours on the sphere stand about 1 m apart, wider than the widest
///   shipped character (0.8 m); `crowd.ron` has 0.05 per m², its 10,000-character bench 0.5.
///   At 5 per m² everyone overlaps at spawn.
impl Default for SceneOptions {
    fn default() -> Self {
        Self {
            max_colliders: Self::DEFAULT_MAX_COLLIDERS,
            max_triangles: Self::DEFAULT_MAX_TRIANGLES,
            max_characters: Self::DEFAULT_MAX_CHARACTERS,
            max_characters_per_m2: Self::DEFAULT_MAX_CHARACTERS_PER_M2,
        }
    }
}

/// Which budget of [`SceneOptions`] a scene goes over, with the numbers. The counts are the
/// whole scene's totals (what the limit must be raised to), computed without overflow
/// (saturating at `u64::MAX`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Excess {
    /// Colliders the scene would insert (count), above [`SceneOptions::max_colliders`].
    Colliders {
        /// The scene's colliders (count).
        count: u64,
        /// The limit (count).
        limit: u64,
    },
    /// Triangles of the scene's heightfields and meshes (count), above
    /// [`SceneOptions::max_triangles`].
    Triangles {
        /// The scene's triangles (count).
        count: u64,
        /// The limit (count).
        limit: u64,
    },
    /// Characters the scene would spawn (count), above [`SceneOptions::max_characters`].
    Characters {
        /// The scene's characters (count).
        count: u64,
        /// The limit (count).
        limit: u64,
    },
    /// One crowd spread over a sphere is denser than
    /// [`SceneOptions::max_characters_per_m2`].
    CharactersPerM2 {
        /// The crowd's characters (count).
        count: u64,
        /// The spread's radius (m), as written in the scene.
        radius: Real,
        /// `count / (4 pi radius²)` (characters per m²).
        density: f64,
        /// The limit (characters per m²).
        limit: f64,
    },
}

impl Excess {
    /// What is counted: `"colliders"`, `"triangles"`, `"characters"` or
    /// `"characters per m²"`.
    pub fn what(&self) -> &'static str {
        match self {
            Excess::Colliders { .. } => "colliders",
            Excess::Triangles { .. } => "triangles",
            Excess::Characters { .. } => "characters",
            Excess::CharactersPerM2 { .. } => "characters per m²",
        }
    }

    /// The [`SceneOptions`] field that raises this limit, e.g. `"max_colliders"`.
    pub fn option(&self) -> &'static str {
        match self {
            Excess::Colliders { .. } => "max_colliders",
            Excess::Triangles { .. } => "max_triangles",
            Excess::Characters { .. } => "max_characters",
            Excess::CharactersPerM2 { .. } => "max_characters_per_m2",
        }
    }
}

impl std::fmt::Display for Excess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Excess::Colliders { count, limit }
            | Excess::Triangles { count, limit }
            | Excess::Characters { count, limit } => write!(
                f,
                "the scene has {count} {}, over the limit of {limit}",
                self.what()
            ),
            Excess::CharactersPerM2 {
                count,
                radius,
                density,
                limit,
            } => write!(
                f,
                "{count} characters on a sphere of radius {radius} m are {density:.3} {}, over \
                 the limit of {limit}",
                self.what()
            ),
        }
    }
}

/// The first item at which the running total of `items` (name, count) passes `limit`, and the
/// total over all items; `None` when the total is within the limit.
fn first_over<'a>(items: &[(&'a str, u64)], limit: u64) -> Option<(&'a str, u64)> {
    let total = items.iter().fold(0u64, |t, (_, n)| t.saturating_add(*n));
    if total <= limit {
        return None;
    }
    let mut running = 0u64;
    items.iter().find_map(|(name, n)| {
        running = running.saturating_add(*n);
        (running > limit).then_some((*name, total))
    })
}

/// A count over its budget: `excess` at item `item` (the build turns it into
/// `SceneError::OverBudget` with the file's path).
#[derive(Debug)]
pub(super) struct Over {
    /// The item at which the scene's running total passed the limit.
    pub item: String,
    /// What is over, by how much.
    pub excess: Excess,
}

/// The refusal for `excess` at item `item`.
fn over_budget(item: &str, excess: Excess) -> Over {
    Over {
        item: item.to_owned(),
        excess,
    }
}

/// Crowd items' density on their sphere (characters per m²), `count / (4 pi r²)` in `f64`.
fn density(count: u32, radius: f64) -> f64 {
    f64::from(count) / (4.0 * std::f64::consts::PI * radius * radius)
}

/// Holds `scene`'s crowd densities, colliders and characters against `options`, counted
/// from the parsed parameters alone (nothing is generated or read). Triangles wait for the
/// OBJ files: [`check_triangles`].
pub(super) fn check_counts(scene: &SceneFile, options: &SceneOptions) -> Result<(), Over> {
    let over = over_budget;
    let limit = options.max_characters_per_m2;
    for crowd in &scene.crowds {
        if let Spread::Sphere { radius, .. } = crowd.spread {
            let per_m2 = density(crowd.count, f64::from(radius));
            // A NaN limit refuses every sphere crowd, as documented.
            if limit.is_nan() || per_m2 > limit {
                return Err(over(
                    &crowd.name,
                    Excess::CharactersPerM2 {
                        count: u64::from(crowd.count),
                        radius,
                        density: per_m2,
                        limit,
                    },
                ));
            }
        }
    }
    let colliders: Vec<(&str, u64)> = (scene.colliders.iter())
        .map(|c| (c.name.as_str(), c.geometry.cost().parts))
        .chain(scene.platforms.iter().map(|p| (p.name.as_str(), 1)))
        .chain(scene.pads.iter().map(|p| (p.name.as_str(), 1)))
        .chain(scene.dynamics.iter().map(|d| (d.name.as_str(), 1)))
        .collect();
    let limit = options.max_colliders;
    if let Some((item, count)) = first_over(&colliders, limit) {
        return Err(over(item, Excess::Colliders { count, limit }));
    }
    let characters: Vec<(&str, u64)> = (scene.characters.iter())
        .map(|c| (c.name.as_str(), 1))
        .chain(
            scene
                .crowds
                .iter()
                .map(|c| (c.name.as_str(), u64::from(c.count))),
        )
        .collect();
    let limit = options.max_characters;
    if let Some((item, count)) = first_over(&characters, limit) {
        return Err(over(item, Excess::Characters { count, limit }));
    }
    Ok(())
}

/// Holds `scene`'s triangles against `options`: each collider item's generated
/// triangles plus `mesh_triangles[i]` (the OBJ mesh of collider item `i`, 0 for the
/// others; missing entries count 0).
pub(super) fn check_triangles(
    scene: &SceneFile,
    options: &SceneOptions,
    mesh_triangles: &[u64],
) -> Result<(), Over> {
    let triangles: Vec<(&str, u64)> = (scene.colliders.iter().enumerate())
        .map(|(i, c)| {
            let mesh = mesh_triangles.get(i).copied().unwrap_or(0);
            (
                c.name.as_str(),
                c.geometry.cost().triangles.saturating_add(mesh),
            )
        })
        .collect();
    let limit = options.max_triangles;
    match first_over(&triangles, limit) {
        Some((item, count)) => Err(over_budget(item, Excess::Triangles { count, limit })),
        None => Ok(()),
    }
}
