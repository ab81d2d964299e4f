//! Dynamic bodies under spherewalk's gravity fields: crates fall onto a planet and settle on
//! its surface, and a character pushes a crate round it.

use approx::assert_abs_diff_eq;
use spherewalk_core::{
    GravityField, GravityFields, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Real,
    SphereStack, StepInput, StepReport, UnitVec3, Vec3,
};
use spherewalk_rapier::rapier3d::prelude::*;
use spherewalk_rapier::{BodySettings, Physics};

const DT: Real = 1.0 / 60.0;
/// The planet's radius (m).
const RADIUS: Real = 10.0;

/// A fixed ball planet at the origin and its gravity (9.81 m/s² toward the centre, reaching
/// 50 m).
fn planet() -> (Physics, GravityFields) {
    let mut physics = Physics::new();
    physics.params.dt = DT;
    physics.colliders.insert(ColliderBuilder::ball(RADIUS));
    let mut fields = GravityFields::new();
    fields
        .add(GravityField::planet(Point3::origin(), 9.81, 50.0))
        .expect("a valid field");
    (physics, fields)
}

/// Adds a 1 m crate of 10 kg with its centre at `at` (world), upright: its local +Y along the
/// planet's radius there.
fn add_crate(physics: &mut Physics, at: Vec3) -> RigidBodyHandle {
    let upright = spherewalk_core::Quat::rotation_between(&Vec3::y(), &at).unwrap_or_default();
    let pose = Isometry::from_parts(at.into(), upright);
    let body = physics
        .bodies
        .insert(RigidBodyBuilder::dynamic().pose(pose));
    let collider = ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(10.0);
    physics
        .colliders
        .insert_with_parent(collider, body, &mut physics.bodies);
    body
}

/// One physics step under the fields alone (no uniform gravity).
fn step(physics: &mut Physics, fields: &GravityFields) {
    physics.apply_gravity_fields(fields);
    physics.step(&Vector::zeros());
}

#[test]
fn crates_dropped_round_a_planet_settle_on_its_surface() {
    let (mut physics, fields) = planet();
    // Eight crates 3 m above the surface, from every side (one under the planet), upright.
    let directions = [
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(-1.0, 0.5, -1.0),
        Vec3::new(0.3, -1.0, 0.8),
    ];
    let crates: Vec<_> = directions
        .iter()
        .map(|d| add_crate(&mut physics, d.normalize() * (RADIUS + 3.0)))
        .collect();
    for _ in 0..300 {
        step(&mut physics, &fields);
    }
    for (body, dir) in crates.iter().zip(&directions) {
        let rb = &physics.bodies[*body];
        let centre = rb.translation();
        // Resting on a face: the centre half the crate's size above the surface (1 cm:
        // rapier's contact slop and a little rocking on the curve).
        assert_abs_diff_eq!(centre.norm(), RADIUS + 0.5, epsilon = 0.01);
        // It fell straight down its radius (no uniform gravity dragged it sideways; 2 cm).
        assert_abs_diff_eq!(centre.normalize(), dir.normalize(), epsilon = 0.02);
        // And it is at rest (1 cm/s).
        assert!(rb.linvel().norm() < 0.01, "still moving at {}", rb.linvel());
    }
}

#[test]
fn a_crate_pushed_round_a_planet_stays_on_it() {
    let (mut physics, fields) = planet();
    // The crate on top, the character 1.2 m behind it (+Z), walking toward -Z.
    let crate_body = add_crate(&mut physics, Vec3::new(0.0, RADIUS + 0.5, -1.0));
    for _ in 0..30 {
        step(&mut physics, &fields);
    }
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    let up = UnitVec3::new_normalize(Vec3::new(0.0, RADIUS, 0.25));
    let mut pose = Pose::with_up(Point3::from(up.into_inner() * RADIUS), &up);
    let body = physics.insert_character(&stack, &pose);
    let motor = Motor::new(stack, MotorSettings::default())
        .expect("motor")
        .with_filter(body.filter());
    let (mut state, mut report) = (MotorState::default(), StepReport::default());
    let start = *physics.bodies[crate_body].translation();
    let mut lowest = Real::INFINITY;
    let mut highest: Real = 0.0;
    for _ in 0..600 {
        let gravity = fields.at(&pose.position);
        let wanted = pose.forward().into_inner() * 1.5;
        let input = StepInput::new(MoveIntent::walk(wanted), gravity, DT);
        let geometry = physics.geometry();
        motor.step(&geometry, &mut pose, &mut state, &input, &mut report);
        physics.push_bodies(&report, &input, &BodySettings::default());
        physics.move_character(&body, &pose);
        step(&mut physics, &fields);
        let r = physics.bodies[crate_body].translation().norm();
        lowest = lowest.min(r);
        highest = highest.max(r);
    }
    let end = *physics.bodies[crate_body].translation();
    let arc = RADIUS * start.angle(&end);
    // Pushed a long way round: 10 s at 1.5 m/s is 15 m of the character's walk, less the
    // 0.45 m gap before contact and what friction opens between pushes (13.3 m measured; 12 m
    // at least).
    assert!(arc > 12.0, "pushed {arc} m round");
    // On the surface all the way, never lifted off or sunk (1 cm: rapier's contact slop and
    // the crate rocking on its flat face over the curved ground; 6 mm measured).
    assert!(
        lowest > RADIUS + 0.49 && highest < RADIUS + 0.51,
        "{lowest}..{highest}"
    );
    // The character stayed on the planet too (1 mm).
    assert_abs_diff_eq!(pose.position.coords.norm(), RADIUS, epsilon = 1e-3);
}
