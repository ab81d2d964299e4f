//! avian3d's colliders in the characters' world (feature `avian`): every static or kinematic
//! avian collider gets a [`Collider`] of the same shape on its entity, which the plugin then
//! syncs as it syncs any other (pose from the transform, velocity from the move, removal).
//!
//! avian keeps its shapes in parry 0.31 (glam); the motor's are parry 0.25 (nalgebra). Shapes
//! are converted by their parameters (balls, boxes, capsules, cylinders, cones, rounded boxes
//! and cylinders), meshes and hulls by their vertices and indices, compounds part by part.
//! A converted shape is cached by the avian shape it came from (avian shares one shape
//! between the colliders made from one asset), so each is converted once.

use crate::components::Collider;
use avian3d::parry::math::{Pose as AvianPose, Vector as AvianVector};
use avian3d::parry::shape::{SharedShape as AvianShape, TypedShape};
use avian3d::prelude::{Collider as AvianCollider, RigidBody};
use bevy::log::warn;
use bevy::prelude::{Commands, Component, Entity, Has, Query, Ref, RemovedComponents, ResMut};
use bevy::prelude::{DetectChanges, Resource};
use spherewalk_core::math::Iso;
use spherewalk_core::na::{Quaternion, Translation3, UnitQuaternion};
use spherewalk_core::parry3d::shape::{SharedShape, TriMeshFlags};
use spherewalk_core::{Point3, Vec3};
use std::collections::HashMap;
use std::sync::Arc;

/// Marks a [`Collider`] the plugin made from the avian collider on the same entity: it
/// follows that collider (replaced when it changes, removed with it). A [`Collider`] the game
/// put there itself is left alone, and wins.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct FromAvian;

/// The converted shapes, by the address of the avian shape each came from; the avian shape is
/// kept alongside so the address stays its own while cached.
#[derive(Resource, Default)]
pub(crate) struct AvianShapes {
    shapes: HashMap<usize, (AvianShape, Option<SharedShape>)>,
}

impl AvianShapes {
    /// The motor's shape for `avian`, converted once; `None` for a shape with no equivalent.
    fn get(&mut self, avian: &AvianShape) -> Option<SharedShape> {
        let key = Arc::as_ptr(&avian.0).cast::<()>() as usize;
        let entry = self
            .shapes
            .entry(key)
            .or_insert_with(|| (avian.clone(), convert(avian)));
        entry.1.clone()
    }

    /// Forgets the shapes no avian collider holds any more.
    fn prune(&mut self) {
        self.shapes
            .retain(|_, (avian, _)| Arc::strong_count(&avian.0) > 1);
    }
}

/// An avian collider on an entity, as [`mirror_avian_colliders`] reads it.
type AvianItem<'a> = (
    Entity,
    Ref<'a, AvianCollider>,
    Option<Ref<'a, RigidBody>>,
    Has<FromAvian>,
    Has<Collider>,
);

/// Gives every static or kinematic avian collider (a collider with no rigid body counts as
/// static) a [`Collider`] of its shape (scaled by its transform's scale, as avian scales it)
/// and [`FromAvian`]; replaces it when the avian collider changes, and takes it away when the
/// avian collider goes or its body becomes dynamic. A shape with no equivalent (voxels, a
/// half-space, a polyline) is logged once and skipped.
pub(crate) fn mirror_avian_colliders(
    mut commands: Commands,
    mut cache: ResMut<AvianShapes>,
    colliders: Query<AvianItem>,
    mut removed: RemovedComponents<AvianCollider>,
) {
    for entity in removed.read() {
        if colliders.get(entity).is_err()
            && let Ok(mut gone) = commands.get_entity(entity)
        {
            gone.try_remove::<(Collider, FromAvian)>();
        }
    }
    let mut changed = false;
    for (entity, avian, body, mirrored, has_own) in &colliders {
        if has_own && !mirrored {
            continue;
        }
        let dynamic = body.as_deref() == Some(&RigidBody::Dynamic);
        if dynamic {
            if mirrored {
                commands.entity(entity).remove::<(Collider, FromAvian)>();
            }
            continue;
        }
        let body_changed = body.as_ref().is_some_and(|b| b.is_changed());
        if mirrored && !avian.is_changed() && !body_changed {
            continue;
        }
        changed = true;
        let mut entity_commands = commands.entity(entity);
        match cache.get(avian.shape_scaled()) {
            Some(shape) => {
                entity_commands.insert((Collider::new(shape), FromAvian));
            }
            None => {
                warn!(
                    "spherewalk: avian collider {entity} ({:?}) has no equivalent shape",
                    avian.shape_scaled().shape_type()
                );
                // Marked, so it is not tried (and logged) again until it changes.
                entity_commands.remove::<Collider>().insert(FromAvian);
            }
        }
    }
    if changed {
        cache.prune();
    }
}

