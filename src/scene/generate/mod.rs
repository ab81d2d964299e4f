//! ColliderSource generators for scene files: stairs, ramps, box grids, planets, heightfields,
//! small worlds (a torus ring, a terrain planet) and triangle meshes from Wavefront OBJ text.
//!
//! Every generator builds its scenery in a **generator-local frame**: +Y up, floor level at
//! y = 0 unless its doc says otherwise, lengths in metres and angles in radians. The caller
//! places the whole group with one pose (see [`Part::collider`]). Generators validate their
//! parameters and return a typed error instead of panicking; the same parameters (and seed)
//! always give the same parts.

use spherewalk_core::math::SplitMix64;
use spherewalk_core::na::DMatrix;
use spherewalk_core::parry3d::shape::{ConvexPolyhedron, SharedShape};
use spherewalk_core::{ColliderDesc, Point3, Quat, Real, UnitVec3, Vec3, math, math::Iso};
use thiserror::Error;

mod obj;
mod worlds;

pub(crate) use obj::obj_triangles;
pub use obj::{ObjError, trimesh_from_obj};
pub use worlds::{
    MAX_TERRAIN_DETAIL, MAX_TERRAIN_FEATURES, MAX_TORUS_SEGMENTS, TerrainDesc, terrain_planet,
    torus,
};

/// Most parts one generator may return (stair steps, box-grid cubes, planet ball plus rocks).
pub const MAX_PARTS: u64 = 1_000_000;

/// Most cells along one side of a generated heightfield (so at most 1024 x 1024 cells).
pub const MAX_HEIGHTFIELD_CELLS: u32 = 1024;

/// Largest length a generator accepts (m).
///
/// NOTE: `f32` resolves coordinates near 10^6 m only to 0.0625 m, far coarser than any
/// character's skin width, so larger scenery would be meaningless rather than merely big.
pub const MAX_LENGTH: Real = 1.0e6;

/// Shortest length a generator or scene shape accepts (m): 0.1 mm. Shorter sizes, sub-normal
/// ones (`1e-45`) and zero among them, give boxes and balls whose bounding boxes have no
/// thickness, which parry's BVH build cannot split (it panicked on a seesaw 1e-45 m thick).
pub const MIN_LENGTH: Real = 1.0e-4;

/// One collider shape with its pose in the generator's local frame (m, rad).
#[derive(Clone, Debug)]
pub struct Part {
    /// The parry shape, in the part's own frame.
    pub shape: SharedShape,
    /// Pose of the shape in the generator-local frame (m, rad).
    pub pose: Iso,
}

impl Part {
    /// This part as a static collider once the whole group is placed at `group`, the world
    /// pose of the generator-local frame (m, rad): the collider's world pose is
    /// `group * self.pose`.
    pub fn collider(&self, group: &Iso) -> ColliderDesc {
        ColliderDesc::new(self.shape.clone()).pose(group * self.pose)
    }
}

/// Why a generator refused its parameters; each variant carries the parameter's name and the
/// bad value.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// A length (m) is NaN, infinite, below [`MIN_LENGTH`] (zero, negative, sub-normal) or
    /// above [`MAX_LENGTH`].
    #[error(
        "`{field}` must be a finite length in [{min}, {max}] m, got {value}",
        min = MIN_LENGTH,
        max = MAX_LENGTH
    )]
    BadLength {
        /// The parameter's name.
        field: &'static str,
        /// The rejected value (m).
        value: Real,
    },
    /// A height amplitude (m) is NaN, infinite, negative or above [`MAX_LENGTH`].
    #[error("`{field}` must be a finite height in [0, {max}] m, got {value}", max = MAX_LENGTH)]
    BadAmplitude {
        /// The parameter's name.
        field: &'static str,
        /// The rejected value (m).
        value: Real,
    },
    /// An angle (rad) is NaN, infinite, or outside the open interval (0, pi/2).
    #[error("`{field}` must be an angle strictly between 0 and pi/2 rad, got {value}")]
    BadAngle {
        /// The parameter's name.
        field: &'static str,
        /// The rejected value (rad).
        value: Real,
    },
    /// A count is outside `min..=max` (zero steps, or more parts or cells than allowed).
    #[error("`{field}` = {value} is outside {min}..={max}")]
    BadCount {
        /// The parameter's name (or a product of parameters, e.g. `nx * nz`).
        field: &'static str,
        /// The rejected count.
        value: u64,
        /// Smallest accepted count.
        min: u64,
        /// Largest accepted count.
        max: u64,
    },
    /// A length (m) is too large next to another one: a torus tube as thick as its ring, a
    /// terrain relief over a quarter of the planet's radius.
    #[error("`{field}` must be below {limit} m, got {value}")]
    TooLarge {
        /// The parameter's name.
        field: &'static str,
        /// The rejected value (m).
        value: Real,
        /// The bound it must stay under (m).
        limit: Real,
    },
}

