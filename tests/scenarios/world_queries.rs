//! `CollisionWorld`: insertion and its errors, AABB overlap with filters, closest point with
//! sidedness on every shape kind, sphere penetration, sphere and ray casts, and `set_pose`.

use approx::assert_abs_diff_eq;
use spherewalk::na::DMatrix;
use spherewalk::parry3d::bounding_volume::Aabb;
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    ColliderDesc, ColliderId, CollisionWorld, Iso, Point3, Quat, QueryFilter, Real, SurfacePoint,
    UnitVec3, Vec3, WorldError,
};

/// Exact-geometry tolerance (m): parry projects onto boxes, balls and capsules in closed form,
/// so only f32 rounding of coordinates up to ~10 m remains (ulp ~1e-6 m); 1e-5 m covers a few
/// of those.
const EXACT: Real = 1e-5;
/// Normals are unit vectors computed from the same f32 geometry: a few ulps of 1.
const NORMAL: Real = 1e-5;

fn all() -> QueryFilter {
    QueryFilter::default()
}

fn down() -> UnitVec3 {
    -Vec3::y_axis()
}

fn dir(x: Real, y: Real, z: Real) -> UnitVec3 {
    UnitVec3::new_normalize(Vec3::new(x, y, z))
}

fn insert(world: &mut CollisionWorld, desc: ColliderDesc) -> ColliderId {
    world.insert(desc).expect("valid collider")
}

/// A 20 m x 20 m box floor, 1 m thick, whose top face is y = 0.
fn floor_box() -> ColliderDesc {
    ColliderDesc::new(SharedShape::cuboid(10.0, 0.5, 10.0)).translation(0.0, -0.5, 0.0)
}

/// A flat 10 m x 10 m trimesh square at y = 0, wound counter-clockwise seen from above, so
/// its front faces +Y. The two triangles share the diagonal x = z.
fn trimesh_floor() -> SharedShape {
    let vertices = vec![
        Point3::new(-5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, -5.0),
        Point3::new(5.0, 0.0, 5.0),
        Point3::new(-5.0, 0.0, 5.0),
    ];
    // (v3 - v0) x (v2 - v0) = (0,0,10) x (10,0,10) = (0,100,0): +Y, and likewise for the other.
    SharedShape::trimesh(vertices, vec![[0, 3, 2], [0, 2, 1]]).expect("valid trimesh")
}

/// A 10 m x 10 m heightfield (3 x 3 samples, 5 m cells) at constant height `h` (m).
fn flat_field(h: Real) -> SharedShape {
    SharedShape::heightfield(DMatrix::from_element(3, 3, h), Vec3::new(10.0, 1.0, 10.0))
}

/// A 10 m x 10 m heightfield on the plane y = 0.5 x (columns run along x: -5, 0, 5 m).
fn sloped_field() -> SharedShape {
    let heights = DMatrix::from_fn(3, 3, |_row, col| 0.5 * (-5.0 + 5.0 * col as Real));
    SharedShape::heightfield(heights, Vec3::new(10.0, 1.0, 10.0))
}

/// Checks a surface point: signed distance, contact normal and closest point.
fn assert_surface(sp: &SurfacePoint, distance: Real, normal: Vec3, point: Point3, eps: Real) {
    assert_abs_diff_eq!(sp.distance, distance, epsilon = eps);
    assert_abs_diff_eq!(
        sp.contact_normal.into_inner(),
        normal,
        epsilon = NORMAL.max(eps)
    );
    assert_abs_diff_eq!(sp.point, point, epsilon = eps);
}

fn closest(world: &CollisionWorld, p: Point3, max: Real) -> Option<(ColliderId, SurfacePoint)> {
    world.closest_point(&p, max, &all())
}

// ---------------------------------------------------------------------------------------------
// Insertion
// ---------------------------------------------------------------------------------------------

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
        [ColliderId(0), ColliderId(1), ColliderId(2), ColliderId(3)]
    );
    assert_eq!(world.len(), 4);
    let c = world.get(ColliderId(2)).expect("inserted");
    assert_eq!(c.pose.translation.vector, Vec3::new(6.0, 0.0, 0.0));
    assert!(world.get(ColliderId(4)).is_none());
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
        other => panic!("expected NonFinitePose, got {:?}", other.map(|id| id.0)),
    }
    let desc = ColliderDesc::new(SharedShape::ball(0.5)).translation(0.0, Real::INFINITY, 0.0);
    assert_eq!(
        world.insert(desc).map(|id| id.0),
        Err(WorldError::NonFinitePose {
            translation: [0.0, Real::INFINITY, 0.0]
        })
    );
    assert!(world.is_empty());
}

