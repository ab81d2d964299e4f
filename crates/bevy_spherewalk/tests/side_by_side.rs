//! The same course run by the Bevy plugin and by spherewalk's hecs runtime (`Sim`): a flat
//! level under uniform gravity with a flight of stairs, a lift and a turning disc, and a
//! planet beside it; five characters with the same intents each step (a climber, a rider,
//! a planet walker, and two who walk into each other). Both hosts drive the
//! same core motor, so after every one of 600 steps every pose must be the same bits, and
//! the steps' events the same, in the same order.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_spherewalk::prelude::*;
use bevy_spherewalk::spherewalk_core::interop::glam::{point_to_glam, vec3_to_glam};
use bevy_spherewalk::spherewalk_core::math::{Iso, axis_angle};
use bevy_spherewalk::spherewalk_core::motor::StepEvent;
use bevy_spherewalk::spherewalk_core::{self as core, ColliderDesc, MoveIntent, Point3, Pose};
use spherewalk::components::PlatformMotion;
use spherewalk::{CharacterDesc, Sim};
use std::collections::HashMap;

/// Steps in the run: 10 s at 60 Hz.
const STEPS: u32 = 600;

/// The lift: a 2 m square plate rising 1.5 m and back every 4 s, its top at y = 0 at rest.
fn lift_pose(t: f64) -> Iso {
    let k = (0.5 - 0.5 * (t * std::f64::consts::TAU / 4.0).cos()) as f32;
    Iso::translation(-4.0, -0.1 + 1.5 * k, 4.0)
}

/// The disc: radius 2 m, 0.2 m thick (its top 0.2 m up, a stair's height), turning about +Y
/// at 0.8 rad/s.
fn disc_pose(t: f64) -> Iso {
    let angle = (t * 0.8).rem_euclid(std::f64::consts::TAU) as f32;
    let mut pose = Iso::translation(5.0, 0.1, 4.0);
    pose.rotation = axis_angle(&core::Vec3::y_axis(), angle);
    pose
}

/// A pose as it comes back from a Bevy transform: through glam, normalised by the plugin.
/// Both hosts are handed these bits.
fn through_glam(iso: &Iso) -> Iso {
    let pose = Pose {
        position: Point3::from(iso.translation.vector),
        orientation: iso.rotation,
    };
    let (t, r) = pose.to_glam();
    Pose::from_glam(t, r).iso()
}

/// A transform holding `iso`.
fn transform(iso: &Iso) -> Transform {
    let pose = Pose {
        position: Point3::from(iso.translation.vector),
        orientation: iso.rotation,
    };
    let (translation, rotation) = pose.to_glam();
    Transform::from_translation(translation).with_rotation(rotation)
}

/// The static scenery, in insertion order: name, shape and pose.
fn scenery() -> Vec<(String, SharedShape, Iso)> {
    let mut out = vec![(
        "ground".to_owned(),
        SharedShape::cuboid(15.0, 0.5, 15.0),
        Iso::translation(0.0, -0.5, 0.0),
    )];
    for k in 0..5 {
        let top = 0.2 * (k + 1) as f32;
        out.push((
            format!("stair {k}"),
            SharedShape::cuboid(0.2, top / 2.0, 1.0),
            Iso::translation(2.2 + 0.4 * k as f32, top / 2.0, -4.0),
        ));
    }
    out.push((
        "planet".to_owned(),
        SharedShape::ball(5.0),
        Iso::translation(40.0, 10.0, 0.0),
    ));
    out
}

/// The moving colliders, in insertion order after the scenery: name, shape, pose at time 0.
fn platforms() -> Vec<(String, SharedShape, Iso)> {
    vec![
        (
            "lift".to_owned(),
            SharedShape::cuboid(1.0, 0.1, 1.0),
            through_glam(&lift_pose(0.0)),
        ),
        (
            "disc".to_owned(),
            SharedShape::cylinder(0.1, 2.0),
            through_glam(&disc_pose(0.0)),
        ),
    ]
}

/// Where a moving collider is at time `t` (s), by its index in [`platforms`].
fn platform_pose(k: usize, t: f64) -> Iso {
    through_glam(&if k == 0 { lift_pose(t) } else { disc_pose(t) })
}

/// The gravity fields, in order: Earth's everywhere, and the planet's (priority 1) within
/// 12 m of its centre.
fn fields() -> [core::GravityField; 2] {
    [
        core::GravityField::uniform(core::Vec3::new(0.0, -9.81, 0.0)),
        core::GravityField::planet(Point3::new(40.0, 10.0, 0.0), 9.0, 12.0),
    ]
}

