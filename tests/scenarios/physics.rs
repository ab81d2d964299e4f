//! Dynamic bodies in the runtime (feature `rapier`): `Sim::enable_physics` steps a rapier world
//! with the characters.

use crate::runtime::{capsule, floor_sim};
use approx::assert_abs_diff_eq;
use spherewalk::components::Walker;
use spherewalk::input::{Command, Script};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::physics::spherewalk_rapier::rapier3d::prelude as rp;
use spherewalk::{
    CharacterDesc, ColliderDesc, CollisionWorld, GravityField, Input, Point3, Pose, Real, Sim, Vec3,
};

/// Adds a 1 m crate of `mass` (kg) centred at `at` to the sim's rapier world.
fn add_crate(sim: &mut Sim, mass: Real, at: Vec3) -> rp::RigidBodyHandle {
    let physics = sim.enable_physics();
    let body = physics
        .bodies
        .insert(rp::RigidBodyBuilder::dynamic().translation(at));
    let collider = rp::ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(mass);
    physics
        .colliders
        .insert_with_parent(collider, body, &mut physics.bodies);
    body
}

fn crate_at(sim: &Sim, body: rp::RigidBodyHandle) -> Vec3 {
    *sim.physics().expect("physics on").bodies[body].translation()
}

#[test]
fn a_sim_character_pushes_a_crate_across_the_mirrored_floor() {
    let mut sim = floor_sim();
    let mut desc = CharacterDesc::new("pusher", capsule(), Pose::new(Point3::origin()));
    let walk = Command::Walk {
        forward: 1.5,
        right: 0.0,
        seconds: 3.0,
        crouch: false,
    };
    desc.input = Input::Script(Script::new(vec![walk], false));
    let pusher = sim.spawn_character(desc).expect("spawn");
    let crate_body = add_crate(&mut sim, 5.0, Vec3::new(0.0, 0.5, -2.0));
    let mut track = Vec::new();
    for _ in 0..180 {
        sim.step();
        track.push(crate_at(&sim, crate_body));
    }
    // The crate rests on the sim's floor, mirrored into rapier (1 cm), and over the last
    // second moves at the walk's pace (1.5 m/s; 10 %: friction between pushes).
    assert_abs_diff_eq!(track[179].y, 0.5, epsilon = 0.01);
    assert_abs_diff_eq!(track[179].z - track[119].z, -1.5, epsilon = 0.15);
    // The pusher walks behind it on the floor (1 mm: the ground clamp).
    let feet = sim
        .ecs
        .get::<&Walker>(pusher)
        .expect("pusher")
        .pose
        .position;
    assert_abs_diff_eq!(feet.y, 0.0, epsilon = 1e-3);
    assert!(
        feet.z > track[179].z + 0.79,
        "{} vs crate {}",
        feet.z,
        track[179].z
    );
}

#[test]
fn crates_fall_toward_a_sim_planet_under_its_gravity_fields() {
    let mut world = CollisionWorld::new();
    world
        .insert(ColliderDesc::new(SharedShape::ball(10.0)))
        .expect("planet");
    let mut sim = Sim::new(world, 1.0 / 60.0).expect("dt");
    sim.add_gravity(GravityField::planet(Point3::origin(), 9.81, 50.0))
        .expect("gravity");
    // Dropped 3 m above the planet's side, upright along its radius (+X).
    let crate_body = {
        let physics = sim.enable_physics();
        let turn = spherewalk::Quat::from_axis_angle(&Vec3::z_axis(), -std::f32::consts::FRAC_PI_2);
        let pose = rp::Isometry::from_parts(Vec3::new(13.0, 0.0, 0.0).into(), turn);
        let body = physics
            .bodies
            .insert(rp::RigidBodyBuilder::dynamic().pose(pose));
        let collider = rp::ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(10.0);
        physics
            .colliders
            .insert_with_parent(collider, body, &mut physics.bodies);
        body
    };
    for _ in 0..240 {
        sim.step();
    }
    // It fell sideways, toward the centre, and rests on the surface (1 cm: contact slop).
    let at = crate_at(&sim, crate_body);
    assert_abs_diff_eq!(at.norm(), 10.5, epsilon = 0.01);
    assert_abs_diff_eq!(at.y, 0.0, epsilon = 0.01);
}
