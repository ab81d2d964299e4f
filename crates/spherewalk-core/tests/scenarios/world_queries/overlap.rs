//! AABB overlap: layers, exclusion, appending, sorted ids.

use super::fixtures::*;
use spherewalk_core::backend::Geometry;
use spherewalk_core::parry3d::bounding_volume::Aabb;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::{Sweep, WorldQueries};
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, Point3, Real, Vec3, world::QueryFilter,
};

/// Four 1 m boxes on the x axis at x = 0, 2, 4, 6 on layers 1, 2, 1, 4.
fn layered_row() -> CollisionWorld {
    let mut world = CollisionWorld::new();
    for (k, layers) in [1u32, 2, 1, 4].into_iter().enumerate() {
        let desc = ColliderDesc::new(SharedShape::cuboid(0.5, 0.5, 0.5))
            .translation(2.0 * k as Real, 0.0, 0.0)
            .layers(layers);
        insert(&mut world, desc);
    }
    world
}

#[test]
fn overlap_aabb_respects_layers_and_exclude() {
    let world = layered_row();
    let everything = Aabb::new(
        Point3::new(-10.0, -10.0, -10.0),
        Point3::new(10.0, 10.0, 10.0),
    );
    let ids = |v: &[u32]| v.iter().map(|&i| ColliderId::new(i, 0)).collect::<Vec<_>>();
    assert_eq!(overlap(&world, &everything, &all()), ids(&[0, 1, 2, 3]));
    assert_eq!(
        overlap(
            &world,
            &everything,
            &QueryFilter {
                mask: 1,
                exclude: None
            }
        ),
        ids(&[0, 2])
    );
    assert_eq!(
        overlap(
            &world,
            &everything,
            &QueryFilter {
                mask: 2 | 4,
                exclude: None
            }
        ),
        ids(&[1, 3])
    );
    assert_eq!(
        overlap(
            &world,
            &everything,
            &QueryFilter {
                mask: 8,
                exclude: None
            }
        ),
        ids(&[])
    );
    let excl = QueryFilter {
        mask: 1,
        exclude: Some(ColliderId::new(2, 0)),
    };
    assert_eq!(overlap(&world, &everything, &excl), ids(&[0]));
    let excl = QueryFilter {
        mask: u32::MAX,
        exclude: Some(ColliderId::new(0, 0)),
    };
    assert_eq!(overlap(&world, &everything, &excl), ids(&[1, 2, 3]));
    // Only the boxes at x = 2 and x = 4 reach into x in [1.7, 3.6].
    let middle = Aabb::new(Point3::new(1.7, -0.1, -0.1), Point3::new(3.6, 0.1, 0.1));
    assert_eq!(overlap(&world, &middle, &all()), ids(&[1, 2]));
    // A box between the colliders touches none of them.
    let gap = Aabb::new(Point3::new(0.6, -0.1, -0.1), Point3::new(1.4, 0.1, 0.1));
    assert_eq!(overlap(&world, &gap, &all()), ids(&[]));
}

#[test]
fn overlap_aabb_appends_after_existing_entries() {
    let world = layered_row();
    let everything = Aabb::new(
        Point3::new(-10.0, -10.0, -10.0),
        Point3::new(10.0, 10.0, 10.0),
    );
    let mut out = vec![ColliderId::new(99, 0)];
    world.overlap_aabb(
        &everything,
        &QueryFilter {
            mask: 1,
            exclude: None,
        },
        &mut out,
    );
    assert_eq!(
        out,
        [
            ColliderId::new(99, 0),
            ColliderId::new(0, 0),
            ColliderId::new(2, 0)
        ]
    );
}

