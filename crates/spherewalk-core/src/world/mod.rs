//! The static and kinematic geometry characters move through, indexed by parry's BVH (and
//! a cell grid for small colliders that all move, see [`ColliderFlags::grid`]).

mod cast;
mod closest;
pub(crate) mod geometry;
mod grid;
mod measure;
pub(crate) mod primitive;
pub(crate) mod query;
#[cfg(test)]
mod test_rng;

pub use closest::SurfacePoint;
pub use query::{RayHit, SphereCastHit};
// What a collision backend implements and uses: re-exported by the crate's `backend` room.
pub(crate) use geometry::{Geometry, boxes_overlap};
pub(crate) use primitive::{Primitive, PrimitiveShape};

pub(crate) use crate::contact::ColliderId;

use crate::math::{Iso, Real, Vec3, is_finite_vec};
use parry3d::bounding_volume::Aabb;
use parry3d::partitioning::{Bvh, BvhWorkspace, TraversalAction};
use parry3d::shape::{Shape, SharedShape};
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
    solids: Option<primitive::LocalSolids>,
    /// The shape's [`local_box`] (a compound's), so moving the collider reads no shape.
    local_box: Option<Aabb>,
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

/// Static and kinematic colliders (any parry3d shape) indexed by a BVH, with the queries the
/// motor needs: AABB overlap, closest point with sidedness, sphere cast and ray cast.
///
/// All positions are in the world frame (m).
#[derive(Clone, Default)]
pub struct CollisionWorld {
    slots: Vec<Slot>,
    /// Free slot indices, reused last-freed first (deterministic).
    free: Vec<u32>,
    len: usize,
    bvh: Bvh,
    workspace: BvhWorkspace,
    /// Colliders flagged [`ColliderFlags::grid`], which are not in `bvh`.
    grid: grid::CellGrid,
}

/// One slot of the world: its generation and the collider in it, if any.
#[derive(Clone, Default)]
struct Slot {
    generation: u32,
    collider: Option<Collider>,
}

