//! Closest point with sidedness on every shape kind, within a maximum distance and a filter.

use super::fixtures::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, Point3, Quat, Real, Vec3, math::Iso,
    world::QueryFilter,
};

/// A box spanning x in [-1, 1], y in [0, 1], z in [-2, 2].
fn box_world() -> (CollisionWorld, ColliderId) {
    let mut world = CollisionWorld::new();
    let id = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(1.0, 0.5, 2.0)).translation(0.0, 0.5, 0.0),
    );
    (world, id)
}

#[test]
fn closest_point_outside_a_cuboid_face() {
    let (world, id) = box_world();
    let (hit, sp) = closest(&world, Point3::new(3.0, 0.5, 0.0), 5.0).expect("within 5 m");
    assert_eq!(hit, id);
    // 2 m off the +X face, pushed out along +X.
    assert_surface(&sp, 2.0, Vec3::x(), Point3::new(1.0, 0.5, 0.0), EXACT);
    assert_eq!(
        sp.surface_normal, sp.contact_normal,
        "solids report one normal"
    );
    // Same point above the top face.
    let (_, sp) = closest(&world, Point3::new(0.25, 1.75, -1.0), 5.0).expect("within 5 m");
    assert_surface(&sp, 0.75, Vec3::y(), Point3::new(0.25, 1.0, -1.0), EXACT);
}

#[test]
fn closest_point_outside_a_cuboid_edge_is_rounded() {
    let (world, _) = box_world();
    // Off the (+X, +Y) edge by (1, 1): distance sqrt(2), normal along the diagonal.
    let (_, sp) = closest(&world, Point3::new(2.0, 2.0, 0.5), 5.0).expect("within 5 m");
    let s = std::f32::consts::FRAC_1_SQRT_2;
    assert_surface(
        &sp,
        std::f32::consts::SQRT_2,
        Vec3::new(s, s, 0.0),
        Point3::new(1.0, 1.0, 0.5),
        EXACT,
    );
}

#[test]
fn closest_point_beyond_max_distance_is_none() {
    let (world, _) = box_world();
    assert!(
        closest(&world, Point3::new(3.0, 0.5, 0.0), 1.5).is_none(),
        "2 m away, max 1.5 m"
    );
    assert!(
        closest(&world, Point3::new(3.0, 0.5, 0.0), 2.01).is_some(),
        "2 m away, max 2.01 m"
    );
}

#[test]
fn closest_point_inside_a_cuboid_is_negative_through_the_nearest_face() {
    let (world, id) = box_world();
    // 0.2 m from the +X face, 0.5 m from the top and bottom, 1.8 m from the -X face.
    let (hit, sp) = closest(&world, Point3::new(0.8, 0.5, 0.0), 1.0).expect("inside");
    assert_eq!(hit, id);
    assert_surface(&sp, -0.2, Vec3::x(), Point3::new(1.0, 0.5, 0.0), EXACT);
    // 0.1 m under the top face: leaves upward.
    let (_, sp) = closest(&world, Point3::new(-0.3, 0.9, 1.0), 1.0).expect("inside");
    assert_surface(&sp, -0.1, Vec3::y(), Point3::new(-0.3, 1.0, 1.0), EXACT);
    // 0.25 m from the -Z face: leaves along -Z.
    let (_, sp) = closest(&world, Point3::new(0.0, 0.5, -1.75), 1.0).expect("inside");
    assert_surface(&sp, -0.25, -Vec3::z(), Point3::new(0.0, 0.5, -2.0), EXACT);
}

#[test]
fn closest_point_on_a_rotated_cuboid() {
    // The same box turned 90 degrees about Y and moved to (10, 0.5, 0): it now spans
    // x in [8, 12] and z in [-1, 1].
    let mut world = CollisionWorld::new();
    let pose = Iso::from_parts(
        Vec3::new(10.0, 0.5, 0.0).into(),
        Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2),
    );
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(1.0, 0.5, 2.0)).pose(pose),
    );
    let (_, sp) = closest(&world, Point3::new(10.5, 0.5, 3.0), 5.0).expect("within 5 m");
    assert_surface(&sp, 2.0, Vec3::z(), Point3::new(10.5, 0.5, 1.0), EXACT);
    let (_, sp) = closest(&world, Point3::new(11.7, 0.5, 0.0), 5.0).expect("inside");
    assert_surface(&sp, -0.3, Vec3::x(), Point3::new(12.0, 0.5, 0.0), EXACT);
}