pub(crate) fn check_length(field: &'static str, value: Real) -> Result<Real, GenerateError> {
    if value.is_finite() && (MIN_LENGTH..=MAX_LENGTH).contains(&value) {
        Ok(value)
    } else {
        Err(GenerateError::BadLength { field, value })
    }
}

fn check_count(field: &'static str, value: u64, min: u64, max: u64) -> Result<(), GenerateError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(GenerateError::BadCount {
            field,
            value,
            min,
            max,
        })
    }
}

/// What a generator call will make, counted from its parameters without making it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    /// Colliders (parts) it makes.
    pub parts: u64,
    /// Triangles of its meshes and heightfields (a heightfield cell counts 2).
    pub triangles: u64,
}

/// A generator call whose parameters are checked but which has not run yet. Scene files hold
/// these, so that what each call will make is counted ([`Generator::cost`]) and held against
/// the scene's budget before anything is made ([`Generator::parts`]). Built only by the
/// checked constructors below, which apply the same rules (and errors) as the public
/// generator functions; lengths in metres, angles in radians, generator-local frame.
#[derive(Clone, Debug)]
pub(crate) enum Generator {
    /// [`stairs`].
    Stairs {
        steps: u32,
        rise: Real,
        tread: Real,
        width: Real,
    },
    /// [`ramp`] (`angle` in rad).
    Ramp {
        angle: Real,
        length: Real,
        width: Real,
        thickness: Real,
    },
    /// [`box_grid`].
    BoxGrid { nx: u32, nz: u32, size: Real },
    /// [`planet`].
    Planet {
        radius: Real,
        rocks: u32,
        rock_size: Real,
        seed: u64,
    },
    /// [`heightfield`].
    Heightfield {
        cells: u32,
        size: Real,
        amplitude: Real,
        seed: u64,
    },
    /// [`torus`].
    Torus {
        major_radius: Real,
        minor_radius: Real,
        segments: u32,
        sides: u32,
    },
    /// [`terrain_planet`].
    Terrain(TerrainDesc),
}

impl Generator {
    /// [`stairs`] with its parameters checked, not yet run.
    pub(crate) fn stairs(
        steps: u32,
        rise: Real,
        tread: Real,
        width: Real,
    ) -> Result<Self, GenerateError> {
        check_count("steps", u64::from(steps), 1, MAX_PARTS)?;
        Ok(Self::Stairs {
            steps,
            rise: check_length("rise", rise)?,
            tread: check_length("tread", tread)?,
            width: check_length("width", width)?,
        })
    }

    /// [`ramp`] with its parameters checked, not yet run.
    pub(crate) fn ramp(
        angle: Real,
        length: Real,
        width: Real,
        thickness: Real,
    ) -> Result<Self, GenerateError> {
        if !(angle.is_finite() && angle > 0.0 && angle < std::f32::consts::FRAC_PI_2) {
            return Err(GenerateError::BadAngle {
                field: "angle",
                value: angle,
            });
        }
        Ok(Self::Ramp {
            angle,
            length: check_length("length", length)?,
            width: check_length("width", width)?,
            thickness: check_length("thickness", thickness)?,
        })
    }