impl CollisionWorld {
    /// An empty world.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a collider and returns its id. Slots are filled in insertion order from index 0;
    /// after removals, the slot freed last is reused first, under a new generation.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`] or [`WorldError::NonFiniteShape`] when the pose, a velocity
    /// or the shape's bounds hold NaN or infinity; [`WorldError::Full`] when `u32::MAX` slots
    /// are in use.
    ///
    /// # Example
    /// ```
    /// use spherewalk_core::parry3d::shape::SharedShape;
    /// use spherewalk_core::{ColliderDesc, CollisionWorld, Point3, world::QueryFilter, Real, Vec3};
    /// let mut world = CollisionWorld::new();
    /// let floor = world.insert(
    ///     ColliderDesc::new(SharedShape::cuboid(5.0, 0.5, 5.0)).translation(0.0, -0.5, 0.0),
    /// )?;
    /// // A ray straight down from 2 m meets the floor's top, y = 0, 2 m away.
    /// let down = -Vec3::y_axis();
    /// let hit = world
    ///     .cast_ray(&Point3::new(1.0, 2.0, 1.0), &down, 10.0, &QueryFilter::default())
    ///     .expect("the floor is there");
    /// assert_eq!(hit.collider, floor);
    /// assert!((hit.distance - 2.0).abs() < 1e-5);
    /// // A shape with a NaN size is refused, not inserted.
    /// assert!(world.insert(ColliderDesc::new(SharedShape::ball(Real::NAN))).is_err());
    /// # Ok::<(), spherewalk_core::WorldError>(())
    /// ```
    pub fn insert(&mut self, desc: ColliderDesc) -> Result<ColliderId, WorldError> {
        let aabb = checked_aabb(&desc)?;
        let solids = primitive::LocalSolids::of(&*desc.shape.0);
        let local_box = local_box(&*desc.shape.0);
        let collider = Collider {
            shape: desc.shape,
            pose: desc.pose,
            layers: desc.layers,
            flags: desc.flags,
            linear_velocity: desc.linear_velocity,
            angular_velocity: desc.angular_velocity,
            aabb,
            solids,
            local_box,
        };
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                let index = u32::try_from(self.slots.len()).map_err(|_| WorldError::Full)?;
                if index == u32::MAX {
                    return Err(WorldError::Full);
                }
                self.slots.push(Slot::default());
                index
            }
        };
        let slot = &mut self.slots[index as usize];
        let on_grid = collider.flags.grid;
        let entry = grid::Entry {
            index,
            generation: slot.generation,
            layers: collider.layers,
            aabb,
        };
        slot.collider = Some(collider);
        self.len += 1;
        if on_grid {
            self.grid.insert(entry);
        } else {
            self.bvh.insert(aabb, index);
        }
        Ok(ColliderId::new(index, slot.generation))
    }

    /// Removes a collider and returns it. Its id is retired: every later use of it is an
    /// error, even after its slot is reused.
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for an id that is stale or was never handed out.
    pub fn remove(&mut self, id: ColliderId) -> Result<Collider, WorldError> {
        let slot = self
            .slots
            .get_mut(id.index() as usize)
            .filter(|s| s.generation == id.generation())
            .ok_or(WorldError::UnknownCollider(id))?;
        let collider = slot
            .collider
            .take()
            .ok_or(WorldError::UnknownCollider(id))?;
        if collider.flags.grid {
            self.grid.remove(id.index());
        } else {
            self.bvh.remove(id.index());
        }
        self.len -= 1;
        // A slot whose generations are used up is retired rather than wrapped round.
        if let Some(next) = slot.generation.checked_add(1) {
            slot.generation = next;
            self.free.push(id.index());
        }
        Ok(collider)
    }

    /// Moves a collider to a new world pose (kinematic colliders, moving platforms).
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for a bad id, [`WorldError::NonFinitePose`] for a pose
    /// holding NaN or infinity.
    pub fn set_pose(&mut self, id: ColliderId, pose: Iso) -> Result<(), WorldError> {
        let aabb = self.moved_aabb(id, &pose)?;
        if let Some(collider) = self.get_mut(id) {
            collider.pose = pose;
            collider.aabb = aabb;
            let on_grid = collider.flags.grid;
            self.reindex(id.index(), aabb, on_grid);
        }
        Ok(())
    }

    /// The world box of collider `id` if it moved to `pose`, after checking both.
    fn moved_aabb(&self, id: ColliderId, pose: &Iso) -> Result<Aabb, WorldError> {
        let c = self.get(id).ok_or(WorldError::UnknownCollider(id))?;
        let (linear, angular) = (&c.linear_velocity, &c.angular_velocity);
        checked_box(&*c.shape.0, c.local_box.as_ref(), pose, linear, angular)
    }

    /// Moves many colliders at once (characters' bodies, platforms) and refits the BVH once,
    /// which keeps the tree tight; cheaper than [`Self::set_pose`] for each. Every pose is
    /// checked before anything moves.
    ///
    /// A collider already at its new pose (bit for bit) costs one comparison: a game may
    /// pass every body every step, moved or not.
    ///
    /// # Errors
    /// As [`Self::set_pose`], for the first bad entry; nothing is moved then.
    pub fn set_poses(&mut self, moves: &[(ColliderId, Iso)]) -> Result<(), WorldError> {
        let boxes = moves
            .iter()
            .map(|(id, pose)| match self.get(*id) {
                Some(c) if c.pose == *pose => Ok(None),
                _ => self.moved_aabb(*id, pose).map(Some),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut tree_moved = false;
        for (&(id, pose), aabb) in moves.iter().zip(boxes) {
            let Some(aabb) = aabb else { continue };
            if let Some(collider) = self.get_mut(id) {
                collider.pose = pose;
                collider.aabb = aabb;
                if collider.flags.grid {
                    self.grid.update(id.index(), aabb);
                } else {
                    self.bvh.insert_or_update_partially(aabb, id.index(), 0.0);
                    tree_moved = true;
                }
            }
        }
        if tree_moved {
            self.bvh.refit(&mut self.workspace);
            // Moving leaves loosen the tree; re-optimising a slice of it each batch keeps
            // queries fast (queries sort their results by id, so the layout never shows).
            self.bvh.optimize_incremental(&mut self.workspace);
        }
        Ok(())
    }

    /// Replaces a collider's shape, keeping its pose (e.g. a crouching character's body).
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for a bad id, [`WorldError::NonFiniteShape`] for a
    /// shape whose bounds are not finite.
    pub fn set_shape(&mut self, id: ColliderId, shape: SharedShape) -> Result<(), WorldError> {
        let collider = self.get_mut(id).ok_or(WorldError::UnknownCollider(id))?;
        let aabb = checked_aabb(&ColliderDesc::new(shape.clone()).pose(collider.pose))?;
        collider.solids = primitive::LocalSolids::of(&*shape.0);
        collider.local_box = local_box(&*shape.0);
        collider.shape = shape;
        collider.aabb = aabb;
        let on_grid = collider.flags.grid;
        self.reindex(id.index(), aabb, on_grid);
        Ok(())
    }

    /// Sets a collider's kinematic velocities (m/s and rad/s, world).
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for a bad id, [`WorldError::NonFinitePose`] when a
    /// velocity holds NaN or infinity.
    pub fn set_velocity(
        &mut self,
        id: ColliderId,
        linear: Vec3,
        angular: Vec3,
    ) -> Result<(), WorldError> {
        let collider = self.get_mut(id).ok_or(WorldError::UnknownCollider(id))?;
        if !(is_finite_vec(&linear) && is_finite_vec(&angular)) {
            let t = collider.pose.translation.vector;
            return Err(WorldError::NonFinitePose {
                translation: [t.x, t.y, t.z],
            });
        }
        collider.linear_velocity = linear;
        collider.angular_velocity = angular;
        Ok(())
    }

    /// Puts slot `index`'s new box `aabb` (world, m) in its broad phase.
    fn reindex(&mut self, index: u32, aabb: Aabb, on_grid: bool) {
        if on_grid {
            self.grid.update(index, aabb);
        } else {
            self.bvh.insert(aabb, index);
        }
    }

    /// Rebuilds the BVH from scratch, and the cell grid with the tightest reach, for the best
    /// query speed after many insertions (or after the largest grid colliders left).
    pub fn optimize(&mut self) {
        let leaves = self
            .iter()
            .filter(|(_, c)| !c.flags.grid)
            .map(|(id, c)| (id.index() as usize, c.aabb));
        self.bvh = Bvh::from_iter(parry3d::partitioning::BvhBuildStrategy::Binned, leaves);
        self.grid.rebuild();
    }

    /// The collider with this id, if it is still in the world.
    pub fn get(&self, id: ColliderId) -> Option<&Collider> {
        self.slots
            .get(id.index() as usize)
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.collider.as_ref())
    }

    fn get_mut(&mut self, id: ColliderId) -> Option<&mut Collider> {
        self.slots
            .get_mut(id.index() as usize)
            .filter(|s| s.generation == id.generation())
            .and_then(|s| s.collider.as_mut())
    }

    /// The collider in slot `index` and its current id, if the slot holds one.
    pub(crate) fn slot(&self, index: u32) -> Option<(ColliderId, &Collider)> {
        let slot = self.slots.get(index as usize)?;
        let collider = slot.collider.as_ref()?;
        Some((ColliderId::new(index, slot.generation), collider))
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the world holds no collider.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All colliders with their ids, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (ColliderId, &Collider)> {
        (0..self.slots.len() as u32).filter_map(|i| self.slot(i))
    }

    /// Appends to `out` the ids of colliders passing `filter` whose bounding box overlaps `aabb`
    /// (world, m), sorted by id so results never depend on tree layout.
    pub fn overlap_aabb(&self, aabb: &Aabb, filter: &QueryFilter, out: &mut Vec<ColliderId>) {
        let start = out.len();
        // `traverse` keeps its stack of node indices in place, where the `intersect_aabb`
        // iterator carries (and moves) a stack of 32 node references.
        self.bvh.traverse(|node| {
            if !boxes_overlap(&node.aabb(), aabb) {
                return TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data()
                && let Some((id, c)) = self.slot(leaf)
                && filter.accepts(id, c.layers)
            {
                out.push(id);
            }
            TraversalAction::Continue
        });
        // A filter that sees none of the grid's layers (a character's pushback against the
        // scenery alone) skips the grid.
        if self.grid.layers() & filter.mask != 0 {
            self.grid.query(aabb, |e| {
                let id = ColliderId::new(e.index, e.generation);
                if filter.accepts(id, e.layers) {
                    out.push(id);
                }
            });
        }
        out[start..].sort_unstable();
    }
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
/// It serves the cell grid's scan, a compound's parts, and each sphere's test of the step's
/// primitives: in a dense crowd (neighbours' balls all around) early exits there cost the
/// motor step 17 %, while the single-character step benches stay within noise.
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

/// The world box of `desc`'s shape at its pose, after checking both ([`checked_box`]).
fn checked_aabb(desc: &ColliderDesc) -> Result<Aabb, WorldError> {
    let shape = &*desc.shape.0;
    let (pose, linear, angular) = (&desc.pose, &desc.linear_velocity, &desc.angular_velocity);
    checked_box(shape, local_box(shape).as_ref(), pose, linear, angular)
}

/// The box a compound carries with its pose (local, m): its world box at any pose is this
/// box carried there, as parry computes it. `None` for other shapes.
fn local_box(shape: &dyn Shape) -> Option<Aabb> {
    shape.as_compound().map(|c| *c.local_aabb())
}

/// The world box (m) of `shape` at `pose` (from `local`, its [`local_box`], when it has one,
/// without reading the shape), after checking that the pose and the velocities (m/s, rad/s)
/// are finite and the box finite and within [`MAX_COORD`].
fn checked_box(
    shape: &dyn Shape,
    local: Option<&Aabb>,
    pose: &Iso,
    linear: &Vec3,
    angular: &Vec3,
) -> Result<Aabb, WorldError> {
    let t = pose.translation.vector;
    let finite =
        crate::math::is_finite_iso(pose) && is_finite_vec(linear) && is_finite_vec(angular);
    if !finite {
        return Err(WorldError::NonFinitePose {
            translation: [t.x, t.y, t.z],
        });
    }
    let aabb = match local {
        Some(local) => local.transform_by(pose),
        None => shape.compute_aabb(pose),
    };
    let ok = aabb
        .mins
        .iter()
        .chain(aabb.maxs.iter())
        .all(|c| c.is_finite());
    if !ok {
        return Err(WorldError::NonFiniteShape {
            mins: aabb.mins.coords.into(),
            maxs: aabb.maxs.coords.into(),
        });
    }
    let far = aabb
        .mins
        .iter()
        .chain(aabb.maxs.iter())
        .any(|c| c.abs() > MAX_COORD);
    if far {
        return Err(WorldError::OutOfRange {
            mins: aabb.mins.coords.into(),
            maxs: aabb.maxs.coords.into(),
        });
    }
    Ok(aabb)
}

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
}
