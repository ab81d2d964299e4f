//! The hecs runtime: fixed-step clock, gravity fields, platforms, character-vs-character
//! collision, crouching, scripts, events, and parallel == serial.

use approx::assert_abs_diff_eq;
use spherewalk::components::{Name, Platform, PlatformMotion, Stance, Walker};
use spherewalk::input::{Command, Script, Wander};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    CharacterDesc, ColliderDesc, CollisionWorld, EventKind, FixedStep, GravityField, Input, Point3,
    Pose, Real, Sim, SphereStack, UnitVec3, Vec3,
};

const DT: Real = 1.0 / 60.0;

pub(crate) fn capsule() -> SphereStack {
    SphereStack::capsule(1.8, 0.3, 3).expect("valid capsule")
}

/// A 40 m floor with its top at y = 0, under uniform gravity.
pub(crate) fn floor_sim() -> Sim {
    let mut world = CollisionWorld::new();
    let floor = ColliderDesc::new(SharedShape::cuboid(20.0, 0.5, 20.0)).translation(0.0, -0.5, 0.0);
    world.insert(floor).expect("floor");
    let mut sim = Sim::new(world, DT).expect("dt");
    sim.add_gravity(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))
        .expect("gravity");
    sim
}

fn pose_of(sim: &Sim, e: spherewalk::hecs::Entity) -> Pose {
    sim.ecs.get::<&Walker>(e).expect("character").pose
}

#[test]
fn fixed_step_runs_whole_steps_and_interpolates_the_rest() {
    let mut clock = FixedStep::new(0.01).expect("dt");
    assert_eq!(clock.advance(0.025), 2);
    // 0.5 of a step is left over (1e-6: f32 frame time summed in f64).
    assert_abs_diff_eq!(clock.alpha(), 0.5, epsilon = 1e-5);
    assert_eq!(clock.advance(0.005), 1);
    assert_abs_diff_eq!(clock.alpha(), 0.0, epsilon = 1e-5);
    // A 10 s hitch runs at most max_steps_per_frame (8) steps and drops the rest.
    assert_eq!(clock.advance(10.0), 8);
    assert!(clock.alpha() < 1.0);
    assert_eq!(clock.advance(Real::NAN), 0);
    assert!(FixedStep::new(0.0).is_err() && FixedStep::new(Real::NAN).is_err());
}

#[test]
fn render_pose_interpolates_between_steps() {
    let mut sim = floor_sim();
    let script = Script::new(
        vec![Command::Walk {
            forward: 6.0,
            right: 0.0,
            seconds: 10.0,
            crouch: false,
        }],
        false,
    );
    let mut desc = CharacterDesc::new("walker", capsule(), Pose::new(Point3::origin()));
    desc.input = Input::Script(script);
    let e = sim.spawn_character(desc).expect("spawn");
    for _ in 0..30 {
        sim.step();
    }
    // Half a step of frame time: the render pose lies half-way along the last step.
    assert_eq!(sim.advance(0.5 * DT), 0);
    let before = pose_of(&sim, e);
    let drawn = sim.render_pose(e).expect("character");
    sim.step();
    // Walking -Z at 6 m/s: 0.1 m per step, so the drawn pose is 0.05 m behind (1e-4 m: f32).
    let prev = sim.ecs.get::<&Walker>(e).expect("a character").previous;
    assert_abs_diff_eq!(prev.position.z, before.position.z, epsilon = 1e-6);
    assert_abs_diff_eq!(before.position.z - drawn.position.z, -0.05, epsilon = 1e-4);
}

#[test]
fn jumps_from_one_planet_into_the_field_of_another_and_lands_standing_on_it() {
    // Planet A (r = 10 m) at the origin, planet B (r = 10 m) 30 m above it; each pulls 9.81
    // m/s² within 15 m of its centre, so the fields meet half-way across the 10 m gap.
    let mut world = CollisionWorld::new();
    let b_centre = Point3::new(0.0, 30.0, 0.0);
    world
        .insert(ColliderDesc::new(SharedShape::ball(10.0)))
        .expect("A");
    world
        .insert(ColliderDesc::new(SharedShape::ball(10.0)).translation(0.0, 30.0, 0.0))
        .expect("B");
    let mut sim = Sim::new(world, DT).expect("dt");
    sim.add_gravity(GravityField::planet(Point3::origin(), 9.81, 15.0))
        .expect("A field");
    sim.add_gravity(GravityField::planet(b_centre, 9.81, 15.0))
        .expect("B field");
    // 12 m/s clears A's field (needs 9.9 m/s to rise the 5 m to its edge).
    let commands = vec![
        Command::Wait { seconds: 0.5 },
        Command::Jump { speed: 12.0 },
        Command::Wait { seconds: 5.0 },
    ];
    let mut desc = CharacterDesc::new("jumper", capsule(), Pose::new(Point3::new(0.0, 10.0, 0.0)));
    desc.input = Input::Script(Script::new(commands, false));
    let e = sim.spawn_character(desc).expect("spawn");
    let mut landed_at = None;
    for k in 0..300 {
        sim.step();
        let landed = sim
            .drain_events()
            .any(|ev| ev.entity == e && ev.kind == EventKind::Landed);
        if landed && k > 40 {
            landed_at.get_or_insert(k);
        }
    }
    assert!(landed_at.is_some(), "never landed on B");
    let pose = pose_of(&sim, e);
    let state = sim.ecs.get::<&Walker>(e).expect("state").state;
    assert!(
        state.ground == spherewalk::GroundState::Grounded,
        "{:?}",
        state.ground
    );
    // Standing on B's underside: feet on its surface (1 mm: the ground clamp is exact to the
    // skin), up pointing away from B's centre, i.e. world -Y (1e-3: turn-rate convergence).
    assert_abs_diff_eq!((pose.position - b_centre).norm(), 10.0, epsilon = 1e-3);
    let radial = (pose.position - b_centre).normalize();
    assert_abs_diff_eq!(pose.up().into_inner(), radial, epsilon = 1e-3);
    // Jumped straight up and fell straight on: near B's lowest point. The half-turn of the up
    // frame in flight swings the body sideways through B's pull, so allow 10 cm of drift.
    assert_abs_diff_eq!(radial, -Vec3::y(), epsilon = 0.01);
}

