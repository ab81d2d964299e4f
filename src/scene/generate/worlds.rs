//! Small worlds as one-sided triangle meshes: a torus ring and a terrain planet (a displaced
//! icosphere with hills, craters and cliffs). Both face outward: their counter-clockwise side,
//! the only side a one-sided mesh collides with, is the outside.

use super::{GenerateError, Generator, Part, check_count, check_length, random_direction};
use spherewalk_core::math::SplitMix64;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{Point3, Real, Vec3, math, math::Iso};
use std::collections::HashMap;

/// Most segments around a torus's ring, or sides around its tube.
pub const MAX_TORUS_SEGMENTS: u32 = 1024;

/// Most subdivisions of a terrain planet's icosahedron: 7 gives 327,680 triangles.
pub const MAX_TERRAIN_DETAIL: u32 = 7;

/// Most hills, craters or cliffs on one terrain planet.
pub const MAX_TERRAIN_FEATURES: u32 = 256;

/// The parameters of [`terrain_planet`], lengths in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TerrainDesc {
    /// Radius of the undisturbed ball (m).
    pub radius: Real,
    /// Height of the hills and of the cliff-sided mesas (m); craters are up to 0.45 of it deep. At
    /// most a quarter of `radius`.
    pub relief: Real,
    /// Times the icosahedron's triangles are split in four (0 to [`MAX_TERRAIN_DETAIL`]).
    pub detail: u32,
    /// Rounded hills and hollows.
    pub hills: u32,
    /// Bowl craters with a raised rim.
    pub craters: u32,
    /// Round mesas whose sides are near-vertical cliffs.
    pub cliffs: u32,
    /// Seed of the features' places and sizes.
    pub seed: u64,
}

impl Generator {
    /// [`torus`] with its parameters checked, not yet run.
    pub(crate) fn torus(
        major_radius: Real,
        minor_radius: Real,
        segments: u32,
        sides: u32,
    ) -> Result<Self, GenerateError> {
        check_length("major_radius", major_radius)?;
        check_length("minor_radius", minor_radius)?;
        if minor_radius >= major_radius {
            return Err(GenerateError::TooLarge {
                field: "minor_radius",
                value: minor_radius,
                limit: major_radius,
            });
        }
        let most = u64::from(MAX_TORUS_SEGMENTS);
        check_count("segments", u64::from(segments), 3, most)?;
        check_count("sides", u64::from(sides), 3, most)?;
        Ok(Self::Torus {
            major_radius,
            minor_radius,
            segments,
            sides,
        })
    }

    /// [`terrain_planet`] with its parameters checked, not yet run.
    pub(crate) fn terrain(desc: TerrainDesc) -> Result<Self, GenerateError> {
        check_length("radius", desc.radius)?;
        if !(desc.relief.is_finite() && desc.relief >= 0.0) {
            return Err(GenerateError::BadAmplitude {
                field: "relief",
                value: desc.relief,
            });
        }
        if desc.relief > 0.25 * desc.radius {
            return Err(GenerateError::TooLarge {
                field: "relief",
                value: desc.relief,
                limit: 0.25 * desc.radius,
            });
        }
        check_count(
            "detail",
            u64::from(desc.detail),
            0,
            u64::from(MAX_TERRAIN_DETAIL),
        )?;
        let most = u64::from(MAX_TERRAIN_FEATURES);
        check_count("hills", u64::from(desc.hills), 0, most)?;
        check_count("craters", u64::from(desc.craters), 0, most)?;
        check_count("cliffs", u64::from(desc.cliffs), 0, most)?;
        Ok(Self::Terrain(desc))
    }
}

/// Triangles of a torus mesh.
pub(super) fn torus_triangles(segments: u32, sides: u32) -> u64 {
    2 * u64::from(segments) * u64::from(sides)
}

/// Triangles of a terrain planet of `detail` subdivisions: 20 * 4^detail.
pub(super) fn terrain_triangles(detail: u32) -> u64 {
    20u64.saturating_mul(4u64.saturating_pow(detail))
}