#[test]
fn overlap_aabb_returns_ids_sorted_whatever_the_tree_layout() {
    // 64 small balls on an 8 x 8 grid, inserted in a scrambled order so ids and positions
    // disagree; every query result must equal the brute-force answer, in id order.
    let mut world = CollisionWorld::new();
    let mut centres = Vec::new();
    for k in 0..64u32 {
        let cell = (k * 37) % 64;
        let (gx, gz) = ((cell % 8) as Real, (cell / 8) as Real);
        let layers = 1 << (k % 3);
        insert(
            &mut world,
            ColliderDesc::new(SharedShape::ball(0.4))
                .translation(gx, 0.0, gz)
                .layers(layers),
        );
        centres.push((Point3::new(gx, 0.0, gz), layers));
    }
    world.optimize();
    let queries = [
        Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(9.0, 1.0, 9.0)),
        Aabb::new(Point3::new(1.5, -1.0, 2.5), Point3::new(5.5, 1.0, 6.5)),
        Aabb::new(Point3::new(3.0, -1.0, 0.0), Point3::new(3.0, 1.0, 7.0)),
    ];
    for aabb in &queries {
        for filter in [
            all(),
            QueryFilter {
                mask: 0b101,
                exclude: Some(ColliderId::new(6, 0)),
            },
        ] {
            let got = overlap(&world, aabb, &filter);
            let want: Vec<ColliderId> = centres
                .iter()
                .enumerate()
                .filter(|(k, (c, layers))| {
                    let ball = Aabb::new(c - Vec3::repeat(0.4), c + Vec3::repeat(0.4));
                    filter.accepts(ColliderId::new(*k as u32, 0), *layers)
                        && spherewalk_core::parry3d::bounding_volume::BoundingVolume::intersects(
                            &ball, aabb,
                        )
                })
                .map(|(k, _)| ColliderId::new(k as u32, 0))
                .collect();
            assert!(!want.is_empty());
            assert_eq!(got, want, "query {aabb:?}");
        }
    }
}

/// Colliders on the cell grid (`ColliderDesc::on_grid`) answer every query exactly as the
/// same colliders in the BVH: a world with every other ball on the grid is moved in batches
/// (`set_poses`) and one at a time, reshaped (one ball grows past the grid's cell size, so
/// the grid re-files itself), and loses a collider; after each change, overlap queries of
/// every size and filter, ray casts and sphere casts give the same answers in both worlds.
#[test]
fn grid_colliders_answer_like_tree_colliders_through_moves_reshapes_and_removals() {
    use spherewalk_core::math::Iso;
    let build = |grid: bool| {
        let mut world = CollisionWorld::new();
        for k in 0..40u32 {
            let desc = ColliderDesc::new(SharedShape::ball(0.3))
                .translation((k % 8) as Real, 0.0, (k / 8) as Real)
                .layers(1 << (k % 3));
            insert(
                &mut world,
                if grid && k % 2 == 0 {
                    desc.on_grid()
                } else {
                    desc
                },
            );
        }
        world
    };
    let (mut tree, mut mixed) = (build(false), build(true));
    let same = |a: &CollisionWorld, b: &CollisionWorld, round: u32| {
        for (lo, hi) in [(-1.0, 9.0), (2.2, 3.1), (4.0, 4.0), (-1.0e6, 1.0e6)] {
            let aabb = Aabb::new(Point3::new(lo, -1.0, lo), Point3::new(hi, 1.0, hi));
            for filter in [
                all(),
                QueryFilter {
                    mask: 0b101,
                    exclude: Some(ColliderId::new(4, 0)),
                },
            ] {
                let (x, y) = (overlap(a, &aabb, &filter), overlap(b, &aabb, &filter));
                assert_eq!(x, y, "round {round}: {aabb:?}");
            }
        }
        let from = Point3::new(-2.0, 0.0, 1.9);
        let dir = spherewalk_core::UnitVec3::new_normalize(Vec3::new(1.0, 0.0, 0.2));
        let ray = |w: &CollisionWorld| w.cast_ray(&from, &dir, 20.0, &all()).map(|h| h.collider);
        assert_eq!(ray(a), ray(b), "round {round}");
        let cast = |w: &CollisionWorld| {
            w.cast_sphere(&Sweep::new(from, 0.2, dir, 20.0), &all())
                .map(|h| h.collider)
        };
        assert_eq!(cast(a), cast(b), "round {round}");
    };
    same(&tree, &mixed, 0);
    for round in 1..30u32 {
        let t = round as Real * 0.13;
        let moves: Vec<(ColliderId, Iso)> = (0..40u32)
            .filter(|k| (k + round) % 3 != 0 && !(round > 20 && *k == 8))
            .map(|k| {
                let x = (k % 8) as Real + (t + k as Real).sin() * 1.5;
                let z = (k / 8) as Real + (t * 0.7 + k as Real).cos() * 1.5;
                (ColliderId::new(k, 0), Iso::translation(x, 0.0, z))
            })
            .collect();
        for world in [&mut tree, &mut mixed] {
            world.set_poses(&moves).expect("finite poses");
            let single = ColliderId::new(round % 8 + 9, 0);
            world
                .set_pose(single, Iso::translation(t, 0.5, 2.0))
                .expect("finite pose");
            if round == 10 {
                world
                    .set_shape(ColliderId::new(6, 0), SharedShape::ball(2.5))
                    .expect("finite shape");
            }
            if round == 20 {
                world.remove(ColliderId::new(8, 0)).expect("known id");
            }
        }
        same(&tree, &mixed, round);
    }
}