/// The characters: name and starting feet position (upright).
fn characters() -> [(&'static str, Point3); 5] {
    [
        // Walks up the stairs, jumps at the top, comes back down turning.
        ("climber", Point3::new(0.0, 0.0, -4.0)),
        // Rides the lift up and down, then walks onto the turning disc and rides it.
        ("rider", Point3::new(-4.0, 0.0, 4.0)),
        // Walks round the planet, jumps on it.
        ("planet walker", Point3::new(40.0, 15.0, 0.0)),
        // Two who walk into each other, a little off centre, and push past.
        ("left", Point3::new(-3.0, 0.0, -9.0)),
        ("right", Point3::new(3.0, 0.0, -8.9)),
    ]
}

fn stack() -> SphereStack {
    SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack")
}

/// What character `who` wants at step `step` (the same for both hosts: world-frame vectors
/// from the step number alone).
fn intent(who: usize, step: u32) -> MoveIntent {
    let v = |x: f32, y: f32, z: f32| core::Vec3::new(x, y, z);
    match (who, step) {
        (0, 0..240) => MoveIntent::walk(v(2.0, 0.0, 0.0)),
        (0, 240) => MoveIntent {
            jump_speed: 4.0,
            ..MoveIntent::walk(v(1.0, 0.0, 0.0))
        },
        (0, _) => MoveIntent {
            yaw_rate: 1.0,
            ..MoveIntent::walk(v(-1.5, 0.0, 0.3))
        },
        (1, 0..240) => MoveIntent::default(),
        (1, 240..440) => MoveIntent::walk(v(2.5, 0.0, 0.0)),
        (1, _) => MoveIntent {
            yaw_rate: -0.5,
            ..MoveIntent::default()
        },
        (3, 0..200) => MoveIntent::walk(v(3.0, 0.0, 0.0)),
        (4, 0..200) => MoveIntent::walk(v(-3.0, 0.0, 0.0)),
        (3 | 4, _) => MoveIntent::default(),
        (_, 0..200) => MoveIntent::walk(v(3.0, 0.0, 0.0)),
        (_, 300) => MoveIntent {
            jump_speed: 5.0,
            ..MoveIntent::walk(v(0.0, 0.0, 3.0))
        },
        (_, 200..400) => MoveIntent::walk(v(0.0, 0.0, 3.0)),
        (_, _) => MoveIntent::walk(v(-3.0, 0.0, -1.0)),
    }
}

/// The plugin's intent for the motor's: the same numbers in glam.
fn bevy_intent(i: &MoveIntent) -> CharacterIntent {
    CharacterIntent {
        walk: vec3_to_glam(&i.velocity),
        jump_speed: i.jump_speed,
        facing: None,
        turn_rate: i.turn_rate,
        yaw_rate: i.yaw_rate,
        dash: i.dash,
    }
}

/// One event as both hosts can write it: character index, then the event with colliders
/// named and numbers as bits.
type Seen = (usize, String);

/// An event's words: its kind and its numbers' bits, with the collider hit named by `name`.
fn describe(event: &StepEvent, name: &dyn Fn(core::ColliderId) -> String) -> String {
    match *event {
        StepEvent::Hit {
            collider,
            point,
            normal,
        } => {
            let p = point_to_glam(&point).to_array().map(f32::to_bits);
            let n = vec3_to_glam(&normal).to_array().map(f32::to_bits);
            format!("hit {} at {p:?} normal {n:?}", name(collider))
        }
        ref other => format!("{other:?}"),
    }
}

/// The plugin's message in the same words.
fn describe_message(event: &CharacterEvent, name: &dyn Fn(Entity) -> String) -> String {
    match *event {
        CharacterEvent::Landed => format!("{:?}", StepEvent::Landed),
        CharacterEvent::LeftGround => format!("{:?}", StepEvent::LeftGround),
        CharacterEvent::Jumped => format!("{:?}", StepEvent::Jumped),
        CharacterEvent::ClimbedStair { height } => {
            format!("{:?}", StepEvent::ClimbedStair { height })
        }
        CharacterEvent::Crushed { depth } => format!("{:?}", StepEvent::Crushed { depth }),
        CharacterEvent::Hit {
            collider,
            point,
            normal,
        } => {
            let p = point.to_array().map(f32::to_bits);
            let n = normal.to_array().map(f32::to_bits);
            let who = collider.map_or_else(|| "gone".to_owned(), name);
            format!("hit {who} at {p:?} normal {n:?}")
        }
        other => format!("unknown {other:?}"),
    }
}

/// The hecs runtime's side: the world, the characters and the moving platforms, by index.
struct Runtime {
    sim: Sim,
    characters: Vec<spherewalk::hecs::Entity>,
    platforms: Vec<spherewalk::hecs::Entity>,
    names: HashMap<core::ColliderId, String>,
}

fn runtime(dt: f32) -> Runtime {
    let mut collision = core::CollisionWorld::new();
    let mut names = HashMap::new();
    for (name, shape, pose) in scenery() {
        let id = collision
            .insert(ColliderDesc::new(shape).pose(pose))
            .expect("a valid collider");
        names.insert(id, name);
    }
    let mut sim = Sim::new(collision, dt).expect("a valid step");
    let platforms = platforms()
        .into_iter()
        .map(|(name, shape, pose)| {
            let desc = ColliderDesc::new(shape).pose(pose);
            let e = sim
                .add_platform(desc, PlatformMotion::Driven)
                .expect("a platform");
            names.insert(sim.platform_collider(e).expect("its collider"), name);
            e
        })
        .collect();
    for field in fields() {
        sim.add_gravity(field).expect("a valid field");
    }
    let characters = characters()
        .into_iter()
        .map(|(name, at)| {
            let pose = Pose::new(at);
            sim.spawn_character(CharacterDesc::new(name, stack(), pose))
                .expect("a valid character")
        })
        .collect();
    Runtime {
        sim,
        characters,
        platforms,
        names,
    }
}

impl Runtime {
    /// One step: the platforms driven to their poses at the step's end time, the intents
    /// written, the step run; its events.
    fn step(&mut self, step: u32) -> Vec<Seen> {
        let t = f64::from(step + 1) * f64::from(self.sim.dt());
        for (k, &e) in self.platforms.iter().enumerate() {
            self.sim
                .drive_platform(e, platform_pose(k, t))
                .expect("a driven platform");
        }
        for (who, &e) in self.characters.iter().enumerate() {
            *self.sim.ecs.get::<&mut MoveIntent>(e).expect("a character") = intent(who, step);
        }
        self.sim.step();
        let events: Vec<_> = self.sim.drain_events().collect();
        let index = |e: spherewalk::hecs::Entity| self.characters.iter().position(|&c| c == e);
        let name = |id: core::ColliderId| -> String {
            self.names
                .get(&id)
                .cloned()
                .or_else(|| self.sim.collider_name(id).map(str::to_owned))
                .unwrap_or_else(|| format!("{id:?}"))
        };
        events
            .iter()
            .map(|e| {
                let who = index(e.entity).expect("a character's event");
                (who, describe(&e.kind, &name))
            })
            .collect()
    }

    /// Every character's pose (glam bits: translation, rotation).
    fn poses(&self) -> Vec<(Vec3, Quat)> {
        let pose = |&e| self.sim.character(e).expect("a character").pose.to_glam();
        self.characters.iter().map(pose).collect()
    }
}

/// The Bevy side: the app, the characters and the moving colliders, by index.
struct Plugin {
    app: App,
    characters: Vec<Entity>,
    platforms: Vec<Entity>,
    names: HashMap<Entity, String>,
}

fn plugin() -> Plugin {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SpherewalkPlugin::default().interpolated(false),
    ));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.insert_resource(Time::<Fixed>::from_hz(60.0));
    let mut names = HashMap::new();
    let world = app.world_mut();
    for (name, shape, pose) in scenery() {
        let e = world.spawn((Collider::new(shape), transform(&pose))).id();
        names.insert(e, name);
    }
    let mut moving = Vec::new();
    for (name, shape, pose) in platforms() {
        let e = world.spawn((Collider::new(shape), transform(&pose))).id();
        names.insert(e, name);
        moving.push(e);
    }
    for field in fields() {
        world.spawn(GravityField(field));
    }
    let mut walkers = Vec::new();
    for (name, at) in characters() {
        let pose = Pose::new(at);
        let e = world
            .spawn((Character::new(stack()), transform(&pose.iso())))
            .id();
        names.insert(e, name.to_owned());
        walkers.push(e);
    }
    // Bevy's first update runs no fixed step: it only starts the clock.
    app.update();
    Plugin {
        app,
        characters: walkers,
        platforms: moving,
        names,
    }
}