/// A torus ring around local +Y, centred on the origin: its tube of `minor_radius` runs round
/// a circle of `major_radius` in the XZ plane (m), made of `segments` quads round the ring by
/// `sides` round the tube. One part, a one-sided trimesh facing outward.
///
/// # Errors
/// [`GenerateError::BadLength`] for a bad radius, [`GenerateError::TooLarge`] when
/// `minor_radius >= major_radius` (the tube would cross itself), [`GenerateError::BadCount`]
/// when `segments` or `sides` is outside 3..=[`MAX_TORUS_SEGMENTS`].
pub fn torus(
    major_radius: Real,
    minor_radius: Real,
    segments: u32,
    sides: u32,
) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::torus(major_radius, minor_radius, segments, sides)?.parts())
}

pub(super) fn torus_parts(major: Real, minor: Real, segments: u32, sides: u32) -> Vec<Part> {
    let (major, minor) = (f64::from(major), f64::from(minor));
    let mut vertices = Vec::with_capacity(segments as usize * sides as usize);
    for i in 0..segments {
        let u = std::f64::consts::TAU * f64::from(i) / f64::from(segments);
        for j in 0..sides {
            let v = std::f64::consts::TAU * f64::from(j) / f64::from(sides);
            let ring = major + minor * math::cos64(v);
            vertices.push(Point3::new(
                (ring * math::cos64(u)) as Real,
                (minor * math::sin64(v)) as Real,
                (ring * math::sin64(u)) as Real,
            ));
        }
    }
    let index = |i: u32, j: u32| (i % segments) * sides + (j % sides);
    let mut triangles = Vec::with_capacity(2 * segments as usize * sides as usize);
    for i in 0..segments {
        for j in 0..sides {
            // Round the tube, then round the ring: that order turns counter-clockwise seen
            // from outside.
            let (a, b) = (index(i, j), index(i, j + 1));
            let (c, d) = (index(i + 1, j + 1), index(i + 1, j));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    mesh_part(vertices, triangles)
}

/// A planet of `desc.radius` metres whose ground rises and falls by up to about
/// `desc.relief`: an icosahedron split `desc.detail` times, each vertex pushed out or in along
/// its direction from the centre (the local origin). Hills are smooth bumps and hollows;
/// craters are bowls with a raised rim; cliffs ring mesas that rise by about `desc.relief`
/// over half a metre of ground, far steeper than any slope limit. The same
/// description always gives the same mesh. One part, a one-sided trimesh facing outward.
///
/// # Errors
/// [`GenerateError::BadLength`] for a bad radius, [`GenerateError::BadAmplitude`] or
/// [`GenerateError::TooLarge`] for a relief that is negative, not finite or over a quarter of
/// the radius, [`GenerateError::BadCount`] for a detail or feature count out of range.
pub fn terrain_planet(desc: TerrainDesc) -> Result<Vec<Part>, GenerateError> {
    Ok(Generator::terrain(desc)?.parts())
}

/// One feature of a terrain planet: a centre direction, an angular radius (rad) and a size.
struct Feature {
    centre: Vec3,
    width: f64,
    size: f64,
}

/// The seed-chosen features of a terrain planet.
struct Relief {
    hills: Vec<Feature>,
    craters: Vec<Feature>,
    cliffs: Vec<Feature>,
}

impl Relief {
    fn new(desc: &TerrainDesc) -> Self {
        let mut rng = SplitMix64::new(desc.seed);
        let relief = f64::from(desc.relief);
        let mut features = |count: u32, widths: (f64, f64), sizes: (f64, f64)| {
            (0..count)
                .map(|_| Feature {
                    centre: random_direction(&mut rng),
                    width: rng.range(widths.0, widths.1),
                    size: relief * rng.range(sizes.0, sizes.1),
                })
                .collect::<Vec<_>>()
        };
        Self {
            hills: features(desc.hills, (0.3, 0.8), (-0.6, 1.0)),
            craters: features(desc.craters, (0.15, 0.3), (0.3, 0.45)),
            cliffs: features(desc.cliffs, (0.12, 0.25), (0.9, 1.0)),
        }
    }

    /// Height (m) above the undisturbed ball along `direction` (unit) on a planet of
    /// `radius` metres.
    fn height(&self, direction: &Vec3, radius: f64) -> f64 {
        let angle = |f: &Feature| f64::from(direction.dot(&f.centre).clamp(-1.0, 1.0)).acos();
        let mut h = 0.0;
        for hill in &self.hills {
            let t = angle(hill) / hill.width;
            if t < 1.0 {
                // A raised cosine: flat at its top and where it meets the plain.
                h += hill.size * 0.5 * (1.0 + math::cos64(std::f64::consts::PI * t));
            }
        }
        for crater in &self.craters {
            let t = angle(crater) / crater.width;
            if t < 1.6 {
                let bowl = if t < 1.0 { -(1.0 - t * t) } else { 0.0 };
                let rim = 0.35 * (-((t - 1.0) / 0.25).powi(2)).exp();
                h += crater.size * (bowl + rim);
            }
        }
        for cliff in &self.cliffs {
            // The cliff rises over half a metre of ground, centred on the mesa's rim.
            let edge = 0.5 / radius;
            let t = (cliff.width - angle(cliff)) / edge + 0.5;
            h += cliff.size * t.clamp(0.0, 1.0);
        }
        h
    }
}

pub(super) fn terrain_parts(desc: &TerrainDesc) -> Vec<Part> {
    let (mut directions, triangles) = icosphere(desc.detail);
    let relief = Relief::new(desc);
    let radius = f64::from(desc.radius);
    // Bound the heights so that the ground never reaches the centre whatever the features
    // add up to.
    let lowest = -0.9 * radius;
    for d in &mut directions {
        let h = relief.height(&d.coords, radius).max(lowest);
        *d = Point3::from(d.coords * ((radius + h) as Real));
    }
    mesh_part(directions, triangles)
}

/// The unit icosphere: an icosahedron whose triangles are split in four `detail` times, its
/// vertices pushed onto the unit sphere; counter-clockwise seen from outside.
fn icosphere(detail: u32) -> (Vec<Point3>, Vec<[u32; 3]>) {
    let phi = (1.0 + 5.0f32.sqrt()) * 0.5;
    let mut vertices: Vec<Point3> = [
        (-1.0, phi, 0.0),
        (1.0, phi, 0.0),
        (-1.0, -phi, 0.0),
        (1.0, -phi, 0.0),
        (0.0, -1.0, phi),
        (0.0, 1.0, phi),
        (0.0, -1.0, -phi),
        (0.0, 1.0, -phi),
        (phi, 0.0, -1.0),
        (phi, 0.0, 1.0),
        (-phi, 0.0, -1.0),
        (-phi, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Point3::from(Vec3::new(x, y, z).normalize()))
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..detail {
        let mut middles: HashMap<(u32, u32), u32> = HashMap::new();
        let mut split = Vec::with_capacity(triangles.len() * 4);
        for [a, b, c] in triangles {
            let mut middle = |p: u32, q: u32| {
                *middles.entry((p.min(q), p.max(q))).or_insert_with(|| {
                    let m = (vertices[p as usize].coords + vertices[q as usize].coords).normalize();
                    vertices.push(Point3::from(m));
                    // NOTE: at most 10 * 4^7 + 2 vertices, far inside u32.
                    (vertices.len() - 1) as u32
                })
            };
            let (ab, bc, ca) = (middle(a, b), middle(b, c), middle(c, a));
            split.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        triangles = split;
    }
    (vertices, triangles)
}

/// One trimesh part at the identity pose.
fn mesh_part(vertices: Vec<Point3>, triangles: Vec<[u32; 3]>) -> Vec<Part> {
    match SharedShape::trimesh(vertices, triangles) {
        Ok(shape) => vec![Part {
            shape,
            pose: Iso::identity(),
        }],
        // NOTE: the generators above make neither empty meshes nor bad indices, and check
        // every length; a failure here would be a bug, so it gives no part rather than panic.
        Err(_) => Vec::new(),
    }
}
