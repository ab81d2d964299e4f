//! The plugin's cost per fixed step against the hecs runtime's, in one run: 100 and 1,000
//! wanderers on a planet (a ball of radius 40 m, point gravity 9.81 m/s²), spread evenly
//! over it, each walking forward at 1.5 m/s and turning (groups `planet_100`,
//! `planet_1000`).
//!
//! `cargo bench -p bevy_spherewalk --bench versus_sim`
//!
//! - Both hosts do what a game does each step: write every wanderer's intent from its pose
//!   (forward at 1.5 m/s, turning at 0.5 rad/s, half of them left), step, and take the
//!   step's events.
//! - `sim`: `spherewalk::Sim::step` (bodies, motor steps, separation, pads, events), its
//!   characters stepped on rayon's pool (`parallel`) or serially; the intents written by a
//!   hecs query before it.
//! - `plugin`: `App::update` of a `MinimalPlugins` app running one fixed step per update:
//!   the plugin's sync, step with separation, write back and interpolation, a system writing
//!   the intents from the transforms, and Bevy's own frame. `parallel` runs on Bevy's
//!   multi-threaded executor with a compute thread per core (as rayon has); `serial` on one thread, every schedule on the
//!   single-threaded executor (as an app built without Bevy's `multi_threaded` runs).
//!
//! - `plugin_fixed`: the same app's `FixedUpdate` schedule run by itself (the plugin's
//!   systems and the intents, one step), without the rest of Bevy's frame.
//! - `empty_app`: the same app with no character: Bevy's frame by itself.
//!
//! Both walk 120 steps first, so the crowd is moving. The ratios to report are
//! `plugin / sim` and `plugin_fixed / sim` for each threading; the target is at
//! most 1.25.

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_spherewalk::prelude::*;
use bevy_spherewalk::spherewalk_core::MoveIntent;
use bevy_spherewalk::spherewalk_core::math::rotation_between;
use bevy_spherewalk::spherewalk_core::{self as core, ColliderDesc, Point3, Pose, UnitVec3};
use criterion::{Criterion, criterion_group, criterion_main};
use spherewalk::components::Walker;
use spherewalk::{CharacterDesc, Sim};
use std::hint::black_box;

/// How many wanderers walk the planet, one group each.
const COUNTS: [usize; 2] = [100, 1000];
/// The planet's radius (m).
const RADIUS: f32 = 40.0;
/// Walking speed (m/s).
const SPEED: f32 = 1.5;

/// The starting poses of `count` wanderers: feet on the planet's surface, spread by a
/// Fibonacci spiral, up along the surface normal.
fn poses(count: usize) -> Vec<Pose> {
    let golden = std::f32::consts::PI * (3.0 - 5.0_f32.sqrt());
    (0..count)
        .map(|k| {
            let y = 1.0 - 2.0 * (k as f32 + 0.5) / count as f32;
            let r = (1.0 - y * y).sqrt();
            let a = golden * k as f32;
            let up = UnitVec3::new_normalize(core::Vec3::new(r * a.cos(), y, r * a.sin()));
            let mut pose = Pose::new(Point3::from(up.into_inner() * RADIUS));
            pose.orientation = rotation_between(&core::Vec3::y_axis(), &up);
            pose
        })
        .collect()
}

fn stack() -> SphereStack {
    SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack")
}

fn field() -> core::GravityField {
    core::GravityField::planet(Point3::origin(), 9.81, 3.0 * RADIUS)
}

/// The turn rate (rad/s) of wanderer `k`: half of them turn left, half right.
fn turn(k: usize) -> f32 {
    if k.is_multiple_of(2) { 0.5 } else { -0.5 }
}

/// A wanderer: turns at this rate (rad/s) while walking forward. A component of both hosts.
#[derive(Component, Clone, Copy)]
struct Wanderer(f32);

