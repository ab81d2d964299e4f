//! Characters pushing dynamic crates in a rapier world, and their weight on what they stand
//! on. The game loop of every test: motor step on the rapier geometry, then the pushes, then
//! the character's kinematic body to its new pose, then one rapier step.

use approx::assert_abs_diff_eq;
use spherewalk_core::{
    Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Real, SphereStack, StepInput,
    StepReport, Vec3,
};
use spherewalk_rapier::rapier3d::prelude::*;
use spherewalk_rapier::{BodySettings, CharacterBody, Physics, collider_id};

const DT: Real = 1.0 / 60.0;
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
/// Walking speed (m/s).
const WALK: Real = 1.5;

/// A rapier world with a 40 m floor (top at y = 0), stepped once.
fn floor() -> Physics {
    let mut physics = Physics::new();
    physics.params.dt = DT;
    let floor = ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(vector![0.0, -0.5, 0.0]);
    physics.colliders.insert(floor);
    physics
}

/// Adds a 1 m dynamic crate of `mass` (kg) resting on the floor with its centre at
/// (x, 0.5, z); friction 0.5 (rapier's default).
fn add_crate(physics: &mut Physics, mass: Real, x: Real, z: Real) -> RigidBodyHandle {
    let body = physics
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(vector![x, 0.5, z]));
    let collider = ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(mass);
    physics
        .colliders
        .insert_with_parent(collider, body, &mut physics.bodies);
    body
}

/// A 1.8 m character of three 0.3 m spheres and its kinematic body.
struct Walker {
    motor: Motor,
    body: CharacterBody,
    pose: Pose,
    state: MotorState,
    report: StepReport,
}

impl Walker {
    fn new(physics: &mut Physics, at: Point3) -> Self {
        let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        let pose = Pose::new(at);
        let body = physics.insert_character(&stack, &pose);
        let motor = Motor::new(stack, MotorSettings::default())
            .expect("motor")
            .with_filter(body.filter());
        Self {
            motor,
            body,
            pose,
            state: MotorState::default(),
            report: StepReport::default(),
        }
    }

    /// One step of the game loop with the character walking at `velocity` (m/s, world).
    fn step(&mut self, physics: &mut Physics, velocity: Vec3) {
        let input = StepInput::new(MoveIntent::walk(velocity), GRAVITY, DT);
        let geometry = physics.geometry();
        let (pose, state) = (&mut self.pose, &mut self.state);
        self.motor
            .step(&geometry, pose, state, &input, &mut self.report);
        let settings = BodySettings::default();
        physics.push_bodies(&self.report, &input, &settings);
        physics.move_character(&self.body, &self.pose);
        physics.step(&GRAVITY);
    }
}

fn position(physics: &Physics, body: RigidBodyHandle) -> Vec3 {
    *physics.bodies[body].translation()
}

/// The character walks 3 s along -Z at 1.5 m/s into a 1 m crate of `mass` whose near face is
/// 1.2 m ahead of its axis. Returns the character's feet and the crate's centre every step.
fn push_crate(mass: Real) -> (Vec<Point3>, Vec<Vec3>) {
    let mut physics = floor();
    let crate_body = add_crate(&mut physics, mass, 0.0, -2.0);
    physics.step(&GRAVITY);
    let mut walker = Walker::new(&mut physics, Point3::origin());
    let (mut feet, mut crates) = (Vec::new(), Vec::new());
    for _ in 0..180 {
        walker.step(&mut physics, Vec3::new(0.0, 0.0, -WALK));
        feet.push(walker.pose.position);
        crates.push(position(&physics, crate_body));
    }
    (feet, crates)
}

#[test]
fn pushes_a_5_kg_crate_at_walking_speed_without_climbing_or_jitter() {
    let (feet, crates) = push_crate(5.0);
    // Contact comes after 0.8 s (1.2 m); over the last second the crate moves at the
    // character's pace (1.5 m; 10 %: the friction each step takes off before the next push).
    let moved = crates[179].z - crates[119].z;
    assert_abs_diff_eq!(moved, -1.5, epsilon = 0.15);
    let walked = feet[179].z - feet[119].z;
    assert_abs_diff_eq!(walked, -1.5, epsilon = 0.15);
    // The character stays behind the crate, in contact or close (its face 0.5 m from the
    // crate's centre, its spheres 0.3 m round the axis; 5 cm: what one step of friction
    // opens before the next push closes it).
    let gap = feet[179].z - crates[179].z - 0.8;
    assert!((-0.011..0.05).contains(&gap), "gap {gap} m");
    for (k, p) in feet.iter().enumerate() {
        // Never climbed (1 mm: the ground clamp) ...
        assert_abs_diff_eq!(p.y, 0.0, epsilon = 1e-3);
        // ... and never stepped back (no jitter; 0.1 mm: the pushback tolerance).
        if k > 0 {
            assert!(
                p.z <= feet[k - 1].z + 1e-4,
                "step {k}: back from {} to {}",
                feet[k - 1].z,
                p.z
            );
        }
    }
    // The crate slid, it did not tumble: still upright on the floor (1 cm).
    assert_abs_diff_eq!(crates[179].y, 0.5, epsilon = 0.01);
}

