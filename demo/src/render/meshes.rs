//! Collider tessellation: parry's `to_trimesh()` per shape, then per-corner normals smoothed
//! across edges flatter than a crease angle (so boxes stay flat and balls stay round).

use spherewalk::na;
use spherewalk::parry3d::shape::{Shape, SupportMap, TypedShape};
use spherewalk::{Point3, Vec3, math::Iso};

/// A mesh vertex: position and normal in the collider's local frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct MeshVertex {
    /// Position.
    pub pos: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
}

/// Edges whose faces differ by more than this stay sharp.
const CREASE_COS: f32 = 0.82; // about 35 degrees

/// Half the side of the square drawn for an (infinite) half-space.
const HALF_SPACE_EXTENT: f32 = 200.0;

/// Non-indexed triangle list for a mesh given by points and triangles, with crease-angle
/// smoothed normals.
pub fn smooth_mesh(points: &[Point3], triangles: &[[u32; 3]]) -> Vec<MeshVertex> {
    let valid = |t: &[u32; 3]| t.iter().all(|&i| (i as usize) < points.len());
    let tris: Vec<[usize; 3]> = triangles
        .iter()
        .filter(|t| valid(t))
        .map(|t| [t[0] as usize, t[1] as usize, t[2] as usize])
        .collect();
    // Area-weighted face normals, and each face's unit normal.
    let weighted: Vec<Vec3> = tris
        .iter()
        .map(|t| (points[t[1]] - points[t[0]]).cross(&(points[t[2]] - points[t[0]])))
        .collect();
    let unit: Vec<Vec3> = weighted
        .iter()
        .map(|n| n.try_normalize(1e-12).unwrap_or_else(Vec3::zeros))
        .collect();
    let mut faces_of = vec![Vec::new(); points.len()];
    for (f, t) in tris.iter().enumerate() {
        for &v in t {
            faces_of[v].push(f);
        }
    }
    let mut out = Vec::with_capacity(tris.len() * 3);
    for (f, t) in tris.iter().enumerate() {
        for &v in t {
            let mut n = Vec3::zeros();
            for &g in &faces_of[v] {
                if unit[g].dot(&unit[f]) >= CREASE_COS {
                    n += weighted[g];
                }
            }
            let n = n.try_normalize(1e-12).unwrap_or(unit[f]);
            let p = points[v];
            out.push(MeshVertex {
                pos: [p.x, p.y, p.z],
                normal: [n.x, n.y, n.z],
            });
        }
    }
    out
}

/// Appends `shape`'s triangles, moved by `at`, to `points` and `tris`.
fn collect(shape: &dyn Shape, at: &Iso, points: &mut Vec<Point3>, tris: &mut Vec<[u32; 3]>) {
    let (p, t): (Vec<Point3>, Vec<[u32; 3]>) = match shape.as_typed_shape() {
        // Big balls (planets) get finer facets so the surface stays close to the sphere.
        TypedShape::Ball(b) => {
            let n = (b.radius * 6.0).clamp(24.0, 192.0) as u32;
            b.to_trimesh(n, n * 2 / 3)
        }
        TypedShape::Cuboid(c) => c.to_trimesh(),
        TypedShape::Capsule(c) => c.to_trimesh(24, 12),
        TypedShape::Cylinder(c) => c.to_trimesh(32),
        TypedShape::Cone(c) => c.to_trimesh(32),
        TypedShape::ConvexPolyhedron(c) => c.to_trimesh(),
        TypedShape::TriMesh(m) => (m.vertices().to_vec(), m.indices().to_vec()),
        TypedShape::HeightField(h) => h.to_trimesh(),
        TypedShape::Triangle(tri) => (vec![tri.a, tri.b, tri.c], vec![[0, 1, 2]]),
        TypedShape::RoundCuboid(r) => rounded(&r.inner_shape, r.border_radius),
        TypedShape::RoundCylinder(r) => rounded(&r.inner_shape, r.border_radius),
        TypedShape::RoundCone(r) => rounded(&r.inner_shape, r.border_radius),
        TypedShape::RoundConvexPolyhedron(r) => rounded(&r.inner_shape, r.border_radius),
        TypedShape::HalfSpace(h) => {
            let n = h.normal.into_inner();
            let a = spherewalk::math::any_perpendicular(&h.normal).into_inner() * HALF_SPACE_EXTENT;
            let b = n.cross(&a);
            let o = Point3::origin();
            (
                vec![o - a - b, o + a - b, o + a + b, o - a + b],
                vec![[0, 1, 2], [0, 2, 3]],
            )
        }
        TypedShape::Compound(c) => {
            for (sub_pose, sub) in c.shapes() {
                collect(sub.as_ref(), &(at * sub_pose), points, tris);
            }
            return;
        }
        // Segments, polylines, polygons and voxels have no surface to light.
        _ => return,
    };
    let base = points.len() as u32;
    points.extend(p.iter().map(|q| at * q));
    tris.extend(t.iter().map(|t| [t[0] + base, t[1] + base, t[2] + base]));
}

