//! The embedded collision backend: colliders in slots with generations, a BVH for most of
//! them and a cell grid for small movers, the [`Geometry`] calls the motor makes, and the
//! checks every collider passes on the way in.

use super::decompose::{Decompose, LocalSolids, Owner, WHOLE};
use super::faces::PlacedFaces;
use super::geometry::{boxes_overlap, solid_part};
use super::grid;
use super::{
    Collider, ColliderDesc, ColliderId, ColliderMotion, Geometry, MAX_COORD, Primitive,
    QueryFilter, WorldError,
};
use crate::math::{Iso, Real, Vec3, is_finite_vec};
use parry3d::bounding_volume::Aabb;
use parry3d::partitioning::{Bvh, BvhWorkspace, TraversalAction};
use parry3d::shape::{Shape, SharedShape};

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
    /// [`Self::set_poses`]'s list of new boxes, kept from one batch to the next.
    moved: Vec<Option<Aabb>>,
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
    /// use spherewalk_core::prelude::*;
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
        let solids = LocalSolids::of(&*desc.shape.0);
        let faces = PlacedFaces::of(&*desc.shape.0, &desc.pose);
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
            faces,
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
            collider.move_to(pose);
            collider.aabb = aabb;
            let on_grid = collider.flags.grid;
            self.reindex(id.index(), aabb, on_grid);
        }
        Ok(())
    }

    /// The world box of collider `id` if it moved to `pose`, after checking both.
    fn moved_aabb(&self, id: ColliderId, pose: &Iso) -> Result<Aabb, WorldError> {
        let c = self.get(id).ok_or(WorldError::UnknownCollider(id))?;
        checked_box(&*c.shape.0, c.local_box.as_ref(), pose)
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
        let mut boxes = std::mem::take(&mut self.moved);
        boxes.clear();
        let checked = moves.iter().try_for_each(|(id, pose)| {
            boxes.push(match self.get(*id) {
                Some(c) if c.pose == *pose => None,
                _ => Some(self.moved_aabb(*id, pose)?),
            });
            Ok(())
        });
        if let Err(e) = checked {
            self.moved = boxes;
            return Err(e);
        }
        let mut tree_moved = false;
        for (&(id, pose), &aabb) in moves.iter().zip(&boxes) {
            let Some(aabb) = aabb else { continue };
            if let Some(collider) = self.get_mut(id) {
                collider.move_to(pose);
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
        self.moved = boxes;
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
        collider.solids = LocalSolids::of(&*shape.0);
        collider.faces = PlacedFaces::of(&*shape.0, &collider.pose);
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
        check_velocities(&collider.pose, &linear, &angular)?;
        collider.linear_velocity = linear;
        collider.angular_velocity = angular;
        Ok(())
    }

    /// Moves kinematic collider `id` (a moving platform) to `pose` (world) over a step of `dt`
    /// seconds, giving it the velocities of that move from where it was
    /// ([`crate::math::velocities_between`]; zero when it stays put), so that the motor
    /// carries the characters standing on it. A collider already at `pose` (bit for bit) is
    /// not moved, only stopped. What every host does with its moving colliders each step.
    ///
    /// # Errors
    /// As [`Self::set_pose`] and [`Self::set_velocity`]; nothing changes then.
    pub fn move_kinematic(
        &mut self,
        id: ColliderId,
        pose: Iso,
        dt: Real,
    ) -> Result<(), WorldError> {
        let before = self.get(id).ok_or(WorldError::UnknownCollider(id))?.pose;
        if pose == before {
            return self.set_velocity(id, Vec3::zeros(), Vec3::zeros());
        }
        let (linear, angular) = crate::math::velocities_between(&before, &pose, dt);
        check_velocities(&pose, &linear, &angular)?;
        self.set_pose(id, pose)?;
        self.set_velocity(id, linear, angular)
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
        // scenery alone) skips the grid, and so does one that leaves out the grid's only
        // collider (a lone character's own body).
        let lone = |id: ColliderId| self.grid.holds_only(id.index(), id.generation());
        if self.grid.layers() & filter.mask != 0 && !filter.exclude.is_some_and(lone) {
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

impl Geometry for CollisionWorld {
    /// Every primitive of the colliders passing `filter` that may overlap `aabb` (world, m),
    /// in collider id order, then part order.
    fn gather_primitives(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        ids: &mut Vec<ColliderId>,
        out: &mut Vec<Primitive>,
    ) {
        ids.clear();
        self.overlap_aabb(aabb, filter, ids);
        for &id in ids.iter() {
            if let Some(c) = self.get(id) {
                let owner = Owner::new(id, &c.flags);
                match &c.solids {
                    Some(solids) => solids.push(owner, &c.pose, aabb, out),
                    None => Decompose {
                        owner,
                        region: aabb,
                        out,
                        faces: c.faces.as_ref(),
                    }
                    .shape(&*c.shape.0, &c.pose, WHOLE),
                }
            }
        }
    }

    fn solid_shape(&self, collider: ColliderId, part: u32) -> Option<&dyn Shape> {
        solid_part(&*self.get(collider)?.shape.0, part)
    }

    fn motion(&self, collider: ColliderId) -> Option<ColliderMotion> {
        let c = self.get(collider)?;
        Some(ColliderMotion {
            pose: c.pose,
            linear: c.linear_velocity,
            angular: c.angular_velocity,
        })
    }
}

/// The world box of `desc`'s shape at its pose, after checking both ([`checked_box`]) and
/// that its velocities (m/s, rad/s) are finite.
fn checked_aabb(desc: &ColliderDesc) -> Result<Aabb, WorldError> {
    let shape = &*desc.shape.0;
    check_velocities(&desc.pose, &desc.linear_velocity, &desc.angular_velocity)?;
    checked_box(shape, local_box(shape).as_ref(), &desc.pose)
}

/// Checks that the velocities (m/s, rad/s) of a collider at `pose` are finite.
fn check_velocities(pose: &Iso, linear: &Vec3, angular: &Vec3) -> Result<(), WorldError> {
    if is_finite_vec(linear) && is_finite_vec(angular) {
        Ok(())
    } else {
        Err(non_finite_pose(pose))
    }
}

/// The error for a collider at `pose` whose pose or a velocity holds NaN or infinity.
fn non_finite_pose(pose: &Iso) -> WorldError {
    let t = pose.translation.vector;
    WorldError::NonFinitePose {
        translation: [t.x, t.y, t.z],
    }
}

/// The box a compound carries with its pose (local, m): its world box at any pose is this
/// box carried there, as parry computes it. `None` for other shapes.
fn local_box(shape: &dyn Shape) -> Option<Aabb> {
    shape.as_compound().map(|c| *c.local_aabb())
}

/// The world box (m) of `shape` at `pose` (from `local`, its [`local_box`], when it has one,
/// without reading the shape), after checking that the pose is finite and the box finite and
/// within [`MAX_COORD`]. (A collider's velocities were checked when they were set.)
fn checked_box(shape: &dyn Shape, local: Option<&Aabb>, pose: &Iso) -> Result<Aabb, WorldError> {
    if !crate::math::is_finite_iso(pose) {
        return Err(non_finite_pose(pose));
    }
    let aabb = match local {
        Some(local) => local.transform_by(pose),
        None => shape.compute_aabb(pose),
    };
    let corners = || aabb.mins.iter().chain(aabb.maxs.iter());
    // One pass in the usual case: NaN and infinity are never within range.
    if !corners().all(|c| c.abs() <= MAX_COORD) {
        let (mins, maxs) = (aabb.mins.coords.into(), aabb.maxs.coords.into());
        return Err(if corners().all(|c| c.is_finite()) {
            WorldError::OutOfRange { mins, maxs }
        } else {
            WorldError::NonFiniteShape { mins, maxs }
        });
    }
    Ok(aabb)
}