#[test]
fn a_500_kg_crate_barely_moves_and_stops_the_character_like_a_wall() {
    let (feet, crates) = push_crate(500.0);
    // Under 1 cm in 3 s of pushing (100 N against 2450 N of friction).
    let moved = (crates[179] - crates[0]).norm();
    assert!(moved < 0.01, "the crate moved {moved} m");
    // The character stands at the crate's face: axis 0.3 m from the face at z = -1.5
    // (1.1 cm: the skin and the crate's settling).
    assert_abs_diff_eq!(feet[179].z, -1.2, epsilon = 0.011);
    assert_abs_diff_eq!(feet[179].y, 0.0, epsilon = 1e-3);
    // And stays there: the last second is still (1 mm).
    assert_abs_diff_eq!(feet[179].z, feet[119].z, epsilon = 1e-3);
}

/// A seesaw: a 4 m x 0.1 m x 1 m plank of 20 kg on a hinge along Z, 0.5 m above the floor;
/// returns its body.
fn add_seesaw(physics: &mut Physics) -> RigidBodyHandle {
    let pivot = physics
        .bodies
        .insert(RigidBodyBuilder::fixed().translation(vector![0.0, 0.5, 0.0]));
    let plank = physics
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(vector![0.0, 0.5, 0.0]));
    let board = ColliderBuilder::cuboid(2.0, 0.05, 0.5).mass(20.0);
    physics
        .colliders
        .insert_with_parent(board, plank, &mut physics.bodies);
    let hinge = RevoluteJointBuilder::new(Vector::z_axis());
    physics.impulse_joints.insert(pivot, plank, hinge, true);
    plank
}

/// How far the seesaw's +X end is below its -X end (m).
fn tilt(physics: &Physics, plank: RigidBodyHandle) -> Real {
    let pose = physics.bodies[plank].position();
    let (plus, minus) = (pose * point![2.0, 0.0, 0.0], pose * point![-2.0, 0.0, 0.0]);
    minus.y - plus.y
}

/// The character stands on the middle of the seesaw, then walks 1.5 m toward +X and waits;
/// returns the tilt after 3 s and the character's feet. With `weightless`, its mass presses
/// on nothing (a control).
fn walk_the_seesaw(weightless: bool) -> (Real, Point3) {
    let mut physics = floor();
    let plank = add_seesaw(&mut physics);
    physics.step(&GRAVITY);
    let mut walker = Walker::new(&mut physics, Point3::new(0.0, 0.55, 0.0));
    for k in 0..180 {
        let velocity = if k < 60 {
            Vec3::new(WALK, 0.0, 0.0)
        } else {
            Vec3::zeros()
        };
        if weightless {
            let input = StepInput::new(MoveIntent::walk(velocity), GRAVITY, DT);
            let geometry = physics.geometry();
            let (pose, state) = (&mut walker.pose, &mut walker.state);
            walker
                .motor
                .step(&geometry, pose, state, &input, &mut walker.report);
            physics.move_character(&walker.body, &walker.pose);
            physics.step(&GRAVITY);
        } else {
            walker.step(&mut physics, velocity);
        }
    }
    (tilt(&physics, plank), walker.pose.position)
}

#[test]
fn a_seesaw_tips_under_the_weight_of_a_character_walking_to_one_end() {
    let (tipped, feet) = walk_the_seesaw(false);
    // 70 kg at 1.5 m from the hinge against a 20 kg plank balanced on it: the +X end goes
    // down until its lower corner rests on the floor, 0.5 m below the hinge. Then
    // 2 sin(a) + 0.05 cos(a) = 0.5, sin(a) = 0.2256, and the ends differ by 4 sin(a) =
    // 0.903 m (3 cm: rapier's contact slop and the corner sinking into the floor).
    assert_abs_diff_eq!(tipped, 0.903, epsilon = 0.03);
    // The character rode it down and stands on it near the low end (its feet below the
    // hinge).
    assert!(feet.y < 0.45 && feet.x > 1.2, "feet at {feet}");
    // Without the weight the same walk leaves it level (1 cm).
    let (level, _) = walk_the_seesaw(true);
    assert_abs_diff_eq!(level, 0.0, epsilon = 0.01);
}

