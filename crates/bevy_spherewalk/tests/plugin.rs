//! The plugin in a headless Bevy app (MinimalPlugins, one fixed step of 1/64 s per update):
//! landing, walking, riding a kinematic collider, refusing bad characters and bad teleports,
//! forgetting despawned colliders, what the fixed schedule reads and what frames show.

use approx::assert_abs_diff_eq;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_spherewalk::prelude::*;

mod common;
use common::{drain, hero, position, status};

/// The fixed step of every test (s): Bevy's default fixed timestep.
const DT: f32 = 1.0 / 64.0;

/// A headless app stepping the characters once per update.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// A 20 m floor whose top is at y = 0.
fn floor(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            Collider::new(SharedShape::cuboid(10.0, 0.5, 10.0)),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ))
        .id()
}

fn run(app: &mut App, updates: u32) -> Vec<CharacterMessage> {
    let mut seen = Vec::new();
    for _ in 0..updates {
        app.update();
        seen.extend(drain(app));
    }
    seen
}

#[test]
fn a_dropped_character_lands_once_on_the_floor() {
    let mut app = app();
    let ground = floor(&mut app);
    let hero = hero(&mut app, Vec3::new(1.0, 0.5, 2.0));
    let seen = run(&mut app, 64);
    let at = position(&app, hero);
    // The ground clamp snaps the feet onto the floor: exact to f32 rounding of a 1 m
    // coordinate (1e-5 m).
    assert_abs_diff_eq!(at.y, 0.0, epsilon = 1e-5);
    assert_abs_diff_eq!(at.x, 1.0, epsilon = 1e-5);
    assert_abs_diff_eq!(at.z, 2.0, epsilon = 1e-5);
    let s = status(&app, hero);
    assert_eq!(s.ground, GroundState::Grounded);
    assert_eq!(s.standing_on, Some(ground));
    assert_abs_diff_eq!(s.up.y, 1.0, epsilon = 1e-6);
    let landed: Vec<_> = seen
        .iter()
        .filter(|m| m.event == CharacterEvent::Landed)
        .collect();
    assert_eq!(landed.len(), 1, "{seen:?}");
    assert_eq!(landed[0].character, hero);
}

#[test]
fn a_character_walks_at_its_intent_and_faces_where_it_walks() {
    let mut app = app();
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 8);
    let start = position(&app, hero);
    app.world_mut()
        .get_mut::<CharacterIntent>(hero)
        .expect("an intent")
        .walk = Vec3::new(2.0, 0.0, 0.0);
    if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(hero) {
        intent.facing = Some(Vec3::X);
        intent.turn_rate = 10.0;
    }
    run(&mut app, 64);
    let moved = position(&app, hero) - start;
    // 64 steps of 1/64 s at 2 m/s on level ground, but the transform is interpolated: with
    // no time left over after the last step it shows where that step started (one step
    // behind), so 63 steps are seen; to f32 rounding over the sum (1e-4 m).
    assert_abs_diff_eq!(moved.x, 2.0 * 63.0 * DT, epsilon = 1e-4);
    assert_abs_diff_eq!(moved.y, 0.0, epsilon = 1e-5);
    assert_abs_diff_eq!(moved.z, 0.0, epsilon = 1e-5);
    assert_abs_diff_eq!(status(&app, hero).velocity.x, 2.0, epsilon = 1e-4);
    // Turned a quarter turn at 10 rad/s (0.16 s) to face +X: local -Z forward is world +X.
    let rotation = app.world().get::<Transform>(hero).expect("placed").rotation;
    let forward = rotation * Vec3::NEG_Z;
    assert_abs_diff_eq!(forward.x, 1.0, epsilon = 1e-5);
}

#[test]
fn a_moving_collider_carries_its_rider() {
    /// Moves every collider tagged `Lift` along +X at 1 m/s, in the fixed step before the
    /// plugin syncs.
    #[derive(Component)]
    struct Lift;
    fn glide(mut lifts: Query<&mut Transform, With<Lift>>, time: Res<Time>) {
        for mut t in &mut lifts {
            t.translation.x += time.delta_secs();
        }
    }
    let mut app = app();
    app.add_systems(FixedUpdate, glide.before(SpherewalkSystems::Sync));
    let lift = app
        .world_mut()
        .spawn((
            Collider::new(SharedShape::cuboid(2.0, 0.25, 2.0)),
            Transform::from_xyz(0.0, -0.25, 0.0),
            Lift,
        ))
        .id();
    let hero = hero(&mut app, Vec3::new(0.5, 0.0, 0.0));
    run(&mut app, 4);
    let lift_start = position(&app, lift).x;
    let start = position(&app, hero);
    run(&mut app, 64);
    let lift_moved = position(&app, lift).x - lift_start;
    let moved = position(&app, hero) - start;
    assert_abs_diff_eq!(lift_moved, 1.0, epsilon = 1e-4);
    // Carried the same metre (f32 rounding of 64 velocity steps: 1e-4 m), still on the lift.
    assert_abs_diff_eq!(moved.x, lift_moved, epsilon = 1e-4);
    assert_abs_diff_eq!(moved.y, 0.0, epsilon = 1e-5);
    assert_eq!(status(&app, hero).standing_on, Some(lift));
}

