//! The static and kinematic geometry characters move through, indexed by parry's BVH (and
//! a cell grid for small colliders that all move, see [`ColliderFlags::grid`]).
//!
//! # Layout
//! - `geometry.rs`: the backend trait [`Geometry`] (three calls) and its helpers.
//! - `primitive.rs`: [`Primitive`], the pieces of colliders the motor measures.
//! - `decompose.rs`: parry shapes into primitives, and the per-collider cache of solids.
//! - `faces.rs`: a static mesh's or heightfield's faces placed in the world once, when the
//!   collider is set, rather than by every query.
//! - `collision_world.rs`: [`CollisionWorld`], the embedded backend (BVH and cell grid).
//! - `query.rs`: [`WorldQueries`], the queries every backend answers, written once.
//! - `measure.rs`: one operation on one primitive, one dispatch on its shape per operation.
//! - `closest.rs`, `cast.rs`: the closed-form kernels the dispatches call.
//!
//! # Naming rule
//! Kernels are named `{operation}_{shape}`: `closest_triangle`, `closest_cuboid`,
//! `cast_sphere_capsule`. The dispatch over a primitive's shape is `{operation}_primitive`
//! (`closest_primitive`, `cast_ray_primitive`), a loop over many primitives
//! `{operation}_among`, and the whole-world query the bare operation (`closest_point`,
//! `cast_sphere`, `cast_ray`). Operations: `closest` (closest point with sidedness),
//! `extent` (reach along a direction), `cast_sphere`, `cast_ray`.

pub(crate) mod cast;
mod closest;
mod collision_world;
mod decompose;
mod faces;
pub(crate) mod geometry;
mod grid;
pub(crate) mod measure;
pub(crate) mod primitive;
pub(crate) mod query;
#[cfg(test)]
mod test_rng;

pub use cast::Sweep;
pub use closest::SurfacePoint;
pub use collision_world::CollisionWorld;
pub use query::{RayHit, SphereCastHit, WorldQueries};
// What a collision backend implements and uses: re-exported by the crate's `backend` room.
pub(crate) use geometry::{ColliderMotion, Geometry, boxes_overlap};
pub(crate) use primitive::{Primitive, PrimitiveShape};

pub(crate) use crate::contact::ColliderId;

use crate::math::{Iso, Real, Vec3};
use parry3d::bounding_volume::Aabb;
use parry3d::shape::SharedShape;
use thiserror::Error;

/// Per-collider behaviour flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderFlags {
    /// Characters never stand stably on this collider: any ground contact with it counts as
    /// steep ground, whatever its slope.
    pub not_walkable: bool,
    /// Mesh and heightfield triangles collide from both sides (Jolt's back-face mode). By
    /// default they are one-sided: seen from behind they are not there, so characters pass
    /// through from the back and are pushed out to the front only when they crossed the face
    /// from the front. Solid shapes ignore this flag.
    #[cfg_attr(feature = "serde", serde(default))]
    pub two_sided: bool,
    /// The collider is kept in the world's uniform cell grid instead of its BVH. For many
    /// small colliders that all move every step (a crowd's bodies): moving one is a hash
    /// lookup instead of a BVH refit, and a query reads a few short arrays. A query looks as
    /// far round its box as the largest collider on the grid reaches, so keep large colliders
    /// (platforms, terrain) off it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub grid: bool,
    /// The collider is a character's body ([`crate::walker::body_collider`]). The others' steps
    /// meet it like any collider, but it yields: the separation pass after the step moves it
    /// out of whoever it overlaps. So a character held only between such bodies (and walkable
    /// ground) is not reported crushed ([`crate::StepReport::crushed`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub character: bool,
    /// Characters climb this collider ([`crate::motor::Mode::Climb`]): one that moves into
    /// a face of it too steep to stand on (a ladder, a vine wall, a net, a ceiling) holds on
    /// and climbs it, gravity held off (see [`crate::motor::ClimbSettings`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub climbable: bool,
}

/// Selects which colliders a query sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// A collider is seen when `collider.layers & mask != 0`.
    pub mask: u32,
    /// A collider never seen by this query (e.g. the character's own body in a shared world).
    pub exclude: Option<ColliderId>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self {
            mask: u32::MAX,
            exclude: None,
        }
    }
}

impl QueryFilter {
    /// True when the collider `id` with `layers` passes this filter.
    #[inline]
    pub fn accepts(&self, id: ColliderId, layers: u32) -> bool {
        layers & self.mask != 0 && self.exclude != Some(id)
    }
}

