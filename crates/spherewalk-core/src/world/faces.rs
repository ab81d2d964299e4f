//! Placed faces: the triangles of a mesh or heightfield collider resolved once into world
//! faces at the collider's pose ([`PlacedFaces`]), so that gathering them near a character
//! copies each face instead of transforming its corners and working out its normal and
//! whether it is a sliver, every query, for every character.
//!
//! The faces hold only while the collider stays where they were placed: moving it (to another
//! pose) drops them, and a moving mesh is decomposed on the fly as before. They are the same
//! bits either way: both come from [`Face::of`] at the same pose.

use super::closest::DEGENERATE;
use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::bounding_volume::BoundingVolume;
use parry3d::shape::{Shape, ShapeType, Triangle};
use std::sync::Arc;

/// A triangle thinner than this share of its longest edge is a sliver ...
const SLIVER: Real = 1e-5;
/// ... unless it is at least this tall (m) over that edge: a tall, thin face (a 1e5 m spike
/// on a heightfield of 1 m cells is 1 m wide) is a real face whatever its proportions. The
/// slivers of real levels (T-junction fixes) are micrometres thin.
const SLIVER_MAX_HEIGHT: Real = 1e-3;
/// ... or thinner than this many f32 roundings of its largest coordinate (m per m): four, at
/// which rounding the corners alone can tilt the normal by a quarter of a radian. (Sixty-four
/// dropped real 4 cm strips of a level put 5 km from the origin.)
const SLIVER_ROUNDINGS: Real = 4.0 * Real::EPSILON;

/// True when the triangle with `corners` (world, m) and unnormalised normal `raw` (their edge
/// cross product) is a sliver: its height over its longest edge is under [`SLIVER`] of that
/// edge (and under [`SLIVER_MAX_HEIGHT`]), or under [`SLIVER_ROUNDINGS`] of its largest
/// coordinate (far from the origin, where f32 rounding of the corners alone tilts a thin
/// triangle's normal).
fn is_sliver(corners: &[Point3; 3], raw: &Vec3) -> bool {
    let [a, b, c] = *corners;
    let longest = (b - a)
        .norm_squared()
        .max((c - a).norm_squared())
        .max((c - b).norm_squared())
        .sqrt();
    let scale = a.coords.amax().max(b.coords.amax()).max(c.coords.amax());
    let thinnest = (SLIVER * longest)
        .min(SLIVER_MAX_HEIGHT)
        .max(SLIVER_ROUNDINGS * scale);
    // Height over the longest edge = |raw| / longest.
    raw.norm() <= thinnest * longest
}

/// One face of a mesh or heightfield placed in the world: its corners (world, m) and front
/// normal (world). What [`Face::of`] makes of a parry triangle, on the fly or once for a
/// collider's [`super::faces::PlacedFaces`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Face {
    pub(crate) corners: [Point3; 3],
    pub(crate) normal: UnitVec3,
}

impl Face {
    /// The triangle `tri` of a mesh at `pose` (world), its front reversed when `flip`; `None`
    /// for a degenerate one.
    #[inline]
    pub(crate) fn of(tri: &Triangle, pose: &Iso, flip: bool) -> Option<Self> {
        let corners = [pose * tri.a, pose * tri.b, pose * tri.c];
        let raw = (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
        let raw = if flip { -raw } else { raw };
        // NOTE: degenerate triangles have no side and are skipped: zero-area ones, and slivers
        // (three nearly collinear corners, as T-junction fixes in BSP levels leave), whose
        // normal is rounding noise and whose face region a closest-point query may wrongly
        // report inside the sphere. Their neighbours hold the same line.
        if is_sliver(&corners, &raw) {
            return None;
        }
        let normal = UnitVec3::try_new(raw, DEGENERATE * DEGENERATE)?;
        Some(Self { corners, normal })
    }

    /// Whether a heightfield's triangle `tri` (local) must be flipped: heightfield fronts face
    /// the field's local +Y, whatever the winding.
    #[inline]
    pub(crate) fn flipped_in_field(tri: &Triangle) -> bool {
        let n = (tri.b - tri.a).cross(&(tri.c - tri.a));
        n.y < 0.0
    }
}

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