#[test]
fn bad_push_inputs_push_nothing_and_bad_settings_are_named() {
    use spherewalk_rapier::{BodySettingsError, Pushed};
    let mut physics = floor();
    let crate_body = add_crate(&mut physics, 5.0, 0.0, -1.05);
    physics.step(&GRAVITY);
    let mut walker = Walker::new(&mut physics, Point3::origin());
    // One step into the crate (its face 0.55 m ahead) fills the report with its contact.
    for _ in 0..30 {
        walker.step(&mut physics, Vec3::new(0.0, 0.0, -WALK));
    }
    assert!(
        walker
            .report
            .hits
            .iter()
            .any(|h| h.collider != collider_id(walker.body.collider))
    );
    let velocity = *physics.bodies[crate_body].linvel();
    let wanted = Vec3::new(0.0, 0.0, -WALK);
    let good = BodySettings::default();
    let nan = Vec3::new(Real::NAN, 0.0, 0.0);
    let weak = {
        let mut v = good;
        v.max_strength = -1.0;
        v
    };
    let none = Pushed::default();
    let input = |wanted: Vec3, gravity: Vec3, dt: Real| {
        StepInput::new(MoveIntent::walk(wanted), gravity, dt)
    };
    assert_eq!(
        physics.push_bodies(&walker.report, &input(nan, GRAVITY, DT), &good),
        none
    );
    assert_eq!(
        physics.push_bodies(&walker.report, &input(wanted, nan, DT), &good),
        none
    );
    for dt in [0.0, -DT, Real::NAN, Real::INFINITY] {
        assert_eq!(
            physics.push_bodies(&walker.report, &input(wanted, GRAVITY, dt), &good),
            none
        );
    }
    assert_eq!(
        physics.push_bodies(&walker.report, &input(wanted, GRAVITY, DT), &weak),
        none
    );
    assert_eq!(weak.validate(), Err(BodySettingsError::MaxStrength(-1.0)));
    let light = {
        let mut v = good;
        v.mass = 0.0;
        v
    };
    assert_eq!(light.validate(), Err(BodySettingsError::Mass(0.0)));
    // Nothing was applied: the crate's velocity is what rapier left it (bit for bit).
    assert_eq!(*physics.bodies[crate_body].linvel(), velocity);
    // The same report with good inputs does push it (the character walks at 1.5 m/s and
    // the crate moves slower than that after a step of friction).
    let pushed = physics.push_bodies(&walker.report, &input(wanted, GRAVITY, DT), &good);
    assert_eq!(pushed.bodies, 1);
    assert!(physics.bodies[crate_body].linvel().z < velocity.z);
}

/// A 20 kg ball of radius 0.3 m rolling at 5 m/s along +X into a character standing at the
/// origin (facing -Z, no intent) for 2 s; the ball has soft CCD, as a game gives a fast
/// body. Returns the character's feet and the ball's centre at the end, the closest the ball's
/// centre came to the axis of the character's spheres (m), and the strongest knock (m/s).
fn ball_hits(receive_impulses: bool) -> (Point3, Vec3, Real, Real) {
    let mut physics = floor();
    let ball = physics.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(vector![-3.0, 0.3, 0.0])
            .linvel(vector![5.0, 0.0, 0.0])
            .angvel(vector![0.0, 0.0, -5.0 / 0.3])
            .soft_ccd_prediction(0.5),
    );
    let collider = ColliderBuilder::ball(0.3).mass(20.0);
    physics
        .colliders
        .insert_with_parent(collider, ball, &mut physics.bodies);
    let mut walker = Walker::new(&mut physics, Point3::origin());
    let settings = {
        let mut v = BodySettings::default();
        v.receive_impulses = receive_impulses;
        v
    };
    let (mut closest, mut strongest): (Real, Real) = (Real::INFINITY, 0.0);
    for _ in 0..120 {
        let input = StepInput::new(MoveIntent::default(), GRAVITY, DT);
        let geometry = physics.geometry();
        let (pose, state) = (&mut walker.pose, &mut walker.state);
        walker
            .motor
            .step(&geometry, pose, state, &input, &mut walker.report);
        physics.push_bodies(&walker.report, &input, &settings);
        physics.move_character(&walker.body, &walker.pose);
        physics.step(&GRAVITY);
        physics.take_hits(&walker.body, &walker.report, &settings, &mut walker.state);
        strongest = strongest.max(walker.state.knock.norm());
        // The ball's centre is at the feet sphere's height: its distance to the stack's axis.
        let c = position(&physics, ball);
        let axis = walker.pose.position.coords;
        closest = closest.min(((c.x - axis.x).powi(2) + (c.z - axis.z).powi(2)).sqrt());
    }
    (
        walker.pose.position,
        position(&physics, ball),
        closest,
        strongest,
    )
}