/// Layer bit that [`ColliderDesc::new`] puts colliders on (bit 0). Games give other bits to
/// other kinds of collider (the runtime puts character bodies on bit 31 alone), so a
/// [`QueryFilter::mask`] can pick kinds apart; the default mask sees every layer.
pub const DEFAULT_LAYER: u32 = 1;

/// Everything needed to add a collider to a [`CollisionWorld`].
#[derive(Clone)]
pub struct ColliderDesc {
    /// The parry shape, in the collider's local frame.
    pub shape: SharedShape,
    /// World pose of the collider (m, rad).
    pub pose: Iso,
    /// Layer membership bits, matched against [`QueryFilter::mask`] ([`DEFAULT_LAYER`] unless
    /// set).
    pub layers: u32,
    /// Behaviour flags.
    pub flags: ColliderFlags,
    /// Linear velocity of a kinematic collider (m/s, world); zero for static ones.
    pub linear_velocity: Vec3,
    /// Angular velocity of a kinematic collider (rad/s, world axis times rate); zero for static ones.
    pub angular_velocity: Vec3,
}

impl ColliderDesc {
    /// A static collider with `shape` at the world origin, on [`DEFAULT_LAYER`], walkable.
    pub fn new(shape: SharedShape) -> Self {
        Self {
            shape,
            pose: Iso::identity(),
            layers: DEFAULT_LAYER,
            flags: ColliderFlags::default(),
            linear_velocity: Vec3::zeros(),
            angular_velocity: Vec3::zeros(),
        }
    }

    /// Sets the world pose (m, rad).
    pub fn pose(mut self, pose: Iso) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the world position (m), keeping the rotation.
    pub fn translation(mut self, x: Real, y: Real, z: Real) -> Self {
        self.pose.translation.vector = Vec3::new(x, y, z);
        self
    }

    /// Sets the layer membership bits.
    pub fn layers(mut self, layers: u32) -> Self {
        self.layers = layers;
        self
    }

    /// Marks the collider as never walkable.
    pub fn not_walkable(mut self) -> Self {
        self.flags.not_walkable = true;
        self
    }

    /// Makes mesh and heightfield triangles collide from both sides
    /// ([`ColliderFlags::two_sided`]).
    pub fn two_sided(mut self) -> Self {
        self.flags.two_sided = true;
        self
    }

    /// Keeps the collider in the world's cell grid ([`ColliderFlags::grid`]).
    pub fn on_grid(mut self) -> Self {
        self.flags.grid = true;
        self
    }

    /// Marks the collider as climbable ([`ColliderFlags::climbable`]).
    pub fn climbable(mut self) -> Self {
        self.flags.climbable = true;
        self
    }

    /// Marks the collider as a character's body ([`ColliderFlags::character`]).
    pub fn character_body(mut self) -> Self {
        self.flags.character = true;
        self
    }

    /// Gives the collider kinematic velocities (m/s and rad/s, world).
    pub fn velocity(mut self, linear: Vec3, angular: Vec3) -> Self {
        self.linear_velocity = linear;
        self.angular_velocity = angular;
        self
    }
}

/// A collider stored in a [`CollisionWorld`].
#[derive(Clone)]
pub struct Collider {
    /// The parry shape, local frame.
    pub shape: SharedShape,
    /// World pose (m, rad).
    pub pose: Iso,
    /// Layer membership bits.
    pub layers: u32,
    /// Behaviour flags.
    pub flags: ColliderFlags,
    /// Linear velocity (m/s, world).
    pub linear_velocity: Vec3,
    /// Angular velocity (rad/s, world).
    pub angular_velocity: Vec3,
    /// World bounding box (m).
    pub aabb: Aabb,
    /// The shape as closed-form solids (local), when it is made of balls, cuboids and
    /// capsules only.
    solids: Option<decompose::LocalSolids>,
    /// A mesh's or heightfield's faces placed at `pose` (world), until the collider moves.
    faces: Option<faces::PlacedFaces>,
    /// The shape's [`local_box`] (a compound's), so moving the collider reads no shape.
    local_box: Option<Aabb>,
}

impl Collider {
    /// Sets the world pose; faces placed at another pose no longer hold and are dropped (the
    /// collider is decomposed on the fly from then on).
    fn move_to(&mut self, pose: Iso) {
        if self.pose != pose {
            self.faces = None;
        }
        self.pose = pose;
    }
}