    /// [`box_grid`] with its parameters checked, not yet run.
    pub(crate) fn box_grid(nx: u32, nz: u32, size: Real) -> Result<Self, GenerateError> {
        check_count("nx", u64::from(nx), 1, MAX_PARTS)?;
        check_count("nz", u64::from(nz), 1, MAX_PARTS)?;
        check_count("nx * nz", u64::from(nx) * u64::from(nz), 1, MAX_PARTS)?;
        Ok(Self::BoxGrid {
            nx,
            nz,
            size: check_length("size", size)?,
        })
    }

    /// [`planet`] with its parameters checked, not yet run.
    pub(crate) fn planet(
        radius: Real,
        rocks: u32,
        rock_size: Real,
        seed: u64,
    ) -> Result<Self, GenerateError> {
        check_length("radius", radius)?;
        check_count("rocks", u64::from(rocks), 0, MAX_PARTS - 1)?;
        Ok(Self::Planet {
            radius,
            rocks,
            rock_size: check_length("rock_size", rock_size)?,
            seed,
        })
    }

    /// [`heightfield`] with its parameters checked, not yet run.
    pub(crate) fn heightfield(
        cells: u32,
        size: Real,
        amplitude: Real,
        seed: u64,
    ) -> Result<Self, GenerateError> {
        let most = u64::from(MAX_HEIGHTFIELD_CELLS);
        check_count("cells", u64::from(cells), 1, most)?;
        check_length("size", size)?;
        if !(amplitude.is_finite() && (0.0..=MAX_LENGTH).contains(&amplitude)) {
            return Err(GenerateError::BadAmplitude {
                field: "amplitude",
                value: amplitude,
            });
        }
        Ok(Self::Heightfield {
            cells,
            size,
            amplitude,
            seed,
        })
    }

    /// What [`Generator::parts`] will make, from the parameters alone (no allocation).
    /// Products saturate at `u64::MAX` rather than wrap.
    pub(crate) fn cost(&self) -> Cost {
        let parts = |parts: u64| Cost {
            parts,
            triangles: 0,
        };
        match *self {
            Self::Stairs { steps, .. } => parts(u64::from(steps)),
            Self::Ramp { .. } => parts(1),
            Self::BoxGrid { nx, nz, .. } => parts(u64::from(nx).saturating_mul(u64::from(nz))),
            Self::Planet { rocks, .. } => parts(u64::from(rocks).saturating_add(1)),
            Self::Heightfield { cells, .. } => Cost {
                parts: 1,
                triangles: u64::from(cells)
                    .saturating_mul(u64::from(cells))
                    .saturating_mul(2),
            },
            Self::Torus {
                segments, sides, ..
            } => Cost {
                parts: 1,
                triangles: worlds::torus_triangles(segments, sides),
            },
            Self::Terrain(desc) => Cost {
                parts: 1,
                triangles: worlds::terrain_triangles(desc.detail),
            },
        }
    }

    /// Runs the generator: the parts, in the generator-local frame.
    pub(crate) fn parts(&self) -> Vec<Part> {
        match *self {
            Self::Stairs {
                steps,
                rise,
                tread,
                width,
            } => stairs_parts(steps, rise, tread, width),
            Self::Ramp {
                angle,
                length,
                width,
                thickness,
            } => ramp_parts(angle, length, width, thickness),
            Self::BoxGrid { nx, nz, size } => box_grid_parts(nx, nz, size),
            Self::Planet {
                radius,
                rocks,
                rock_size,
                seed,
            } => planet_parts(radius, rocks, rock_size, seed),
            Self::Heightfield {
                cells,
                size,
                amplitude,
                seed,
            } => heightfield_parts(cells, size, amplitude, seed),
            Self::Torus {
                major_radius,
                minor_radius,
                segments,
                sides,
            } => worlds::torus_parts(major_radius, minor_radius, segments, sides),
            Self::Terrain(desc) => worlds::terrain_parts(&desc),
        }
    }
}

/// An axis-aligned solid box spanning `min..max` (generator-local, m).
fn box_part(min: Point3, max: Point3) -> Part {
    let half = (max - min) * 0.5;
    let centre = min + half;
    Part {
        shape: SharedShape::cuboid(half.x, half.y, half.z),
        pose: Iso::translation(centre.x, centre.y, centre.z),
    }
}

