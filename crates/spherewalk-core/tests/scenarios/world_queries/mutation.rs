//! Inserting colliders (ids, refusing NaN poses and shapes) and moving them with `set_pose`.

use super::fixtures::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::bounding_volume::Aabb;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::{Sweep, WorldQueries};
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, Point3, Quat, Real, Vec3, WorldError, math::Iso,
};

// Insertion: ids and refused colliders.

#[test]
fn insert_returns_sequential_ids() {
    let mut world = CollisionWorld::new();
    assert!(world.is_empty());
    let ids: Vec<ColliderId> = (0..4)
        .map(|k| {
            insert(
                &mut world,
                ColliderDesc::new(SharedShape::ball(0.5)).translation(k as Real * 3.0, 0.0, 0.0),
            )
        })
        .collect();
    assert_eq!(
        ids,
        [
            ColliderId::new(0, 0),
            ColliderId::new(1, 0),
            ColliderId::new(2, 0),
            ColliderId::new(3, 0)
        ]
    );
    assert_eq!(world.len(), 4);
    let c = world.get(ColliderId::new(2, 0)).expect("inserted");
    assert_eq!(c.pose.translation.vector, Vec3::new(6.0, 0.0, 0.0));
    assert!(world.get(ColliderId::new(4, 0)).is_none());
    let listed: Vec<ColliderId> = world.iter().map(|(id, _)| id).collect();
    assert_eq!(listed, ids);
}

#[test]
fn nan_translation_is_refused() {
    let mut world = CollisionWorld::new();
    let desc = ColliderDesc::new(SharedShape::ball(0.5)).translation(Real::NAN, 1.0, 2.0);
    match world.insert(desc) {
        Err(WorldError::NonFinitePose {
            translation: [x, y, z],
        }) => {
            assert!(x.is_nan());
            assert_eq!((y, z), (1.0, 2.0));
        }
        other => panic!(
            "expected NonFinitePose, got {:?}",
            other.map(|id| id.index())
        ),
    }
    let desc = ColliderDesc::new(SharedShape::ball(0.5)).translation(0.0, Real::INFINITY, 0.0);
    assert_eq!(
        world.insert(desc).map(|id| id.index()),
        Err(WorldError::NonFinitePose {
            translation: [0.0, Real::INFINITY, 0.0]
        })
    );
    assert!(world.is_empty());
}

#[test]
fn nan_rotation_is_refused() {
    let mut world = CollisionWorld::new();
    let rot = Quat::new_unchecked(spherewalk_core::na::Quaternion::new(
        Real::NAN,
        0.0,
        0.0,
        0.0,
    ));
    let desc = ColliderDesc::new(SharedShape::cuboid(1.0, 1.0, 1.0))
        .pose(Iso::from_parts(Vec3::new(1.0, 2.0, 3.0).into(), rot));
    assert_eq!(
        world.insert(desc).map(|id| id.index()),
        Err(WorldError::NonFinitePose {
            translation: [1.0, 2.0, 3.0]
        })
    );
}

#[test]
fn nan_velocity_is_refused() {
    let mut world = CollisionWorld::new();
    let linear = ColliderDesc::new(SharedShape::ball(0.5))
        .translation(1.0, 2.0, 3.0)
        .velocity(Vec3::new(0.0, Real::NAN, 0.0), Vec3::zeros());
    assert_eq!(
        world.insert(linear).map(|id| id.index()),
        Err(WorldError::NonFinitePose {
            translation: [1.0, 2.0, 3.0]
        })
    );
    let angular = ColliderDesc::new(SharedShape::ball(0.5))
        .velocity(Vec3::zeros(), Vec3::new(Real::INFINITY, 0.0, 0.0));
    assert_eq!(
        world.insert(angular).map(|id| id.index()),
        Err(WorldError::NonFinitePose {
            translation: [0.0, 0.0, 0.0]
        })
    );
    assert!(world.is_empty());
}

