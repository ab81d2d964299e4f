//! With the `avian` feature: characters walk on avian3d's static colliders and ride its
//! kinematic bodies, in a headless app running avian's physics and the plugin after it, one
//! fixed step of 1/64 s per update.
#![cfg(feature = "avian")]

use approx::assert_abs_diff_eq;
use avian3d::prelude::{Collider as AvianCollider, LinearVelocity, PhysicsPlugins, RigidBody};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use bevy_spherewalk::prelude::*;
use bevy_spherewalk::{CharacterWorld, FromAvian};

mod common;
use common::{drain, hero, position, status};

/// A headless app with avian's physics and the plugin after it, transforms not interpolated
/// (so a character's transform is where its last step ended, as avian's bodies' are).
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::default(),
        SpherewalkPlugin::after_avian().interpolated(false),
    ));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    // avian's plugins finish their set-up here (`App::run` does it; a test calls it).
    app.finish();
    app.cleanup();
    app
}

/// A static avian box with its top at `top` (m), spanning `x0..x1` along x and 4 m along z.
fn static_box(app: &mut App, x0: f32, x1: f32, top: f32) -> Entity {
    let depth = top + 1.0;
    app.world_mut()
        .spawn((
            RigidBody::Static,
            AvianCollider::cuboid(x1 - x0, depth, 4.0),
            Transform::from_xyz(0.5 * (x0 + x1), top - 0.5 * depth, 0.0),
        ))
        .id()
}

#[test]
fn a_character_walks_up_avian_static_stairs() {
    let mut app = app();
    let floor = static_box(&mut app, -5.0, 1.0, 0.0);
    // Four 0.2 m stairs 0.4 m deep, then a landing 1.0 m up.
    for k in 0..4 {
        let x0 = 1.0 + 0.4 * k as f32;
        static_box(&mut app, x0, x0 + 0.4, 0.2 * (k + 1) as f32);
    }
    let landing = static_box(&mut app, 2.6, 10.0, 1.0);
    let hero = hero(&mut app, Vec3::new(-1.0, 0.0, 0.0));
    for _ in 0..8 {
        app.update();
    }
    drain(&mut app);
    assert!(app.world().get::<FromAvian>(floor).is_some());
    // Mirrored: the floor, four stairs, the landing, and the hero's own body.
    assert_eq!(app.world().resource::<CharacterWorld>().world().len(), 7);
    if let Some(mut intent) = app.world_mut().get_mut::<CharacterIntent>(hero) {
        intent.walk = Vec3::new(2.0, 0.0, 0.0);
    }
    let mut climbed = 0;
    for _ in 0..192 {
        app.update();
        let seen = drain(&mut app);
        let stairs = seen
            .iter()
            .filter(|m| matches!(m.event, CharacterEvent::ClimbedStair { .. }));
        climbed += stairs.count();
    }
    // Three seconds at 2 m/s from x = -1: on the landing, its top 1.0 m up, grounded on it
    // (the ground clamp puts the feet on the top to rounding, 1e-4 m).
    let at = position(&app, hero);
    assert!(at.x > 4.0, "{at}");
    assert_abs_diff_eq!(at.y, 1.0, epsilon = 1e-4);
    let status = status(&app, hero);
    assert_eq!(status.ground, GroundState::Grounded);
    assert_eq!(status.standing_on, Some(landing));
    // Four stairs and the landing's 0.2 m edge, each climbed once.
    assert_eq!(climbed, 5);
}

#[test]
fn a_character_rides_an_avian_kinematic_lift() {
    let mut app = app();
    // A 2 m square lift 0.2 m thick, its top at y = 0.
    let lift = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            AvianCollider::cuboid(2.0, 0.2, 2.0),
            Transform::from_xyz(0.0, -0.1, 0.0),
        ))
        .id();
    let hero = hero(&mut app, Vec3::new(0.3, 0.0, 0.2));
    for _ in 0..8 {
        app.update();
    }
    // avian moves the lift up at 1 m/s and sideways at 0.5 m/s; the plugin steps after it.
    app.world_mut()
        .entity_mut(lift)
        .insert(LinearVelocity(Vec3::new(0.5, 1.0, 0.0)));
    let start = position(&app, hero);
    let lift_start = position(&app, lift);
    for step in 0..128 {
        app.update();
        let (feet, top) = (position(&app, hero), position(&app, lift).y + 0.1);
        // After every step the feet are on the lift's top where avian just put it: no lag
        // behind the lift (1e-4 m: f32 rounding of a metre-scale sum, and the motor's
        // ground clamp).
        assert_abs_diff_eq!(feet.y, top, epsilon = 1e-4);
        let status = status(&app, hero);
        assert_eq!(status.standing_on, Some(lift), "step {step}");
    }
    // Two seconds: the lift went 2 m up and 1 m along x, and the rider with it.
    let lift_moved = position(&app, lift) - lift_start;
    assert_abs_diff_eq!(lift_moved.y, 2.0, epsilon = 1e-3);
    let moved = position(&app, hero) - start;
    assert_abs_diff_eq!(moved.x, lift_moved.x, epsilon = 1e-3);
    assert_abs_diff_eq!(moved.y, lift_moved.y, epsilon = 1e-3);
}

#[test]
fn dynamic_avian_bodies_are_not_mirrored_and_removed_colliders_go() {
    let mut app = app();
    let crate_box = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            AvianCollider::cuboid(1.0, 1.0, 1.0),
            Transform::from_xyz(5.0, 3.0, 0.0),
        ))
        .id();
    let wall = static_box(&mut app, -1.0, 1.0, 2.0);
    for _ in 0..4 {
        app.update();
    }
    assert!(app.world().get::<Collider>(crate_box).is_none());
    assert_eq!(app.world().resource::<CharacterWorld>().world().len(), 1);
    app.world_mut().entity_mut(wall).remove::<AvianCollider>();
    for _ in 0..2 {
        app.update();
    }
    assert!(app.world().get::<Collider>(wall).is_none());
    assert_eq!(app.world().resource::<CharacterWorld>().world().len(), 0);
}

#[test]
fn a_scaled_avian_box_is_stood_on_at_its_scaled_size() {
    let mut app = app();
    // A 1 m avian cube scaled by 2 about its centre at y = 1: 2 m tall, its top at y = 2.
    app.world_mut().spawn((
        RigidBody::Static,
        AvianCollider::cuboid(1.0, 1.0, 1.0),
        Transform::from_xyz(0.0, 1.0, 0.0).with_scale(Vec3::splat(2.0)),
    ));
    let hero = hero(&mut app, Vec3::new(0.6, 3.0, 0.0));
    for _ in 0..96 {
        app.update();
    }
    // Landed on the scaled top (the clamp's snap: 1e-4 m), not on the unscaled one at
    // y = 1.5, and 0.6 m from the centre: beyond the unscaled half-width of 0.5 m.
    assert_abs_diff_eq!(position(&app, hero).y, 2.0, epsilon = 1e-4);
    assert_eq!(status(&app, hero).ground, GroundState::Grounded);
}