/// A straight staircase of `steps` solid boxes climbing along local +X from x = 0.
///
/// Step `k` (0-based) spans x from `tread * k` to `tread * steps` (every box reaches the back
/// of the flight), y from 0 to `rise * (k + 1)`, and z from `-width / 2` to `width / 2`. So
/// the walkable top of step `k` is the strip `tread * k <= x <= tread * (k + 1)` at height
/// `rise * (k + 1)`. Lengths in metres, generator-local frame (+Y up, floor at y = 0).
///
/// # Errors
/// [`GenerateError::BadCount`] when `steps` is 0 or above [`MAX_PARTS`];
/// [`GenerateError::BadLength`] when `rise`, `tread` or `width` is not a finite length in
/// [[`MIN_LENGTH`], [`MAX_LENGTH`]].
pub fn stairs(
    steps: u32,
    rise: Real,
    tread: Real,
    width: Real,
) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::stairs(steps, rise, tread, width)?.parts())
}

fn stairs_parts(steps: u32, rise: Real, tread: Real, width: Real) -> Vec<Part> {
    let half_width = width * 0.5;
    let back = tread * steps as Real;
    (0..steps)
        .map(|k| {
            let front = tread * k as Real;
            let top = rise * (k + 1) as Real;
            box_part(
                Point3::new(front, 0.0, -half_width),
                Point3::new(back, top, half_width),
            )
        })
        .collect()
}

/// A ramp: one solid box whose top face rises along local +X at `angle` (rad) from the
/// origin.
///
/// The top face's low edge lies on the z axis (x = 0, y = 0, z from `-width / 2` to
/// `width / 2`), so it meets a floor at y = 0 with no lip; the face runs `length` metres up
/// the slope, so its top edge is at x = `length * cos(angle)`, y = `length * sin(angle)`.
/// The box is `thickness` metres deep below that face, and may reach below the floor.
/// Generator-local frame, +Y up.
///
/// # Errors
/// [`GenerateError::BadAngle`] when `angle` is not strictly between 0 and pi/2;
/// [`GenerateError::BadLength`] when `length`, `width` or `thickness` is not a finite length
/// in [[`MIN_LENGTH`], [`MAX_LENGTH`]].
pub fn ramp(
    angle: Real,
    length: Real,
    width: Real,
    thickness: Real,
) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::ramp(angle, length, width, thickness)?.parts())
}

fn ramp_parts(angle: Real, length: Real, width: Real, thickness: Real) -> Vec<Part> {
    let (half_length, half_width) = (length * 0.5, width * 0.5);
    let half_thickness = thickness * 0.5;
    let rotation = math::axis_angle(&Vec3::z_axis(), angle);
    // The top face's low edge is (-half_length, +half_thickness) in the box frame; placing it
    // at the origin puts the centre at rotation * (half_length, -half_thickness).
    let centre = rotation * Vec3::new(half_length, -half_thickness, 0.0);
    vec![Part {
        shape: SharedShape::cuboid(half_length, half_thickness, half_width),
        pose: Iso::from_parts(centre.into(), rotation),
    }]
}

/// A floor of `nx * nz` edge-to-edge cubes of edge `size` (m), tops at y = 0, covering x in
/// `[0, nx * size]` and z in `[0, nz * size]` (generator-local frame, +Y up). Cube `(i, j)`
/// spans x in `[i * size, (i + 1) * size]` and z in `[j * size, (j + 1) * size]`; parts are
/// listed with `j` varying fastest. The cubes share one shape. This is the seam test floor:
/// every interior edge is a seam between coplanar faces.
///
/// # Errors
/// [`GenerateError::BadCount`] when `nx` or `nz` is 0 or `nx * nz` is above [`MAX_PARTS`];
/// [`GenerateError::BadLength`] when `size` is not a finite length in [[`MIN_LENGTH`], [`MAX_LENGTH`]].
pub fn box_grid(nx: u32, nz: u32, size: Real) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::box_grid(nx, nz, size)?.parts())
}

