//! The motor on a rapier world walks exactly as on spherewalk's own `CollisionWorld` holding
//! the same static colliders: same primitives, same order, so the same bits.

use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Real,
    SphereStack, StepInput, StepReport, Vec3, backend::Geometry, math::Iso, na,
};
use spherewalk_rapier::Physics;
use spherewalk_rapier::rapier3d::prelude::ColliderBuilder;

/// Radius (m) of the circle the character walks round the origin.
const CIRCLE: Real = 6.0;

/// A hill-shaped grid of `n` x `n` heights (m) of amplitude `a`.
fn hills(n: usize, a: Real) -> na::DMatrix<Real> {
    na::DMatrix::from_fn(n, n, |i, j| {
        let (x, z) = (i as Real * 0.7, j as Real * 0.9);
        a * (x.sin() * z.cos() + 1.0)
    })
}

/// A 6 x 6 m trimesh patch of gentle hills centred at the origin (local), counter-clockwise
/// seen from above so its front faces up.
fn mesh_patch() -> SharedShape {
    let n = 12;
    let step = 6.0 / n as Real;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, z) = (i as Real * step - 3.0, j as Real * step - 3.0);
            vertices.push(Point3::new(x, 0.15 * (x * 1.3).sin() * (z * 0.8).cos(), z));
        }
    }
    let mut indices = Vec::new();
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    for i in 0..n {
        for j in 0..n {
            indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            indices.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
        }
    }
    SharedShape::trimesh(vertices, indices).expect("a valid mesh")
}

/// Every shape kind the motor treats differently, placed on or beside the walking circle:
/// boxes (floor, stairs, a tilted ramp), a ball, a capsule, a convex hull (a parry solid), a
/// compound, a trimesh and a heightfield.
fn scene() -> Vec<(SharedShape, Iso)> {
    let at = |x: Real, y: Real, z: Real| Iso::translation(x, y, z);
    let on_circle = |angle: Real, y: Real| at(CIRCLE * angle.cos(), y, CIRCLE * angle.sin());
    let mut items = vec![(SharedShape::cuboid(20.0, 0.5, 20.0), at(0.0, -0.5, 0.0))];
    // Four 0.2 m stairs with 0.4 m treads, climbed toward -X where the walk crosses z = -6,
    // each box running on to a common far end at x = -3.5 (a landing 0.8 m high).
    for k in 0..4 {
        let (h, edge) = (0.2 * (k + 1) as Real, -0.4 - 0.4 * k as Real);
        let half = (edge + 3.5) / 2.0;
        let block = SharedShape::cuboid(half, h / 2.0, 1.5);
        items.push((block, at(edge - half, h / 2.0, -6.0)));
    }
    let mut ramp = on_circle(2.4, 0.0);
    ramp.rotation = na::UnitQuaternion::from_scaled_axis(Vec3::new(-0.25, 0.0, 0.0));
    items.push((SharedShape::cuboid(1.5, 0.3, 2.0), ramp));
    items.push((SharedShape::ball(0.6), on_circle(3.1, 0.2)));
    items.push((SharedShape::capsule_z(1.0, 0.25), on_circle(3.6, 0.1)));
    let rock = [
        Point3::new(-0.8, 0.0, -0.7),
        Point3::new(0.9, 0.0, -0.6),
        Point3::new(0.1, 0.0, 0.9),
        Point3::new(0.0, 0.35, 0.0),
    ];
    let hull = SharedShape::convex_hull(&rock).expect("a valid hull");
    items.push((hull, on_circle(4.1, 0.0)));
    let parts = vec![
        (at(0.0, 0.1, 0.0), SharedShape::cuboid(0.8, 0.1, 0.8)),
        (at(-0.4, 0.3, 0.0), SharedShape::cuboid(0.3, 0.1, 0.3)),
    ];
    items.push((SharedShape::compound(parts), on_circle(5.0, 0.0)));
    items.push((mesh_patch(), on_circle(5.4, 0.05)));
    let field = SharedShape::heightfield(hills(9, 0.12), Vec3::new(4.0, 1.0, 4.0));
    items.push((field, on_circle(0.4, 0.0)));
    items
}

/// The walking intent at `pose`: 3 m/s along the circle (from +X toward -Z, so through
/// decreasing angles), steering back onto it.
fn intent(pose: &Pose) -> MoveIntent {
    let p = pose.position;
    let radial = Vec3::new(p.x, 0.0, p.z);
    let r = radial.norm().max(1e-3);
    let tangent = Vec3::new(p.z, 0.0, -p.x) / r;
    let steer = radial / r * (CIRCLE - r);
    MoveIntent::walk((tangent + steer).normalize() * 3.0)
}

/// Walks the 3-sphere character round the circle for `steps` in `world`; every pose.
fn walk(world: &dyn Geometry, steps: usize) -> (Vec<Pose>, Real, Real) {
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    let motor = Motor::new(stack, MotorSettings::default()).expect("motor");
    let mut pose = Pose::new(Point3::new(CIRCLE, 0.0, 0.0));
    let mut state = MotorState::default();
    let mut report = StepReport::default();
    let mut poses = Vec::new();
    let (mut climbed, mut deepest): (Real, Real) = (0.0, 0.0);
    for _ in 0..steps {
        let input = StepInput::new(intent(&pose), Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0);
        motor.step(world, &mut pose, &mut state, &input, &mut report);
        climbed += report.climbed;
        deepest = deepest.max(report.max_penetration);
        poses.push(pose);
    }
    (poses, climbed, deepest)
}

#[test]
fn walks_a_rapier_world_bit_for_bit_as_the_native_world() {
    let items = scene();
    let mut native = CollisionWorld::new();
    let mut physics = Physics::new();
    for (shape, pose) in &items {
        native
            .insert(ColliderDesc::new(shape.clone()).pose(*pose))
            .expect("native collider");
        physics
            .colliders
            .insert(ColliderBuilder::new(shape.clone()).position(*pose));
    }
    // One physics step puts the colliders in rapier's broad phase.
    physics.step(&Vec3::new(0.0, -9.81, 0.0));
    let steps = 900;
    let (on_native, climbed, deepest) = walk(&native, steps);
    let (on_rapier, _, _) = walk(&physics.geometry(), steps);
    for (k, (a, b)) in on_native.iter().zip(&on_rapier).enumerate() {
        assert_eq!(a, b, "step {k}: native {a:?}, rapier {b:?}");
    }
    // The walk went round the whole circle (15 s at 3 m/s is 45 m, 1.2 turns) and met the
    // stairs: a test of two standing characters would prove nothing.
    let heights = on_native.iter().map(|p| p.position.y);
    let highest = heights.fold(Real::NEG_INFINITY, Real::max);
    assert!(climbed > 0.5, "climbed {climbed} m by the step offset");
    assert!(highest > 0.7, "highest {highest} m");
    let end = on_native.last().expect("poses").position;
    let travelled: Real = on_native
        .windows(2)
        .map(|w| (w[1].position - w[0].position).norm())
        .sum();
    assert!(travelled > 30.0, "travelled {travelled} m, ended at {end}");
    // Nothing went wrong on the way (0.1 mm: the penetration tolerance).
    assert!(deepest < 1e-4, "deepest penetration {deepest} m");
}
