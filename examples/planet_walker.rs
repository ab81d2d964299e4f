//! A character walks once round a 20 m planet under point gravity; "forward" follows a great
//! circle because its up keeps turning toward the planet's pull. Prints where it is every 2 s.
//!
//! `cargo run --release --example planet_walker`

use spherewalk::input::{Command, Script};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    CharacterDesc, ColliderDesc, CollisionWorld, GravityField, Input, Point3, Pose, Sim,
    SphereStack,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let radius = 20.0;
    let mut world = CollisionWorld::new();
    world.insert(ColliderDesc::new(SharedShape::ball(radius)))?;
    let mut sim = Sim::new(world, 1.0 / 60.0)?;
    sim.add_gravity(GravityField::planet(Point3::origin(), 9.81, 40.0))?;

    // Standing on the north pole, walking forward at 4 m/s for as long as it takes.
    let speed = 4.0;
    let mut walker = CharacterDesc::new(
        "walker",
        SphereStack::capsule(1.8, 0.3, 3)?,
        Pose::new(Point3::new(0.0, radius, 0.0)),
    );
    let walk = Command::Walk {
        forward: speed,
        right: 0.0,
        seconds: 1.0e6,
        crouch: false,
    };
    walker.input = Input::Script(Script::new(vec![walk], false));
    let walker = sim.spawn_character(walker)?;

    let round = std::f32::consts::TAU * radius / speed;
    println!("once round a {radius} m planet at {speed} m/s: {round:.1} s");
    let steps = (round / sim.dt()).round() as u32;
    for k in 1..=steps {
        sim.step();
        if k % 120 != 0 && k != steps {
            continue;
        }
        let view = sim.character(walker).ok_or("the walker is gone")?;
        let p = view.pose.position;
        println!(
            "t {:5.1} s  at ({:6.2} {:6.2} {:6.2})  {:.3} m from the centre  {:?}",
            sim.time(),
            p.x,
            p.y,
            p.z,
            p.coords.norm(),
            view.ground
        );
    }
    let end = sim
        .character(walker)
        .ok_or("the walker is gone")?
        .pose
        .position;
    println!(
        "back at the pole: {:.2} m from where it started",
        (end - Point3::new(0.0, radius, 0.0)).norm()
    );
    Ok(())
}