#[test]
fn a_character_out_of_scale_is_refused_with_the_typed_error_and_stays_put() {
    let mut app = app();
    floor(&mut app);
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack");
    let mut settings = MotorSettings::default();
    settings.stair_height = 2.5;
    let at = Vec3::new(0.0, 3.0, 0.0);
    let bad = app
        .world_mut()
        .spawn((
            Character::new(stack.clone()).with_settings(settings),
            Transform::from_translation(at),
        ))
        .id();
    run(&mut app, 32);
    let refused = app.world().get::<CharacterRefused>(bad).expect("refused");
    assert!(
        matches!(
            refused.0,
            RefusalReason::Settings(SettingsError::OutOfScale {
                field: "stair_height",
                ..
            })
        ),
        "{:?}",
        refused.0
    );
    assert_eq!(position(&app, bad), at, "a refused character does not move");
    // Fixed: the same entity walks again, from where it stood.
    app.world_mut()
        .entity_mut(bad)
        .insert(Character::new(stack));
    run(&mut app, 200);
    assert!(app.world().get::<CharacterRefused>(bad).is_none());
    assert_eq!(status(&app, bad).ground, GroundState::Grounded);
    assert_abs_diff_eq!(position(&app, bad).y, 0.0, epsilon = 1e-5);
}

#[test]
fn a_nan_intent_stands_still() {
    let mut app = app();
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 8);
    let start = position(&app, hero);
    if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(hero) {
        *intent = CharacterIntent {
            walk: Vec3::NAN,
            jump_speed: f32::NAN,
            facing: Some(Vec3::NAN),
            turn_rate: f32::NAN,
            yaw_rate: f32::INFINITY,
            dash: false,
        };
    }
    run(&mut app, 32);
    assert_eq!(position(&app, hero), start);
    assert_eq!(status(&app, hero).ground, GroundState::Grounded);
}

#[test]
fn a_despawned_collider_leaves_no_ghost() {
    let mut app = app();
    let ground = floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 8);
    assert_eq!(status(&app, hero).ground, GroundState::Grounded);
    app.world_mut().despawn(ground);
    run(&mut app, 32);
    // Half a second of free fall from rest: g t² / 2 = 1.23 m below, give or take the step's
    // integration (a few centimetres).
    let y = position(&app, hero).y;
    assert!((-1.35..-1.1).contains(&y), "{y}");
    assert_eq!(status(&app, hero).ground, GroundState::Airborne);
    // Only the hero's own body is left in the character world.
    let cw = app.world().resource::<CharacterWorld>();
    assert_eq!(cw.world().len(), 1);
    assert!(cw.body_of(hero).is_some());
}

/// Sets a character's walk velocity (m/s, world).
fn walk(app: &mut App, character: Entity, velocity: Vec3) {
    if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(character) {
        intent.walk = velocity;
    }
}

/// The closest distance (m) between the axes of two upright 0.3 m characters minus the 0.6 m
/// that just touches: negative when they overlap.
fn gap(app: &App, a: Entity, b: Entity) -> f32 {
    let (pa, pb) = (position(app, a), position(app, b));
    Vec2::new(pa.x - pb.x, pa.z - pb.z).length() - 0.6
}

/// Runs `updates` updates and gives the least [`gap`] between `a` and `b` after any of them
/// (0 at most) and every message written meanwhile.
fn closest_approach(
    app: &mut App,
    (a, b): (Entity, Entity),
    updates: u32,
) -> (f32, Vec<CharacterMessage>) {
    let (mut deepest, mut seen): (f32, _) = (0.0, Vec::new());
    for _ in 0..updates {
        seen.extend(run(app, 1));
        deepest = deepest.min(gap(app, a, b));
    }
    (deepest, seen)
}

