//! A window with a small planet and its moon: walk round them with WASD (or a gamepad's left
//! stick), jump with Space (or the south button). The camera follows the character's up
//! frame, so "up" on the screen is always away from the ground underfoot. A few wanderers
//! walk about too, and the characters meet each other.
//!
//! `cargo run -p bevy_spherewalk --example planet --features window`
//!
//! `--screenshot PATH` saves the window after about two seconds and quits (used to look at
//! it under Xvfb: `xvfb-run -s "-screen 0 1280x720x24" ...`).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_spherewalk::prelude::*;
use bevy_spherewalk::spherewalk_core::{self as core, Point3};

/// The planet: centre (m) and radius (m).
const PLANET: (Vec3, f32) = (Vec3::ZERO, 20.0);
/// The moon: centre (m) and radius (m).
const MOON: (Vec3, f32) = (Vec3::new(0.0, 24.0, 44.0), 6.0);
/// Walking speed (m/s) and jump speed (m/s).
const SPEED: f32 = 5.0;
const JUMP: f32 = 7.0;

/// The character the player steers.
#[derive(Component)]
struct Player;

/// A wanderer: walks forward, turning at this rate (rad/s).
#[derive(Component)]
struct Wanderer(f32);

/// Frames left before the screenshot, and where it goes.
#[derive(Resource)]
struct ScreenshotAt {
    frames: u32,
    path: Option<String>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    while let Some(arg) = args.next() {
        if arg == "--screenshot" {
            path = args.next();
        }
    }
    if let Some(path) = &path {
        // The app quits once the file exists: an old one must not count.
        let _ = std::fs::remove_file(path);
    }
    App::new()
        .add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "spherewalk: planet".into(),
                    resolution: (1280, 720).into(),
                    ..default()
                }),
                ..default()
            }),
            SpherewalkPlugin::default(),
        ))
        .insert_resource(ClearColor(Color::srgb(0.45, 0.62, 0.85)))
        .insert_resource(ScreenshotAt { frames: 120, path })
        .add_systems(Startup, setup)
        .add_systems(
            FixedUpdate,
            (
                wander.before(SpherewalkSystems::Sync),
                jump_taken.after(SpherewalkSystems::Step),
            ),
        )
        // Keys and sticks are read every frame: a press lasts one frame, and most frames at a
        // high frame rate run no fixed step.
        .add_systems(Update, (steer, follow, screenshot))
        .run();
}