fn box_grid_parts(nx: u32, nz: u32, size: Real) -> Vec<Part> {
    let half = size * 0.5;
    let cube = SharedShape::cuboid(half, half, half);
    let mut parts = Vec::with_capacity(nx as usize * nz as usize);
    for i in 0..nx {
        for j in 0..nz {
            let x = (i as Real + 0.5) * size;
            let z = (j as Real + 0.5) * size;
            parts.push(Part {
                shape: cube.clone(),
                pose: Iso::translation(x, -half, z),
            });
        }
    }
    parts
}

/// A ball of `radius` (m) centred on the local origin, then `rocks` small convex rocks
/// half-buried in its surface at pseudo-random places chosen by `seed`.
///
/// Part 0 is the ball; parts 1.. are the rocks. Each rock is the convex hull of 8 jittered
/// points within `rock_size / 2` of its centre, and its centre lies on the ball's surface,
/// so every rock point is within `rock_size / 2` (m) of the surface. Rock places are
/// uniform over the sphere and each rock is spun about the local normal. `rocks = 0` gives
/// the bare ball. The same arguments always give identical parts. Generator-local frame
/// (centred on the planet, not on a floor).
///
/// # Errors
/// [`GenerateError::BadLength`] when `radius` or `rock_size` is not a finite length in
/// [[`MIN_LENGTH`], [`MAX_LENGTH`]]; [`GenerateError::BadCount`] when `rocks + 1` parts would exceed
/// [`MAX_PARTS`].
pub fn planet(
    radius: Real,
    rocks: u32,
    rock_size: Real,
    seed: u64,
) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::planet(radius, rocks, rock_size, seed)?.parts())
}

fn planet_parts(radius: Real, rocks: u32, rock_size: Real, seed: u64) -> Vec<Part> {
    let half_rock = rock_size * 0.5;
    let mut rng = SplitMix64::new(seed);
    let mut parts = Vec::with_capacity(rocks as usize + 1);
    parts.push(Part {
        shape: SharedShape::ball(radius),
        pose: Iso::identity(),
    });
    for _ in 0..rocks {
        parts.push(rock(&mut rng, radius, half_rock));
    }
    parts
}

/// One rock of half-size `half_rock` (m) centred on a random point of the sphere of `radius`.
/// The unit direction (generator-local) at height `y` (in [-1, 1]) along +Y and `azimuth`
/// (rad) about it, turning from +X toward +Z.
pub(crate) fn direction_at(y: f64, azimuth: f64) -> Vec3 {
    let ring = (1.0 - y * y).max(0.0).sqrt();
    Vec3::new(
        (ring * math::cos64(azimuth)) as Real,
        y as Real,
        (ring * math::sin64(azimuth)) as Real,
    )
}

/// A direction drawn uniformly on the unit sphere: uniform height on the axis, uniform
/// azimuth (Archimedes).
fn random_direction(rng: &mut SplitMix64) -> Vec3 {
    let y = rng.range(-1.0, 1.0);
    let azimuth = rng.range(0.0, std::f64::consts::TAU);
    direction_at(y, azimuth)
}

fn rock(rng: &mut SplitMix64, radius: Real, half_rock: Real) -> Part {
    let up = random_direction(rng);
    let spin = math::axis_angle(
        &Vec3::y_axis(),
        rng.range(0.0, std::f64::consts::TAU) as Real,
    );
    // NOTE: the exact south pole has no unique shortest rotation; any half turn about a
    // horizontal axis maps +Y there.
    let tilt = match UnitVec3::try_new(up, 1e-6) {
        Some(up) => math::rotation_between(&Vec3::y_axis(), &up),
        None => Quat::identity(),
    };
    let shape = rock_shape(rng, half_rock);
    Part {
        shape,
        pose: Iso::from_parts((up * radius).into(), tilt * spin),
    }
}