#[test]
fn a_character_walking_into_another_is_stopped_by_its_body() {
    let mut app = app();
    floor(&mut app);
    let standing = hero(&mut app, Vec3::ZERO);
    let walker = hero(&mut app, Vec3::new(-3.0, 0.0, 0.0));
    run(&mut app, 8);
    walk(&mut app, walker, Vec3::new(3.0, 0.0, 0.0));
    let (deepest, hits) = closest_approach(&mut app, (walker, standing), 96);
    // 1.5 s at 3 m/s would take it 4.5 m, through the other: it stops against the body,
    // never deeper into it than the motor's penetration tolerance (default 1 mm) plus
    // f32 rounding, and no further than the skin width (default 5 mm, plus that) from it.
    assert!(deepest > -1.5e-3, "overlapped by {} m", -deepest);
    let end = gap(&app, walker, standing);
    assert!((-1.5e-3..6e-3).contains(&end), "ended {end} m apart");
    // The one standing still was not moved by being walked into (no push through a wall of
    // solid contacts: only the separation pass moves it, and the walker never overlapped).
    assert_abs_diff_eq!(position(&app, standing).x, 0.0, epsilon = 1e-3);
    // The walker's hit messages name the character it walked into.
    let into = hits.iter().any(|m| {
        m.character == walker
            && matches!(m.event, CharacterEvent::Hit { collider: Some(e), .. } if e == standing)
    });
    assert!(into, "{hits:?}");
}

#[test]
fn characters_walking_into_each_other_end_apart() {
    let mut app = app();
    floor(&mut app);
    let a = hero(&mut app, Vec3::new(-2.0, 0.0, 0.0));
    let b = hero(&mut app, Vec3::new(2.0, 0.0, 0.0));
    run(&mut app, 8);
    walk(&mut app, a, Vec3::new(4.0, 0.0, 0.0));
    walk(&mut app, b, Vec3::new(-4.0, 0.0, 0.0));
    let (deepest, _) = closest_approach(&mut app, (a, b), 64);
    // Head on at 8 m/s closing: each step reads the other where it stood, so a step can end
    // with them overlapping by up to both steps' movement (0.125 m); the separation pass then
    // pushes them apart before the step is shown. After any step they overlap by no more than
    // the penetration tolerance plus rounding (1.5 mm).
    assert!(deepest > -1.5e-3, "overlapped by {} m", -deepest);
    // Neither went through the other: they stand face to face, a on the -x side, within
    // the skin width (5 mm) and rounding of touching, and a second of walking took each of
    // them about 1.7 m (to where they met, at x = 0).
    let (pa, pb) = (position(&app, a), position(&app, b));
    assert!(pa.x < pb.x, "{pa} {pb}");
    let end = gap(&app, a, b);
    assert!((-1.5e-3..6e-3).contains(&end), "ended {end} m apart");
    assert_abs_diff_eq!(pa.x, -0.3, epsilon = 0.01);
}

#[test]
fn a_character_that_is_not_solid_is_walked_through() {
    let mut app = app();
    floor(&mut app);
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack");
    let ghost = app
        .world_mut()
        .spawn((Character::new(stack).not_solid(), Transform::default()))
        .id();
    let walker = hero(&mut app, Vec3::new(-2.0, 0.0, 0.0));
    run(&mut app, 8);
    assert!(
        app.world()
            .resource::<CharacterWorld>()
            .body_of(ghost)
            .is_none()
    );
    walk(&mut app, walker, Vec3::new(4.0, 0.0, 0.0));
    run(&mut app, 64);
    // 4 m/s for a second from x = -2 (63 steps shown, one behind), straight through the ghost
    // (to f32 rounding of the sum, 1e-3 m).
    assert_abs_diff_eq!(
        position(&app, walker).x,
        -2.0 + 4.0 * 63.0 * DT,
        epsilon = 1e-3
    );
    assert_abs_diff_eq!(position(&app, ghost).x, 0.0, epsilon = 1e-5);
}

#[test]
fn a_despawned_character_leaves_no_body_behind() {
    let mut app = app();
    floor(&mut app);
    let gone = hero(&mut app, Vec3::ZERO);
    let walker = hero(&mut app, Vec3::new(-2.0, 0.0, 0.0));
    run(&mut app, 8);
    assert_eq!(app.world().resource::<CharacterWorld>().world().len(), 3);
    app.world_mut().despawn(gone);
    walk(&mut app, walker, Vec3::new(4.0, 0.0, 0.0));
    run(&mut app, 64);
    // The floor and the walker's body are all that is left, and the walker went through
    // where the other stood (as in the test above).
    let cw = app.world().resource::<CharacterWorld>();
    assert_eq!(cw.world().len(), 2);
    assert!(cw.body_of(gone).is_none());
    assert_abs_diff_eq!(
        position(&app, walker).x,
        -2.0 + 4.0 * 63.0 * DT,
        epsilon = 1e-3
    );
}

