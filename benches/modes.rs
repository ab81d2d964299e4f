//! What each traversal mode's step costs next to a walk's, on the same scenery: a 40 m floor and
//! a climbable 6 m wall (x from 1 to 3), the standard character (1.8 m, 3 spheres of 0.3 m).
//!
//! `cargo bench --bench modes -- --warm-up-time 1 --measurement-time 5`
//!
//! One criterion iteration is one `Motor::step` from a fixed pose and state, copied in first
//! (the copy is the same for every mode):
//! - `walk`: on the floor 0.1 m from the wall, walking along it at 2 m/s;
//! - `dash`: the same, a dash running (`Mode::Dash`);
//! - `climb`: held 2 m up the wall, climbing it at 2 m/s (`Mode::Climb`);
//! - `mantle`: at the wall's top, the mantle begun (`Mode::Mantle`).
//!
//! The ratio to report is each mode's time over `walk`'s, from one run (issue 50 asks for at
//! most 1.3).

use criterion::{Criterion, criterion_group, criterion_main};
use spherewalk_core::math::Iso;
use spherewalk_core::motor::Mode;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose,
    SphereStack, StepInput, StepReport, Vec3,
};
use std::hint::black_box;

/// Fixed step (s).
const DT: f32 = 1.0 / 60.0;

/// The floor and the climbable wall.
fn scenery() -> CollisionWorld {
    let mut world = CollisionWorld::new();
    let floor = ColliderDesc::new(SharedShape::cuboid(20.0, 0.5, 20.0))
        .pose(Iso::translation(0.0, -0.5, 0.0));
    let wall = ColliderDesc::new(SharedShape::cuboid(1.0, 3.5, 2.0))
        .pose(Iso::translation(2.0, 2.5, 0.0))
        .climbable();
    for desc in [floor, wall] {
        world.insert(desc).expect("valid bench collider");
    }
    world
}

/// One character of the bench: its motor, where it is, and what it asks.
struct Case {
    motor: Motor,
    pose: Pose,
    state: MotorState,
    intent: MoveIntent,
}

impl Case {
    /// The standard character standing at `at` (m), settled.
    fn standing(world: &CollisionWorld, at: Point3) -> Self {
        let stack = SphereStack::capsule(1.8, 0.3, 3).expect("valid stack");
        let motor = Motor::new(stack, MotorSettings::default()).expect("valid settings");
        let mut case = Self {
            motor,
            pose: Pose::new(at),
            state: MotorState::default(),
            intent: MoveIntent::default(),
        };
        case.run(world, 30);
        case
    }

    /// Steps `n` times with the case's intent.
    fn run(&mut self, world: &CollisionWorld, n: u32) {
        let mut report = StepReport::new();
        let input = StepInput::new(self.intent, Vec3::new(0.0, -9.81, 0.0), DT);
        for _ in 0..n {
            self.motor
                .step(world, &mut self.pose, &mut self.state, &input, &mut report);
        }
    }

    /// Walks toward the wall until `arrived` holds of the state (at most 10 s).
    fn until(&mut self, world: &CollisionWorld, arrived: impl Fn(&MotorState) -> bool) {
        for _ in 0..600 {
            if arrived(&self.state) {
                return;
            }
            self.run(world, 1);
        }
        panic!("the bench's case never reached its mode");
    }
}

/// The four cases, each in its mode.
fn cases(world: &CollisionWorld) -> [(&'static str, Case); 4] {
    let along = MoveIntent::walk(Vec3::new(0.0, 0.0, -2.0));
    let into = MoveIntent::walk(Vec3::new(2.0, 0.0, 0.0));
    let mut walk = Case::standing(world, Point3::new(0.6, 0.0, 1.0));
    walk.intent = along;
    let mut dash = Case::standing(world, Point3::new(0.6, 0.0, 1.0));
    dash.intent = MoveIntent {
        dash: true,
        ..along
    };
    dash.run(world, 1);
    dash.intent = along;
    let mut climb = Case::standing(world, Point3::new(0.0, 0.0, 0.0));
    climb.intent = into;
    climb.until(world, |s| matches!(s.mode, Mode::Climb { .. }));
    climb.run(world, 60);
    let mut mantle = Case::standing(world, Point3::new(0.0, 0.0, 0.0));
    mantle.intent = into;
    mantle.until(world, |s| matches!(s.mode, Mode::Mantle { .. }));
    [
        ("walk", walk),
        ("dash", dash),
        ("climb", climb),
        ("mantle", mantle),
    ]
}

fn modes(c: &mut Criterion) {
    let world = scenery();
    let mut group = c.benchmark_group("modes");
    for (name, case) in cases(&world) {
        let input = StepInput::new(case.intent, Vec3::new(0.0, -9.81, 0.0), DT);
        let mut report = StepReport::new();
        group.bench_function(name, |b| {
            b.iter(|| {
                let (mut pose, mut state) = (case.pose, case.state);
                case.motor
                    .step(&world, &mut pose, &mut state, &input, &mut report);
                black_box((pose, state))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, modes);
criterion_main!(benches);