#[test]
fn nan_rotation_is_refused() {
    let mut world = CollisionWorld::new();
    let rot = Quat::new_unchecked(spherewalk::na::Quaternion::new(Real::NAN, 0.0, 0.0, 0.0));
    let desc = ColliderDesc::new(SharedShape::cuboid(1.0, 1.0, 1.0))
        .pose(Iso::from_parts(Vec3::new(1.0, 2.0, 3.0).into(), rot));
    assert_eq!(
        world.insert(desc).map(|id| id.0),
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
        world.insert(linear).map(|id| id.0),
        Err(WorldError::NonFinitePose {
            translation: [1.0, 2.0, 3.0]
        })
    );
    let angular = ColliderDesc::new(SharedShape::ball(0.5))
        .velocity(Vec3::zeros(), Vec3::new(Real::INFINITY, 0.0, 0.0));
    assert_eq!(
        world.insert(angular).map(|id| id.0),
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
        other => panic!("expected NonFiniteShape, got {:?}", other.map(|id| id.0)),
    }
    let desc = ColliderDesc::new(SharedShape::ball(Real::INFINITY));
    match world.insert(desc) {
        Err(WorldError::NonFiniteShape { mins, maxs }) => {
            assert!(
                mins.iter().chain(&maxs).all(|c| c.is_infinite()),
                "mins {mins:?} maxs {maxs:?}"
            );
        }
        other => panic!("expected NonFiniteShape, got {:?}", other.map(|id| id.0)),
    }
    assert!(world.is_empty());
}

#[test]
fn refused_collider_takes_no_id() {
    let mut world = CollisionWorld::new();
    assert_eq!(insert(&mut world, floor_box()), ColliderId(0));
    assert!(
        world
            .insert(ColliderDesc::new(SharedShape::ball(0.5)).translation(Real::NAN, 0.0, 0.0))
            .is_err()
    );
    assert_eq!(
        insert(&mut world, ColliderDesc::new(SharedShape::ball(0.5))),
        ColliderId(1)
    );
    assert_eq!(world.len(), 2);
}

// ---------------------------------------------------------------------------------------------
// AABB overlap
// ---------------------------------------------------------------------------------------------

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

fn overlap(world: &CollisionWorld, aabb: &Aabb, filter: &QueryFilter) -> Vec<ColliderId> {
    let mut out = Vec::new();
    world.overlap_aabb(aabb, filter, &mut out);
    out
}

