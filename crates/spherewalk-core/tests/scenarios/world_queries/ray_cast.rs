//! Ray casts: normals facing the origin, one-sided meshes, heightfields and their grid lines.

use super::fixtures::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{ColliderDesc, CollisionWorld, Point3, Vec3, world::QueryFilter};

#[test]
fn cast_ray_hits_with_a_normal_facing_the_origin() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    let wall = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 2.0, 10.0)).translation(1.5, 2.0, 0.0),
    );
    let ball = insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(1.0)).translation(-5.0, 8.0, 0.0),
    );
    let hit = world
        .cast_ray(&Point3::new(-2.0, 5.0, 1.0), &down(), 10.0, &all())
        .expect("floor");
    assert_eq!(hit.collider, floor);
    assert_abs_diff_eq!(hit.distance, 5.0, epsilon = EXACT);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert_abs_diff_eq!(hit.point, Point3::new(-2.0, 0.0, 1.0), epsilon = EXACT);
    // Toward the wall from its -X side: the normal faces back along -X.
    let hit = world
        .cast_ray(&Point3::new(-2.0, 1.0, 0.0), &Vec3::x_axis(), 10.0, &all())
        .expect("wall");
    assert_eq!(hit.collider, wall);
    assert_abs_diff_eq!(hit.distance, 3.0, epsilon = EXACT);
    assert_abs_diff_eq!(hit.normal.into_inner(), -Vec3::x(), epsilon = NORMAL);
    // Toward the wall from its +X side, through its far face at x = 2.
    let hit = world
        .cast_ray(
            &Point3::new(6.0, 1.0, 0.0),
            &(-Vec3::x_axis()),
            10.0,
            &all(),
        )
        .expect("wall");
    assert_abs_diff_eq!(hit.distance, 4.0, epsilon = EXACT);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::x(), epsilon = NORMAL);
    // Toward the ball from below-right: the centre is (-3, 4, 0) = 5 m along (-0.6, 0.8, 0) from
    // (-2, 4, 0), so the ray enters the 1 m ball 4 m out, where the surface faces back along
    // the ray.
    let hit = world
        .cast_ray(
            &Point3::new(-2.0, 4.0, 0.0),
            &dir(-0.6, 0.8, 0.0),
            10.0,
            &all(),
        )
        .expect("ball");
    assert_eq!(hit.collider, ball);
    assert_abs_diff_eq!(hit.distance, 4.0, epsilon = EXACT);
    assert_abs_diff_eq!(
        hit.normal.into_inner(),
        Vec3::new(0.6, -0.8, 0.0),
        epsilon = NORMAL
    );
    // Too short, and pointing at nothing.
    assert!(
        world
            .cast_ray(&Point3::new(-2.0, 5.0, 1.0), &down(), 4.9, &all())
            .is_none()
    );
    assert!(
        world
            .cast_ray(&Point3::new(-2.0, 5.0, 1.0), &Vec3::y_axis(), 10.0, &all())
            .is_none()
    );
}

#[test]
fn cast_ray_on_a_one_sided_mesh_hits_only_the_front() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(trimesh_floor()));
    let hit = world
        .cast_ray(&Point3::new(2.0, 3.0, -1.0), &down(), 10.0, &all())
        .expect("front");
    assert_abs_diff_eq!(hit.distance, 3.0, epsilon = EXACT);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert!(
        world
            .cast_ray(&Point3::new(2.0, -3.0, -1.0), &Vec3::y_axis(), 10.0, &all())
            .is_none(),
        "from behind"
    );
}

#[test]
fn cast_ray_on_a_sloped_heightfield() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(sloped_field()));
    // Straight down from (2, 5): the plane y = 0.5 x is at y = 1 there.
    let hit = world
        .cast_ray(&Point3::new(2.0, 5.0, 1.7), &down(), 10.0, &all())
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, 4.0, epsilon = EXACT);
    let k = 1.25f32.sqrt();
    assert_abs_diff_eq!(
        hit.normal.into_inner(),
        Vec3::new(-0.5 / k, 1.0 / k, 0.0),
        epsilon = NORMAL
    );
}

#[test]
fn regression_a_ray_along_a_heightfield_grid_line_hits_it() {
    // A vertical ray at x = 0 lies exactly on the field's middle grid line: its zero-width
    // box overlapped no cell and the ray missed the field.
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(flat_field(0.5)));
    for origin in [
        Point3::new(0.0, 3.0, 1.3),
        Point3::new(0.0, 3.0, 0.0),
        Point3::new(2.0, 3.0, 0.0),
    ] {
        let down = -Vec3::y_axis();
        let hit = world
            .cast_ray(&origin, &down, 10.0, &QueryFilter::default())
            .expect("on the grid line");
        // 2.5 m down to the surface at y = 0.5 (1e-5 m: one f32 ray-triangle solve).
        assert_abs_diff_eq!(hit.distance, 2.5, epsilon = 1e-5);
    }
}
