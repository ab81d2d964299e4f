//! Placed faces: the triangles of a mesh or heightfield collider resolved once into world
//! faces at the collider's pose ([`PlacedFaces`]), so that gathering them near a character
//! copies each face instead of transforming its corners and working out its normal and
//! whether it is a sliver, every query, for every character.
//!
//! The faces hold only while the collider stays where they were placed: moving it (to another
//! pose) drops them, and a moving mesh is decomposed on the fly as before. They are the same
//! bits either way: both come from [`Face::of`] at the same pose.

use super::decompose::Face;
use crate::math::Iso;
use parry3d::bounding_volume::BoundingVolume;
use parry3d::shape::{Shape, ShapeType};
use std::sync::Arc;

/// The most triangles a collider has its faces placed for: 1,048,576, about 52 MB of faces.
/// A bigger mesh or heightfield is decomposed on the fly by every query, as a moved one is, so
/// a huge heightfield (which parry stores in 4 bytes a cell) cannot make the world hold ten
/// times its size.
pub(crate) const MAX_PLACED_FACES: usize = 1 << 20;

/// Every triangle of one mesh or heightfield collider as a world face, by parry's triangle id;
/// `None` for a degenerate triangle, which is skipped. Shared, so cloning a world copies none.
#[derive(Clone, Debug)]
pub(crate) struct PlacedFaces(Arc<[Option<Face>]>);

impl PlacedFaces {
    /// The faces of `shape` at `pose` (world); `None` for a shape that is not a trimesh or
    /// heightfield, or has more than [`MAX_PLACED_FACES`] triangles.
    pub(crate) fn of(shape: &dyn Shape, pose: &Iso) -> Option<Self> {
        match shape.shape_type() {
            ShapeType::TriMesh => {
                let mesh = shape.as_trimesh()?;
                let count = u32::try_from(mesh.num_triangles()).ok()?;
                if count as usize > MAX_PLACED_FACES {
                    return None;
                }
                let faces = (0..count).map(|i| Face::of(&mesh.triangle(i), pose, false));
                Some(Self(faces.collect()))
            }
            ShapeType::HeightField => {
                let field = shape.as_heightfield()?;
                // NOTE: parry's search of a field's cells assumes a positive scale; a field
                // mirrored by a negative one keeps the on-the-fly path, whatever it finds.
                if !field.scale().iter().all(|s| *s > 0.0) {
                    return None;
                }
                // Parry numbers a field's triangles 0..2 × cells: the cells' left triangles,
                // then their right ones.
                let count = field.nrows().checked_mul(field.ncols())?.checked_mul(2)?;
                if count > MAX_PLACED_FACES {
                    return None;
                }
                let mut faces = vec![None; count];
                // The field's own box, grown so that no cell on its border is left out.
                let whole = field.root_aabb().loosened(1.0);
                field.map_elements_in_local_aabb(&whole, &mut |i, tri| {
                    if let Some(face) = faces.get_mut(i as usize) {
                        *face = Face::of(tri, pose, Face::flipped_in_field(tri));
                    }
                });
                Some(Self(faces.into()))
            }
            _ => None,
        }
    }

    /// The face of triangle `id`; `None` when it was degenerate (or is no triangle of the
    /// shape).
    #[inline]
    pub(crate) fn get(&self, id: u32) -> Option<&Face> {
        self.0.get(id as usize)?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Lcg;
    use super::super::{ColliderDesc, CollisionWorld, Geometry, QueryFilter};
    use super::*;
    use crate::math::{Point3, Real, Vec3};
    use crate::world::geometry::shape_primitives;
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
            if Aabb::intersects(&c.aabb, region) {
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
}
