//! A character walks up a staircase, then around a small planet; prints where it is.
//!
//! `cargo run --release --example walk`

use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose,
    SphereStack, StepInput, StepReport, Vec3,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
    let dt = 1.0 / 60.0;

    // A floor and five 0.3 m steps rising along +X.
    let mut world = CollisionWorld::new();
    world.insert(
        ColliderDesc::new(SharedShape::cuboid(20.0, 0.5, 20.0)).translation(0.0, -0.5, 0.0),
    )?;
    for k in 0..5 {
        let (x0, top) = (1.0 + 0.4 * k as f32, 0.3 * (k + 1) as f32);
        let half = Vec3::new((8.0 - x0) / 2.0, (top + 0.5) / 2.0, 2.0);
        let desc = ColliderDesc::new(SharedShape::cuboid(half.x, half.y, half.z));
        world.insert(desc.translation(x0 + half.x, top - half.y, 0.0))?;
    }
    let mut pose = Pose::new(Point3::new(-1.0, 0.0, 0.0));
    let mut state = MotorState::default();
    let mut report = StepReport::new();
    let gravity = Vec3::new(0.0, -9.81, 0.0);
    println!("stairs: walking +X at 3 m/s");
    for step in 0..150 {
        let input = StepInput::new(MoveIntent::walk(Vec3::new(3.0, 0.0, 0.0)), gravity, dt);
        motor.step(&world, &mut pose, &mut state, &input, &mut report);
        if report.climbed > 0.0 || step % 30 == 29 {
            let p = pose.position;
            println!(
                "  t={:5.2}s pos=({:6.3}, {:6.3}, {:6.3}) {:?} climbed={:.3} m",
                (step + 1) as f32 * dt,
                p.x,
                p.y,
                p.z,
                report.ground,
                report.climbed
            );
        }
    }

    // A 30 m planet: gravity points at its centre and "forward" follows a great circle.
    let mut planet = CollisionWorld::new();
    planet.insert(ColliderDesc::new(SharedShape::ball(30.0)))?;
    let mut pose = Pose::new(Point3::new(0.0, 30.0, 0.0));
    let mut state = MotorState::default();
    println!("planet: walking forward at 5 m/s");
    let steps = (2.0 * std::f32::consts::PI * 30.0 / 5.0 / dt).round() as u32;
    for step in 0..steps {
        let gravity = -pose.position.coords.normalize() * 9.81;
        let intent = MoveIntent::walk(pose.forward().into_inner() * 5.0);
        motor.step(
            &planet,
            &mut pose,
            &mut state,
            &StepInput::new(intent, gravity, dt),
            &mut report,
        );
        if step % 300 == 299 || step + 1 == steps {
            let p = pose.position;
            let altitude = p.coords.norm() - 30.0;
            println!(
                "  t={:5.1}s pos=({:7.2}, {:7.2}, {:7.2}) altitude={:+.4} m {:?}",
                (step + 1) as f32 * dt,
                p.x,
                p.y,
                p.z,
                altitude,
                report.ground
            );
        }
    }
    Ok(())
}