#[test]
fn closest_point_on_a_ball() {
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(1.0)).translation(5.0, 0.0, 0.0),
    );
    let (_, sp) = closest(&world, Point3::new(5.0, 3.0, 0.0), 5.0).expect("outside");
    assert_surface(&sp, 2.0, Vec3::y(), Point3::new(5.0, 1.0, 0.0), EXACT);
    // Along a diagonal: distance |(3, 4, 0)| - 1 = 4 m.
    let (_, sp) = closest(&world, Point3::new(8.0, 0.0, 4.0), 5.0).expect("outside");
    assert_surface(
        &sp,
        4.0,
        Vec3::new(0.6, 0.0, 0.8),
        Point3::new(5.6, 0.0, 0.8),
        EXACT,
    );
    // Inside, 0.25 m from the centre: 0.75 m deep, leaving radially.
    let (_, sp) = closest(&world, Point3::new(5.0, 0.0, -0.25), 5.0).expect("inside");
    assert_surface(&sp, -0.75, -Vec3::z(), Point3::new(5.0, 0.0, -1.0), EXACT);
}

#[test]
fn closest_point_on_a_capsule() {
    // Segment from y = -1 to y = 1, radius 0.5, centred at (0, 2, 0).
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::capsule_y(1.0, 0.5)).translation(0.0, 2.0, 0.0),
    );
    // Beside the cylinder part.
    let (_, sp) = closest(&world, Point3::new(2.0, 2.3, 0.0), 5.0).expect("outside");
    assert_surface(&sp, 1.5, Vec3::x(), Point3::new(0.5, 2.3, 0.0), EXACT);
    // Above the top cap (top at y = 3.5).
    let (_, sp) = closest(&world, Point3::new(0.0, 5.0, 0.0), 5.0).expect("outside");
    assert_surface(&sp, 1.5, Vec3::y(), Point3::new(0.0, 3.5, 0.0), EXACT);
    // Off the bottom cap diagonally: centre of the cap at y = 1, offset (0, -3, -4) -> 5 - 0.5.
    let (_, sp) = closest(&world, Point3::new(0.0, -2.0, -4.0), 5.0).expect("outside");
    assert_surface(
        &sp,
        4.5,
        Vec3::new(0.0, -0.6, -0.8),
        Point3::new(0.0, 0.7, -0.4),
        EXACT,
    );
    // Inside, 0.3 m from the axis: 0.2 m deep.
    let (_, sp) = closest(&world, Point3::new(0.0, 1.5, 0.3), 5.0).expect("inside");
    assert_surface(&sp, -0.2, Vec3::z(), Point3::new(0.0, 1.5, 0.5), EXACT);
}

/// A square pyramid: base y = 0 with x, z in [-1, 1], apex (0, 1, 0). Its +X face lies on the
/// plane x + y = 1.
fn pyramid() -> SharedShape {
    let points = [
        Point3::new(-1.0, 0.0, -1.0),
        Point3::new(1.0, 0.0, -1.0),
        Point3::new(1.0, 0.0, 1.0),
        Point3::new(-1.0, 0.0, 1.0),
        Point3::new(0.0, 1.0, 0.0),
    ];
    SharedShape::convex_hull(&points).expect("valid hull")
}

/// Convex polyhedra are projected by GJK (outside) and EPA (inside), which stop at a relative
/// tolerance around 1e-4 of the shape size (here ~1 m); 1e-4 m keeps a margin over what they
/// reach while still separating the faces, which are 0.1 m or more apart.
const GJK: Real = 1e-4;

#[test]
fn closest_point_on_a_convex_polyhedron() {
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(pyramid()).translation(0.0, 0.0, -3.0),
    );
    let s = std::f32::consts::FRAC_1_SQRT_2;
    // Off the slanted +X face: (1, 1) is 1/sqrt(2) from the plane x + y = 1, and projects to
    // (0.5, 0.5), inside the face.
    let (_, sp) = closest(&world, Point3::new(1.0, 1.0, -3.0), 5.0).expect("outside");
    assert_surface(
        &sp,
        s,
        Vec3::new(s, s, 0.0),
        Point3::new(0.5, 0.5, -3.0),
        GJK,
    );
    // Under the base.
    let (_, sp) = closest(&world, Point3::new(0.2, -0.4, -3.3), 5.0).expect("outside");
    assert_surface(&sp, 0.4, -Vec3::y(), Point3::new(0.2, 0.0, -3.3), GJK);
    // Inside, 0.1 m above the base and (1 - 0.1) / sqrt(2) = 0.64 m from every slanted face.
    let (_, sp) = closest(&world, Point3::new(0.0, 0.1, -3.0), 5.0).expect("inside");
    assert_surface(&sp, -0.1, -Vec3::y(), Point3::new(0.0, 0.0, -3.0), GJK);
}