impl Plugin {
    /// The same step as [`Runtime::step`], run by one update of one fixed step.
    fn step(&mut self, step: u32, dt: f32) -> Vec<Seen> {
        let t = f64::from(step + 1) * f64::from(dt);
        let world = self.app.world_mut();
        for (k, &e) in self.platforms.iter().enumerate() {
            *world.get_mut::<Transform>(e).expect("a platform") = transform(&platform_pose(k, t));
        }
        for (who, &e) in self.characters.iter().enumerate() {
            *world.get_mut::<CharacterIntent>(e).expect("a character") =
                bevy_intent(&intent(who, step));
        }
        self.app.update();
        let messages: Vec<CharacterMessage> = self
            .app
            .world_mut()
            .resource_mut::<Messages<CharacterMessage>>()
            .drain()
            .collect();
        let name = |e: Entity| self.names.get(&e).cloned().unwrap_or_else(|| e.to_string());
        messages
            .iter()
            .map(|m| {
                let who = self.characters.iter().position(|&c| c == m.character);
                let who = who.expect("a character's message");
                (who, describe_message(&m.event, &name))
            })
            .collect()
    }

    fn poses(&self) -> Vec<(Vec3, Quat)> {
        let pose = |&e| {
            let t = self.app.world().get::<Transform>(e).expect("a character");
            (t.translation, t.rotation)
        };
        self.characters.iter().map(pose).collect()
    }
}