#[test]
fn a_rolling_ball_knocks_a_standing_character_aside_without_passing_through() {
    let (feet, ball, closest, strongest) = ball_hits(true);
    // A perfectly inelastic hit of 20 kg at 5 m/s on 70 kg: 100 / 90 = 1.11 m/s together.
    // rapier stops the ball over two steps, so the knock builds over them (0.2 m/s: the
    // first step's share is worn off by the second).
    assert_abs_diff_eq!(strongest, 1.11, epsilon = 0.2);
    // Knocked along +X: 1.1 m/s worn off at 10 m/s² is 6 cm, and the ball, given its share
    // of the momentum back, pushes on until both stop: 14.7 cm measured (3 cm either way).
    assert_abs_diff_eq!(feet.x, 0.147, epsilon = 0.03);
    assert_abs_diff_eq!(feet.z, 0.0, epsilon = 1e-3);
    assert_abs_diff_eq!(feet.y, 0.0, epsilon = 1e-3);
    // Never through: the ball stays on its side, and sinks at most 2 cm into the feet
    // sphere (rapier's contact slop on a 5 m/s hit; the motor pushes out of the rest).
    assert!(
        ball.x < feet.x - 0.5,
        "ball at {}, feet at {}",
        ball.x,
        feet.x
    );
    assert!(
        closest > 0.58,
        "the ball came within {closest} m of the axis"
    );
    // Set not to receive impulses: no knock. It still yields what rapier lets the ball sink
    // in, which the motor pushes it out of, and the spinning ball keeps rolling into it (7 cm
    // in 2 s measured; at most half the knocked distance).
    let (still, bounced, closest_wall, none) = ball_hits(false);
    assert_eq!(none, 0.0);
    assert!(still.x < 0.5 * feet.x, "moved {} m", still.x);
    assert!(bounced.x < still.x - 0.5 && closest_wall > 0.58);
}

/// Ten 1 m crates of 10 kg stacked on the floor at the origin, settled; returns them bottom
/// first.
fn add_stack(physics: &mut Physics) -> Vec<RigidBodyHandle> {
    let stack: Vec<_> = (0..10)
        .map(|k| {
            let body = physics
                .bodies
                .insert(RigidBodyBuilder::dynamic().translation(vector![
                    0.0,
                    0.5 + k as Real,
                    0.0
                ]));
            let collider = ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(10.0);
            physics
                .colliders
                .insert_with_parent(collider, body, &mut physics.bodies);
            body
        })
        .collect();
    for _ in 0..60 {
        physics.step(&GRAVITY);
    }
    stack
}

#[test]
fn a_stack_of_ten_crates_stands_while_a_character_stands_on_top_and_walks_off() {
    let mut physics = floor();
    let stack = add_stack(&mut physics);
    let settled: Vec<Vec3> = stack.iter().map(|b| position(&physics, *b)).collect();
    // On the top crate (its top at 10 m): 2 s standing, then walking off along +X.
    let mut walker = Walker::new(&mut physics, Point3::new(0.0, 10.0, 0.0));
    let mut landed = None;
    let (mut sag, mut slide): (Real, Real) = (0.0, 0.0);
    for k in 0..300 {
        let velocity = if k < 120 {
            Vec3::zeros()
        } else {
            Vec3::new(WALK, 0.0, 0.0)
        };
        walker.step(&mut physics, velocity);
        for (body, start) in stack.iter().zip(&settled) {
            let moved = position(&physics, *body) - start;
            sag = sag.max(moved.y.abs());
            slide = slide.max(Vec3::new(moved.x, 0.0, moved.z).norm());
        }
        if k == 119 {
            // Standing on top for 2 s: the crates hold it (3 cm of sag: rapier's ten stacked
            // contacts settle 2 mm each under the added 70 kg; 1 cm of slide) and it stands
            // on the top crate.
            assert!(sag < 0.03 && slide < 0.01, "sag {sag} m, slide {slide} m");
            let top = position(&physics, stack[9]).y + 0.5;
            assert_abs_diff_eq!(walker.pose.position.y, top, epsilon = 0.011);
        }
        if landed.is_none() && walker.report.is_grounded() && walker.pose.position.y < 0.01 {
            landed = Some(walker.pose.position);
        }
    }
    // It walked off the top and landed on the floor beyond the stack's face (x = 0.5).
    let landed = landed.expect("the character reaches the floor");
    assert!(landed.x > 0.8, "landed at {landed}");
    // The stack still stands: no crate sank or rose by more than 5 cm (a fallen crate drops
    // by its own height, 1 m, or more), and none slid more than 0.3 m (the top crate rocks
    // back when the character's weight leaves its edge: 0.23 m measured).
    assert!(sag < 0.05, "a crate moved {sag} m up or down");
    assert!(slide < 0.3, "a crate slid {slide} m");
}