#[test]
fn nan_cuboid_is_refused() {
    let mut world = CollisionWorld::new();
    let desc =
        ColliderDesc::new(SharedShape::cuboid(Real::NAN, 1.0, 1.0)).translation(5.0, 0.0, 0.0);
    match world.insert(desc) {
        Err(WorldError::NonFiniteShape { mins, maxs }) => {
            assert!(
                mins[0].is_nan() && maxs[0].is_nan(),
                "mins {mins:?} maxs {maxs:?}"
            );
        }
        other => panic!(
            "expected NonFiniteShape, got {:?}",
            other.map(|id| id.index())
        ),
    }
    let desc = ColliderDesc::new(SharedShape::ball(Real::INFINITY));
    match world.insert(desc) {
        Err(WorldError::NonFiniteShape { mins, maxs }) => {
            assert!(
                mins.iter().chain(&maxs).all(|c| c.is_infinite()),
                "mins {mins:?} maxs {maxs:?}"
            );
        }
        other => panic!(
            "expected NonFiniteShape, got {:?}",
            other.map(|id| id.index())
        ),
    }
    assert!(world.is_empty());
}

#[test]
fn refused_collider_takes_no_id() {
    let mut world = CollisionWorld::new();
    assert_eq!(insert(&mut world, floor_box()), ColliderId::new(0, 0));
    assert!(
        world
            .insert(ColliderDesc::new(SharedShape::ball(0.5)).translation(Real::NAN, 0.0, 0.0))
            .is_err()
    );
    assert_eq!(
        insert(&mut world, ColliderDesc::new(SharedShape::ball(0.5))),
        ColliderId::new(1, 0)
    );
    assert_eq!(world.len(), 2);
}

// Moving a collider with `set_pose`.

#[test]
fn set_pose_moves_a_collider_for_every_query() {
    let mut world = CollisionWorld::new();
    insert(&mut world, floor_box());
    let ball = insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(0.5)).translation(0.0, 3.0, 0.0),
    );
    world
        .set_pose(ball, Iso::translation(20.0, 3.0, -4.0))
        .expect("known id");
    assert_eq!(
        world.get(ball).expect("ball").pose.translation.vector,
        Vec3::new(20.0, 3.0, -4.0)
    );
    // Gone from the old place...
    let old = Aabb::new(Point3::new(-1.0, 2.0, -1.0), Point3::new(1.0, 4.0, 1.0));
    assert_eq!(overlap(&world, &old, &all()), Vec::<ColliderId>::new());
    assert!(
        world
            .cast_ray(&Point3::new(0.0, 6.0, 0.0), &down(), 10.0, &all())
            .is_some_and(|h| h.collider != ball)
    );
    // ...and found at the new one by every query.
    let new = Aabb::new(Point3::new(19.0, 2.0, -5.0), Point3::new(21.0, 4.0, -3.0));
    assert_eq!(overlap(&world, &new, &all()), [ball]);
    let (id, sp) = closest(&world, Point3::new(20.0, 3.0, -1.0), 5.0).expect("near the new place");
    assert_eq!(id, ball);
    assert_surface(&sp, 2.5, Vec3::z(), Point3::new(20.0, 3.0, -3.5), EXACT);
    let hit = world
        .cast_ray(&Point3::new(20.0, 8.0, -4.0), &down(), 10.0, &all())
        .expect("ray");
    assert_eq!(hit.collider, ball);
    assert_abs_diff_eq!(hit.distance, 4.5, epsilon = EXACT);
    let hit = world
        .cast_sphere(
            &Sweep::new(Point3::new(15.0, 3.0, -4.0), 0.3, Vec3::x_axis(), 10.0),
            &all(),
        )
        .expect("cast");
    assert_eq!(hit.collider, ball);
    assert_abs_diff_eq!(hit.distance, 4.2, epsilon = CAST);
}

#[test]
fn set_pose_rotates_a_collider() {
    let mut world = CollisionWorld::new();
    let plank = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(2.0, 0.1, 0.5)),
    );
    // A 4 m plank along X, stood up along Y by a quarter turn about Z.
    let rot = Quat::from_axis_angle(&Vec3::z_axis(), std::f32::consts::FRAC_PI_2);
    world
        .set_pose(plank, Iso::from_parts(Vec3::zeros().into(), rot))
        .expect("known id");
    let (_, sp) = closest(&world, Point3::new(0.0, 3.0, 0.0), 5.0).expect("above the top end");
    assert_surface(&sp, 1.0, Vec3::y(), Point3::new(0.0, 2.0, 0.0), EXACT);
}