/// A convex shape grown by `border` metres all round (parry's round shapes): a fine unit
/// sphere whose every point `n` moves to the inner shape's farthest point along `n`, pushed
/// out by `border` along `n`. Flat faces come out as the triangles spanning the jumps between
/// the inner shape's vertices; edges and corners come out round.
fn rounded(inner: &dyn SupportMap, border: f32) -> (Vec<Point3>, Vec<[u32; 3]>) {
    let (sphere, tris) = spherewalk::parry3d::shape::Ball::new(1.0).to_trimesh(48, 24);
    let points = sphere
        .iter()
        .map(|n| inner.local_support_point(&n.coords) + n.coords * border)
        .collect();
    (points, tris)
}

/// The triangles of a collider shape in its local frame (empty for shapes with no surface).
pub fn shape_mesh(shape: &dyn Shape) -> Vec<MeshVertex> {
    let mut points = Vec::new();
    let mut tris = Vec::new();
    collect(shape, &Iso::identity(), &mut points, &mut tris);
    smooth_mesh(&points, &tris)
}

/// A unit sphere (radius 1, centred on the origin) with exact normals, `around` segments
/// round the equator and `rings` from pole to pole.
pub fn unit_sphere(around: u32, rings: u32) -> Vec<MeshVertex> {
    let ball = spherewalk::parry3d::shape::Ball::new(1.0);
    let (points, tris) = ball.to_trimesh(around, rings);
    let mut out = smooth_mesh(&points, &tris);
    for v in &mut out {
        let n = na::Vector3::from(v.pos)
            .try_normalize(1e-12)
            .unwrap_or_else(Vec3::y);
        v.normal = [n.x, n.y, n.z];
    }
    out
}

/// A unit disc (radius 1, centred on the origin) in the local XZ plane, facing +Y, as a fan
/// of `segments` triangles.
pub fn unit_disc(segments: u32) -> Vec<MeshVertex> {
    let up = [0.0, 1.0, 0.0];
    let at = |k: u32| {
        let a = std::f32::consts::TAU * k as f32 / segments as f32;
        MeshVertex {
            pos: [a.cos(), 0.0, a.sin()],
            normal: up,
        }
    };
    let centre = MeshVertex {
        pos: [0.0; 3],
        normal: up,
    };
    (0..segments)
        .flat_map(|k| [centre, at(k + 1), at(k)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use spherewalk::parry3d::shape::SharedShape;

    #[test]
    fn cuboid_has_flat_faces() {
        let mesh = shape_mesh(SharedShape::cuboid(1.0, 2.0, 3.0).as_ref());
        assert_eq!(mesh.len(), 36);
        for v in &mesh {
            let n = v.normal;
            let axis = n.iter().filter(|c| c.abs() > 0.999).count();
            assert_eq!(axis, 1, "normal {n:?} is not along an axis");
        }
    }

    #[test]
    fn a_round_cuboid_is_drawn_at_its_full_size() {
        // Half-extents 1, 2, 3 grown by 0.5: the drawn box spans 1.5, 2.5, 3.5 (f32: 1e-5).
        let mesh = shape_mesh(SharedShape::round_cuboid(1.0, 2.0, 3.0, 0.5).as_ref());
        let most = |axis: usize| {
            mesh.iter()
                .map(|v| v.pos[axis].abs())
                .fold(0.0f32, f32::max)
        };
        for (axis, half) in [(0, 1.5), (1, 2.5), (2, 3.5)] {
            assert!(
                (most(axis) - half).abs() < 1e-5,
                "axis {axis}: {}",
                most(axis)
            );
        }
        // Every drawn point lies on the rounded surface: within the border of the inner box.
        for v in &mesh {
            let outside = Vec3::new(
                (v.pos[0].abs() - 1.0).max(0.0),
                (v.pos[1].abs() - 2.0).max(0.0),
                (v.pos[2].abs() - 3.0).max(0.0),
            );
            assert!((outside.norm() - 0.5).abs() < 1e-4, "{:?}", v.pos);
        }
    }

    #[test]
    fn compound_and_ball_tessellate() {
        let c = SharedShape::compound(vec![
            (Iso::translation(1.0, 0.0, 0.0), SharedShape::ball(0.5)),
            (Iso::identity(), SharedShape::cuboid(0.5, 0.5, 0.5)),
        ]);
        let mesh = shape_mesh(c.as_ref());
        assert!(mesh.len() > 36);
        assert!(mesh.iter().any(|v| v.pos[0] > 1.4));
        assert!(!unit_sphere(12, 8).is_empty());
    }
}