#[test]
fn keeps_its_place_on_a_disc_turning_at_1_rad_s_for_10_turns() {
    let mut sim = floor_sim();
    // A disc 5 m in radius, top at y = 0.5, turning about +Y at 1 rad/s.
    let disc = ColliderDesc::new(SharedShape::cylinder(0.25, 5.0)).translation(0.0, 0.25, 0.0);
    let motion = PlatformMotion::Rotate {
        axis: Vec3::y_axis(),
        rate: 1.0,
    };
    let p = sim.add_platform(disc, motion).expect("platform");
    let spawn = Point3::new(3.0, 0.5, 0.0);
    let e = sim
        .spawn_character(CharacterDesc::new("rider", capsule(), Pose::new(spawn)))
        .expect("spawn");
    // The first step finds the ground; from then on the character rides. Its place on the
    // disc (disc-local) is where it stands once grounded.
    sim.step();
    sim.step();
    let platform = *sim.ecs.get::<&Platform>(p).expect("platform");
    let local = platform
        .pose_at(platform.time)
        .inverse_transform_point(&pose_of(&sim, e).position);
    let start_forward = platform
        .pose_at(platform.time)
        .inverse_transform_vector(&pose_of(&sim, e).forward());
    let steps = (10.0 * std::f64::consts::TAU / f64::from(DT)).round() as u32;
    let mut worst: Real = 0.0;
    for _ in 0..steps {
        sim.step();
        let platform = *sim.ecs.get::<&Platform>(p).expect("platform");
        let expected = platform.pose_at(platform.time) * local;
        let d = (pose_of(&sim, e).position - expected).norm();
        worst = worst.max(d);
    }
    // The bound: within 2 cm of its place on the disc over 10 turns.
    assert!(worst < 0.02, "drifted {worst} m from its place on the disc");
    let platform = *sim.ecs.get::<&Platform>(p).expect("platform");
    let forward = platform
        .pose_at(platform.time)
        .inverse_transform_vector(&pose_of(&sim, e).forward());
    // Its heading turned with the disc: the same disc-local heading (0.01: 3770 f32 turns).
    assert_abs_diff_eq!(forward, start_forward, epsilon = 0.01);
}

/// What [`head_on`] measured.
struct HeadOn {
    /// Largest overlap (m) of the two feet spheres (radius 0.3 m) after any step.
    worst: Real,
    /// Distance (m) between the two feet at the end.
    apart: Real,
    /// Height (m) of each one's feet at the end.
    heights: [Real; 2],
    /// Speed (m/s) of each one at the end.
    speeds: [Real; 2],
    /// `Hit` events either one's step reported against the other's body.
    hits: usize,
}

/// Two characters 6 m apart on the 40 m floor, walking into each other at 4 m/s each for 3 s
/// (soft ones with `soft`, see `CharacterDesc::soft`).
fn head_on(soft: bool) -> HeadOn {
    let mut sim = floor_sim();
    let walk = |speed| {
        Input::Script(Script::new(
            vec![Command::Walk {
                forward: speed,
                right: 0.0,
                seconds: 4.0,
                crouch: false,
            }],
            false,
        ))
    };
    let mut a = CharacterDesc::new("a", capsule(), Pose::new(Point3::new(0.0, 0.0, 3.0)));
    a.input = walk(4.0);
    a.soft = soft;
    let mut b = CharacterDesc::new("b", capsule(), Pose::new(Point3::new(0.0, 0.0, -3.0)));
    b.input = walk(-4.0);
    b.soft = soft;
    let (a, b) = (
        sim.spawn_character(a).expect("a"),
        sim.spawn_character(b).expect("b"),
    );
    let bodies: Vec<_> = [a, b]
        .iter()
        .map(|&e| {
            sim.ecs
                .get::<&Walker>(e)
                .ok()
                .and_then(|w| w.body)
                .expect("body")
        })
        .collect();
    let mut worst: Real = 0.0;
    let mut hits = 0;
    for _ in 0..180 {
        sim.step();
        let d = (pose_of(&sim, a).position - pose_of(&sim, b).position).norm();
        worst = worst.max(0.6 - d);
        hits += sim
            .drain_events()
            .filter(
                |e| matches!(e.kind, EventKind::Hit { collider, .. } if bodies.contains(&collider)),
            )
            .count();
    }
    let speed = |e| {
        sim.ecs
            .get::<&Walker>(e)
            .expect("state")
            .state
            .velocity
            .norm()
    };
    HeadOn {
        worst,
        apart: (pose_of(&sim, a).position - pose_of(&sim, b).position).norm(),
        heights: [pose_of(&sim, a).position.y, pose_of(&sim, b).position.y],
        speeds: [speed(a), speed(b)],
        hits,
    }
}

