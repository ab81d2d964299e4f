//! Microseconds per character step among dynamic bodies, on one rapier3d 0.31 world: a 40 m
//! floor and a ring of 16 crates (1 m, 10 kg) on a circle of radius 6 m, which the character
//! walks at 2 m/s, pushing the crates out of its way.
//!
//! `cargo bench --bench dynamic -- --warm-up-time 1 --measurement-time 4`
//!
//! Three controllers, each in its own copy of the world, in one criterion group:
//! - `spherewalk_on_rapier`: `Motor::step` on `spherewalk_rapier::RapierGeometry`, then
//!   `Physics::push_bodies`, `move_character` and, after rapier's step, `take_hits`;
//! - `spherewalk_native`: the same motor step on a `CollisionWorld` mirroring the rapier
//!   world (the floor, and the crates moved to rapier's poses before every step; the mirror's
//!   update is not timed), then the same pushes on the rapier bodies;
//! - `rapier_kcc`: rapier's `KinematicCharacterController::move_shape` (settings as in the
//!   step bench) with its collisions, then `solve_character_collision_impulses` with a 70 kg
//!   character, on the same kind of kinematic body.
//!
//! Only the controller's part of a step is timed (`iter_custom`); rapier's `PhysicsPipeline`
//! step, which moves the crates and is the same for all three, runs between the timed parts.
//! Each world restarts after 600 steps (10 s). Before measuring, a sanity line per controller
//! gives the distance walked and how far the crates were pushed.

#[path = "common/kcc.rs"]
mod kcc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapier3d::control::KinematicCharacterController;
use rapier3d::prelude as rp;
use spherewalk::{
    ColliderDesc, ColliderId, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3,
    Pose, Real, SphereStack, StepInput, StepReport, Vec3, backend::Geometry,
};
use spherewalk_rapier::{BodySettings, CharacterBody, Physics};
use std::hint::black_box;
use std::time::{Duration, Instant};

const DT: Real = 1.0 / 60.0;
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
/// The walking circle's radius (m) and speed (m/s).
const RADIUS: Real = 6.0;
const SPEED: Real = 2.0;
/// Crates on the ring.
const CRATES: usize = 16;
/// Steps before a world restarts.
const EPISODE: u32 = 600;

/// The rapier world: the floor and the ring of crates, settled for one step.
fn world() -> (Physics, Vec<rp::RigidBodyHandle>) {
    let mut physics = Physics::new();
    physics.params.dt = DT;
    let floor = rp::ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(Vec3::new(0.0, -0.5, 0.0));
    physics.colliders.insert(floor);
    let crates = (0..CRATES)
        .map(|k| {
            // Angle 0, where the walk starts, is half-way between two crates.
            let a = (k as Real + 0.5) / CRATES as Real * std::f32::consts::TAU;
            let at = Vec3::new(RADIUS * a.cos(), 0.5, RADIUS * a.sin());
            let body = physics
                .bodies
                .insert(rp::RigidBodyBuilder::dynamic().translation(at));
            let collider = rp::ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(10.0);
            physics
                .colliders
                .insert_with_parent(collider, body, &mut physics.bodies);
            body
        })
        .collect();
    physics.step(&GRAVITY);
    (physics, crates)
}

/// The walking velocity at `feet`: along the circle, steering back onto it.
fn walk_velocity(feet: &Point3) -> Vec3 {
    let radial = Vec3::new(feet.x, 0.0, feet.z);
    let r = radial.norm().max(1e-3);
    let tangent = Vec3::new(-feet.z, 0.0, feet.x) / r;
    (tangent + radial / r * (RADIUS - r)).normalize() * SPEED
}

/// The circle's start, at angle 0.
fn start() -> Point3 {
    Point3::new(RADIUS, 0.0, 0.0)
}

/// One controller in its own world.
trait Controller {
    /// One step: the timed controller part, then the untimed physics step. Returns the time
    /// of the controller part.
    fn step(&mut self) -> Duration;
    /// The character's feet (world, m).
    fn feet(&self) -> Point3;
    /// The crates' centres (world, m).
    fn crates(&self) -> Vec<Vec3>;
}

/// Which world a spherewalk character's motor reads.
#[derive(Clone, Copy, PartialEq)]
enum Read {
    Rapier,
    Mirror,
}

