//! Sphere casts onto boxes, meshes, heightfields, walls and balls.

use super::fixtures::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::{Sweep, WorldQueries};
use spherewalk_core::{ColliderDesc, CollisionWorld, Point3, Vec3};

#[test]
fn cast_sphere_down_onto_a_box_floor() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(0.5, 2.0, -0.5), 0.3, down(), 5.0),
            &all(),
        )
        .expect("hits the floor");
    assert_eq!(hit.collider, floor);
    // The centre stops one radius above the top face: 2.0 - 0.3 = 1.7 m.
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert_abs_diff_eq!(hit.point, Point3::new(0.5, 0.0, -0.5), epsilon = 1e-4);
    // Too short to reach, and moving away.
    assert!(
        world
            .cast_sphere(
                &Sweep::new(Point3::new(0.5, 2.0, -0.5), 0.3, down(), 1.6),
                &all()
            )
            .is_none()
    );
    assert!(
        world
            .cast_sphere(
                &Sweep::new(Point3::new(0.5, 2.0, -0.5), 0.3, Vec3::y_axis(), 5.0),
                &all()
            )
            .is_none()
    );
}

#[test]
fn cast_sphere_diagonally_onto_a_box_floor() {
    let mut world = CollisionWorld::new();
    insert(&mut world, floor_box());
    // Along (1, -1, 0) / sqrt(2): the centre drops 1.7 m over a path sqrt(2) times longer.
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(-2.0, 2.0, 0.0), 0.3, dir(1.0, -1.0, 0.0), 5.0),
            &all(),
        )
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, 1.7 * std::f32::consts::SQRT_2, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
}

#[test]
fn cast_sphere_onto_a_trimesh_floor_front_only() {
    let mut world = CollisionWorld::new();
    let mesh = insert(&mut world, ColliderDesc::new(trimesh_floor()));
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(2.0, 2.0, -1.0), 0.3, down(), 5.0),
            &all(),
        )
        .expect("from the front");
    assert_eq!(hit.collider, mesh);
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    // From behind (below, moving up) the one-sided mesh is not there.
    assert!(
        world
            .cast_sphere(
                &Sweep::new(Point3::new(2.0, -2.0, -1.0), 0.3, Vec3::y_axis(), 5.0),
                &all()
            )
            .is_none()
    );
}

#[test]
fn cast_sphere_onto_a_flat_heightfield() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(flat_field(0.5)));
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(1.3, 2.0, -2.1), 0.3, down(), 5.0),
            &all(),
        )
        .expect("hit");
    // Surface at y = 0.5: 2.0 - 0.5 - 0.3.
    assert_abs_diff_eq!(hit.distance, 1.2, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert!(
        world
            .cast_sphere(
                &Sweep::new(Point3::new(1.3, -2.0, -2.1), 0.3, Vec3::y_axis(), 5.0),
                &all()
            )
            .is_none(),
        "from behind"
    );
}

#[test]
fn cast_sphere_down_onto_a_sloped_heightfield() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(sloped_field()));
    // Plane y = s x with s = 0.5: falling straight down, the centre stops r / cos(slope) =
    // r sqrt(1 + s^2) above the plane.
    let (x0, y0, r) = (1.0, 5.0, 0.3);
    let k = 1.25f32.sqrt();
    let want = y0 - 0.5 * x0 - r * k;
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(x0, y0, -2.5), r, down(), 10.0),
            &all(),
        )
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, want, epsilon = CAST);
    assert_abs_diff_eq!(
        hit.normal.into_inner(),
        Vec3::new(-0.5 / k, 1.0 / k, 0.0),
        epsilon = NORMAL
    );
}

#[test]
fn cast_sphere_down_along_a_wall_hits_the_floor_not_the_wall() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    // Wall face at x = 1.
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 2.0, 10.0)).translation(1.5, 2.0, 0.0),
    );
    // The sphere touches the wall (centre one radius from its face) and slides down along it.
    let centre = Point3::new(0.7, 2.0, 0.0);
    let hit = world
        .cast_sphere(&Sweep::new(centre, 0.3, down(), 5.0), &all())
        .expect("hits the floor");
    assert_eq!(hit.collider, floor, "{hit:?}");
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
}

#[test]
fn cast_sphere_down_along_a_wall_it_slightly_overlaps_hits_the_floor() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 2.0, 10.0)).translation(1.5, 2.0, 0.0),
    );
    // 0.1 mm into the wall (within a pushback tolerance): moving parallel to it, the wall does
    // not stop the sphere.
    let centre = Point3::new(0.7001, 2.0, 0.0);
    let hit = world
        .cast_sphere(&Sweep::new(centre, 0.3, down(), 5.0), &all())
        .expect("hits the floor");
    assert_eq!(hit.collider, floor, "{hit:?}");
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
}

#[test]
fn cast_sphere_into_a_wall_stops_at_the_face() {
    let mut world = CollisionWorld::new();
    insert(&mut world, floor_box());
    let wall = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 2.0, 10.0)).translation(1.5, 2.0, 0.0),
    );
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(-2.0, 1.0, 3.0), 0.3, Vec3::x_axis(), 5.0),
            &all(),
        )
        .expect("hit");
    assert_eq!(hit.collider, wall);
    // Face at x = 1: the centre travels from -2 to 0.7.
    assert_abs_diff_eq!(hit.distance, 2.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), -Vec3::x(), epsilon = NORMAL);
    assert_abs_diff_eq!(hit.point, Point3::new(1.0, 1.0, 3.0), epsilon = 1e-4);
}

#[test]
fn cast_sphere_onto_a_ball() {
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(1.0)).translation(0.0, 0.0, -5.0),
    );
    // Head-on along -Z: centres meet at 1.3 m apart, from 5 m.
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::origin(), 0.3, -Vec3::z_axis(), 10.0),
            &all(),
        )
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, 3.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::z(), epsilon = NORMAL);
    // Offset by 0.78 m sideways: contact when the axial gap is sqrt(1.3^2 - 0.78^2) = 1.04 m.
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(0.78, 0.0, 0.0), 0.3, -Vec3::z_axis(), 10.0),
            &all(),
        )
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, 5.0 - 1.04, epsilon = CAST);
    assert_abs_diff_eq!(
        hit.normal.into_inner(),
        Vec3::new(0.6, 0.0, 0.8),
        epsilon = NORMAL
    );
}