/// Taking a walking character's `Character` away (the entity stays) takes its body out and
/// stops it where it was; putting one back lets it in again from its transform, walking.
#[test]
fn a_character_taken_away_stops_and_comes_back_from_its_transform() {
    let mut app = app();
    floor(&mut app);
    let walker = hero(&mut app, Vec3::ZERO);
    walk(&mut app, walker, Vec3::new(4.0, 0.0, 0.0));
    run(&mut app, 8);
    let character = app
        .world_mut()
        .entity_mut(walker)
        .take::<Character>()
        .expect("a character");
    run(&mut app, 2);
    let stopped = position(&app, walker);
    run(&mut app, 30);
    let cw = app.world().resource::<CharacterWorld>();
    assert!(cw.body_of(walker).is_none());
    assert_eq!(cw.world().len(), 1, "only the floor is left");
    assert_eq!(
        position(&app, walker),
        stopped,
        "a character taken away moved"
    );
    app.world_mut().entity_mut(walker).insert(character);
    // A new character 3 m aside, walking the same way from the same place and time.
    let twin = hero(&mut app, stopped + Vec3::new(0.0, 0.0, 3.0));
    walk(&mut app, twin, Vec3::new(4.0, 0.0, 0.0));
    run(&mut app, 31);
    // Let in again as a new character is: from rest and airborne at first (its first step
    // does not yet walk at 4 m/s), then as far as its twin, to f32 rounding (1e-5 m).
    let (back, new) = (position(&app, walker), position(&app, twin));
    assert!(
        back.x - stopped.x > 4.0 * 28.0 * DT,
        "{back} from {stopped}"
    );
    assert_abs_diff_eq!(back.x, new.x, epsilon = 1e-5);
    assert_abs_diff_eq!(back.z, new.z - 3.0, epsilon = 1e-5);
    assert!(
        app.world()
            .resource::<CharacterWorld>()
            .body_of(walker)
            .is_some()
    );
}

#[test]
fn frames_between_fixed_steps_show_the_character_in_between() {
    // Two frames per fixed step (1/128 s each): without interpolation the character would
    // move every other frame; with it, every frame by half a step.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 128.0),
    ));
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(hero) {
        intent.walk = Vec3::new(2.0, 0.0, 0.0);
    }
    run(&mut app, 64);
    let mut last = position(&app, hero).x;
    for _ in 0..32 {
        app.update();
        let x = position(&app, hero).x;
        // 2 m/s for 1/128 s: 15.625 mm a frame, to f32 rounding of the lerp (1e-5 m).
        assert_abs_diff_eq!(x - last, 2.0 / 128.0, epsilon = 1e-5);
        last = x;
    }
}

#[test]
fn writing_a_character_transform_teleports_it() {
    let mut app = app();
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 8);
    if let Some(mut transform) = app.world_mut().get_mut::<Transform>(hero) {
        transform.translation = Vec3::new(5.0, 2.0, -1.0);
    }
    let seen = run(&mut app, 64);
    let at = position(&app, hero);
    // Dropped from the new place onto the floor (the clamp's snap: 1e-5 m).
    assert_abs_diff_eq!(at.x, 5.0, epsilon = 1e-5);
    assert_abs_diff_eq!(at.y, 0.0, epsilon = 1e-5);
    assert_abs_diff_eq!(at.z, -1.0, epsilon = 1e-5);
    let events: Vec<_> = seen.iter().map(|m| m.event).collect();
    assert!(events.contains(&CharacterEvent::LeftGround), "{events:?}");
    assert!(events.contains(&CharacterEvent::Landed), "{events:?}");
}

/// Every wanderer's transform after `steps` fixed steps on a floor with a few boxes, with
/// Bevy's compute task pool at `threads` threads.
fn wander(threads: usize, steps: u32) -> Vec<(Vec3, Quat)> {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(threads),
        }),
        SpherewalkPlugin::default().interpolated(false),
    ));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    floor(&mut app);
    for k in 0..6 {
        let x = -6.0 + 2.5 * k as f32;
        app.world_mut().spawn((
            Collider::new(SharedShape::cuboid(0.5, 0.5, 0.5)),
            Transform::from_xyz(x, 0.5, 0.3 * k as f32),
        ));
    }
    let walkers: Vec<Entity> = (0..24)
        .map(|k| {
            let angle = k as f32 * 0.26;
            let at = Vec3::new(4.0 * angle.cos(), 0.0, 4.0 * angle.sin());
            let walker = hero(&mut app, at);
            if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(walker) {
                intent.walk = Vec3::new(-angle.sin(), 0.0, angle.cos()) * 3.0;
                intent.yaw_rate = 0.4;
            }
            walker
        })
        .collect();
    run(&mut app, steps);
    walkers
        .iter()
        .map(|&w| {
            let t = app.world().get::<Transform>(w).expect("placed");
            (t.translation, t.rotation)
        })
        .collect()
}

