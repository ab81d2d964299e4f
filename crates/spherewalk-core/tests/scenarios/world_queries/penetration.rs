//! Sphere penetration: the deepest overlap, and one-sided meshes.

use super::fixtures::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{ColliderDesc, CollisionWorld, Point3, world::QueryFilter};

#[test]
fn sphere_penetration_is_the_deepest_overlap() {
    let mut world = CollisionWorld::new();
    insert(&mut world, floor_box());
    let wall = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 2.0, 10.0)).translation(1.5, 2.0, 0.0),
    );
    // Centre 0.2 m above the floor, radius 0.3 m: 0.1 m deep.
    assert_abs_diff_eq!(
        world.sphere_penetration(&Point3::new(-3.0, 0.2, 0.0), 0.3, &all()),
        0.1,
        epsilon = EXACT
    );
    // Clear of everything.
    assert_eq!(
        world.sphere_penetration(&Point3::new(-3.0, 0.5, 0.0), 0.3, &all()),
        0.0
    );
    // 0.1 m into the floor and 0.25 m into the wall (face at x = 1): the wall is deeper.
    let corner = Point3::new(0.95, 0.2, 0.0);
    assert_abs_diff_eq!(
        world.sphere_penetration(&corner, 0.3, &all()),
        0.25,
        epsilon = EXACT
    );
    let no_wall = QueryFilter {
        mask: u32::MAX,
        exclude: Some(wall),
    };
    assert_abs_diff_eq!(
        world.sphere_penetration(&corner, 0.3, &no_wall),
        0.1,
        epsilon = EXACT
    );
    // A centre inside the solid: radius + depth of the centre (0.3 + 0.2).
    assert_abs_diff_eq!(
        world.sphere_penetration(&Point3::new(-3.0, -0.2, 0.0), 0.3, &all()),
        0.5,
        epsilon = EXACT
    );
}

#[test]
fn sphere_penetration_into_a_one_sided_mesh() {
    let mut world = CollisionWorld::new();
    insert(&mut world, ColliderDesc::new(trimesh_floor()));
    // Centre 0.1 m above: 0.2 m deep.
    assert_abs_diff_eq!(
        world.sphere_penetration(&Point3::new(2.0, 0.1, -1.0), 0.3, &all()),
        0.2,
        epsilon = EXACT
    );
    // Centre 0.1 m below (behind): a sphere at rest behind a one-sided face is not inside it
    // (it did not cross the face from the front; issue 8, defect 8), so 0 m, not 0.4 m. The
    // closest-point query itself still reports the point as inside (`closest_point.rs`).
    assert_eq!(
        world.sphere_penetration(&Point3::new(2.0, -0.1, -1.0), 0.3, &all()),
        0.0
    );
}

/// A sphere centred exactly on a ball's centre is inside by both radii, with a finite contact
/// (parry's projection divides by zero there): 0.3 + 2.0 m.
#[test]
fn sphere_penetration_at_a_balls_exact_centre_is_finite() {
    let mut world = CollisionWorld::new();
    insert(
        &mut world,
        ColliderDesc::new(spherewalk_core::parry3d::shape::SharedShape::ball(2.0))
            .translation(1.0, 2.0, 3.0),
    );
    let centre = Point3::new(1.0, 2.0, 3.0);
    assert_abs_diff_eq!(
        world.sphere_penetration(&centre, 0.3, &all()),
        2.3,
        epsilon = EXACT
    );
    let (_, sp) = world.closest_point(&centre, 1.0, &all()).expect("inside");
    assert_abs_diff_eq!(sp.distance, -2.0, epsilon = EXACT);
    assert!(sp.contact_normal.iter().all(|c| c.is_finite()));
}