/// spherewalk in a rapier world, reading it directly or through a native mirror.
struct Spherewalk {
    read: Read,
    physics: Physics,
    crates: Vec<rp::RigidBodyHandle>,
    /// The native mirror: the floor, then one collider per crate.
    mirror: CollisionWorld,
    mirrored: Vec<ColliderId>,
    motor: Motor,
    body: CharacterBody,
    pose: Pose,
    state: MotorState,
    report: StepReport,
    tick: u32,
}

impl Spherewalk {
    fn new(read: Read) -> Self {
        let (mut physics, crates) = world();
        let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        let pose = Pose::new(start());
        let body = physics.insert_character(&stack, &pose);
        let motor = Motor::new(stack, MotorSettings::default())
            .expect("motor")
            .with_filter(body.filter());
        let mut mirror = CollisionWorld::new();
        let floor = ColliderDesc::new(spherewalk::parry3d::shape::SharedShape::cuboid(
            20.0, 0.5, 20.0,
        ))
        .translation(0.0, -0.5, 0.0);
        mirror.insert(floor).expect("floor");
        let mirrored = crates
            .iter()
            .map(|b| {
                let shape = spherewalk::parry3d::shape::SharedShape::cuboid(0.5, 0.5, 0.5);
                let desc = ColliderDesc::new(shape).pose(*physics.bodies[*b].position());
                mirror.insert(desc).expect("crate")
            })
            .collect();
        Self {
            read,
            physics,
            crates,
            mirror,
            mirrored,
            motor,
            body,
            pose,
            state: MotorState::default(),
            report: StepReport::new(),
            tick: 0,
        }
    }
}

impl Controller for Spherewalk {
    fn step(&mut self) -> Duration {
        if self.tick == EPISODE {
            *self = Self::new(self.read);
        }
        if self.read == Read::Mirror {
            let moves: Vec<_> = self
                .mirrored
                .iter()
                .zip(&self.crates)
                .map(|(id, b)| (*id, *self.physics.bodies[*b].position()))
                .collect();
            self.mirror.set_poses(&moves).expect("finite poses");
        }
        let settings = BodySettings::default();
        let wanted = walk_velocity(&self.pose.position);
        let input = StepInput::new(MoveIntent::walk(wanted), GRAVITY, DT);
        let t = Instant::now();
        let on_rapier = self.physics.geometry();
        let world: &dyn Geometry = match self.read {
            Read::Rapier => &on_rapier,
            Read::Mirror => &self.mirror,
        };
        let (pose, state) = (&mut self.pose, &mut self.state);
        self.motor
            .step(world, pose, state, &input, &mut self.report);
        let p = &mut self.physics;
        black_box(p.push_bodies(&self.report, &input, &settings));
        p.move_character(&self.body, &self.pose);
        let mut spent = t.elapsed();
        p.step(&GRAVITY);
        let t = Instant::now();
        black_box(p.take_hits(&self.body, &self.report, &settings, &mut self.state));
        spent += t.elapsed();
        self.tick += 1;
        spent
    }

    fn feet(&self) -> Point3 {
        self.pose.position
    }

    fn crates(&self) -> Vec<Vec3> {
        self.crates
            .iter()
            .map(|b| *self.physics.bodies[*b].translation())
            .collect()
    }
}

/// rapier's KCC with `solve_character_collision_impulses`, in its own world.
struct RapierKcc {
    physics: Physics,
    crates: Vec<rp::RigidBodyHandle>,
    kcc: KinematicCharacterController,
    shape: rp::SharedShape,
    body: rp::RigidBodyHandle,
    collider: rp::ColliderHandle,
    feet: Point3,
    vertical_speed: Real,
    grounded: bool,
    tick: u32,
}

impl RapierKcc {
    fn new() -> Self {
        let (mut physics, crates) = world();
        let shape = rp::SharedShape::capsule_y(0.6, 0.3);
        let feet = start();
        let body = physics.bodies.insert(
            rp::RigidBodyBuilder::kinematic_position_based()
                .translation(feet.coords + Vec3::new(0.0, 0.9, 0.0)),
        );
        let collider = physics.colliders.insert_with_parent(
            rp::ColliderBuilder::new(shape.clone()),
            body,
            &mut physics.bodies,
        );
        let kcc = kcc::kcc();
        Self {
            physics,
            crates,
            kcc,
            shape,
            body,
            collider,
            feet,
            vertical_speed: 0.0,
            grounded: false,
            tick: 0,
        }
    }
}