/// A compound of balls is gathered as its balls placed at the collider's pose, whatever their
/// number: up to six are kept inline in the collider, more (and mixes with other parts) in a
/// list, and both give each ball's centre as the pose applied to its part's translation (bit
/// for bit) and its radius, and only the balls whose boxes meet the region.
#[test]
fn compounds_of_balls_gather_their_balls_inline_or_not() {
    use spherewalk_core::parry3d::bounding_volume::BoundingVolume;
    use spherewalk_core::{Quat, backend::PrimitiveShape, math::Iso};
    let turn = Quat::from_euler_angles(0.4, 1.1, -0.7);
    let pose = Iso::from_parts(Vec3::new(1.5, -2.0, 3.25).into(), turn);
    for count in 1..=9usize {
        let parts: Vec<(Iso, SharedShape)> = (0..count)
            .map(|k| {
                let y = 0.3 + 0.4 * k as Real;
                (
                    Iso::translation(0.0, y, 0.05 * k as Real),
                    SharedShape::ball(0.3),
                )
            })
            .collect();
        let mut world = CollisionWorld::new();
        let desc = ColliderDesc::new(SharedShape::compound(parts.clone())).pose(pose);
        let id = insert(&mut world, desc);
        let everywhere = Aabb::new(
            Point3::new(-50.0, -50.0, -50.0),
            Point3::new(50.0, 50.0, 50.0),
        );
        let (mut ids, mut prims) = (Vec::new(), Vec::new());
        world.gather_primitives(&everywhere, &QueryFilter::default(), &mut ids, &mut prims);
        assert_eq!(prims.len(), count, "{count} balls");
        for (prim, (local, _)) in prims.iter().zip(&parts) {
            let expected = pose * Point3::from(local.translation.vector);
            assert_eq!(prim.collider, id);
            assert_eq!(
                prim.shape,
                PrimitiveShape::Ball {
                    centre: expected,
                    radius: 0.3
                }
            );
        }
        // A region around the first ball alone gathers it and its overlapping neighbour only.
        let first = pose * Point3::new(0.0, 0.3, 0.0);
        let near = Aabb::new(first - Vec3::repeat(0.05), first + Vec3::repeat(0.05));
        prims.clear();
        world.gather_primitives(&near, &QueryFilter::default(), &mut ids, &mut prims);
        assert!(
            !prims.is_empty() && prims.len() <= count.min(2),
            "{count}: {prims:?}"
        );
        for prim in &prims {
            assert!(
                prim.aabb.intersects(&near),
                "{count}: {prim:?} is outside the region"
            );
        }
    }
}