/// A floating crate: 1 m cube of 200 kg in water whose surface is y = 0 (no floor), held up by
/// buoyancy (1000 kg/m³ times the submerged volume) with a little drag. Returns how deep its
/// bottom sits after 4 s alone, then after 4 s more with a character standing on it (m).
fn floating_depths() -> (Real, Real) {
    let mut physics = Physics::new();
    physics.params.dt = DT;
    let raft = physics
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(vector![0.0, 0.3, 0.0]));
    let collider = ColliderBuilder::cuboid(0.5, 0.5, 0.5).mass(200.0);
    physics
        .colliders
        .insert_with_parent(collider, raft, &mut physics.bodies);
    let float = |physics: &mut Physics| {
        let rb = &mut physics.bodies[raft];
        let bottom = rb.translation().y - 0.5;
        let submerged = (-bottom).clamp(0.0, 1.0);
        let lift = 1000.0 * 9.81 * submerged;
        let drag = -rb.linvel() * 2000.0;
        rb.reset_forces(true);
        rb.add_force(Vec3::new(0.0, lift, 0.0) + drag, true);
        -bottom
    };
    let mut depth = 0.0;
    for _ in 0..240 {
        depth = float(&mut physics);
        physics.step(&GRAVITY);
    }
    let alone = depth;
    let top = physics.bodies[raft].translation().y + 0.5;
    let mut walker = Walker::new(&mut physics, Point3::new(0.0, top, 0.0));
    for _ in 0..240 {
        depth = float(&mut physics);
        walker.step(&mut physics, Vec3::zeros());
    }
    (alone, depth)
}

#[test]
fn a_floating_crate_sinks_by_the_weight_of_the_character_standing_on_it() {
    let (alone, loaded) = floating_depths();
    // Alone it floats 200 / 1000 = 0.2 m deep; with 70 kg more, 270 / 1000 = 0.27 m: the
    // weight pressed at the ground contact is the character's, no more and no less (2 mm:
    // the drag's last ripples and rapier's solver).
    assert_abs_diff_eq!(alone, 0.2, epsilon = 0.002);
    assert_abs_diff_eq!(loaded, 0.27, epsilon = 0.002);
}

#[test]
fn a_character_rides_a_crate_sliding_on_ice() {
    // Frictionless floor and crate: a 2 m wide, 0.5 m high crate of 50 kg slides along +X at
    // 2 m/s with a character standing still on it.
    let mut physics = Physics::new();
    physics.params.dt = DT;
    let ice = ColliderBuilder::cuboid(40.0, 0.5, 20.0)
        .translation(vector![0.0, -0.5, 0.0])
        .friction(0.0);
    physics.colliders.insert(ice);
    let sled = physics.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(vector![0.0, 0.25, 0.0])
            .linvel(vector![2.0, 0.0, 0.0]),
    );
    let collider = ColliderBuilder::cuboid(1.0, 0.25, 1.0)
        .mass(50.0)
        .friction(0.0);
    physics
        .colliders
        .insert_with_parent(collider, sled, &mut physics.bodies);
    physics.step(&GRAVITY);
    let mut walker = Walker::new(&mut physics, Point3::new(0.0, 0.5, 0.0));
    let (start_sled, start_feet) = (position(&physics, sled), walker.pose.position);
    for _ in 0..120 {
        walker.step(&mut physics, Vec3::zeros());
    }
    let sled_moved = position(&physics, sled) - start_sled;
    let feet_moved = walker.pose.position - start_feet;
    // The sled kept its 2 m/s on the ice (4 m in 2 s; 5 cm: its first step's settling)...
    assert_abs_diff_eq!(sled_moved.x, 4.0, epsilon = 0.05);
    // ...and carried the character with it, standing on top: all but the first step, before
    // it stood on the sled (2 m/s for 1/60 s = 3.3 cm; 2 mm).
    assert_abs_diff_eq!(feet_moved.x, sled_moved.x - 2.0 * DT, epsilon = 0.002);
    assert_abs_diff_eq!(walker.pose.position.y, 0.5, epsilon = 0.011);
    assert!(walker.report.is_grounded());
}