/// The feet transform of a character standing on the ball `(centre, radius)` at the unit
/// direction `dir` from its centre, its up along `dir`.
fn on_ball((centre, radius): (Vec3, f32), dir: Vec3) -> Transform {
    let up = dir.normalize();
    Transform::from_translation(centre + up * radius)
        .with_rotation(Quat::from_rotation_arc(Vec3::Y, up))
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    // The planet and the moon: colliders, meshes, and a pull toward each centre.
    let ground = materials.add(StandardMaterial {
        base_color: Color::srgb(0.35, 0.55, 0.3),
        perceptual_roughness: 0.9,
        ..default()
    });
    let rock = materials.add(StandardMaterial {
        base_color: Color::srgb(0.6, 0.6, 0.62),
        perceptual_roughness: 0.9,
        ..default()
    });
    for ((centre, radius), material, pull) in [(PLANET, ground, 9.81), (MOON, rock, 6.0)] {
        commands.spawn((
            Collider::new(SharedShape::ball(radius)),
            Transform::from_translation(centre),
            Mesh3d(meshes.add(Sphere::new(radius).mesh().ico(6).expect("a sphere mesh"))),
            MeshMaterial3d(material),
        ));
        let field = core::GravityField::planet(
            Point3::new(centre.x, centre.y, centre.z),
            pull,
            radius * 2.0,
        );
        commands.spawn(GravityField(field));
    }
    // Rocks on the planet to walk round and climb.
    let boulder = meshes.add(Cuboid::new(1.6, 1.0, 1.6));
    for k in 0..12 {
        let a = k as f32 * 0.9;
        let dir = Vec3::new(a.cos(), 0.6 + 0.3 * (a * 1.7).sin(), a.sin()).normalize();
        let mut at = on_ball(PLANET, dir);
        at.translation -= dir * 0.2;
        commands.spawn((
            Collider::new(SharedShape::cuboid(0.8, 0.5, 0.8)),
            at,
            Mesh3d(boulder.clone()),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: Color::srgb(0.5, 0.45, 0.4),
                ..default()
            })),
        ));
    }
    // The characters: a 1.8 m stack of three 0.3 m spheres, drawn as a capsule above the feet.
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack");
    let body = meshes.add(Capsule3d::new(0.3, 1.2));
    let orange = materials.add(Color::srgb(1.0, 0.5, 0.1));
    let blue = materials.add(Color::srgb(0.2, 0.4, 0.9));
    let character = |commands: &mut Commands, at: Transform, material: Handle<StandardMaterial>| {
        commands
            .spawn((Character::new(stack.clone()), at, Visibility::default()))
            .with_child((
                Mesh3d(body.clone()),
                MeshMaterial3d(material),
                Transform::from_xyz(0.0, 0.9, 0.0),
            ))
            .id()
    };
    // The player starts facing the moon (its forward is local -Z).
    let mut start = on_ball(PLANET, Vec3::new(0.1, 1.0, 0.3));
    start.rotate_local_y(std::f32::consts::PI);
    let player = character(&mut commands, start, orange);
    commands.entity(player).insert(Player);
    for k in 0..8 {
        let a = k as f32 * 0.8;
        let dir = Vec3::new(a.cos(), 0.8, a.sin());
        let wanderer = character(&mut commands, on_ball(PLANET, dir), blue.clone());
        let turn = if k % 2 == 0 { 0.4 } else { -0.3 };
        commands.entity(wanderer).insert(Wanderer(turn));
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(-20.0, 60.0, -30.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 30.0, 20.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// The player's intent: WASD or the left stick, relative to the camera and along the ground
/// (the plugin drops the part along up); Space or the south button jumps.
fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    gamepads: Query<&Gamepad>,
    camera: Query<&Transform, With<Camera3d>>,
    mut player: Query<(&mut CharacterIntent, &CharacterStatus), With<Player>>,
) {
    let Ok(camera) = camera.single() else { return };
    let Ok((mut intent, status)) = player.single_mut() else {
        return;
    };
    let mut stick = Vec2::ZERO;
    for (key, dir) in [
        (KeyCode::KeyW, Vec2::Y),
        (KeyCode::KeyS, Vec2::NEG_Y),
        (KeyCode::KeyD, Vec2::X),
        (KeyCode::KeyA, Vec2::NEG_X),
    ] {
        if keys.pressed(key) {
            stick += dir;
        }
    }
    let mut jump = keys.just_pressed(KeyCode::Space);
    for gamepad in &gamepads {
        stick += gamepad.left_stick();
        jump |= gamepad.just_pressed(GamepadButton::South);
    }
    let stick = stick.clamp_length_max(1.0);
    let up = status.up;
    let forward = (camera.forward().as_vec3())
        .reject_from(up)
        .normalize_or_zero();
    let right = forward.cross(up);
    let walk = (forward * stick.y + right * stick.x) * SPEED;
    intent.walk = walk;
    intent.facing = (walk.length() > 0.1).then_some(walk);
    intent.turn_rate = 10.0;
    // A press is held until a fixed step takes it (`jump_taken`): the motor jumps when
    // grounded or within coyote time.
    if jump {
        intent.jump_speed = JUMP;
    }
}

/// A jump asked for is spent by the fixed step that took it.
fn jump_taken(mut intents: Query<&mut CharacterIntent, With<Player>>) {
    for mut intent in &mut intents {
        intent.jump_speed = 0.0;
    }
}

/// Every wanderer walks forward, turning.
fn wander(mut wanderers: Query<(&Transform, &Wanderer, &mut CharacterIntent)>) {
    for (transform, wanderer, mut intent) in &mut wanderers {
        intent.walk = transform.rotation * Vec3::NEG_Z * 2.0;
        intent.yaw_rate = wanderer.0;
    }
}

/// What the camera reads of the player: where it stands and its up.
type PlayerView<'a> = (&'a Transform, &'a CharacterStatus);
/// The player, never the camera (both have transforms).
type PlayerOnly = (With<Player>, Without<Camera3d>);

/// The camera sits behind and above the player in the player's up frame and looks at it,
/// easing toward that place each frame so a turn of up (over the moon's pull, say) is smooth.
fn follow(
    time: Res<Time>,
    player: Query<PlayerView, PlayerOnly>,
    mut camera: Query<&mut Transform, With<Camera3d>>,
) {
    let (Ok((player, status)), Ok(mut camera)) = (player.single(), camera.single_mut()) else {
        return;
    };
    let up = status.up;
    let back = (player.rotation * Vec3::Z)
        .reject_from(up)
        .normalize_or_zero();
    let wanted = player.translation + up * 3.5 + back * 9.0;
    let k = 1.0 - (-4.0 * time.delta_secs()).exp();
    camera.translation = camera.translation.lerp(wanted, k);
    let look = player.translation + up * 2.5;
    camera.look_at(look, up);
}

/// With `--screenshot PATH`: after the set number of frames, saves the window there, then
/// quits once it is written.
fn screenshot(
    mut commands: Commands,
    mut at: ResMut<ScreenshotAt>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = at.path.clone() else { return };
    match at.frames {
        0 => {}
        1 => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
        }
        _ => {}
    }
    at.frames = at.frames.saturating_sub(1);
    if at.frames == 0 && std::path::Path::new(&path).exists() {
        exit.write(AppExit::Success);
    }
}