#[test]
fn two_characters_walking_into_each_other_never_overlap_beyond_the_skin() {
    let run = head_on(false);
    let skin = 0.01;
    assert!(run.worst <= skin, "overlapped by {} m", run.worst);
    // They met and stand pressed together, 0.6 m apart (1 cm: the skin).
    assert_abs_diff_eq!(run.apart, 0.6, epsilon = skin);
    // Nobody climbed on anybody (1 mm: ground clamp).
    assert_abs_diff_eq!(run.heights[0], 0.0, epsilon = 1e-3);
    assert_abs_diff_eq!(run.heights[1], 0.0, epsilon = 1e-3);
    // Each one's step was stopped by the other's body.
    assert!(run.hits > 0);
}

#[test]
fn soft_characters_walking_into_each_other_stop_pressed_together() {
    let run = head_on(true);
    // Their steps walk through each other (8 m/s together: 0.13 m a step) and never touch the
    // other's body...
    assert_eq!(run.hits, 0);
    // ...and the separation pass pushes each out by half the overlap, so after every step
    // they are apart (1 mm: f32 rounding of the push and the re-resolve on the floor).
    assert!(
        run.worst <= 1e-3,
        "overlapped by {} m after a step",
        run.worst
    );
    assert_abs_diff_eq!(run.apart, 0.6, epsilon = 1e-3);
    // Pushed in the ground plane only: nobody climbed on anybody (1 mm: ground clamp).
    assert_abs_diff_eq!(run.heights[0], 0.0, epsilon = 1e-3);
    assert_abs_diff_eq!(run.heights[1], 0.0, epsilon = 1e-3);
    // The velocity into each other is gone: they stand still (1 mm/s).
    assert_abs_diff_eq!(run.speeds[0], 0.0, epsilon = 1e-3);
    assert_abs_diff_eq!(run.speeds[1], 0.0, epsilon = 1e-3);
}

#[test]
fn crouches_under_a_low_ceiling_and_refuses_to_stand_up_there() {
    let mut sim = floor_sim();
    // A ceiling slab whose underside is 1.3 m up, over x in [2, 6].
    let slab = ColliderDesc::new(SharedShape::cuboid(2.0, 0.25, 3.0)).translation(4.0, 1.55, 0.0);
    sim.collision.insert(slab).expect("slab");
    let crouched = SphereStack::capsule(1.1, 0.3, 2).expect("crouched");
    let commands = vec![
        Command::Turn {
            degrees: -90.0,
            seconds: 0.25,
        },
        Command::Walk {
            forward: 2.0,
            right: 0.0,
            seconds: 2.0,
            crouch: true,
        },
        Command::Walk {
            forward: 0.0,
            right: 0.0,
            seconds: 1.0,
            crouch: false,
        },
    ];
    let mut desc = CharacterDesc::new("croucher", capsule(), Pose::new(Point3::origin()));
    desc.crouched = Some(crouched);
    desc.input = Input::Script(Script::new(commands, false));
    let e = sim.spawn_character(desc).expect("spawn");
    for _ in 0..16 {
        sim.step();
    }
    let crouching = sim.ecs.get::<&Stance>(e).expect("stance").crouching;
    assert!(crouching, "crouched at the crouched walk");
    // The last command asks to stand, but the ceiling is in the way.
    for _ in 0..180 {
        sim.step();
        let p = pose_of(&sim, e).position;
        if p.x > 2.3 {
            assert!(
                sim.ecs.get::<&Stance>(e).expect("stance").crouching,
                "stood up at x = {}",
                p.x
            );
        }
    }
    let p = pose_of(&sim, e).position;
    // Walked +X (turned right) 2 m/s for 2 s under the slab: x = 4 m (5 cm: start-up steps),
    // then stayed crouched there.
    assert_abs_diff_eq!(p.x, 4.0, epsilon = 0.05);
    assert!(sim.ecs.get::<&Stance>(e).expect("stance").crouching);
}

#[test]
fn stands_up_again_where_there_is_room() {
    let mut sim = floor_sim();
    let crouched = SphereStack::capsule(1.1, 0.3, 2).expect("crouched");
    let commands = vec![
        Command::Crouch { seconds: 0.5 },
        Command::Wait { seconds: 0.5 },
    ];
    let mut desc = CharacterDesc::new("c", capsule(), Pose::new(Point3::origin()));
    desc.crouched = Some(crouched);
    desc.input = Input::Script(Script::new(commands, false));
    let e = sim.spawn_character(desc).expect("spawn");
    sim.step();
    let height = |sim: &Sim| sim.ecs.get::<&Walker>(e).expect("c").motor.stack().height();
    // 1e-6 m: capsule heights are copied sums of the inputs.
    assert_abs_diff_eq!(height(&sim), 1.1, epsilon = 1e-6);
    for _ in 0..40 {
        sim.step();
    }
    assert_abs_diff_eq!(height(&sim), 1.8, epsilon = 1e-6);
}