#[test]
fn set_pose_of_an_unknown_collider_errors() {
    let mut world = CollisionWorld::new();
    insert(&mut world, floor_box());
    assert_eq!(
        world.set_pose(ColliderId::new(7, 0), Iso::identity()),
        Err(WorldError::UnknownCollider(ColliderId::new(7, 0)))
    );
}

#[test]
fn set_pose_with_nan_is_refused_and_keeps_the_old_pose() {
    let mut world = CollisionWorld::new();
    let ball = insert(
        &mut world,
        ColliderDesc::new(SharedShape::ball(0.5)).translation(1.0, 2.0, 3.0),
    );
    match world.set_pose(ball, Iso::translation(Real::NAN, 0.0, 0.0)) {
        Err(WorldError::NonFinitePose {
            translation: [x, y, z],
        }) => {
            assert!(x.is_nan());
            assert_eq!((y, z), (0.0, 0.0));
        }
        other => panic!("expected NonFinitePose, got {other:?}"),
    }
    assert_eq!(
        world.get(ball).expect("ball").pose.translation.vector,
        Vec3::new(1.0, 2.0, 3.0)
    );
    let (_, sp) = closest(&world, Point3::new(1.0, 4.0, 3.0), 5.0).expect("still there");
    assert_abs_diff_eq!(sp.distance, 1.5, epsilon = EXACT);
}

/// Removing a collider retires its id: queries stop seeing it, every use of the stale id is an
/// error, and the reused slot answers only to its new id.
#[test]
fn removed_colliders_leave_every_query_and_their_ids_stay_dead() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    let post = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 1.0, 0.5)).translation(2.0, 1.0, 0.0),
    );
    let around = Aabb::new(Point3::new(1.0, 0.5, -1.0), Point3::new(3.0, 1.5, 1.0));
    assert_eq!(overlap(&world, &around, &all()), [post]);

    let removed = world.remove(post).expect("present");
    assert_eq!(removed.pose.translation.vector, Vec3::new(2.0, 1.0, 0.0));
    assert_eq!(world.len(), 1);
    assert!(overlap(&world, &around, &all()).is_empty());
    assert!(world.get(post).is_none());
    let stale = Err(WorldError::UnknownCollider(post));
    assert_eq!(world.set_pose(post, Iso::identity()), stale);
    assert_eq!(world.set_velocity(post, Vec3::x(), Vec3::zeros()), stale);
    assert_eq!(world.remove(post).map(|_| ()), stale);
    // A closest-point query beside where the post stood finds only the floor, 1 m below.
    let (hit, sp) = closest(&world, Point3::new(2.0, 1.0, 0.0), 5.0).expect("floor");
    assert_eq!(hit, floor);
    assert_abs_diff_eq!(sp.distance, 1.0, epsilon = EXACT);

    // The slot is reused under a new generation; the old id does not reach the new collider.
    let crate_box = insert(
        &mut world,
        ColliderDesc::new(SharedShape::cuboid(0.5, 0.5, 0.5)).translation(-2.0, 0.5, 0.0),
    );
    assert_eq!(crate_box.index(), post.index());
    assert_eq!(crate_box.generation(), post.generation() + 1);
    assert!(world.get(post).is_none());
    assert_eq!(world.set_pose(post, Iso::identity()), stale);
    assert!(world.get(crate_box).is_some());
    // The tree rebuilt from the remaining slots still finds the new box.
    world.optimize();
    let there = Aabb::new(Point3::new(-3.0, 0.2, -1.0), Point3::new(-1.0, 0.8, 1.0));
    assert_eq!(overlap(&world, &there, &all()), [crate_box]);
    assert_eq!(
        world.iter().map(|(id, _)| id).collect::<Vec<_>>(),
        [floor, crate_box]
    );
}

