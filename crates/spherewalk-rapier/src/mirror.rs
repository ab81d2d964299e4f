//! The character motor's scenery in the rapier world: fixed mirrors of a [`CollisionWorld`]'s
//! colliders for dynamic bodies to collide with (sharing the same parry shapes, so no mesh is
//! copied), and kinematic mirrors of the ones that move (platforms), kept where they are.

use crate::Physics;
use rapier3d::prelude::*;
use spherewalk_core::{ColliderId, CollisionWorld};

/// A moving collider of the motor's world and its kinematic mirror body in rapier's.
pub type Mirror = (ColliderId, RigidBodyHandle);

impl Physics {
    /// Mirrors `world`'s colliders into this rapier world, in the world's order: each one in
    /// `moving` as a kinematic body (returned, for [`Physics::follow`]), every other one as a
    /// fixed collider. Colliders on any of `skip_layers` (the characters' bodies, which get
    /// [`Physics::insert_character`] instead) are left out.
    pub fn mirror(
        &mut self,
        world: &CollisionWorld,
        moving: &[ColliderId],
        skip_layers: u32,
    ) -> Vec<Mirror> {
        let mut mirrors = Vec::new();
        for (id, c) in world.iter() {
            if c.layers & skip_layers != 0 {
                continue;
            }
            if moving.contains(&id) {
                let body = RigidBodyBuilder::kinematic_position_based().pose(c.pose);
                let body = self.bodies.insert(body);
                let collider = ColliderBuilder::new(c.shape.clone());
                self.colliders
                    .insert_with_parent(collider, body, &mut self.bodies);
                mirrors.push((id, body));
            } else {
                let fixed = ColliderBuilder::new(c.shape.clone()).position(c.pose);
                self.colliders.insert(fixed);
            }
        }
        mirrors
    }

    /// Moves each kinematic mirror to where its collider in `world` is now, over the next
    /// step (so rapier gives it the velocity of that move). A collider gone from `world`
    /// leaves its mirror where it was.
    pub fn follow(&mut self, world: &CollisionWorld, mirrors: &[Mirror]) {
        for (id, handle) in mirrors {
            if let (Some(c), Some(b)) = (world.get(*id), self.bodies.get_mut(*handle)) {
                b.set_next_kinematic_position(c.pose);
            }
        }
    }
}
