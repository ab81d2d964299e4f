//! Collider items: shapes, solids and generated groups (stairs, ramps, grids, planets,
//! heightfields, OBJ meshes).

use super::*;

/// A collider shape in its own frame (m). Capsules, cylinders and cones stand along local +Y.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum ShapeDesc {
    /// A box with half-extents (m), its edges and corners rounded by `border_radius` when
    /// given (the rounding is added outside the half-extents).
    Cuboid {
        /// Half-extents along local X, Y, Z (m).
        half_extents: Xyz,
        /// Radius of the rounded edges and corners (m); sharp when left out.
        #[serde(default)]
        border_radius: Option<Real>,
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
    pub(super) fn shape(&self) -> Result<SharedShape, String> {
        Ok(match self {
            ShapeDesc::Cuboid {
                half_extents,
                border_radius,
            } => {
                let [x, y, z] = *half_extents;
                let (x, y, z) = (
                    length("half_extents.x", x)?,
                    length("half_extents.y", y)?,
                    length("half_extents.z", z)?,
                );
                match border_radius {
                    Some(r) => SharedShape::round_cuboid(x, y, z, length("border_radius", *r)?),
                    None => SharedShape::cuboid(x, y, z),
                }
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
pub(crate) enum ColliderRon {
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
        /// Whether characters climb it (a ladder, a vine wall, a ceiling): see
        /// [`spherewalk_core::world::ColliderFlags::climbable`].
        #[serde(default)]
        climbable: bool,
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
    /// [`generate::torus`]: a ring round local +Y, a one-sided mesh facing outward.
    Torus {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Radius of the circle the tube runs round (m).
        major_radius: Real,
        /// Radius of the tube (m), below `major_radius`.
        minor_radius: Real,
        /// Quads round the ring.
        #[serde(default = "default_torus_segments")]
        segments: u32,
        /// Quads round the tube.
        #[serde(default = "default_torus_sides")]
        sides: u32,
        /// Centre (m, world).
        #[serde(default)]
        at: Xyz,
        /// Rotation (degrees about X, Y, Z).
        #[serde(default)]
        rot_deg: Xyz,
    },
    /// [`generate::terrain_planet`]: a displaced icosphere with hills, craters and cliffs,
    /// centred on `at`; a one-sided mesh facing outward.
    Terrain {
        /// Name for traces.
        #[serde(default)]
        name: Option<String>,
        /// Radius of the undisturbed ball (m).
        radius: Real,
        /// Height of hills and mesas (m), at most a quarter of `radius`.
        relief: Real,
        /// Subdivisions of the icosahedron (0 to 7).
        #[serde(default = "default_terrain_detail")]
        detail: u32,
        /// Hills and hollows.
        #[serde(default = "default_terrain_hills")]
        hills: u32,
        /// Craters.
        #[serde(default = "default_terrain_craters")]
        craters: u32,
        /// Cliff-sided mesas.
        #[serde(default = "default_terrain_cliffs")]
        cliffs: u32,
        /// Seed of the features.
        #[serde(default)]
        seed: u64,
        /// Centre (m, world).
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
        /// Whether characters climb it (a vine wall, a cliff face): see
        /// [`spherewalk_core::world::ColliderFlags::climbable`].
        #[serde(default)]
        climbable: bool,
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

fn default_torus_segments() -> u32 {
    48
}

fn default_torus_sides() -> u32 {
    24
}

fn default_terrain_detail() -> u32 {
    5
}

fn default_terrain_hills() -> u32 {
    10
}

fn default_terrain_craters() -> u32 {
    6
}

fn default_terrain_cliffs() -> u32 {
    3
}

fn one() -> Real {
    1.0
}

/// What a collider group is made of. Nothing big is made while a scene is parsed: generators
/// and meshes run when it is built, after its budget is checked.
#[derive(Clone, Debug)]
pub(crate) enum ColliderSource {
    /// One primitive shape at the group's origin.
    Solid(SharedShape),
    /// A generator call, checked, to run when the scene is built.
    Generated(generate::Generator),
    /// A mesh still to read when the scene is built.
    Obj {
        /// Path relative to the scene file.
        path: PathBuf,
        /// Uniform scale.
        scale: Real,
    },
}

impl ColliderSource {
    /// What the group will insert, counted from its parameters. An OBJ mesh is one collider
    /// whose triangles are counted only when its file is read, so it counts 0 here.
    pub(crate) fn cost(&self) -> generate::Cost {
        match self {
            ColliderSource::Generated(generator) => generator.cost(),
            ColliderSource::Solid(_) | ColliderSource::Obj { .. } => generate::Cost {
                parts: 1,
                triangles: 0,
            },
        }
    }
}

/// One validated entry of `colliders`: shapes in a local frame placed at `pose`.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "ColliderRon")]
pub(crate) struct ColliderItem {
    /// Name for traces (every part shares it).
    pub name: String,
    /// The shapes, in the group's local frame.
    pub geometry: ColliderSource,
    /// World pose of the group's local frame.
    pub pose: Iso,
    /// Whether characters may stand on it.
    pub walkable: bool,
    /// Whether mesh triangles collide from both sides.
    pub two_sided: bool,
    /// Whether characters climb it.
    pub climbable: bool,
}

impl TryFrom<ColliderRon> for ColliderItem {
    type Error = String;

    fn try_from(desc: ColliderRon) -> Result<Self, String> {
        let (kind, name, at, rot_deg) = match &desc {
            ColliderRon::Solid {
                name, at, rot_deg, ..
            } => ("solid", name, at, rot_deg),
            ColliderRon::Stairs {
                name, at, rot_deg, ..
            } => ("stairs", name, at, rot_deg),
            ColliderRon::Ramp {
                name, at, rot_deg, ..
            } => ("ramp", name, at, rot_deg),
            ColliderRon::BoxGrid {
                name, at, rot_deg, ..
            } => ("box_grid", name, at, rot_deg),
            ColliderRon::Planet {
                name, at, rot_deg, ..
            } => ("planet", name, at, rot_deg),
            ColliderRon::Heightfield {
                name, at, rot_deg, ..
            } => ("heightfield", name, at, rot_deg),
            ColliderRon::Torus {
                name, at, rot_deg, ..
            } => ("torus", name, at, rot_deg),
            ColliderRon::Terrain {
                name, at, rot_deg, ..
            } => ("terrain", name, at, rot_deg),
            ColliderRon::Obj {
                name, at, rot_deg, ..
            } => ("obj", name, at, rot_deg),
        };
        let name = name.clone().unwrap_or_else(|| kind.to_owned());
        let err = |e: String| fail(kind, &name, e);
        let pose = place(*at, *rot_deg).map_err(err)?;
        let gen_err = |e: generate::GenerateError| fail(kind, &name, e);
        let mut walkable = true;
        let mut two_sided = false;
        let mut climbable = false;
        let geometry = match desc {
            ColliderRon::Solid {
                shape,
                walkable: w,
                climbable: c,
                ..
            } => {
                walkable = w;
                climbable = c;
                ColliderSource::Solid(shape.shape().map_err(err)?)
            }
            ColliderRon::Stairs {
                steps,
                rise,
                tread,
                width,
                ..
            } => ColliderSource::Generated(
                generate::Generator::stairs(steps, rise, tread, width).map_err(gen_err)?,
            ),
            ColliderRon::Ramp {
                angle_deg,
                length,
                width,
                thickness,
                ..
            } => ColliderSource::Generated(
                generate::Generator::ramp(angle_deg.to_radians(), length, width, thickness)
                    .map_err(gen_err)?,
            ),
            ColliderRon::BoxGrid { nx, nz, size, .. } => ColliderSource::Generated(
                generate::Generator::box_grid(nx, nz, size).map_err(gen_err)?,
            ),
            ColliderRon::Planet {
                radius,
                rocks,
                rock_size,
                seed,
                ..
            } => ColliderSource::Generated(
                generate::Generator::planet(radius, rocks, rock_size, seed).map_err(gen_err)?,
            ),
            ColliderRon::Heightfield {
                cells,
                size,
                amplitude,
                seed,
                ..
            } => ColliderSource::Generated(
                generate::Generator::heightfield(cells, size, amplitude, seed).map_err(gen_err)?,
            ),
            ColliderRon::Torus {
                major_radius,
                minor_radius,
                segments,
                sides,
                ..
            } => ColliderSource::Generated(
                generate::Generator::torus(major_radius, minor_radius, segments, sides)
                    .map_err(gen_err)?,
            ),
            ColliderRon::Terrain {
                radius,
                relief,
                detail,
                hills,
                craters,
                cliffs,
                seed,
                ..
            } => ColliderSource::Generated(
                generate::Generator::terrain(generate::TerrainDesc {
                    radius,
                    relief,
                    detail,
                    hills,
                    craters,
                    cliffs,
                    seed,
                })
                .map_err(gen_err)?,
            ),
            ColliderRon::Obj {
                path,
                scale,
                two_sided: both,
                climbable: c,
                ..
            } => {
                two_sided = both;
                climbable = c;
                ColliderSource::Obj {
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
            climbable,
        })
    }
}