#[test]
fn overlap_aabb_respects_layers_and_exclude() {
    let world = layered_row();
    let everything = Aabb::new(
        Point3::new(-10.0, -10.0, -10.0),
        Point3::new(10.0, 10.0, 10.0),
    );
    let ids = |v: &[u32]| v.iter().map(|&i| ColliderId(i)).collect::<Vec<_>>();
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
        exclude: Some(ColliderId(2)),
    };
    assert_eq!(overlap(&world, &everything, &excl), ids(&[0]));
    let excl = QueryFilter {
        mask: u32::MAX,
        exclude: Some(ColliderId(0)),
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
    let mut out = vec![ColliderId(99)];
    world.overlap_aabb(
        &everything,
        &QueryFilter {
            mask: 1,
            exclude: None,
        },
        &mut out,
    );
    assert_eq!(out, [ColliderId(99), ColliderId(0), ColliderId(2)]);
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
                exclude: Some(ColliderId(6)),
            },
        ] {
            let got = overlap(&world, aabb, &filter);
            let want: Vec<ColliderId> = centres
                .iter()
                .enumerate()
                .filter(|(k, (c, layers))| {
                    let ball = Aabb::new(c - Vec3::repeat(0.4), c + Vec3::repeat(0.4));
                    filter.accepts(ColliderId(*k as u32), *layers)
                        && spherewalk::parry3d::bounding_volume::BoundingVolume::intersects(
                            &ball, aabb,
                        )
                })
                .map(|(k, _)| ColliderId(k as u32))
                .collect();
            assert!(!want.is_empty());
            assert_eq!(got, want, "query {aabb:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Closest point with sidedness
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Sphere penetration
// ---------------------------------------------------------------------------------------------

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
    // Centre 0.1 m above: 0.2 m deep; centre 0.1 m below (behind): 0.4 m deep.
    assert_abs_diff_eq!(
        world.sphere_penetration(&Point3::new(2.0, 0.1, -1.0), 0.3, &all()),
        0.2,
        epsilon = EXACT
    );
    assert_abs_diff_eq!(
        world.sphere_penetration(&Point3::new(2.0, -0.1, -1.0), 0.3, &all()),
        0.4,
        epsilon = EXACT
    );
}

// ---------------------------------------------------------------------------------------------
// Sphere casts
// ---------------------------------------------------------------------------------------------

/// Casts are refined with Newton steps on the exact distance to well under a micrometre; the
/// brief for this world is 1e-5 m on the distance.
const CAST: Real = 1e-5;

#[test]
fn cast_sphere_down_onto_a_box_floor() {
    let mut world = CollisionWorld::new();
    let floor = insert(&mut world, floor_box());
    let hit = world
        .cast_sphere(&Point3::new(0.5, 2.0, -0.5), 0.3, &down(), 5.0, &all())
        .expect("hits the floor");
    assert_eq!(hit.collider, floor);
    // The centre stops one radius above the top face: 2.0 - 0.3 = 1.7 m.
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert_abs_diff_eq!(hit.point, Point3::new(0.5, 0.0, -0.5), epsilon = 1e-4);
    // Too short to reach, and moving away.
    assert!(
        world
            .cast_sphere(&Point3::new(0.5, 2.0, -0.5), 0.3, &down(), 1.6, &all())
            .is_none()
    );
    assert!(
        world
            .cast_sphere(
                &Point3::new(0.5, 2.0, -0.5),
                0.3,
                &Vec3::y_axis(),
                5.0,
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
            &Point3::new(-2.0, 2.0, 0.0),
            0.3,
            &dir(1.0, -1.0, 0.0),
            5.0,
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
        .cast_sphere(&Point3::new(2.0, 2.0, -1.0), 0.3, &down(), 5.0, &all())
        .expect("from the front");
    assert_eq!(hit.collider, mesh);
    assert_abs_diff_eq!(hit.distance, 1.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    // From behind (below, moving up) the one-sided mesh is not there.
    assert!(
        world
            .cast_sphere(
                &Point3::new(2.0, -2.0, -1.0),
                0.3,
                &Vec3::y_axis(),
                5.0,
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
        .cast_sphere(&Point3::new(1.3, 2.0, -2.1), 0.3, &down(), 5.0, &all())
        .expect("hit");
    // Surface at y = 0.5: 2.0 - 0.5 - 0.3.
    assert_abs_diff_eq!(hit.distance, 1.2, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    assert!(
        world
            .cast_sphere(
                &Point3::new(1.3, -2.0, -2.1),
                0.3,
                &Vec3::y_axis(),
                5.0,
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
        .cast_sphere(&Point3::new(x0, y0, -2.5), r, &down(), 10.0, &all())
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
        .cast_sphere(&centre, 0.3, &down(), 5.0, &all())
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
        .cast_sphere(&centre, 0.3, &down(), 5.0, &all())
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
            &Point3::new(-2.0, 1.0, 3.0),
            0.3,
            &Vec3::x_axis(),
            5.0,
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
        .cast_sphere(&Point3::origin(), 0.3, &(-Vec3::z_axis()), 10.0, &all())
        .expect("hit");
    assert_abs_diff_eq!(hit.distance, 3.7, epsilon = CAST);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::z(), epsilon = NORMAL);
    // Offset by 0.78 m sideways: contact when the axial gap is sqrt(1.3^2 - 0.78^2) = 1.04 m.
    let hit = world
        .cast_sphere(
            &Point3::new(0.78, 0.0, 0.0),
            0.3,
            &(-Vec3::z_axis()),
            10.0,
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

// ---------------------------------------------------------------------------------------------
// Ray casts
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// set_pose
// ---------------------------------------------------------------------------------------------

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
            &Point3::new(15.0, 3.0, -4.0),
            0.3,
            &Vec3::x_axis(),
            10.0,
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
        world.set_pose(ColliderId(7), Iso::identity()),
        Err(WorldError::UnknownCollider(ColliderId(7)))
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