#[test]
fn closest_point_on_a_compound() {
    // A ball of 0.5 m at local (-2, 0, 0) and a 1 m cube at local (2, 0, 0), the compound
    // placed at (0, 0, 5).
    let parts = vec![
        (Iso::translation(-2.0, 0.0, 0.0), SharedShape::ball(0.5)),
        (
            Iso::translation(2.0, 0.0, 0.0),
            SharedShape::cuboid(0.5, 0.5, 0.5),
        ),
    ];
    let mut world = CollisionWorld::new();
    let id = insert(
        &mut world,
        ColliderDesc::new(SharedShape::compound(parts)).translation(0.0, 0.0, 5.0),
    );
    let (hit, sp) = closest(&world, Point3::new(-2.0, 1.5, 5.0), 3.0).expect("above the ball");
    assert_eq!(hit, id);
    assert_surface(&sp, 1.0, Vec3::y(), Point3::new(-2.0, 0.5, 5.0), EXACT);
    let (_, sp) = closest(&world, Point3::new(3.5, 0.0, 5.0), 3.0).expect("beside the cube");
    assert_surface(&sp, 1.0, Vec3::x(), Point3::new(2.5, 0.0, 5.0), EXACT);
    // Inside the cube, 0.1 m under its top.
    let (_, sp) = closest(&world, Point3::new(2.0, 0.4, 5.1), 3.0).expect("inside the cube");
    assert_surface(&sp, -0.1, Vec3::y(), Point3::new(2.0, 0.5, 5.1), EXACT);
    // Between the parts, nearer the cube (1.4 m from the cube, 1.6 m from the ball).
    let (_, sp) = closest(&world, Point3::new(0.1, 0.0, 5.0), 3.0).expect("between");
    assert_surface(&sp, 1.4, -Vec3::x(), Point3::new(1.5, 0.0, 5.0), EXACT);
}

#[test]
fn closest_point_on_a_trimesh_floor_front_and_back() {
    let mut world = CollisionWorld::new();
    let id = insert(&mut world, ColliderDesc::new(trimesh_floor()));
    // In front (above), off the x = z seam.
    let (hit, sp) = closest(&world, Point3::new(2.0, 0.1, -1.0), 0.3).expect("0.1 m above");
    assert_eq!(hit, id);
    assert_surface(&sp, 0.1, Vec3::y(), Point3::new(2.0, 0.0, -1.0), EXACT);
    assert_abs_diff_eq!(sp.surface_normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    // Behind (below), within the max distance: inside, pushed out through the front (+Y).
    let (_, sp) = closest(&world, Point3::new(2.0, -0.1, -1.0), 0.3).expect("0.1 m below");
    assert_surface(&sp, -0.1, Vec3::y(), Point3::new(2.0, 0.0, -1.0), EXACT);
    assert_abs_diff_eq!(sp.surface_normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    // The other triangle (x < z).
    let (_, sp) = closest(&world, Point3::new(-3.0, -0.2, 1.5), 0.3).expect("0.2 m below");
    assert_surface(&sp, -0.2, Vec3::y(), Point3::new(-3.0, 0.0, 1.5), EXACT);
    // Deeper behind than the max distance: not inside, not found.
    assert!(closest(&world, Point3::new(2.0, -0.5, -1.0), 0.3).is_none());
    // Farther in front than the max distance.
    assert!(closest(&world, Point3::new(2.0, 0.5, -1.0), 0.3).is_none());
}

#[test]
fn closest_point_beyond_a_trimesh_edge_is_rounded() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(trimesh_floor()));
    // 0.3 m out past the x = 5 edge and 0.4 m above it: 0.5 m from the edge.
    let (_, sp) = closest(&world, Point3::new(5.3, 0.4, 1.0), 1.0).expect("near the edge");
    assert_surface(
        &sp,
        0.5,
        Vec3::new(0.6, 0.8, 0.0),
        Point3::new(5.0, 0.0, 1.0),
        EXACT,
    );
    assert_abs_diff_eq!(sp.surface_normal.into_inner(), Vec3::y(), epsilon = NORMAL);
}

#[test]
fn closest_point_behind_the_seam_of_a_flat_trimesh_floor() {
    // (1, -0.1, 1) lies under the diagonal x = z that the two triangles share: it is behind
    // the floor, within its prism, so it is inside by 0.1 m like any other point under it.
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(trimesh_floor()));
    let (_, sp) = closest(&world, Point3::new(1.0, -0.1, 1.0), 0.3).expect("under the seam");
    assert_surface(&sp, -0.1, Vec3::y(), Point3::new(1.0, 0.0, 1.0), EXACT);
    let (_, sp) = closest(&world, Point3::new(1.0, 0.1, 1.0), 0.3).expect("over the seam");
    assert_surface(&sp, 0.1, Vec3::y(), Point3::new(1.0, 0.0, 1.0), EXACT);
}