/// A parry 0.31 vector as the motor's.
fn vector(v: AvianVector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A parry 0.31 pose as the motor's.
fn pose(p: &AvianPose) -> Iso {
    let q = p.rotation;
    let rotation = UnitQuaternion::new_normalize(Quaternion::new(q.w, q.x, q.y, q.z));
    Iso::from_parts(Translation3::from(vector(p.translation)), rotation)
}

/// The motor's shape for an avian (parry 0.31) shape; `None` where there is none.
fn convert(avian: &AvianShape) -> Option<SharedShape> {
    Some(match avian.as_typed_shape() {
        TypedShape::Ball(b) => SharedShape::ball(b.radius),
        TypedShape::Cuboid(c) => {
            let h = c.half_extents;
            SharedShape::cuboid(h.x, h.y, h.z)
        }
        TypedShape::RoundCuboid(c) => {
            let h = c.inner_shape.half_extents;
            SharedShape::round_cuboid(h.x, h.y, h.z, c.border_radius)
        }
        TypedShape::Capsule(c) => {
            let (a, b) = (vector(c.segment.a), vector(c.segment.b));
            SharedShape::capsule(Point3::from(a), Point3::from(b), c.radius)
        }
        TypedShape::Cylinder(c) => SharedShape::cylinder(c.half_height, c.radius),
        TypedShape::RoundCylinder(c) => {
            let inner = &c.inner_shape;
            SharedShape::round_cylinder(inner.half_height, inner.radius, c.border_radius)
        }
        TypedShape::Cone(c) => SharedShape::cone(c.half_height, c.radius),
        TypedShape::RoundCone(c) => {
            let inner = &c.inner_shape;
            SharedShape::round_cone(inner.half_height, inner.radius, c.border_radius)
        }
        TypedShape::Triangle(t) => {
            let [a, b, c] = [t.a, t.b, t.c].map(|p| Point3::from(vector(p)));
            SharedShape::triangle(a, b, c)
        }
        TypedShape::TriMesh(mesh) => {
            let vertices = mesh.vertices().iter().map(|&v| Point3::from(vector(v)));
            let indices = mesh.indices().to_vec();
            let flags = TriMeshFlags::ORIENTED | TriMeshFlags::MERGE_DUPLICATE_VERTICES;
            SharedShape::trimesh_with_flags(vertices.collect(), indices, flags).ok()?
        }
        TypedShape::ConvexPolyhedron(hull) => {
            let points: Vec<Point3> = hull.points().iter().map(|&v| vector(v).into()).collect();
            SharedShape::convex_hull(&points)?
        }
        TypedShape::RoundConvexPolyhedron(hull) => {
            let points: Vec<Point3> = hull
                .inner_shape
                .points()
                .iter()
                .map(|&v| vector(v).into())
                .collect();
            SharedShape::round_convex_hull(&points, hull.border_radius)?
        }
        TypedShape::Compound(compound) => {
            let parts: Option<Vec<(Iso, SharedShape)>> = compound
                .shapes()
                .iter()
                .map(|(p, part)| Some((pose(p), convert(part)?)))
                .collect();
            SharedShape::compound(parts?)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spherewalk_core::parry3d::shape::ShapeType;

    /// Shapes made by avian convert by their numbers: a box's half extents, a capsule's
    /// segment and radius, a mesh's triangles.
    #[test]
    fn shapes_convert_by_their_parameters() {
        let cuboid = convert(AvianCollider::cuboid(2.0, 1.0, 4.0).shape()).expect("a box");
        let half = cuboid.as_cuboid().expect("a cuboid").half_extents;
        assert_eq!([half.x, half.y, half.z], [1.0, 0.5, 2.0]);
        let capsule = convert(AvianCollider::capsule(0.3, 1.2).shape()).expect("a capsule");
        let capsule = capsule.as_capsule().expect("a capsule");
        assert_eq!(capsule.radius, 0.3);
        assert_eq!((capsule.segment.b.y - capsule.segment.a.y).abs(), 1.2);
        let vertices = vec![
            bevy::math::Vec3::new(0.0, 0.0, 0.0),
            bevy::math::Vec3::new(1.0, 0.0, 0.0),
            bevy::math::Vec3::new(0.0, 0.0, -1.0),
        ];
        let mesh = AvianCollider::trimesh(vertices, vec![[0, 1, 2]]);
        let mesh = convert(mesh.shape()).expect("a mesh");
        assert_eq!(mesh.shape_type(), ShapeType::TriMesh);
        assert_eq!(mesh.as_trimesh().expect("a mesh").indices(), &[[0, 1, 2]]);
    }

    /// One conversion per avian shape: two colliders sharing it get the same motor shape.
    #[test]
    fn a_shared_avian_shape_is_converted_once() {
        let avian = AvianCollider::cuboid(1.0, 1.0, 1.0);
        let twin = avian.clone();
        let mut cache = AvianShapes::default();
        let a = cache.get(avian.shape_scaled()).expect("a box");
        let b = cache.get(twin.shape_scaled()).expect("a box");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(cache.shapes.len(), 1);
        drop((avian, twin));
        cache.prune();
        assert!(cache.shapes.is_empty());
    }
}