#[test]
fn parallel_stepping_matches_serial_bit_for_bit() {
    let serial = wander(1, 200);
    let parallel = wander(4, 200);
    let bits = |v: &[(Vec3, Quat)]| -> Vec<u32> {
        v.iter()
            .flat_map(|(p, q)| p.to_array().into_iter().chain(q.to_array()))
            .map(f32::to_bits)
            .collect()
    };
    assert_eq!(bits(&serial), bits(&parallel));
    // They walked (3 m/s for 3 s; a few straight into a box, which stops them): most of them
    // more than a metre from where they started.
    let starts = wander(1, 0);
    let far = starts
        .iter()
        .zip(&serial)
        .filter(|((start, _), (end, _))| start.distance(*end) > 1.0)
        .count();
    assert!(far >= 20, "{far} of 24");
}

#[test]
fn a_jump_pad_throws_whoever_stands_on_it() {
    let mut app = app();
    floor(&mut app);
    // A pad 0.2 m thick whose top is at y = 0.2, throwing up at 6 m/s.
    app.world_mut().spawn((
        JumpPad {
            launch: Vec3::new(0.0, 6.0, 0.0),
        },
        Collider::new(SharedShape::cuboid(1.0, 0.1, 1.0)),
        Transform::from_xyz(0.0, 0.1, 0.0),
    ));
    let hero = hero(&mut app, Vec3::new(0.0, 0.5, 0.0));
    let mut top: f32 = 0.0;
    for _ in 0..96 {
        app.update();
        top = top.max(position(&app, hero).y);
    }
    // Thrown from y = 0.2 at 6 m/s: up to 0.2 + 6² / (2 g) = 2.03 m, within the step's
    // integration (a few centimetres).
    assert!((1.95..2.1).contains(&top), "{top}");
}

#[test]
fn a_collider_under_a_moving_parent_carries_its_rider() {
    /// Moves the parent along +Z at 1 m/s in the fixed step, before the plugin syncs.
    #[derive(Component)]
    struct Cart;
    fn roll(mut carts: Query<&mut Transform, With<Cart>>, time: Res<Time>) {
        for mut t in &mut carts {
            t.translation.z += time.delta_secs();
        }
    }
    let mut app = app();
    app.add_systems(FixedUpdate, roll.before(SpherewalkSystems::Sync));
    // The deck is a child 0.25 m below its parent's origin: its top is at y = 0.
    let cart = app
        .world_mut()
        .spawn((Transform::from_xyz(3.0, 0.0, 0.0), Cart))
        .with_children(|parent| {
            parent.spawn((
                Collider::new(SharedShape::cuboid(2.0, 0.25, 2.0)),
                Transform::from_xyz(0.0, -0.25, 0.0),
            ));
        })
        .id();
    let hero = hero(&mut app, Vec3::new(3.5, 0.0, 0.0));
    run(&mut app, 4);
    let cart_start = position(&app, cart).z;
    let start = position(&app, hero);
    run(&mut app, 64);
    let cart_moved = position(&app, cart).z - cart_start;
    let moved = position(&app, hero) - start;
    assert_abs_diff_eq!(cart_moved, 1.0, epsilon = 1e-4);
    // Carried the same metre (64 velocity steps of f32 rounding: 1e-4 m), still on the deck.
    assert_abs_diff_eq!(moved.z, cart_moved, epsilon = 1e-4);
    assert_abs_diff_eq!(moved.y, 0.0, epsilon = 1e-5);
    assert_eq!(status(&app, hero).ground, GroundState::Grounded);
}