/// The bits of every pose.
fn bits(poses: &[(Vec3, Quat)]) -> Vec<u32> {
    poses
        .iter()
        .flat_map(|(p, q)| p.to_array().into_iter().chain(q.to_array()))
        .map(f32::to_bits)
        .collect()
}

#[test]
fn the_plugin_and_the_runtime_walk_the_same_course_bit_for_bit() {
    // The fixed step the plugin runs at 60 Hz (Bevy's `Duration` in f32), given to both.
    let dt = Time::<Fixed>::from_hz(60.0).timestep().as_secs_f32();
    let mut hecs = runtime(dt);
    let mut bevy = plugin();
    let mut all_events = Vec::new();
    let mut rider_highest = f32::MIN;
    for step in 0..STEPS {
        let from_hecs = hecs.step(step);
        let from_bevy = bevy.step(step, dt);
        assert_eq!(
            bits(&hecs.poses()),
            bits(&bevy.poses()),
            "poses differ after step {step}: {:?} vs {:?}",
            hecs.poses(),
            bevy.poses()
        );
        assert_eq!(from_hecs, from_bevy, "events differ at step {step}");
        all_events.extend(from_hecs.into_iter().map(|e| (step, e)));
        rider_highest = rider_highest.max(hecs.poses()[1].0.y);
    }
    // The course did what it was built for (so the agreement is not two characters standing
    // still): the climber ended above the ground after climbing, the rider rode the disc,
    // the planet walker walked on the planet.
    let poses = hecs.poses();
    let count = |who: usize, what: &str| {
        let of = |(_, (w, e)): &&(u32, Seen)| *w == who && e.starts_with(what);
        all_events.iter().filter(of).count()
    };
    assert!(count(0, "ClimbedStair") >= 4, "{all_events:?}");
    assert_eq!(count(0, "Jumped"), 1, "{all_events:?}");
    assert_eq!(count(2, "Jumped"), 1, "{all_events:?}");
    // The lift took the rider 1.5 m up (the feet on its top, rounding aside).
    assert!((1.49..1.51).contains(&rider_highest), "{rider_highest}");
    let rider = hecs.sim.character(hecs.characters[1]).expect("the rider");
    let disc = hecs.sim.platform_collider(hecs.platforms[1]);
    assert_eq!(rider.ground_collider, disc, "{:?}", poses[1]);
    // The pair met: each hit the other's body, and each ended past the other.
    assert!(count(3, "hit right") >= 1, "{all_events:?}");
    assert!(count(4, "hit left") >= 1, "{all_events:?}");
    assert!(poses[3].0.x > poses[4].0.x, "{:?} {:?}", poses[3], poses[4]);
    // On the planet: 5 m from its centre, within the ground clamp's rounding (1 mm).
    let walker = poses[2].0 - Vec3::new(40.0, 10.0, 0.0);
    assert!((walker.length() - 5.0).abs() < 1e-3, "{walker}");
}