/// The runtime's crowd of `count` wanderers, walked 120 steps.
fn sim(parallel: bool, count: usize) -> Sim {
    let mut world = core::CollisionWorld::new();
    world
        .insert(ColliderDesc::new(SharedShape::ball(RADIUS)))
        .expect("a planet");
    let mut sim = Sim::new(world, 1.0 / 60.0).expect("a valid step");
    sim.parallel = parallel;
    sim.add_gravity(field()).expect("a valid field");
    for (k, pose) in poses(count).into_iter().enumerate() {
        let desc = CharacterDesc::new(format!("w{k}"), stack(), pose);
        let e = sim.spawn_character(desc).expect("a wanderer");
        sim.ecs
            .insert_one(e, Wanderer(turn(k)))
            .expect("a character");
    }
    for _ in 0..120 {
        sim_step(&mut sim);
    }
    sim
}

/// One step of the runtime as a game runs it: every wanderer's intent written from its pose
/// (forward at [`SPEED`], turning), the step, its events read and dropped.
fn sim_step(sim: &mut Sim) {
    type Item<'a> = (&'a Walker, &'a Wanderer, &'a mut MoveIntent);
    for (walker, wanderer, intent) in sim.ecs.query_mut::<Item<'_>>() {
        intent.velocity = walker.pose.forward().into_inner() * SPEED;
        intent.yaw_rate = wanderer.0;
    }
    sim.step();
    sim.drain_events().for_each(drop);
}

/// Every wanderer walks forward (its transform's local -Z) at [`SPEED`], turning.
fn wander(mut wanderers: Query<(&Transform, &Wanderer, &mut CharacterIntent)>) {
    for (transform, wanderer, mut intent) in &mut wanderers {
        intent.walk = transform.rotation * Vec3::NEG_Z * SPEED;
        intent.yaw_rate = wanderer.0;
    }
}

/// The plugin's crowd of `count` wanderers, walked 120 steps.
fn plugin(parallel: bool, count: usize) -> App {
    let threads = if parallel {
        // As many compute threads as rayon gives the runtime (one per core): Bevy's default
        // keeps a quarter of the cores for IO and another for async work, which on a 2-core
        // machine leaves the compute pool a single thread.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut options = TaskPoolOptions::default();
        options.compute.min_threads = cores;
        options
    } else {
        TaskPoolOptions::with_num_threads(1)
    };
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: threads,
        }),
        SpherewalkPlugin::default(),
    ));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.insert_resource(Time::<Fixed>::from_hz(60.0));
    app.add_systems(FixedUpdate, wander.before(SpherewalkSystems::Sync));
    let world = app.world_mut();
    world.spawn((
        Collider::new(SharedShape::ball(RADIUS)),
        Transform::IDENTITY,
    ));
    world.spawn(GravityField(field()));
    for (k, pose) in poses(count).into_iter().enumerate() {
        let (translation, rotation) = pose.to_glam();
        world.spawn((
            Character::new(stack()),
            Transform::from_translation(translation).with_rotation(rotation),
            Wanderer(turn(k)),
        ));
    }
    if !parallel {
        // A serial app: every schedule on the single-threaded executor, as a build without
        // Bevy's `multi_threaded` feature runs them.
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
    }
    for _ in 0..121 {
        app.update();
    }
    app
}

fn versus(c: &mut Criterion) {
    for count in COUNTS {
        versus_at(c, count);
    }
}

/// The group of `count` wanderers: each host, parallel and serial.
fn versus_at(c: &mut Criterion, count: usize) {
    let mut group = c.benchmark_group(format!("planet_{count}"));
    for (parallel, name) in [(true, "parallel"), (false, "serial")] {
        let mut runtime = sim(parallel, count);
        group.bench_function(format!("sim_{name}"), |b| {
            b.iter(|| {
                sim_step(&mut runtime);
                black_box(&runtime);
            })
        });
        let mut app = plugin(parallel, count);
        group.bench_function(format!("plugin_{name}"), |b| {
            b.iter(|| {
                app.update();
                black_box(&app);
            })
        });
        // The fixed-step schedule alone (the plugin's systems and the intents, on the same
        // executor), without the rest of Bevy's frame.
        group.bench_function(format!("plugin_fixed_{name}"), |b| {
            b.iter(|| {
                app.world_mut().run_schedule(FixedUpdate);
                black_box(&app);
            })
        });
        // The same app with no character: what Bevy's frame costs by itself.
        let mut empty = plugin(parallel, 0);
        group.bench_function(format!("empty_app_{name}"), |b| {
            b.iter(|| {
                empty.update();
                black_box(&empty);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, versus);
criterion_main!(benches);
