//! AABB overlap: layers, exclusion, appending, sorted ids.

use super::fixtures::*;
use spherewalk_core::parry3d::bounding_volume::Aabb;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{ColliderDesc, ColliderId, CollisionWorld, Point3, QueryFilter, Real, Vec3};

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