impl Controller for RapierKcc {
    fn step(&mut self) -> Duration {
        if self.tick == EPISODE {
            *self = Self::new();
        }
        let horizontal = walk_velocity(&self.feet);
        let t = Instant::now();
        if self.grounded {
            self.vertical_speed = 0.0;
        }
        self.vertical_speed -= 9.81 * DT;
        let desired = (horizontal + Vec3::new(0.0, self.vertical_speed, 0.0)) * DT;
        let centre = self.feet + Vec3::new(0.0, 0.9, 0.0);
        let pose = rp::Isometry::translation(centre.x, centre.y, centre.z);
        let p = &mut self.physics;
        let filter = rp::QueryFilter::default().exclude_rigid_body(self.body);
        let mut collisions = Vec::new();
        let queries = p.broad_phase.as_query_pipeline(
            p.narrow_phase.query_dispatcher(),
            &p.bodies,
            &p.colliders,
            filter,
        );
        let moved = self
            .kcc
            .move_shape(DT, &queries, &*self.shape, &pose, desired, |c| {
                collisions.push(c)
            });
        let mut queries = p.broad_phase.as_query_pipeline_mut(
            p.narrow_phase.query_dispatcher(),
            &mut p.bodies,
            &mut p.colliders,
            filter,
        );
        self.kcc.solve_character_collision_impulses(
            DT,
            &mut queries,
            &*self.shape,
            70.0,
            &collisions,
        );
        self.feet += moved.translation;
        self.grounded = moved.grounded;
        let centre = self.feet + Vec3::new(0.0, 0.9, 0.0);
        if let Some(b) = p.bodies.get_mut(self.body) {
            b.set_next_kinematic_position(rp::Isometry::translation(centre.x, centre.y, centre.z));
        }
        let spent = t.elapsed();
        let _ = self.collider;
        p.step(&GRAVITY);
        self.tick += 1;
        spent
    }

    fn feet(&self) -> Point3 {
        self.feet
    }

    fn crates(&self) -> Vec<Vec3> {
        self.crates
            .iter()
            .map(|b| *self.physics.bodies[*b].translation())
            .collect()
    }
}

/// One episode (a fresh world): prints the distance walked and how far the crates moved.
fn sanity(label: &str, mut c: Box<dyn Controller>) {
    let before = c.crates();
    let mut walked: Real = 0.0;
    let mut time = Duration::ZERO;
    for _ in 0..EPISODE {
        let from = c.feet();
        time += c.step();
        walked += (c.feet() - from).norm();
    }
    let moved: Vec<Real> = c
        .crates()
        .iter()
        .zip(&before)
        .map(|(a, b)| (a - b).norm())
        .collect();
    let pushed = moved.iter().filter(|m| **m > 0.05).count();
    let farthest = moved.iter().copied().fold(0.0, Real::max);
    let feet = c.feet();
    eprintln!(
        "sanity dynamic/{label}: {EPISODE} steps -> walked {walked:.1} m of {:.1} m, feet \
         ({:.2}, {:.2}, {:.2}), {pushed} of {CRATES} crates pushed over 5 cm (farthest \
         {farthest:.2} m), {:.2} us per controller step",
        SPEED * DT * EPISODE as Real,
        feet.x,
        feet.y,
        feet.z,
        time.as_secs_f64() * 1e6 / f64::from(EPISODE),
    );
}

fn bench(c: &mut Criterion) {
    sanity(
        "spherewalk_on_rapier",
        Box::new(Spherewalk::new(Read::Rapier)),
    );
    sanity("spherewalk_native", Box::new(Spherewalk::new(Read::Mirror)));
    sanity("rapier_kcc", Box::new(RapierKcc::new()));
    let mut group = c.benchmark_group("dynamic");
    group.throughput(Throughput::Elements(1));
    let mut run = |name: &str, mut ctl: Box<dyn Controller>| {
        group.bench_function(name, |b| {
            b.iter_custom(|n| (0..n).map(|_| ctl.step()).sum());
        });
    };
    run(
        "spherewalk_on_rapier",
        Box::new(Spherewalk::new(Read::Rapier)),
    );
    run("spherewalk_native", Box::new(Spherewalk::new(Read::Mirror)));
    run("rapier_kcc", Box::new(RapierKcc::new()));
    group.finish();
}

criterion_group!(dynamic, bench);
criterion_main!(dynamic);