#[test]
fn closest_point_on_a_flat_heightfield() {
    let mut world = CollisionWorld::new();
    // Heights 0.5 m, the field moved 1 m along +Y: its surface is y = 1.5.
    insert(
        &mut world,
        ColliderDesc::new(flat_field(0.5)).translation(0.0, 1.0, 0.0),
    );
    let (_, sp) = closest(&world, Point3::new(1.3, 1.8, -2.1), 0.5).expect("above");
    assert_surface(&sp, 0.3, Vec3::y(), Point3::new(1.3, 1.5, -2.1), EXACT);
    // Behind (below) the field, within the max distance: inside, pushed up.
    let (_, sp) = closest(&world, Point3::new(-3.4, 1.4, 2.2), 0.5).expect("below");
    assert_surface(&sp, -0.1, Vec3::y(), Point3::new(-3.4, 1.5, 2.2), EXACT);
    assert!(
        closest(&world, Point3::new(-3.4, 0.5, 2.2), 0.5).is_none(),
        "1 m below, max 0.5 m"
    );
}

#[test]
fn closest_point_on_a_sloped_heightfield() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(sloped_field()));
    // Plane y = 0.5 x, unit normal (-0.5, 1, 0) / sqrt(1.25).
    let k = 1.25f32.sqrt();
    let n = Vec3::new(-0.5 / k, 1.0 / k, 0.0);
    let p = Point3::new(1.3, 3.0, -2.1);
    let d = (p.y - 0.5 * p.x) / k;
    let (_, sp) = closest(&world, p, 5.0).expect("above the slope");
    assert_surface(&sp, d, n, p - n * d, EXACT);
    assert_abs_diff_eq!(sp.surface_normal.into_inner(), n, epsilon = NORMAL);
    // 0.1 m behind the slope, measured along its normal.
    let q = Point3::new(-2.2, -1.1, 3.4) - n * 0.1;
    let (_, sp) = closest(&world, q, 0.3).expect("behind the slope");
    assert_surface(&sp, -0.1, n, Point3::new(-2.2, -1.1, 3.4), EXACT);
}

#[test]
fn closest_point_respects_the_filter() {
    let mut world = CollisionWorld::new();
    let near = insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(0.5))
            .translation(1.0, 0.0, 0.0)
            .layers(2),
    );
    let far = insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(0.5))
            .translation(-2.0, 0.0, 0.0)
            .layers(1),
    );
    let p = Point3::origin();
    assert_eq!(
        world.closest_point(&p, 5.0, &all()).map(|(id, _)| id),
        Some(near)
    );
    let only_1 = QueryFilter {
        mask: 1,
        exclude: None,
    };
    let (id, sp) = world.closest_point(&p, 5.0, &only_1).expect("far ball");
    assert_eq!(id, far);
    assert_abs_diff_eq!(sp.distance, 1.5, epsilon = EXACT);
    let not_near = QueryFilter {
        mask: u32::MAX,
        exclude: Some(near),
    };
    assert_eq!(
        world.closest_point(&p, 5.0, &not_near).map(|(id, _)| id),
        Some(far)
    );
}

/// A point on a tilted box's face, metres from the origin, lies a few ulps inside or outside
/// it after rounding; its normal is the face's, not the direction of that noise.
#[test]
fn a_point_on_a_tilted_face_off_the_origin_gets_the_face_normal() {
    let rot = Quat::from_euler_angles(0.3, -0.2, 0.5);
    let pose = Iso::from_parts(Vec3::new(-5.0, 2.0, 4.0).into(), rot);
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 0.5, 0.5)).pose(pose),
    );
    let face = rot * Vec3::x();
    // A grid of points of the +X face, along its other two axes.
    for i in 0..81 {
        let (a, b) = ((i / 9) as Real * 0.1 - 0.4, (i % 9) as Real * 0.1 - 0.4);
        let on_face = pose * Point3::new(0.5, a, b);
        let (_, sp) = closest(&world, on_face, 1.0).expect("on the face");
        // On the surface to f32 rounding at 5 m (ulp ~5e-7 m).
        assert_abs_diff_eq!(sp.distance, 0.0, epsilon = 5e-6);
        assert_abs_diff_eq!(sp.contact_normal.into_inner(), face, epsilon = NORMAL);
    }
}