/// A convex rock within `half_rock` (m) of its origin: the hull of the 8 cube corners, each
/// jittered and pulled inside the unit ball, then scaled. The hull is computed at unit scale
/// (well conditioned whatever `half_rock` is) and scaled afterwards.
fn rock_shape(rng: &mut SplitMix64, half_rock: Real) -> SharedShape {
    let mut points = Vec::with_capacity(8);
    for corner in 0..8u32 {
        let sign = |bit: u32| if corner & bit == 0 { -1.0 } else { 1.0 };
        // Jitter below 1 keeps each point in its own octant, so the hull always has volume.
        let p = Vec3::new(
            (sign(1) + rng.range(-0.4, 0.4)) as Real,
            (sign(2) + rng.range(-0.4, 0.4)) as Real,
            (sign(4) + rng.range(-0.4, 0.4)) as Real,
        );
        let reach = rng.range(0.6, 1.0) as Real;
        points.push(Point3::from(p.normalize() * reach));
    }
    ConvexPolyhedron::from_convex_hull(&points)
        .and_then(|hull| hull.scaled(&Vec3::repeat(half_rock)))
        .map(SharedShape::new)
        // NOTE: unreachable for the points above; a cube keeps the generator total anyway.
        .unwrap_or_else(|| SharedShape::cuboid(half_rock * 0.5, half_rock * 0.5, half_rock * 0.5))
}

/// The seed-chosen waves of [`heightfield`]: `(weight, direction angle, phase)`; the weights
/// sum to 1, so the sum of the waves lies in [-1, 1].
fn waves(seed: u64) -> [(f64, f64, f64); 3] {
    let mut rng = SplitMix64::new(seed);
    let tau = std::f64::consts::TAU;
    let mut wave = |weight: f64| (weight, rng.range(0.0, tau), rng.range(0.0, tau));
    [wave(0.5), wave(0.3), wave(0.2)]
}

/// A square heightfield of `cells` x `cells` cells over `size` x `size` metres centred on the
/// local origin (x and z in `[-size / 2, size / 2]`), one part at the identity pose.
///
/// The height at (x, z) is `amplitude` times a weighted sum of three plane sine waves whose
/// directions and phases are chosen by `seed`; wave `i` (0-based) has wavelength
/// `size / (i + 1)` and the weights sum to 1, so every height lies in
/// `[-amplitude, amplitude]` (m). `amplitude = 0` gives a flat field at y = 0. Samples sit at
/// parry's grid points: row `i` at z = `(-0.5 + i / cells) * size`, column `j` at
/// x = `(-0.5 + j / cells) * size`. Heightfields are one-sided: their front faces +Y.
///
/// # Errors
/// [`GenerateError::BadCount`] when `cells` is 0 or above [`MAX_HEIGHTFIELD_CELLS`];
/// [`GenerateError::BadLength`] for a bad `size`; [`GenerateError::BadAmplitude`] when
/// `amplitude` is NaN, infinite, negative or above [`MAX_LENGTH`].
pub fn heightfield(
    cells: u32,
    size: Real,
    amplitude: Real,
    seed: u64,
) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::heightfield(cells, size, amplitude, seed)?.parts())
}

fn heightfield_parts(cells: u32, size: Real, amplitude: Real, seed: u64) -> Vec<Part> {
    let waves = waves(seed);
    let samples = cells as usize + 1;
    let (size64, amplitude64) = (f64::from(size), f64::from(amplitude));
    let at = |index: usize| (-0.5 + index as f64 / f64::from(cells)) * size64;
    let heights = DMatrix::from_fn(samples, samples, |row, column| {
        let (x, z) = (at(column), at(row));
        let sum: f64 = waves
            .iter()
            .enumerate()
            .map(|(i, &(weight, direction, phase))| {
                let wavenumber = std::f64::consts::TAU * (i + 1) as f64 / size64;
                let along = x * math::cos64(direction) + z * math::sin64(direction);
                weight * math::sin64(wavenumber * along + phase)
            })
            .sum();
        // Rounding to f32 is monotone, so |height| <= amplitude survives the cast.
        (amplitude64 * sum.clamp(-1.0, 1.0)) as Real
    });
    vec![Part {
        shape: SharedShape::heightfield(heights, Vec3::new(size, 1.0, size)),
        pose: Iso::identity(),
    }]
}
