//! The motor's collision backend over a rapier world's own structures.

use rapier3d::parry::partitioning::{Bvh, TraversalAction};
use rapier3d::parry::query::DefaultQueryDispatcher;
use rapier3d::prelude::*;
use spherewalk_core::{
    ColliderId, backend::ColliderMotion, backend::Geometry, backend::Primitive,
    backend::boxes_overlap, backend::shape_primitives, backend::solid_part, world::ColliderFlags,
    world::QueryFilter,
};
use std::collections::HashMap;

/// The spherewalk id of a rapier collider: the same slot index and generation.
pub fn collider_id(handle: ColliderHandle) -> ColliderId {
    let (index, generation) = handle.into_raw_parts();
    ColliderId::new(index, generation)
}

/// The rapier collider a spherewalk id stands for (the inverse of [`collider_id`]).
pub fn collider_handle(id: ColliderId) -> ColliderHandle {
    ColliderHandle::from_raw_parts(id.index(), id.generation())
}

/// A rapier world seen as the geometry characters move through
/// ([`spherewalk_core::backend::Geometry`]): pass `&RapierGeometry` wherever the motor takes a world.
///
/// - **Which colliders.** Every enabled, non-sensor collider in rapier's broad phase whose
///   collision groups' memberships (as layer bits) pass the step's
///   [`QueryFilter`]. The broad phase is as of the last `PhysicsPipeline::step`, which leaves
///   every collider at its final pose; a collider inserted or moved by hand since then is seen
///   after the next step.
/// - **Flags.** rapier colliders have no room for spherewalk's [`ColliderFlags`]: colliders
///   are walkable and one-sided unless [`Self::with_flags`] lists them.
/// - **Motion.** A collider moves with its parent body: linear velocity at the body's centre of
///   mass and angular velocity about it, so characters standing on a moving body are carried.
/// - **Ids.** A collider's [`ColliderId`] is its handle's index and generation
///   ([`collider_id`], [`collider_handle`]); primitives come in id order, so steps are
///   deterministic.
#[derive(Clone, Copy)]
pub struct RapierGeometry<'a> {
    bodies: &'a RigidBodySet,
    colliders: &'a ColliderSet,
    bvh: &'a Bvh,
    flags: Option<&'a HashMap<ColliderHandle, ColliderFlags>>,
    /// Only colliders attached to dynamic bodies.
    dynamic_only: bool,
}

impl<'a> RapierGeometry<'a> {
    /// The geometry of the colliders in `colliders` (attached to `bodies`) that
    /// `broad_phase` holds.
    pub fn new(
        bodies: &'a RigidBodySet,
        colliders: &'a ColliderSet,
        broad_phase: &'a BroadPhaseBvh,
    ) -> Self {
        // The query pipeline view is how rapier lends out its broad phase's tree; the
        // dispatcher and filter it carries are not used.
        let view = broad_phase.as_query_pipeline(
            &DefaultQueryDispatcher,
            bodies,
            colliders,
            rapier3d::pipeline::QueryFilter::default(),
        );
        Self {
            bodies,
            colliders,
            bvh: view.bvh,
            flags: None,
            dynamic_only: false,
        }
    }

    /// The same geometry with per-collider `flags` (not walkable, two-sided meshes); colliders
    /// missing from the map get the default flags. The `grid` flag has no meaning here.
    pub fn with_flags(self, flags: &'a HashMap<ColliderHandle, ColliderFlags>) -> Self {
        Self {
            flags: Some(flags),
            ..self
        }
    }

    /// The same geometry holding only the colliders attached to dynamic bodies (for a
    /// [`crate::Layered`] geometry whose base holds the rest).
    pub fn dynamic_only(self) -> Self {
        Self {
            dynamic_only: true,
            ..self
        }
    }

    /// Whether `co` is seen: enabled, solid, and attached to a dynamic body when only those
    /// count.
    fn seen(&self, co: &Collider) -> bool {
        let dynamic = || {
            co.parent()
                .and_then(|b| self.bodies.get(b))
                .is_some_and(|b| b.is_dynamic())
        };
        co.is_enabled() && !co.is_sensor() && (!self.dynamic_only || dynamic())
    }

    /// The collider with this spherewalk id, if it is still in the set.
    fn collider(&self, id: ColliderId) -> Option<&'a Collider> {
        self.colliders.get(collider_handle(id))
    }
}

impl Geometry for RapierGeometry<'_> {
    fn gather_primitives(
        &self,
        aabb: &Aabb,
        filter: &QueryFilter,
        ids: &mut Vec<ColliderId>,
        out: &mut Vec<Primitive>,
    ) {
        ids.clear();
        self.bvh.traverse(|node| {
            if !boxes_overlap(&node.aabb(), aabb) {
                return TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data()
                && let Some((co, handle)) = self.colliders.get_unknown_gen(leaf)
            {
                let id = collider_id(handle);
                let layers = co.collision_groups().memberships.bits();
                if self.seen(co) && filter.accepts(id, layers) {
                    ids.push(id);
                }
            }
            TraversalAction::Continue
        });
        ids.sort_unstable();
        let none = ColliderFlags::default();
        for &id in ids.iter() {
            // rapier's leaves are loosened boxes; the collider's own box decides, as in the
            // native world, so both gather the same primitives.
            let Some(co) = self
                .collider(id)
                .filter(|co| boxes_overlap(&co.compute_aabb(), aabb))
            else {
                continue;
            };
            let flags = self
                .flags
                .and_then(|f| f.get(&collider_handle(id)))
                .unwrap_or(&none);
            shape_primitives(id, flags, (co.shape(), co.position()), aabb, out);
        }
    }

    fn solid_shape(&self, collider: ColliderId, part: u32) -> Option<&dyn Shape> {
        solid_part(self.collider(collider)?.shape(), part)
    }

    fn motion(&self, collider: ColliderId) -> Option<ColliderMotion> {
        let co = self.collider(collider)?;
        let still = ColliderMotion {
            pose: *co.position(),
            linear: Vector::zeros(),
            angular: Vector::zeros(),
        };
        let Some(body) = co.parent().and_then(|h| self.bodies.get(h)) else {
            return Some(still);
        };
        // rapier's velocities are those of the body's centre of mass: the carrying turns
        // about the motion's pose origin, so that origin is the centre of mass.
        let mut pose = *co.position();
        pose.translation.vector = body.center_of_mass().coords;
        Some(ColliderMotion {
            pose,
            linear: *body.linvel(),
            angular: *body.angvel(),
        })
    }
}
