//! Contacts between a character and the world: the vocabulary every phase and the report share.
//!
//! One sign convention for distances: a *distance* or *gap* is signed, positive when apart and
//! negative when penetrating (metres); a *depth* is a penetration, `-distance`, positive when
//! overlapping. Normals point from the surface toward the character (world frame).

use crate::math::{Point3, Real, UnitVec3, Vec3};

/// Identifier of a collider in a [`crate::CollisionWorld`]: a slot index and the generation of
/// that slot. Removing a collider retires its id for good: the slot may be reused, under a new
/// generation, so a stale id is refused ([`crate::WorldError::UnknownCollider`]) and never
/// addresses another collider. Ids order by index, then generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderId {
    index: u32,
    generation: u32,
}

impl ColliderId {
    /// The id of slot `index` in its `generation` (for storing ids outside the world; the
    /// world refuses ids it did not hand out).
    pub const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index.
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many colliders used the slot before this one.
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

/// Where the character stands after a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GroundState {
    /// On walkable ground (slope within the limit): no gravity, no sliding.
    Grounded,
    /// On ground steeper than the slope limit (or not walkable): slides under gravity.
    SteepGround,
    /// Touching something but with no ground under the feet (e.g. against a wall in the air).
    Touching,
    /// Touching nothing.
    #[default]
    Airborne,
}

/// The ground found under the feet sphere.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GroundHit {
    /// The collider stood on.
    pub collider: ColliderId,
    /// Contact point (world, m).
    pub point: Point3,
    /// Normal of the sphere-surface contact (world): edges give a rounded normal.
    pub contact_normal: UnitVec3,
    /// The face's own normal at the contact (world); the slope is judged on it.
    pub surface_normal: UnitVec3,
    /// Angle between `surface_normal` and the character's up (rad).
    pub slope_angle: Real,
    /// True when the slope is within the limit and the collider is walkable.
    pub stable: bool,
    /// Gap between the feet sphere and the ground when probed, before any snap (m).
    pub distance: Real,
}

/// One pushback contact: a sphere of the stack was pushed out of a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hit {
    /// The collider touched.
    pub collider: ColliderId,
    /// Index of the sphere in the stack, feet first.
    pub sphere: usize,
    /// Closest point on the collider (world, m).
    pub point: Point3,
    /// Contact normal, from the surface toward the sphere centre (world).
    pub contact_normal: UnitVec3,
    /// The face's own normal (world).
    pub surface_normal: UnitVec3,
    /// Penetration depth that was resolved (m).
    pub depth: Real,
}

/// `want` (m/s, world, in `up`'s tangent plane) tilted into the plane of the ground `hit`,
/// keeping its part in up's tangent plane: ramps cost no speed along it. Unchanged with no
/// ground, or ground too steep to tilt onto (its normal within 1e-3 of up's tangent plane).
/// The walk's and the dash's velocity on stable ground.
pub(crate) fn along_ground(want: Vec3, hit: Option<&GroundHit>, up: &UnitVec3) -> Vec3 {
    if let Some(hit) = hit {
        let n = hit.surface_normal;
        let nu = n.dot(up);
        if nu > 1e-3 {
            return want - up.into_inner() * (want.dot(&n) / nu);
        }
    }
    want
}
