//! A disc turning at 1 rad/s and a lift going up 3 m every 6 s carry the characters standing on
//! them: the rider turns with the disc, the passenger rises with the lift. Prints both.
//!
//! `cargo run --release --example moving_platform`

use spherewalk::components::PlatformMotion;
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    CharacterDesc, ColliderDesc, CollisionWorld, GravityField, Point3, Pose, Sim, SphereStack, Vec3,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = CollisionWorld::new();
    world.insert(
        ColliderDesc::new(SharedShape::cuboid(20.0, 0.5, 20.0)).translation(0.0, -0.5, 0.0),
    )?;
    let mut sim = Sim::new(world, 1.0 / 60.0)?;
    sim.add_gravity(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))?;

    // A 3 m disc 0.5 m high at (-5, 0, 0), turning about +Y at 1 rad/s.
    let disc = ColliderDesc::new(SharedShape::cylinder(0.25, 3.0)).translation(-5.0, 0.25, 0.0);
    sim.add_platform(
        disc,
        PlatformMotion::Rotate {
            axis: Vec3::y_axis(),
            rate: 1.0,
        },
    )?;
    // A 2 m square lift at (5, 0, 0), its top at y = 0.2, going up 3 m and back every 6 s.
    let lift = ColliderDesc::new(SharedShape::cuboid(1.0, 0.1, 1.0)).translation(5.0, 0.1, 0.0);
    sim.add_platform(
        lift,
        PlatformMotion::Oscillate {
            offset: Vec3::new(0.0, 3.0, 0.0),
            period: 6.0,
        },
    )?;

    let stack = SphereStack::capsule(1.8, 0.3, 3)?;
    let on = |x: f32, y: f32| Pose::new(Point3::new(x, y, 0.0));
    let rider = sim.spawn_character(CharacterDesc::new("rider", stack.clone(), on(-3.0, 0.5)))?;
    let passenger = sim.spawn_character(CharacterDesc::new("passenger", stack, on(5.0, 0.2)))?;

    for _ in 0..12 {
        for _ in 0..30 {
            sim.step();
        }
        let r = sim.character(rider).ok_or("rider gone")?.pose;
        let p = sim.character(passenger).ok_or("passenger gone")?.pose;
        // Turned about +Y from where it started (2 m east of the disc's centre), 0..360.
        let angle = (-r.position.z).atan2(r.position.x + 5.0).to_degrees();
        println!(
            "t {:4.1} s  rider {:5.1} deg round the disc ({:5.1} expected)  passenger at y {:5.2} m",
            sim.time(),
            angle.rem_euclid(360.0),
            sim.time().to_degrees().rem_euclid(360.0),
            p.position.y
        );
    }
    Ok(())
}