#[test]
fn gravity_fields_spawned_and_despawned_later_take_effect() {
    let mut app = app();
    let hero = hero(&mut app, Vec3::new(0.0, 100.0, 0.0));
    let fall_speed = |app: &App| -status(app, hero).velocity.y;
    // (The app's first update starts Bevy's clock and runs no fixed step.)
    run(&mut app, 1);
    let start = fall_speed(&app);
    run(&mut app, 16);
    let before = fall_speed(&app);
    // Default gravity for 16 steps of 1/64 s: 9.81 / 4 = 2.45 m/s more, to f32 rounding.
    assert_abs_diff_eq!(before - start, 9.81 * 16.0 * DT, epsilon = 1e-4);
    // A weightless field everywhere: the fall goes on at the speed it had.
    let weightless = spherewalk_core::GravityField::uniform(spherewalk_core::Vec3::zeros());
    let field = app.world_mut().spawn(GravityField(weightless)).id();
    run(&mut app, 16);
    assert_abs_diff_eq!(fall_speed(&app), before, epsilon = 1e-5);
    // Gone again: the default's pull is back.
    app.world_mut().despawn(field);
    run(&mut app, 16);
    assert_abs_diff_eq!(fall_speed(&app), before + 9.81 * 16.0 * DT, epsilon = 1e-4);
}

/// The body collider's pose (world) of a solid character.
fn body_position(app: &App, character: Entity) -> Vec3 {
    let cw = app.world().resource::<CharacterWorld>();
    let id = cw.body_of(character).expect("a body");
    let pose = cw.world().get(id).expect("in the world").pose;
    let t = pose.translation.vector;
    Vec3::new(t.x, t.y, t.z)
}

/// Writes a character's transform translation, as game code does.
fn place(app: &mut App, character: Entity, at: Vec3) {
    if let Some(mut transform) = app.world_mut().get_mut::<Transform>(character) {
        transform.translation = at;
    }
}

#[test]
fn a_character_spawned_at_nan_is_refused_until_placed_then_solid() {
    let mut app = app();
    floor(&mut app);
    let lost = hero(&mut app, Vec3::new(f32::NAN, 0.0, 0.0));
    run(&mut app, 4);
    let refused = app.world().get::<CharacterRefused>(lost).expect("refused");
    assert!(
        matches!(refused.0, RefusalReason::NonFinitePose { translation, .. } if translation.x.is_nan()),
        "{:?}",
        refused.0
    );
    let cw = app.world().resource::<CharacterWorld>();
    assert!(cw.body_of(lost).is_none());
    assert_eq!(cw.world().len(), 1, "the floor alone");
    // Placed at the origin by the game: admitted, with a body, standing.
    place(&mut app, lost, Vec3::ZERO);
    run(&mut app, 8);
    assert!(app.world().get::<CharacterRefused>(lost).is_none());
    assert_eq!(status(&app, lost).ground, GroundState::Grounded);
    assert_eq!(body_position(&app, lost).x, 0.0);
    // Another walks into it and is stopped by its body (before the fix: 31 mm into it),
    // never deeper than the penetration tolerance (1 mm) plus f32 rounding.
    let walker = hero(&mut app, Vec3::new(-3.0, 0.0, 0.0));
    run(&mut app, 8);
    walk(&mut app, walker, Vec3::new(3.0, 0.0, 0.0));
    let (deepest, _) = closest_approach(&mut app, (walker, lost), 96);
    assert!(deepest > -1.5e-3, "overlapped by {} m", -deepest);
}

/// Issue 48's missing admission rule, now the core's `Motor::admit` for both hosts: a
/// character placed inside a 6 m boulder is refused as buried (the runtime's `Sim` refuses the
/// same spawn with `SpawnError::Buried`), gets no body, and is admitted once the game moves it
/// clear.
#[test]
fn a_character_spawned_inside_a_boulder_is_refused_as_buried_until_moved_clear() {
    let mut app = app();
    floor(&mut app);
    // x in [2, 8], y in [0, 6], z in [-3, 3], resting on the floor.
    app.world_mut().spawn((
        Collider::new(SharedShape::cuboid(3.0, 3.0, 3.0)),
        Transform::from_xyz(5.0, 3.0, 0.0),
    ));
    let inside = hero(&mut app, Vec3::new(5.0, 1.0, 0.0));
    run(&mut app, 4);
    let refused = app
        .world()
        .get::<CharacterRefused>(inside)
        .expect("refused");
    let RefusalReason::Buried { depth, height, .. } = refused.0 else {
        panic!("{:?}", refused.0);
    };
    // The head sphere (centre 2.5 m up, 2.5 m above the boulder's bottom face, its nearest)
    // is deepest: 2.5 + 0.3 m; f32 rounding of the closest point, 1e-4 m.
    assert_abs_diff_eq!(depth, 2.8, epsilon = 1e-4);
    assert_abs_diff_eq!(height, 1.8, epsilon = 1e-6);
    let cw = app.world().resource::<CharacterWorld>();
    assert!(cw.body_of(inside).is_none());
    assert_eq!(cw.world().len(), 2, "the floor and the boulder alone");
    // Moved clear by the game: admitted with a body, standing on the floor.
    place(&mut app, inside, Vec3::new(-3.0, 0.0, 0.0));
    run(&mut app, 8);
    assert!(app.world().get::<CharacterRefused>(inside).is_none());
    assert_eq!(status(&app, inside).ground, GroundState::Grounded);
    assert_eq!(body_position(&app, inside).x, -3.0);
}