/// Issue "hostile input": huge geometry was accepted, then ignored, so characters fell
/// through: a mesh quad of half size 1e9 m and a heightfield with a 2e19 m spike. One range
/// rule now holds for every shape, `MAX_COORD` (1e6 m) from the origin: both are refused, and
/// a quad reaching exactly 1e6 m is taken.
#[test]
fn regression_huge_meshes_and_heightfields_are_refused() {
    let quad = |h: Real| {
        let v = vec![
            Point3::new(-h, 0.0, -h),
            Point3::new(h, 0.0, -h),
            Point3::new(h, 0.0, h),
            Point3::new(-h, 0.0, h),
        ];
        SharedShape::trimesh(v, vec![[0, 2, 1], [0, 3, 2]]).expect("quad")
    };
    let mut world = CollisionWorld::new();
    let refused = world.insert(ColliderDesc::new(quad(1e9)));
    assert!(
        matches!(refused, Err(WorldError::OutOfRange { maxs, .. }) if maxs[0] == 1e9),
        "{refused:?}"
    );
    let mut heights = spherewalk_core::na::DMatrix::<Real>::zeros(4, 4);
    heights[(1, 2)] = 2e19;
    let field = SharedShape::heightfield(heights, Vec3::new(10.0, 1.0, 10.0));
    let refused = world.insert(ColliderDesc::new(field));
    assert!(
        matches!(refused, Err(WorldError::OutOfRange { maxs, .. }) if maxs[1] == 2e19),
        "{refused:?}"
    );
    assert!(world.is_empty());
    assert!(
        world
            .insert(ColliderDesc::new(quad(spherewalk_core::world::MAX_COORD)))
            .is_ok()
    );
    // Moving a collider out of range is refused the same way, and it stays where it was.
    let ball = world
        .insert(ColliderDesc::new(SharedShape::ball(1.0)))
        .expect("ball");
    let far = world.set_pose(ball, Iso::translation(2e6, 0.0, 0.0));
    assert!(matches!(far, Err(WorldError::OutOfRange { .. })), "{far:?}");
    let kept = world.get(ball).expect("ball").pose.translation.vector;
    assert_eq!(kept, Vec3::zeros());
}

/// A compound moved by `set_pose`, `set_poses` and reshaped by `set_shape` keeps exactly the
/// box parry gives its shape at the new pose (the world carries the compound's local box
/// instead of asking the shape each move: the bits must not differ), and a move out of range
/// is still refused.
#[test]
fn moved_compound_keeps_parrys_box_bit_for_bit() {
    let parts = |r: Real| {
        SharedShape::compound(vec![
            (Iso::translation(0.0, r, 0.0), SharedShape::ball(r)),
            (Iso::translation(0.0, 3.0 * r, 0.0), SharedShape::ball(r)),
            (
                Iso::translation(0.2, 5.0 * r, 0.1),
                SharedShape::cuboid(r, 0.5 * r, r),
            ),
        ])
    };
    let mut world = CollisionWorld::new();
    let id = insert(&mut world, ColliderDesc::new(parts(0.3)).on_grid());
    let turn = Quat::from_euler_angles(0.7, -1.3, 2.1);
    let pose = Iso::from_parts(Vec3::new(3.5, -17.25, 40.125).into(), turn);
    world.set_pose(id, pose).expect("finite pose");
    let expected = parts(0.3).compute_aabb(&pose);
    assert_eq!(world.get(id).expect("kept").aabb, expected);
    let later = Iso::from_parts(Vec3::new(-2.0, 9.0, 0.5).into(), turn * turn);
    world.set_poses(&[(id, later)]).expect("finite pose");
    assert_eq!(
        world.get(id).expect("kept").aabb,
        parts(0.3).compute_aabb(&later)
    );
    world.set_shape(id, parts(0.45)).expect("finite shape");
    world.set_pose(id, pose).expect("finite pose");
    assert_eq!(
        world.get(id).expect("kept").aabb,
        parts(0.45).compute_aabb(&pose)
    );
    let far = Iso::translation(2.0e6, 0.0, 0.0);
    assert!(matches!(
        world.set_pose(id, far),
        Err(WorldError::OutOfRange { .. })
    ));
    assert_eq!(
        world.get(id).expect("kept").aabb,
        parts(0.45).compute_aabb(&pose)
    );
}