#[test]
fn events_report_landing_stepping_up_hitting_and_leaving_the_ground() {
    let mut sim = floor_sim();
    // A 0.25 m step at z = -2 (walking -Z), and a wall at z = -6.
    sim.collision
        .insert(
            ColliderDesc::new(SharedShape::cuboid(3.0, 0.125, 2.0)).translation(0.0, 0.125, -4.0),
        )
        .expect("step");
    let wall = sim
        .collision
        .insert(ColliderDesc::new(SharedShape::cuboid(3.0, 2.0, 0.25)).translation(0.0, 2.0, -6.25))
        .expect("wall");
    let commands = vec![
        Command::Walk {
            forward: 3.0,
            right: 0.0,
            seconds: 3.0,
            crouch: false,
        },
        Command::Jump { speed: 4.0 },
        Command::Wait { seconds: 1.0 },
    ];
    let mut desc = CharacterDesc::new("e", capsule(), Pose::new(Point3::new(0.0, 0.5, 0.0)));
    desc.input = Input::Script(Script::new(commands, false));
    let e = sim.spawn_character(desc).expect("spawn");
    let mut seen = Vec::new();
    for _ in 0..300 {
        sim.step();
        seen.extend(
            sim.drain_events()
                .filter(|ev| ev.entity == e)
                .map(|ev| ev.kind),
        );
    }
    let count = |f: &dyn Fn(&EventKind) -> bool| seen.iter().filter(|k| f(k)).count();
    // Dropped 0.5 m at spawn, then landed again after the jump.
    assert_eq!(count(&|k| *k == EventKind::Landed), 2, "{seen:?}");
    assert_eq!(count(&|k| *k == EventKind::Jumped), 1);
    assert_eq!(count(&|k| *k == EventKind::LeftGround), 1);
    let ups: Vec<Real> = seen
        .iter()
        .filter_map(|k| match k {
            EventKind::ClimbedStair { height } => Some(*height),
            _ => None,
        })
        .collect();
    // The round feet roll part of the way onto the 0.25 m step's edge; the step offset climbs
    // the rest, so each event is a part of the rise.
    assert!(
        !ups.is_empty() && ups.iter().all(|&h| h > 0.0 && h <= 0.25 + 1e-3),
        "{ups:?}"
    );
    let wall_hits = count(&|k| matches!(k, EventKind::Hit { collider, .. } if *collider == wall));
    assert!(wall_hits > 0, "never reported hitting the wall: {seen:?}");
}