#[test]
fn a_nan_teleport_is_refused_and_holds_back_no_other_body() {
    let mut app = app();
    floor(&mut app);
    let leaver = hero(&mut app, Vec3::ZERO);
    let crosser = hero(&mut app, Vec3::new(-3.0, 0.0, 0.0));
    let bad = hero(&mut app, Vec3::new(0.0, 0.0, -4.0));
    run(&mut app, 8);
    place(&mut app, bad, Vec3::new(f32::NAN, 1.0, 0.0));
    walk(&mut app, leaver, Vec3::new(0.0, 0.0, 2.0));
    walk(&mut app, crosser, Vec3::new(2.0, 0.0, 0.0));
    let mut seen = Vec::new();
    for _ in 0..96 {
        seen.extend(run(&mut app, 1));
        // Every body follows its character: the leaver's is where its last step ended,
        // which the transform shows one step later (within one step of 2 m/s, 31.25 mm).
        let (body, shown) = (body_position(&app, leaver), position(&app, leaver));
        assert!(
            (body.z - shown.z).abs() <= 2.0 * DT + 1e-5,
            "{body} {shown}"
        );
    }
    // The refusal is said once, naming the character and what was written.
    let refusals: Vec<_> = seen
        .iter()
        .filter(|m| matches!(m.event, CharacterEvent::TeleportRefused { .. }))
        .collect();
    assert_eq!(refusals.len(), 1, "{seen:?}");
    assert_eq!(refusals[0].character, bad);
    // The bad one stands where it stood (to the ground clamp's f32 rounding, 1e-5 m),
    // still admitted.
    let stood = position(&app, bad);
    assert!(stood.distance(Vec3::new(0.0, 0.0, -4.0)) < 1e-5, "{stood}");
    assert!(app.world().get::<CharacterRefused>(bad).is_none());
    // 1.5 s at 2 m/s (95 steps shown, one behind; f32 rounding of the sum, 1e-3 m): the
    // leaver went to z = 2.97, and the crosser went through where the leaver had stood
    // (before the fix its ghost body stopped the crosser at x = -0.6).
    assert_abs_diff_eq!(position(&app, leaver).z, 2.0 * 95.0 * DT, epsilon = 1e-3);
    assert_abs_diff_eq!(
        position(&app, crosser).x,
        -3.0 + 2.0 * 95.0 * DT,
        epsilon = 1e-3
    );
}

/// The x (m) a character's transform held when the game's fixed-schedule systems read it,
/// before the plugin's sync and after its write-back, one entry each per fixed step.
#[derive(Resource, Default)]
struct Reads {
    before: Vec<f32>,
    after: Vec<f32>,
}

#[test]
fn fixed_schedule_logic_reads_the_last_steps_end_with_interpolation_on() {
    fn read_before(mut reads: ResMut<Reads>, characters: Query<&Transform, With<Character>>) {
        reads
            .before
            .extend(characters.iter().map(|t| t.translation.x));
    }
    fn read_after(mut reads: ResMut<Reads>, characters: Query<&Transform, With<Character>>) {
        reads
            .after
            .extend(characters.iter().map(|t| t.translation.x));
    }
    let mut app = app();
    app.init_resource::<Reads>();
    app.add_systems(FixedUpdate, read_before.before(SpherewalkSystems::Sync));
    app.add_systems(FixedUpdate, read_after.after(SpherewalkSystems::WriteBack));
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 8);
    walk(&mut app, hero, Vec3::new(2.0, 0.0, 0.0));
    run(&mut app, 32);
    let reads = app.world().resource::<Reads>();
    assert!(reads.after.len() >= 32);
    // Each step's logic reads, bit for bit, where the step before ended (before the fix:
    // where it started, 31.25 mm behind at 2 m/s).
    assert_eq!(reads.before.len(), reads.after.len());
    for k in 1..reads.after.len() {
        assert_eq!(reads.before[k], reads.after[k - 1], "step {k}");
    }
    // And the frame shows the interpolated pose: with no time left over, where the last step
    // started, one step of 2 m/s behind (f32 rounding, 1e-5 m).
    let last = *reads.after.last().expect("steps");
    assert_abs_diff_eq!(position(&app, hero).x, last - 2.0 * DT, epsilon = 1e-5);
}