/// Farthest a collider may reach from the world origin along any axis (m, world): 1000 km.
/// Beyond it the spacing of f32 coordinates passes 6 cm, so contacts there are unreliable; a
/// collider reaching further is refused ([`WorldError::OutOfRange`]) whatever made it (a
/// primitive, a mesh, a heightfield, an OBJ file or a scene generator).
pub const MAX_COORD: Real = 1.0e6;

/// Why a collider was refused by a [`CollisionWorld`].
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The pose or a velocity holds NaN or infinity.
    #[error("collider pose or velocity is not finite: translation {translation:?}")]
    NonFinitePose {
        /// The rejected translation (m, world).
        translation: [Real; 3],
    },
    /// The shape's bounding box is not finite (NaN or infinite vertices, radii or half-extents).
    #[error("collider shape has a non-finite bounding box: mins {mins:?}, maxs {maxs:?}")]
    NonFiniteShape {
        /// Lower corner of the computed box (m, world).
        mins: [Real; 3],
        /// Upper corner of the computed box (m, world).
        maxs: [Real; 3],
    },
    /// The shape's bounding box reaches beyond [`MAX_COORD`] from the origin (a huge mesh
    /// quad, a heightfield spike, a far-away pose).
    #[error(
        "collider reaches beyond {max} m from the origin: mins {mins:?}, maxs {maxs:?}",
        max = MAX_COORD
    )]
    OutOfRange {
        /// Lower corner of the computed box (m, world).
        mins: [Real; 3],
        /// Upper corner of the computed box (m, world).
        maxs: [Real; 3],
    },
    /// No collider with this id exists: never handed out, or removed (a stale id).
    #[error("no collider with id {0:?}")]
    UnknownCollider(ColliderId),
    /// The world holds as many colliders as a `u32` slot index can name.
    #[error("the collision world is full")]
    Full,
}

/// The bounding box (world, m) of a sphere of `radius` (m) at `centre` (world): the cube of
/// half-width `radius` about it.
#[inline]
pub(crate) fn sphere_box(centre: &crate::math::Point3, radius: Real) -> Aabb {
    let r = Vec3::repeat(radius);
    Aabb::new(centre - r, centre + r)
}

/// [`boxes_overlap`] with all six comparisons made and counted, without a branch: quicker
/// in loops where no test predicts the answer, slower where the first tests mostly decide.
/// It serves the cell grid's scan and a compound's parts. (A sphere's contacts among many
/// primitives make no branch per test at all: [`each_overlapping`].)
#[inline]
pub(crate) fn boxes_overlap_counted(a: &Aabb, b: &Aabb) -> bool {
    let (lo, hi) = (&a.mins, &a.maxs);
    let (other_lo, other_hi) = (&b.mins, &b.maxs);
    let met = u8::from(lo.x <= other_hi.x)
        + u8::from(lo.y <= other_hi.y)
        + u8::from(lo.z <= other_hi.z)
        + u8::from(other_lo.x <= hi.x)
        + u8::from(other_lo.y <= hi.y)
        + u8::from(other_lo.z <= hi.z);
    met == 6
}

