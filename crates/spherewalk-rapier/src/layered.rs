//! One geometry made of two: a base backend (spherewalk's own world: scenery, platforms,
//! characters) and a rapier world's dynamic bodies.

use crate::{RapierGeometry, collider_handle, collider_id};
use rapier3d::prelude::*;
use spherewalk_core::{
    ColliderId, backend::ColliderMotion, backend::Geometry, backend::Primitive, world::QueryFilter,
};

/// The generation bit that marks a [`Layered`] id as a rapier collider's. A base world never
/// reaches it (it would take 2^31 removals from one slot).
const RAPIER_BIT: u32 = 1 << 31;

/// A base geometry (usually a `CollisionWorld` with the scenery) plus the **dynamic** bodies
/// of a rapier world: the colliders of fixed and kinematic rapier bodies are left to the
/// base, which already holds them (or their mirrors). A rapier collider's id here is its
/// handle's index and generation with the top generation bit set ([`Layered::rapier_id`]),
/// so ids never clash; primitives come base first, then rapier's, each in id order.
#[derive(Clone, Copy)]
pub struct Layered<'a> {
    base: &'a dyn Geometry,
    rapier: RapierGeometry<'a>,
}

impl<'a> Layered<'a> {
    /// `base` with the dynamic bodies of `rapier`.
    pub fn new(base: &'a dyn Geometry, rapier: RapierGeometry<'a>) -> Self {
        Self { base, rapier }
    }

    /// The id a rapier collider has in this geometry (and in the primitives, hits and ground
    /// of a step on it).
    pub fn rapier_id(handle: ColliderHandle) -> ColliderId {
        let id = collider_id(handle);
        ColliderId::new(id.index(), id.generation() | RAPIER_BIT)
    }

    /// The rapier collider behind an id of this geometry, if it is one.
    pub fn rapier_handle(id: ColliderId) -> Option<ColliderHandle> {
        (id.generation() & RAPIER_BIT != 0)
            .then(|| collider_handle(ColliderId::new(id.index(), id.generation() & !RAPIER_BIT)))
    }
}

impl Geometry for Layered<'_> {
    fn gather_primitives(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        ids: &mut Vec<ColliderId>,
        out: &mut Vec<Primitive>,
    ) {
        self.base.gather_primitives(aabb, filter, ids, out);
        // The filter's excluded collider is a base id: it never names a rapier one.
        let rapier_filter = QueryFilter {
            exclude: filter
                .exclude
                .and_then(Self::rapier_handle)
                .map(collider_id),
            ..*filter
        };
        let first = out.len();
        self.rapier
            .dynamic_only()
            .gather_primitives(aabb, &rapier_filter, ids, out);
        for prim in &mut out[first..] {
            prim.collider = Self::rapier_id(collider_handle(prim.collider));
        }
    }

    fn solid_shape(&self, collider: ColliderId, part: u32) -> Option<&dyn Shape> {
        match Self::rapier_handle(collider) {
            Some(handle) => self.rapier.solid_shape(collider_id(handle), part),
            None => self.base.solid_shape(collider, part),
        }
    }

    fn motion(&self, collider: ColliderId) -> Option<ColliderMotion> {
        match Self::rapier_handle(collider) {
            Some(handle) => self.rapier.motion(collider_id(handle)),
            None => self.base.motion(collider),
        }
    }
}