/// The game's teleports from `Update`: every `every` frames the next target, and which
/// frame wrote each.
#[derive(Resource)]
struct Teleports {
    targets: Vec<Vec3>,
    every: u32,
    frame: u32,
    written: Vec<u32>,
}

/// Writes the next teleport target to every character's transform on every `every`-th frame.
fn teleport_from_update(
    mut teleports: ResMut<Teleports>,
    mut characters: Query<&mut Transform, With<Character>>,
) {
    teleports.frame += 1;
    let k = teleports.written.len();
    if !teleports.frame.is_multiple_of(teleports.every) || k >= teleports.targets.len() {
        return;
    }
    let to = teleports.targets[k];
    for mut transform in &mut characters {
        transform.translation = to;
    }
    let frame = teleports.frame;
    teleports.written.push(frame);
}

/// Runs 20 teleports written from `Update` at `fps` frames a second with the plugin's
/// defaults (64 Hz fixed steps, interpolation on): how many the character ended up at.
fn teleports_landed(fps: f64) -> usize {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / fps),
    ));
    floor(&mut app);
    let hero = hero(&mut app, Vec3::ZERO);
    run(&mut app, 16);
    // Targets on the floor (y = 0), 0.5 m apart so no two are alike.
    let targets: Vec<Vec3> = (0..20)
        .map(|k| Vec3::new(-5.0 + 0.5 * k as f32, 0.0, (k % 3) as f32))
        .collect();
    // A teleport every 5 frames: at 144 fps some fall on frames with no fixed step.
    app.insert_resource(Teleports {
        targets: targets.clone(),
        every: 5,
        frame: 0,
        written: Vec::new(),
    });
    app.add_systems(Update, teleport_from_update);
    let mut landed = 0;
    let mut next = 0;
    for _ in 0..200 {
        app.update();
        let written = app.world().resource::<Teleports>().written.len();
        // Judged on the frame before the next one is written: the character stands still
        // on the floor at the target (the ground clamp's f32 rounding, well under 1e-4 m;
        // a lost teleport is 0.5 m off).
        if written > next && app.world().resource::<Teleports>().frame % 5 == 4 {
            if position(&app, hero).distance(targets[next]) < 1e-4 {
                landed += 1;
            }
            next = written;
        }
    }
    assert_eq!(next, targets.len(), "every teleport written");
    landed
}

#[test]
fn teleports_written_from_update_all_land_at_30_60_and_144_fps() {
    for fps in [30.0, 60.0, 144.0] {
        // Before the fix 13 of 20 were lost at 144 fps.
        assert_eq!(teleports_landed(fps), 20, "at {fps} fps");
    }
}

/// Walks into a climbable 3 m wall (`Collider::climbable`) with the intent written from
/// `Update` at `fps` frames a second, with the plugin's defaults (64 Hz fixed steps,
/// interpolation on), for 2.5 s: the modes it went through, and where its feet are.
fn climb_at(fps: f64) -> (Vec<&'static str>, Vec3) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / fps),
    ));
    floor(&mut app);
    app.world_mut().spawn((
        Collider::new(SharedShape::cuboid(1.0, 1.5, 2.0)).climbable(),
        Transform::from_xyz(2.0, 1.5, 0.0),
    ));
    let hero = hero(&mut app, Vec3::ZERO);
    app.add_systems(Update, |mut intents: Query<&mut CharacterIntent>| {
        for mut intent in &mut intents {
            intent.walk = Vec3::new(2.0, 0.0, 0.0);
        }
    });
    let mut modes = vec!["walk"];
    for _ in 0..(2.5 * fps) as u32 {
        app.update();
        for m in drain(&mut app) {
            if let CharacterEvent::ModeChanged { to, .. } = m.event {
                modes.push(to.name());
            }
        }
    }
    (modes, position(&app, hero))
}

#[test]
fn a_climbable_wall_is_climbed_and_mantled_at_30_60_and_144_fps() {
    for fps in [30.0, 60.0, 144.0] {
        let (modes, at) = climb_at(fps);
        assert_eq!(modes, ["walk", "climb", "mantle", "walk"], "at {fps} fps");
        // On the wall's top (y = 3; the transform blends two fixed steps' poses, both on
        // the flat top: 1e-3 m), walking on past its edge at x = 1 (0.35 s to the wall,
        // 1.35 s up it, 0.2 s of mantle, then 2 m/s: near x = 2.1, short of its far side at 3).
        assert_abs_diff_eq!(at.y, 3.0, epsilon = 1e-3);
        assert!(at.x > 1.5 && at.x < 2.8, "at {fps} fps: {at}");
    }
}