/// Calls `found` with the index of each primitive of `prims` whose box overlaps `bounds`
/// (world, m), in order: the first cut of a sphere's contacts (the query a step runs most)
/// and of the casts and overlap measures among a step's primitives.
///
/// Past [`MASKED_FROM`] primitives the boxes are tested 64 at a time into a bit mask with no
/// branch per test (the six comparisons of [`boxes_overlap`] and-ed together), and the set
/// bits are read off in order. A loop that branches on each test mispredicts about as often
/// as a neighbour's box happens to overlap: on Jolt's scene (about 20 triangles a step) that
/// loop was three quarters of the pushback's own time, and the motor step is 5 % quicker
/// without such loops (criterion's `one/motor`), though it runs 8 % more instructions. A few
/// primitives (a planet, a room's boxes) branch as well as they predict, and keep the plain
/// loop.
#[inline]
pub(crate) fn each_overlapping(prims: &[Primitive], bounds: &Aabb, mut found: impl FnMut(usize)) {
    if prims.len() < MASKED_FROM {
        for (k, prim) in prims.iter().enumerate() {
            if boxes_overlap(&prim.aabb, bounds) {
                found(k);
            }
        }
        return;
    }
    for (chunk, part) in prims.chunks(64).enumerate() {
        let mut mask = part.iter().enumerate().fold(0u64, |mask, (i, p)| {
            mask | u64::from(boxes_overlap(&p.aabb, bounds)) << i
        });
        while mask != 0 {
            found(chunk * 64 + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
    }
}

/// Primitives from which [`each_overlapping`] tests boxes into a bit mask.
const MASKED_FROM: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;
    use parry3d::bounding_volume::BoundingVolume;

    /// `boxes_overlap` and `boxes_overlap_counted` answer as parry's `intersects` for boxes
    /// that overlap, touch or miss along each axis in turn, and never overlap a box holding NaN
    /// in any of its six coordinates.
    #[test]
    fn box_tests_match_parry_including_touching_and_nan() {
        let unit = Aabb::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 1.0));
        let mut cases = vec![unit];
        for axis in 0..3 {
            for shift in [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0] {
                let mut d = Vec3::zeros();
                d[axis] = shift;
                cases.push(Aabb::new(unit.mins + d, unit.maxs + d));
            }
        }
        for b in &cases {
            for test in [boxes_overlap, boxes_overlap_counted] {
                assert_eq!(test(&unit, b), unit.intersects(b), "{b:?}");
                assert_eq!(test(b, &unit), b.intersects(&unit), "{b:?}");
            }
        }
        for k in 0..6 {
            let mut nan = unit;
            if k < 3 {
                nan.mins[k] = Real::NAN;
            } else {
                nan.maxs[k - 3] = Real::NAN;
            }
            assert!(
                !boxes_overlap(&unit, &nan) && !boxes_overlap(&nan, &unit),
                "NaN at {k}"
            );
            assert!(
                !boxes_overlap_counted(&unit, &nan) && !boxes_overlap_counted(&nan, &unit),
                "NaN at {k}"
            );
        }
    }

    /// `each_overlapping` finds, in order, exactly the primitives whose boxes a plain filter
    /// with parry's `intersects` keeps: for lists of 0 to 200 primitives (the plain loop, part
    /// of a 64-wide mask, one and several masks), boxes that touch, miss or hold NaN, and
    /// query boxes from a point to the whole scatter.
    #[test]
    fn each_overlapping_finds_what_a_plain_filter_keeps_in_order() {
        use super::test_rng::Lcg;
        let mut rng = Lcg(64);
        let prim = |aabb: Aabb| Primitive {
            collider: ColliderId::new(0, 0),
            walkable: true,
            character: false,
            climbable: false,
            aabb,
            shape: PrimitiveShape::Ball {
                centre: aabb.center(),
                radius: 0.1,
            },
        };
        let mut total = 0;
        for len in [0, 1, 5, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200] {
            let prims: Vec<Primitive> = (0..len)
                .map(|i| {
                    let centre = Point3::from(rng.vec(5.0));
                    let b = sphere_box(&centre, rng.range(0.0, 1.0));
                    match i % 17 {
                        // A box holding NaN, which overlaps nothing.
                        3 => prim(Aabb::new(Point3::new(Real::NAN, 0.0, 0.0), b.maxs)),
                        // A box touching the unit cube's face at x = 1.
                        5 => prim(Aabb::new(
                            Point3::new(1.0, 0.2, 0.2),
                            Point3::new(2.0, 0.8, 0.8),
                        )),
                        _ => prim(b),
                    }
                })
                .collect();
            for reach in [0.0, 0.5, 2.0, 20.0] {
                let unit = Aabb::new(Point3::origin(), Point3::new(1.0, 1.0, 1.0));
                let query = unit.loosened(reach);
                let plain: Vec<usize> = (0..len)
                    .filter(|&k| prims[k].aabb.intersects(&query))
                    .collect();
                let mut masked = Vec::new();
                each_overlapping(&prims, &query, |k| masked.push(k));
                assert_eq!(masked, plain, "{len} primitives, reach {reach}");
                total += masked.len();
            }
        }
        assert!(total > 500, "only {total} overlaps seen");
    }
}

#[cfg(test)]
mod placed_faces {
    use super::faces::{MAX_PLACED_FACES, PlacedFaces};
    use super::geometry::shape_primitives;
    use super::test_rng::Lcg;
    use super::{ColliderDesc, CollisionWorld, Geometry, QueryFilter, boxes_overlap};
    use crate::math::{Iso, Point3, Real, Vec3};
    use nalgebra::DMatrix;
    use parry3d::bounding_volume::Aabb;
    use parry3d::shape::{HeightFieldCellStatus, HeightFieldFlags, SharedShape};