/// A crowd of 64 wanderers on a planet (soft ones with `soft`, see `CharacterDesc::soft`);
/// returns the poses after `steps`.
fn crowd(parallel: bool, soft: bool, steps: u32) -> Vec<(String, [u32; 7])> {
    let mut world = CollisionWorld::new();
    world
        .insert(ColliderDesc::new(SharedShape::ball(20.0)))
        .expect("planet");
    let mut sim = Sim::new(world, DT).expect("dt");
    sim.parallel = parallel;
    sim.add_gravity(GravityField::planet(Point3::origin(), 9.81, 100.0))
        .expect("gravity");
    for k in 0..64u32 {
        let a = k as Real * 0.7;
        let b = (k as Real * 0.37).sin() * 1.2;
        let up = UnitVec3::new_normalize(Vec3::new(a.cos() * b.cos(), b.sin(), a.sin() * b.cos()));
        let pose = Pose::with_up(Point3::from(up.into_inner() * 20.0), &up);
        let stack = SphereStack::capsule(1.2 + 0.2 * (k % 4) as Real, 0.3, 3 + (k % 3) as usize)
            .expect("stack");
        let mut desc = CharacterDesc::new(format!("w{k}"), stack, pose);
        desc.input = Input::Wander(Wander::new(3.0, 1.5, u64::from(k)));
        desc.soft = soft;
        sim.spawn_character(desc).expect("spawn");
    }
    for _ in 0..steps {
        sim.step();
    }
    let mut out: Vec<(String, [u32; 7])> = sim
        .ecs
        .query::<(&Name, &Walker)>()
        .iter()
        .map(|(n, w)| {
            let p = &w.pose;
            let q = p.orientation.coords;
            (
                n.0.clone(),
                [p.position.x, p.position.y, p.position.z, q.x, q.y, q.z, q.w].map(Real::to_bits),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn parallel_stepping_is_bit_identical_to_serial() {
    for soft in [false, true] {
        let serial = crowd(false, soft, 240);
        let parallel = crowd(true, soft, 240);
        assert_eq!(serial.len(), 64);
        assert_eq!(serial, parallel, "soft: {soft}");
        // And they did move (not a trivially equal standstill).
        let start = crowd(false, soft, 0);
        let moved = serial.iter().zip(&start).filter(|(a, b)| a.1 != b.1);
        assert_eq!(moved.count(), 64, "soft: {soft}");
    }
}

/// 40 wanderers (soft ones with `soft`) walking 600 steps on a ball planet of radius 20 m:
/// checks each stands on the surface, upright, and returns the smallest distance (m) between
/// two characters' feet at the end and the largest overlap (m) of two feet spheres (radius
/// 0.3 m) seen after any step.
fn wanderers_on_a_planet(soft: bool) -> (Real, Real) {
    let mut world = CollisionWorld::new();
    world
        .insert(ColliderDesc::new(SharedShape::ball(20.0)))
        .expect("planet");
    let mut sim = Sim::new(world, DT).expect("dt");
    sim.add_gravity(GravityField::planet(Point3::origin(), 9.81, 100.0))
        .expect("gravity");
    let mut ids = Vec::new();
    for k in 0..40u32 {
        let a = k as Real * 0.3;
        let up = UnitVec3::new_normalize(Vec3::new(a.cos(), 0.3, a.sin()));
        let mut desc = CharacterDesc::new(
            format!("w{k}"),
            capsule(),
            Pose::with_up(Point3::from(up.into_inner() * 20.0), &up),
        );
        desc.input = Input::Wander(Wander::new(3.0, 2.0, u64::from(k) + 7));
        desc.soft = soft;
        ids.push(sim.spawn_character(desc).expect("spawn"));
    }
    let nearest = |sim: &Sim| {
        let feet: Vec<Point3> = ids.iter().map(|&e| pose_of(sim, e).position).collect();
        let mut d = Real::INFINITY;
        for (i, a) in feet.iter().enumerate() {
            for b in &feet[i + 1..] {
                d = d.min((a - b).norm());
            }
        }
        d
    };
    let mut worst: Real = 0.0;
    for _ in 0..600 {
        sim.step();
        worst = worst.max(0.6 - nearest(&sim));
    }
    for &e in &ids {
        let p = pose_of(&sim, e);
        // On the surface (1 cm) and upright on it (0.01: turn-rate lag on a 20 m sphere).
        assert_abs_diff_eq!(p.position.coords.norm(), 20.0, epsilon = 0.01);
        assert_abs_diff_eq!(
            p.up().into_inner(),
            p.position.coords.normalize(),
            epsilon = 0.01
        );
    }
    (nearest(&sim), worst)
}

#[test]
fn wanderers_on_a_planet_stay_on_it_and_apart() {
    let (nearest, worst) = wanderers_on_a_planet(false);
    // Feet spheres 0.3 m in radius: at least 0.6 m apart less the 1 cm skin, at the end and
    // after every step.
    assert!(nearest > 0.59, "{nearest}");
    assert!(worst < 0.01, "{worst}");
}

#[test]
fn soft_wanderers_on_a_planet_stay_on_it_and_apart() {
    // Soft wanderers walk through each other during the step; the separation pass keeps them
    // as far apart after each step as solid ones (1 cm: the skin).
    let (nearest, worst) = wanderers_on_a_planet(true);
    assert!(nearest > 0.59, "{nearest}");
    assert!(worst < 0.01, "{worst}");
}

/// A scripted character jumping 9 times in 6 s, its events read once per frame after
/// `Sim::advance` at 30, 60, 144 and 240 fps: each event is seen exactly once, in the order of
/// a reference run that drains after every fixed step. (Before events accumulated, a game
/// reading once per frame saw 0 of the 9 jumps at 30 fps, 22 at 144 and 36 at 240.)
#[test]
fn events_are_seen_exactly_once_at_any_frame_rate() {
    let jumper = |sim: &mut Sim| {
        // Jump at 2.5 m/s (29 steps in the air), then wait 0.6 s: a cycle of 37 steps. The
        // first jump waits a cycle for the ground (a fresh character is airborne): 9 jumps in
        // the 360 steps of 6 s.
        let commands = vec![Command::Jump { speed: 2.5 }, Command::Wait { seconds: 0.6 }];
        let mut desc = CharacterDesc::new("jumper", capsule(), Pose::new(Point3::origin()));
        desc.input = Input::Script(Script::new(commands, true));
        sim.spawn_character(desc).expect("spawn")
    };
    let jumps = |events: &[spherewalk::Event]| {
        events
            .iter()
            .filter(|e| e.kind == EventKind::Jumped)
            .count()
    };
    for fps in [30u32, 60, 144, 240] {
        let mut sim = floor_sim();
        jumper(&mut sim);
        let mut seen = Vec::new();
        for _ in 0..6 * fps {
            sim.advance(1.0 / fps as Real);
            seen.extend(sim.drain_events());
        }
        // The reference: as many fixed steps, drained after each one.
        let mut reference = floor_sim();
        jumper(&mut reference);
        let mut expected = Vec::new();
        for _ in 0..sim.steps() {
            reference.step();
            expected.extend(reference.drain_events());
        }
        // Six seconds of frames are 360 fixed steps, give or take one to f32 frame times.
        assert!(
            sim.steps().abs_diff(360) <= 1,
            "{fps} fps: {} steps",
            sim.steps()
        );
        assert_eq!(
            jumps(&expected),
            9,
            "{fps} fps: the script jumps 9 times in 6 s"
        );
        assert_eq!(jumps(&seen), 9, "{fps} fps");
        assert_eq!(
            seen, expected,
            "{fps} fps: events differ from the per-step reference"
        );
        assert!(sim.events().is_empty() && sim.events_dropped() == 0);
    }
}

/// A game that never drains keeps at most `MAX_PENDING_EVENTS` events: the oldest are dropped
/// and counted.
#[test]
fn undrained_events_stay_bounded() {
    let mut sim = floor_sim();
    // 400 characters jumping on a floor: every jump, lift-off and landing is an event.
    let mut world = CollisionWorld::new();
    world
        .insert(
            ColliderDesc::new(SharedShape::cuboid(200.0, 0.5, 200.0)).translation(0.0, -0.5, 0.0),
        )
        .expect("floor");
    sim.collision = world;
    let script = Script::new(vec![Command::Jump { speed: 1.0 }], true);
    for k in 0..400 {
        let (x, z) = ((k % 20) as Real * 2.0, (k / 20) as Real * 2.0);
        let mut desc = CharacterDesc::new("j", capsule(), Pose::new(Point3::new(x, 0.0, z)));
        desc.input = Input::Script(script.clone());
        sim.spawn_character(desc).expect("spawn");
    }
    let (mut total, mut last_with_events) = (0u64, None);
    // About 110 events a step: long enough to drop more than are kept, so the dropped ones
    // are cut out of the list at least once.
    for _ in 0..1300 {
        let before = sim.events().len() as u64 + sim.events_dropped();
        sim.step();
        let new = sim.events().len() as u64 + sim.events_dropped() - before;
        total += new;
        if new > 0 {
            last_with_events = Some(sim.steps() - 1);
        }
        assert!(sim.events().len() <= spherewalk::MAX_PENDING_EVENTS);
    }
    // Every jump, lift-off and landing was counted: kept plus dropped.
    assert!(
        total > 2 * spherewalk::MAX_PENDING_EVENTS as u64,
        "{total} events"
    );
    assert_eq!(sim.events().len(), spherewalk::MAX_PENDING_EVENTS);
    assert_eq!(
        sim.events().len() as u64 + sim.events_dropped(),
        total,
        "kept + dropped = produced"
    );
    // The newest are the ones kept, in order, through the last step that had any.
    let steps: Vec<u64> = sim.events().iter().map(|e| e.step).collect();
    assert!(steps.is_sorted(), "kept in step order");
    assert_eq!(steps.last().copied(), last_with_events);
    assert!(steps[0] > 0, "the first steps' events were dropped");
    // Draining hands over exactly those, and the sim goes on from empty.
    let kept = sim.events().to_vec();
    assert_eq!(sim.drain_events().collect::<Vec<_>>(), kept);
    assert!(sim.events().is_empty());
    sim.step();
    assert!(sim.events().iter().all(|e| e.step == sim.steps() - 1));
    assert_eq!(
        sim.events_dropped(),
        total - spherewalk::MAX_PENDING_EVENTS as u64
    );
}

/// Despawning a character removes its body from the collision world: a walker that was
/// stopped by it walks on through where it stood, and in a crowd of wanderers nobody touches
/// its collider again. Stale entity and collider ids are refused.
#[test]
fn a_despawned_character_is_gone_for_everyone() {
    let mut sim = floor_sim();
    let still = sim
        .spawn_character(CharacterDesc::new(
            "still",
            capsule(),
            Pose::new(Point3::origin()),
        ))
        .expect("spawn");
    let walk = Script::new(
        vec![Command::Walk {
            forward: 2.0,
            right: 0.0,
            seconds: 10.0,
            crouch: false,
        }],
        false,
    );
    // Three metres behind it (+Z), walking toward it (forward is -Z).
    let mut desc = CharacterDesc::new("walker", capsule(), Pose::new(Point3::new(0.0, 0.0, 3.0)));
    desc.input = Input::Script(walk);
    let walker = sim.spawn_character(desc).expect("spawn");
    // A crowd of wanderers around them.
    for k in 0..40 {
        let (x, z) = ((k % 8) as Real * 2.0 - 7.0, (k / 8) as Real * 2.0 - 12.0);
        let mut desc = CharacterDesc::new("w", capsule(), Pose::new(Point3::new(x, 0.0, z)));
        desc.input = Input::Wander(Wander::new(1.5, 1.0, k));
        sim.spawn_character(desc).expect("spawn");
    }
    for _ in 0..90 {
        sim.step();
    }
    // Stopped by the still one: the two axes are two radii apart (1 mm: separation pass).
    assert_abs_diff_eq!(pose_of(&sim, walker).position.z, 0.6, epsilon = 1e-3);
    let body = sim
        .ecs
        .get::<&Walker>(still)
        .ok()
        .and_then(|w| w.body)
        .expect("body");
    let colliders = sim.collision.len();

    sim.despawn(still).expect("present");
    assert_eq!(sim.collision.len(), colliders - 1);
    assert!(sim.collision.get(body).is_none());
    assert!(sim.collider_name(body).is_none());
    assert!(sim.despawn(still).is_err(), "a stale entity is refused");
    assert!(sim.render_pose(still).is_none());
    sim.drain_events();
    for _ in 0..120 {
        sim.step();
        for ev in sim.drain_events() {
            if let EventKind::Hit { collider, .. } = ev.kind {
                assert_ne!(collider, body, "something bumped into the despawned body");
            }
        }
    }
    // The walker went on through: 2 s at 2 m/s from z = 0.6 (5 cm: it starts from rest).
    assert_abs_diff_eq!(pose_of(&sim, walker).position.z, 0.6 - 4.0, epsilon = 0.05);
    // A new character's body may take the freed slot, under another id.
    let newcomer = sim
        .spawn_character(CharacterDesc::new(
            "new",
            capsule(),
            Pose::new(Point3::new(5.0, 0.0, 5.0)),
        ))
        .expect("spawn");
    let new_body = sim
        .ecs
        .get::<&Walker>(newcomer)
        .ok()
        .and_then(|w| w.body)
        .expect("body");
    assert_ne!(new_body, body);
    assert!(sim.collision.get(body).is_none());
}

/// The per-frame accessors: a character's view (pose, render pose, velocity, ground), its
/// render transform, handing it to the player, and teleporting it (no interpolation from the
/// old place, no velocity, body moved along), all without a hecs query.
#[test]
fn a_game_reads_and_writes_characters_through_the_sim() {
    let mut sim = floor_sim();
    let walk = Script::new(
        vec![Command::Walk {
            forward: 3.0,
            right: 0.0,
            seconds: 10.0,
            crouch: false,
        }],
        false,
    );
    let mut desc = CharacterDesc::new("hero", capsule(), Pose::new(Point3::origin()));
    desc.input = Input::Script(walk);
    let hero = sim.spawn_character(desc).expect("spawn");
    for _ in 0..60 {
        sim.step();
    }
    sim.advance(0.5 * DT);
    let view = sim.character(hero).expect("a character");
    assert_eq!(view.ground, spherewalk::GroundState::Grounded);
    // Walking -Z at 3 m/s on a level floor (1e-4: f32).
    assert_abs_diff_eq!(view.velocity, Vec3::new(0.0, 0.0, -3.0), epsilon = 1e-4);
    assert_abs_diff_eq!(
        view.ground_normal.expect("floor").into_inner(),
        Vec3::y(),
        epsilon = 1e-6
    );
    // Drawn half a step (2.5 cm) behind the stepped pose.
    assert_abs_diff_eq!(
        view.render_pose.position.z - view.pose.position.z,
        0.025,
        epsilon = 1e-4
    );
    let m = sim.render_transform(hero).expect("a character");
    let feet = m.transform_point(&Point3::origin());
    assert_abs_diff_eq!(feet, view.render_pose.position, epsilon = 1e-6);

    // The player takes over: the script goes, the stick drives it (camera looking -Z, full
    // stick right: +X at 4 m/s).
    let mut input = spherewalk::input::PlayerInput::default();
    input.axes = [1.0, 0.0];
    input.speed = 4.0;
    sim.set_player_input(hero, input).expect("a character");
    assert!(sim.ecs.get::<&Script>(hero).is_err());
    for _ in 0..30 {
        sim.step();
    }
    let v = sim.character(hero).expect("a character").velocity;
    assert_abs_diff_eq!(v, Vec3::new(4.0, 0.0, 0.0), epsilon = 1e-4);

    // Teleport 10 m away, 2 m up: drawn there at once, still, airborne, its body with it.
    let target = Pose::new(Point3::new(10.0, 2.0, 10.0));
    sim.teleport(hero, target).expect("a character");
    let view = sim.character(hero).expect("a character");
    assert_eq!(view.render_pose, target);
    assert_eq!(view.velocity, Vec3::zeros());
    assert_eq!(view.ground, spherewalk::GroundState::Airborne);
    let body = sim
        .ecs
        .get::<&Walker>(hero)
        .ok()
        .and_then(|w| w.body)
        .expect("body");
    let body_at = sim
        .collision
        .get(body)
        .expect("body")
        .pose
        .translation
        .vector;
    assert_abs_diff_eq!(body_at, Vec3::new(10.0, 2.0, 10.0), epsilon = 1e-6);
    // Bad writes are refused and change nothing.
    let nan = Pose::new(Point3::new(Real::NAN, 0.0, 0.0));
    assert_eq!(
        sim.teleport(hero, nan),
        Err(spherewalk::CharacterError::NonFinitePose)
    );
    let field = sim
        .add_gravity(GravityField::uniform(Vec3::new(0.0, -1.0, 0.0)))
        .expect("field");
    assert_eq!(
        sim.teleport(field, target),
        Err(spherewalk::CharacterError::NotACharacter)
    );
    assert!(sim.character(field).is_none());
    assert_eq!(sim.character(hero).expect("hero").pose, target);
}

#[test]
fn a_live_character_takes_new_settings_and_a_new_stack_where_it_fits() {
    use spherewalk::{MotorSettings, TuneError};
    let mut sim = floor_sim();
    // A 1.5 m high ceiling slab over x in 3..7.
    let slab = ColliderDesc::new(SharedShape::cuboid(2.0, 0.25, 2.0)).translation(5.0, 1.75, 0.0);
    sim.collision.insert(slab).expect("slab");
    let open = sim
        .spawn_character(CharacterDesc::new(
            "open",
            capsule(),
            Pose::new(Point3::origin()),
        ))
        .expect("spawn");
    let small = SphereStack::capsule(1.2, 0.3, 2).expect("stack");
    let under = sim
        .spawn_character(CharacterDesc::new(
            "under",
            small.clone(),
            Pose::new(Point3::new(5.0, 0.0, 0.0)),
        ))
        .expect("spawn");
    for _ in 0..10 {
        sim.step();
    }
    // A taller stack in the open is taken, and its body collider follows (the body's shape
    // reaches the new head, 2.4 m up).
    let tall = SphereStack::capsule(2.4, 0.3, 5).expect("stack");
    let depth = sim.reshape_character(open, tall.clone()).expect("fits");
    assert!(depth < 1e-3, "{depth}");
    let height = |sim: &Sim, e| {
        sim.ecs
            .get::<&Walker>(e)
            .map(|c| c.motor.stack().height())
            .expect("character")
    };
    assert_abs_diff_eq!(height(&sim, open), 2.4, epsilon = 1e-6);
    // Under the 1.5 m slab, the 1.8 m stack would be 0.3 m into it: refused, unchanged.
    let refused = sim.reshape_character(under, capsule());
    assert!(
        matches!(refused, Err(TuneError::Resize(spherewalk::motor::ResizeError::Blocked { depth }))
            if (depth - 0.3).abs() < 0.02),
        "{refused:?}"
    );
    assert_abs_diff_eq!(height(&sim, under), 1.2, epsilon = 1e-6);
    // New settings: a 10 degree slope limit applies from the next step.
    let settings = {
        let mut v = MotorSettings::default();
        v.slope_limit = 10f32.to_radians();
        v
    };
    sim.set_motor_settings(open, settings).expect("valid");
    let limit = sim
        .ecs
        .get::<&Walker>(open)
        .map(|c| c.motor.settings().slope_limit)
        .expect("character");
    assert_abs_diff_eq!(limit, 10f32.to_radians(), epsilon = 1e-6);
    // Bad settings are refused by name, and the old ones stay.
    let bad = {
        let mut v = MotorSettings::default();
        v.skin_width = Real::NAN;
        v
    };
    assert!(matches!(
        sim.set_motor_settings(open, bad),
        Err(TuneError::Settings(_))
    ));
    // Not a character.
    let platform = sim.ecs.spawn((spherewalk::components::Name("x".into()),));
    assert_eq!(
        sim.set_motor_settings(platform, MotorSettings::default()),
        Err(TuneError::NotACharacter)
    );
    // The reshaped character still walks and stands: 60 steps later it is grounded at y = 0.
    for _ in 0..60 {
        sim.step();
    }
    let view = sim.character(open).expect("character");
    assert!(view.ground == spherewalk::GroundState::Grounded);
    assert_abs_diff_eq!(view.pose.position.y, 0.0, epsilon = 1e-3);
}

/// A lone character's body is not moved before its step (no other character steps to meet
/// it there, and its own step leaves it out), yet after every step it stands exactly where
/// the character does: walking, falling, and after the game moved the character through the
/// hecs world (not [`Sim::teleport`], which moves the body itself).
#[test]
fn a_lone_characters_body_ends_every_step_where_it_stands() {
    use spherewalk::MoveIntent;
    use spherewalk::systems::body_pose;
    let mut sim = floor_sim();
    let start = Pose::new(Point3::new(0.0, 0.0, 0.0));
    let hero = sim
        .spawn_character(CharacterDesc::new("hero", capsule(), start))
        .expect("hero");
    let body = sim
        .ecs
        .get::<&Walker>(hero)
        .expect("hero")
        .body
        .expect("body");
    let body_at = |sim: &Sim| sim.collision.get(body).expect("body").pose;
    for step in 0..120 {
        if step == 60 {
            // 8 m away and 0.5 m up: it falls back to the floor from there.
            let moved = Pose::new(Point3::new(8.0, 0.5, -3.0));
            sim.ecs.get::<&mut Walker>(hero).expect("hero").pose = moved;
        }
        let walk = MoveIntent::walk(Vec3::new(1.5, 0.0, 0.0));
        *sim.ecs.get::<&mut MoveIntent>(hero).expect("intent") = walk;
        sim.step();
        assert_eq!(
            body_at(&sim),
            body_pose(&pose_of(&sim, hero)),
            "step {step}"
        );
    }
    // 60 steps at 1.5 m/s from x = 8, back on the floor (1e-3 m: the speed held through the
    // 0.5 m drop and the landing is within 23 um of it).
    let end = pose_of(&sim, hero).position;
    assert_abs_diff_eq!(end, Point3::new(9.5, 0.0, -3.0), epsilon = 1e-3);
}

/// A body the game took out of the collision world holds nobody else's back: of three
/// walkers 4 m apart, the first one's body is removed, and the other two's bodies still end
/// every step where they stand (before, the refused batch left every body behind, so the
/// others met ghosts where the characters had stood), while the first walks on with none.
#[test]
fn a_body_the_game_removed_leaves_the_other_bodies_moving() {
    use spherewalk::MoveIntent;
    use spherewalk::systems::body_pose;
    let mut sim = floor_sim();
    let walkers: Vec<_> = (0..3)
        .map(|i| {
            let start = Pose::new(Point3::new(0.0, 0.0, 4.0 * i as Real));
            let desc = CharacterDesc::new(format!("w{i}"), capsule(), start);
            sim.spawn_character(desc).expect("walker")
        })
        .collect();
    let body_of = |sim: &Sim, e| {
        sim.ecs
            .get::<&Walker>(e)
            .expect("walker")
            .body
            .expect("body")
    };
    let gone = body_of(&sim, walkers[0]);
    sim.collision.remove(gone).expect("removed by the game");
    for step in 0..60 {
        for &w in &walkers {
            let walk = MoveIntent::walk(Vec3::new(1.5, 0.0, 0.0));
            *sim.ecs.get::<&mut MoveIntent>(w).expect("intent") = walk;
        }
        sim.step();
        for &w in &walkers[1..] {
            let at = sim.collision.get(body_of(&sim, w)).expect("body").pose;
            assert_eq!(at, body_pose(&pose_of(&sim, w)), "step {step}");
        }
    }
    // 60 steps toward 1.5 m/s from rest: 1.4806 m along x, the same for all three, body or
    // none (1e-6 m: the same steps on the same floor, so only f32 rounding could part them).
    for &w in &walkers {
        assert_abs_diff_eq!(pose_of(&sim, w).position.x, 1.4806, epsilon = 1e-4);
        let first = pose_of(&sim, walkers[0]).position.x;
        assert_abs_diff_eq!(pose_of(&sim, w).position.x, first, epsilon = 1e-6);
    }
    assert!(sim.collision.get(gone).is_none());
}
