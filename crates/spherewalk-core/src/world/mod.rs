//! The static and kinematic geometry characters move through, indexed by parry's BVH.

mod cast;
mod primitive;
pub(crate) mod query;

pub use primitive::{Primitive, PrimitiveShape, SurfacePoint};
pub use query::{RayHit, SphereCastHit};

pub use crate::contact::ColliderId;

use crate::math::{Iso, Real, Vec3, is_finite_vec};
use parry3d::bounding_volume::Aabb;
use parry3d::partitioning::{Bvh, BvhWorkspace};
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
}

/// Why a collider was refused by a [`CollisionWorld`].
#[derive(Clone, Debug, PartialEq, Error)]
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
    /// No collider with this id exists.
    #[error("no collider with id {0:?}")]
    UnknownCollider(ColliderId),
}

/// Static and kinematic colliders (any parry3d shape) indexed by a BVH, with the queries the
/// motor needs: AABB overlap, closest point with sidedness, sphere cast and ray cast.
///
/// All positions are in the world frame (m).
#[derive(Clone, Default)]
pub struct CollisionWorld {
    colliders: Vec<Collider>,
    bvh: Bvh,
    workspace: BvhWorkspace,
}

impl CollisionWorld {
    /// An empty world.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a collider and returns its id. Ids are assigned in insertion order from 0.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`] or [`WorldError::NonFiniteShape`] when the pose, a velocity
    /// or the shape's bounds hold NaN or infinity.
    pub fn insert(&mut self, desc: ColliderDesc) -> Result<ColliderId, WorldError> {
        let aabb = checked_aabb(&desc)?;
        let id = ColliderId(self.colliders.len() as u32);
        self.bvh.insert(aabb, id.0);
        self.colliders.push(Collider {
            shape: desc.shape,
            pose: desc.pose,
            layers: desc.layers,
            flags: desc.flags,
            linear_velocity: desc.linear_velocity,
            angular_velocity: desc.angular_velocity,
            aabb,
        });
        Ok(id)
    }

    /// Moves a collider to a new world pose (kinematic colliders, moving platforms).
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for a bad id, [`WorldError::NonFinitePose`] for a pose
    /// holding NaN or infinity.
    pub fn set_pose(&mut self, id: ColliderId, pose: Iso) -> Result<(), WorldError> {
        let aabb = self.moved_aabb(id, &pose)?;
        if let Some(collider) = self.colliders.get_mut(id.0 as usize) {
            collider.pose = pose;
            collider.aabb = aabb;
            self.bvh.insert(aabb, id.0);
        }
        Ok(())
    }

    /// The world box of collider `id` if it moved to `pose`, after checking both.
    fn moved_aabb(&self, id: ColliderId, pose: &Iso) -> Result<Aabb, WorldError> {
        let collider = self.get(id).ok_or(WorldError::UnknownCollider(id))?;
        let mut desc = ColliderDesc::new(collider.shape.clone()).pose(*pose);
        desc.linear_velocity = collider.linear_velocity;
        desc.angular_velocity = collider.angular_velocity;
        checked_aabb(&desc)
    }

    /// Moves many colliders at once (characters' bodies, platforms) and refits the BVH once,
    /// which keeps the tree tight; cheaper than [`Self::set_pose`] for each. Every pose is
    /// checked before anything moves.
    ///
    /// # Errors
    /// As [`Self::set_pose`], for the first bad entry; nothing is moved then.
    pub fn set_poses(&mut self, moves: &[(ColliderId, Iso)]) -> Result<(), WorldError> {
        let boxes = moves
            .iter()
            .map(|(id, pose)| self.moved_aabb(*id, pose))
            .collect::<Result<Vec<_>, _>>()?;
        for (&(id, pose), aabb) in moves.iter().zip(boxes) {
            if let Some(collider) = self.colliders.get_mut(id.0 as usize) {
                collider.pose = pose;
                collider.aabb = aabb;
                self.bvh.insert_or_update_partially(aabb, id.0, 0.0);
            }
        }
        self.bvh.refit(&mut self.workspace);
        Ok(())
    }

    /// Replaces a collider's shape, keeping its pose (e.g. a crouching character's body).
    ///
    /// # Errors
    /// [`WorldError::UnknownCollider`] for a bad id, [`WorldError::NonFiniteShape`] for a
    /// shape whose bounds are not finite.
    pub fn set_shape(&mut self, id: ColliderId, shape: SharedShape) -> Result<(), WorldError> {
        let collider = self
            .colliders
            .get_mut(id.0 as usize)
            .ok_or(WorldError::UnknownCollider(id))?;
        let aabb = checked_aabb(&ColliderDesc::new(shape.clone()).pose(collider.pose))?;
        collider.shape = shape;
        collider.aabb = aabb;
        self.bvh.insert(aabb, id.0);
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
        let collider = self
            .colliders
            .get_mut(id.0 as usize)
            .ok_or(WorldError::UnknownCollider(id))?;
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

    /// Rebuilds the BVH from scratch for the best query speed after many insertions.
    pub fn optimize(&mut self) {
        let leaves: Vec<Aabb> = self.colliders.iter().map(|c| c.aabb).collect();
        self.bvh = Bvh::from_leaves(parry3d::partitioning::BvhBuildStrategy::Binned, &leaves);
    }

    /// The collider with this id, if any.
    pub fn get(&self, id: ColliderId) -> Option<&Collider> {
        self.colliders.get(id.0 as usize)
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// True when the world holds no collider.
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// All colliders with their ids, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (ColliderId, &Collider)> {
        self.colliders
            .iter()
            .enumerate()
            .map(|(i, c)| (ColliderId(i as u32), c))
    }

    /// Appends to `out` the ids of colliders passing `filter` whose bounding box overlaps `aabb`
    /// (world, m), sorted by id so results never depend on tree layout.
    pub fn overlap_aabb(&self, aabb: &Aabb, filter: &QueryFilter, out: &mut Vec<ColliderId>) {
        let start = out.len();
        for leaf in self.bvh.intersect_aabb(aabb) {
            let id = ColliderId(leaf);
            if let Some(c) = self.colliders.get(leaf as usize)
                && filter.accepts(id, c.layers)
            {
                out.push(id);
            }
        }
        out[start..].sort_unstable();
    }
}

fn checked_aabb(desc: &ColliderDesc) -> Result<Aabb, WorldError> {
    let t = desc.pose.translation.vector;
    let r = desc.pose.rotation.coords;
    let finite = is_finite_vec(&t)
        && r.iter().all(|c| c.is_finite())
        && is_finite_vec(&desc.linear_velocity)
        && is_finite_vec(&desc.angular_velocity);
    if !finite {
        return Err(WorldError::NonFinitePose {
            translation: [t.x, t.y, t.z],
        });
    }
    let aabb = desc.shape.compute_aabb(&desc.pose);
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
    Ok(aabb)
}