    /// A bumpy 12 × 12-cell mesh, 1 m cells, with a zero-area triangle and a sliver among
    /// its faces (both must stay skipped).
    fn mesh() -> SharedShape {
        let n = 13;
        let mut vertices = Vec::new();
        for z in 0..n {
            for x in 0..n {
                let (fx, fz) = (x as Real, z as Real);
                vertices.push(Point3::new(fx, (0.7 * fx).sin() * (0.4 * fz).cos(), fz));
            }
        }
        let mut indices = Vec::new();
        for z in 0..n - 1 {
            for x in 0..n - 1 {
                let i = z * n + x;
                indices.push([i, i + n, i + 1]);
                indices.push([i + 1, i + n, i + n + 1]);
            }
        }
        // A zero-area triangle and a sliver 1e-7 m high over a 1 m edge.
        let base = vertices.len() as u32;
        vertices.extend([
            Point3::new(3.0, 2.0, 3.0),
            Point3::new(4.0, 2.0, 3.0),
            Point3::new(5.0, 2.0, 3.0),
            Point3::new(3.5, 2.0 + 1e-7, 3.0),
        ]);
        indices.push([base, base + 1, base + 2]);
        indices.push([base, base + 3, base + 1]);
        SharedShape::trimesh(vertices, indices).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A 10 × 12-cell heightfield 8 m × 10 m, half its cells zigzag, with a removed cell and
    /// a cell missing its right triangle.
    fn field() -> SharedShape {
        let heights = DMatrix::from_fn(11, 13, |i, j| ((i * 7 + j * 3) % 5) as Real * 0.3);
        let mut status = DMatrix::from_fn(10, 12, |i, j| {
            if (i + j) % 2 == 0 {
                HeightFieldCellStatus::ZIGZAG_SUBDIVISION
            } else {
                HeightFieldCellStatus::empty()
            }
        });
        status[(4, 4)] = HeightFieldCellStatus::CELL_REMOVED;
        status[(6, 2)] = HeightFieldCellStatus::RIGHT_TRIANGLE_REMOVED;
        let mut field = parry3d::shape::HeightField::with_flags(
            heights,
            Vec3::new(8.0, 1.0, 10.0),
            HeightFieldFlags::empty(),
        );
        *field.cells_statuses_mut() = status;
        SharedShape::new(field)
    }

    /// The primitives `world` gathers in `region` against what decomposing the collider's
    /// shape on the fly gives: the same, bit for bit.
    fn gathered_as_on_the_fly(world: &CollisionWorld, region: &Aabb) -> usize {
        let (mut ids, mut placed) = (Vec::new(), Vec::new());
        world.gather_primitives(region, &QueryFilter::default(), &mut ids, &mut placed);
        let mut fly = Vec::new();
        for (id, c) in world.iter() {
            if boxes_overlap(&c.aabb, region) {
                shape_primitives(id, &c.flags, (&*c.shape.0, &c.pose), region, &mut fly);
            }
        }
        assert_eq!(placed, fly, "region {region:?}");
        placed.len()
    }

    #[test]
    fn placed_faces_are_the_faces_decomposed_on_the_fly() {
        let mut rng = Lcg(33);
        // Each shape with the middle of its local box (m) and how far around it regions go.
        let middle = Vec3::new(6.0, 0.5, 6.0);
        let shapes = [
            (mesh(), false, middle, 7.0),
            (mesh(), true, middle, 7.0),
            (field(), false, Vec3::new(0.0, 0.6, 0.0), 5.0),
        ];
        for (shape, two_sided, middle, spread) in shapes {
            let pose = rng.pose(20.0);
            let mut world = CollisionWorld::new();
            let desc = ColliderDesc::new(shape).pose(pose);
            let desc = if two_sided { desc.two_sided() } else { desc };
            let id = world.insert(desc).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                world.get(id).is_some_and(|c| c.faces.is_some()),
                "faces placed"
            );
            let mut total = 0;
            for _ in 0..200 {
                let (x, z) = (rng.range(-spread, spread), rng.range(-spread, spread));
                let centre = pose * Point3::from(middle + Vec3::new(x, rng.range(-1.0, 1.0), z));
                let half = Vec3::new(
                    rng.range(0.1, 3.0),
                    rng.range(0.1, 3.0),
                    rng.range(0.1, 3.0),
                );
                total += gathered_as_on_the_fly(&world, &Aabb::new(centre - half, centre + half));
            }
            // The regions must meet the shape, or the comparison shows nothing.
            assert!(total > 1000, "{total} primitives compared");
            // Moved, the collider drops its faces and still gathers the right ones.
            let moved = rng.pose(20.0);
            world.set_pose(id, moved).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                world.get(id).is_some_and(|c| c.faces.is_none()),
                "faces dropped"
            );
            let centre = moved * Point3::from(middle);
            let half = Vec3::repeat(4.0);
            let after = gathered_as_on_the_fly(&world, &Aabb::new(centre - half, centre + half));
            assert!(after > 10, "{after} primitives after the move");
        }
    }

    /// A mesh's walk with `boxes_overlap` (as the gather walks it) visits exactly the leaves
    /// of parry's `intersect_aabb`, in the same order, for boxes from a point to the whole
    /// mesh, touching its faces' boxes or holding NaN.
    #[test]
    fn a_mesh_walk_with_boxes_overlap_finds_parrys_leaves_in_order() {
        let shape = mesh();
        let Some(trimesh) = shape.as_trimesh() else {
            panic!("a trimesh");
        };
        let mut rng = Lcg(5);
        let mut found = 0;
        for case in 0..500 {
            let centre = Point3::new(
                rng.range(-1.0, 13.0),
                rng.range(-2.0, 3.0),
                rng.range(-1.0, 13.0),
            );
            let half = Vec3::repeat(rng.range(0.0, 3.0) * rng.unit());
            let mut region = Aabb::new(centre - half, centre + half);
            if case % 50 == 0 {
                region.maxs.y = Real::NAN;
            }
            let theirs: Vec<u32> = trimesh.bvh().intersect_aabb(&region).collect();
            let ours: Vec<u32> = trimesh
                .bvh()
                .leaves(|node| boxes_overlap(&node.aabb(), &region))
                .collect();
            assert_eq!(ours, theirs, "case {case}");
            found += ours.len();
        }
        assert!(found > 1_000, "{found} leaves found");
    }

    #[test]
    fn a_mesh_too_big_or_a_mirrored_field_places_no_faces() {
        // A mirrored field keeps the on-the-fly path.
        let mirrored = parry3d::shape::HeightField::new(
            DMatrix::from_element(3, 3, 0.0),
            Vec3::new(-4.0, 1.0, 4.0),
        );
        assert!(PlacedFaces::of(&mirrored, &Iso::identity()).is_none());
        // One more cell than the limit allows.
        let rows = MAX_PLACED_FACES / 2 / 1024 + 1;
        let big = parry3d::shape::HeightField::new(
            DMatrix::from_element(rows + 1, 1025, 0.0),
            Vec3::new(100.0, 1.0, 100.0),
        );
        assert!(PlacedFaces::of(&big, &Iso::identity()).is_none());
        let fits = parry3d::shape::HeightField::new(
            DMatrix::from_element(rows, 1025, 0.0),
            Vec3::new(100.0, 1.0, 100.0),
        );
        assert!(PlacedFaces::of(&fits, &Iso::identity()).is_some());
    }

    /// A query that leaves out the grid's only collider (a lone character's own body) skips
    /// the grid and still finds the scenery; without the exclusion, or once a second body
    /// joins, the bodies are found as before.
    #[test]
    fn a_query_leaving_out_the_grids_only_body_finds_the_rest() {
        let mut world = CollisionWorld::new();
        let floor = world
            .insert(ColliderDesc::new(SharedShape::cuboid(5.0, 0.5, 5.0)))
            .expect("floor");
        let ball = |x: Real| {
            ColliderDesc::new(SharedShape::ball(0.3))
                .translation(x, 1.0, 0.0)
                .on_grid()
        };
        let me = world.insert(ball(0.0)).expect("me");
        let around = Aabb::new(Point3::new(-2.0, -1.0, -2.0), Point3::new(2.0, 2.0, 2.0));
        let query = |world: &CollisionWorld, exclude| {
            let mut out = Vec::new();
            let filter = QueryFilter {
                exclude,
                ..QueryFilter::default()
            };
            world.overlap_aabb(&around, &filter, &mut out);
            out
        };
        assert_eq!(query(&world, Some(me)), [floor]);
        assert_eq!(query(&world, None), [floor, me]);
        let other = world.insert(ball(1.0)).expect("other");
        assert_eq!(query(&world, Some(me)), [floor, other]);
        world.remove(other).expect("removed");
        assert_eq!(query(&world, Some(me)), [floor]);
        // A stale id of the lone body's slot leaves out nothing.
        world.remove(me).expect("removed");
        let again = world.insert(ball(0.5)).expect("again");
        assert_eq!(again.index(), me.index());
        assert_eq!(query(&world, Some(me)), [floor, again]);
    }
}
