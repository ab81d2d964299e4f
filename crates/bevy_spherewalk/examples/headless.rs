//! A character walks in a circle on a floor, headless (MinimalPlugins), and prints where it
//! is twice a second of game time: `cargo run -p bevy_spherewalk --example headless`.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_spherewalk::prelude::*;

/// The walker's speed (m/s).
const SPEED: f32 = 2.0;

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()))
        // One fixed step per update, so the run does not depend on the machine's speed.
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, steer.before(SpherewalkSystems::Sync))
        .add_systems(FixedUpdate, report.after(SpherewalkSystems::WriteBack));
    // Five seconds at Bevy's default fixed step of 1/64 s.
    for _ in 0..320 {
        app.update();
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Collider::new(SharedShape::cuboid(20.0, 0.5, 20.0)),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    match SphereStack::capsule(1.8, 0.3, 3) {
        Ok(stack) => {
            commands.spawn((Character::new(stack), Transform::from_xyz(0.0, 0.2, 0.0)));
        }
        Err(e) => error!("no character: {e}"),
    }
}

/// Walks forward while turning at 0.5 rad/s: a circle of 4 m radius.
fn steer(mut characters: Query<(&Transform, &mut CharacterIntent)>) {
    for (transform, mut intent) in &mut characters {
        intent.walk = transform.rotation * Vec3::NEG_Z * SPEED;
        intent.yaw_rate = 0.5;
    }
}

fn report(
    characters: Query<(&Transform, &CharacterStatus)>,
    mut messages: MessageReader<CharacterMessage>,
    mut steps: Local<u32>,
) {
    for message in messages.read() {
        println!("step {:3}: {:?}", *steps, message.event);
    }
    if steps.is_multiple_of(32) {
        for (transform, status) in &characters {
            let p = transform.translation;
            println!(
                "step {:3}: feet at ({:6.2}, {:5.2}, {:6.2}) m, {:?}",
                *steps, p.x, p.y, p.z, status.ground
            );
        }
    }
    *steps += 1;
}
