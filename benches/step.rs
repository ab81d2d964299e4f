//! Nanoseconds per character step: spherewalk's [`Motor::step`] against rapier3d 0.31's
//! `KinematicCharacterController::move_shape`, on the same scenes, in the same criterion group.
//!
//! `cargo bench --bench step -- --warm-up-time 1 --measurement-time 4`
//!
//! **Unit.** One criterion iteration is one fixed step (dt = 1/60 s) of one character, so the
//! reported time per iteration *is* the time per character step (`Throughput::Elements(1)`; the
//! throughput line is steps per second). Each controller carries its simulation state across
//! iterations and restarts from the scene's start pose after a fixed episode (the same scripted
//! walk for both controllers) or as soon as it drifts out of the scene, so both are measured on
//! the same mix of flat ground, stairs, ramps and walls. The ratio to report is
//! `rapier / spherewalk` per group.
//!
//! **Scenes** (built once as `(shape, pose)` pairs and inserted into both worlds):
//! - `playground`: a 40 m x 40 m floor (top at y = 0) with perimeter walls, a six-step ziggurat
//!   (0.3 m rise, 0.4 m tread, up then down), a 30-degree ridge (two ramps), crates, an angled
//!   wall and pillars: 23 cuboids. The character walks at 5 m/s along a circle of radius 6 m
//!   (heading turning steadily) through all of them, under gravity (0, -9.81, 0). Episode: 900
//!   steps (about two laps).
//! - `planet`: a ball of radius 30 m at the origin. The character starts on top and walks
//!   forward at 5 m/s under gravity pointing at the centre (9.81 m/s²). Episode: one great
//!   circle (2262 steps).
//!
//! **Characters.** spherewalk: `SphereStack::capsule(1.8, 0.3, 3)` with `MotorSettings::default()`
//! (`UpFrame::Gravity`; on the planet the intent is `pose.forward() * 5`). rapier: a capsule of
//! total height 1.8 m and radius 0.3 m, with the KCC settings that mirror our defaults: offset
//! 0.01 m (our skin width), autostep 0.35 m high / 0.1 m wide, snap to ground 0.35 m, climb and
//! slide slope limits 45 degrees. The rapier KCC leaves gravity to the caller, so it is driven the
//! usual way: the vertical speed resets to zero when grounded and accumulates gravity every step,
//! and the desired translation is `(horizontal velocity + up * vertical speed) * dt`. On the
//! planet `kcc.up` and the capsule's axis follow the radial direction each step, and the heading
//! is carried along by projecting it onto the new tangent plane (a great circle, like ours).
//!
//! Before measuring, each scene runs one episode per controller and prints a one-line sanity
//! check to stderr (final position, grounded share, distance walked, height range, step-ups,
//! restarts, and for spherewalk the deepest penetration), so a stuck or sinking character shows.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::prelude as rp;
use spherewalk::na::{Rotation3, Translation3};
use spherewalk::parry3d::shape::{Capsule, SharedShape};
use spherewalk::{
    ColliderDesc, CollisionWorld, Iso, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose,
    Quat, Real, SphereStack, StepInput, StepReport, UnitVec3, Vec3,
};

/// Fixed time step (s).
const DT: Real = 1.0 / 60.0;
/// Walking speed (m/s).
const SPEED: Real = 5.0;
/// Gravity magnitude (m/s²).
const GRAVITY: Real = 9.81;
/// Character height from the feet to the top of the head (m).
const HEIGHT: Real = 1.8;
/// Character radius (m).
const RADIUS: Real = 0.3;
/// Spheres in the spherewalk stack.
const SPHERES: usize = 3;
/// A rise above this in one step (m) counts as a step-up in the sanity line (a 30-degree ramp
/// rises about 0.05 m per step at 5 m/s).
const STEP_UP_RISE: Real = 0.1;

/// One collider of a scene, shared by both worlds.
type Part = (SharedShape, Iso);

/// How the character is driven through a scene.
#[derive(Clone, Copy, Debug)]
enum Walk {
    /// Uniform gravity along -Y; the heading turns at `SPEED / radius` so the character walks a
    /// circle of `radius` (m) counter-clockwise seen from above, starting at `start` heading +Z.
    Circle { start: Point3, radius: Real },
    /// Gravity points at `centre`; the character starts on top of the ball of `radius` (m),
    /// facing -Z, and walks forward.
    Planet { centre: Point3, radius: Real },
}

impl Walk {
    /// Feet position (world, m) at the start of an episode.
    fn start(&self) -> Point3 {
        match *self {
            Walk::Circle { start, .. } => start,
            Walk::Planet { centre, radius } => centre + Vec3::y() * radius,
        }
    }

    /// Wanted horizontal velocity (m/s, world) at step `tick` of a circle walk.
    fn circle_velocity(radius: Real, tick: u32) -> Vec3 {
        let heading = SPEED / radius * tick as Real * DT;
        Vec3::new(-heading.sin(), 0.0, heading.cos()) * SPEED
    }

    /// Gravity (m/s², world) at `feet`.
    fn gravity(&self, feet: &Point3) -> Vec3 {
        match *self {
            Walk::Circle { .. } => Vec3::new(0.0, -GRAVITY, 0.0),
            Walk::Planet { centre, .. } => (centre - feet).normalize() * GRAVITY,
        }
    }

    /// Height of `feet` (m): above y = 0, or above the planet's surface.
    fn height(&self, feet: &Point3) -> Real {
        match *self {
            Walk::Circle { .. } => feet.y,
            Walk::Planet { centre, radius } => (feet - centre).norm() - radius,
        }
    }

    /// Steps in one episode: about two laps of the circle, or one great circle of the planet.
    fn episode(&self) -> u32 {
        let lap = |radius: Real| 2.0 * std::f32::consts::PI * radius / SPEED / DT;
        match *self {
            Walk::Circle { .. } => 900,
            Walk::Planet { radius, .. } => lap(radius).round() as u32,
        }
    }

    /// True when the character left the area the episode is meant to cover.
    fn drifted(&self, feet: &Point3) -> bool {
        match *self {
            Walk::Circle { start, radius } => {
                let centre = start - Vec3::x() * radius;
                let away = Vec3::new(feet.x - centre.x, 0.0, feet.z - centre.z).norm();
                away > radius + 6.0 || !(-1.0..=4.0).contains(&feet.y)
            }
            Walk::Planet { .. } => self.height(feet).abs() > 1.0,
        }
    }
}

/// A named scene: its colliders and how the character walks through it.
struct Scene {
    name: &'static str,
    parts: Vec<Part>,
    walk: Walk,
}

/// A box of half extents `half` (m) at `centre` (world, m), turned by `yaw` (rad) about +Y.
fn cuboid(half: [Real; 3], centre: [Real; 3], yaw: Real) -> Part {
    let [hx, hy, hz] = half;
    let [x, y, z] = centre;
    (
        SharedShape::cuboid(hx, hy, hz),
        Iso::new(Vec3::new(x, y, z), Vec3::y() * yaw),
    )
}

/// A ramp 0.4 m thick whose top face rises at `angle` (rad) along the horizontal unit
/// direction `uphill`, from its low edge centred at `low_edge` (world, m) for `length` m along
/// the slope, `width` m wide. Its lower faces sink under the floor, so it has no lip.
fn ramp(low_edge: Point3, uphill: Vec3, angle: Real, length: Real, width: Real) -> Part {
    let thickness = 0.4;
    let (sin, cos) = angle.sin_cos();
    let along = uphill * cos + Vec3::y() * sin;
    let normal = Vec3::y() * cos - uphill * sin;
    let side = along.cross(&normal);
    let rotation = Rotation3::from_basis_unchecked(&[side, normal, -along]);
    let centre = low_edge + along * (length / 2.0) - normal * (thickness / 2.0);
    let pose = Iso::from_parts(
        Translation3::from(centre.coords),
        Quat::from_rotation_matrix(&rotation),
    );
    let shape = SharedShape::cuboid(width / 2.0, thickness / 2.0, length / 2.0);
    (shape, pose)
}

/// The playground: floor, perimeter walls, ziggurat stairs, a 30-degree ridge, crates, an
/// angled wall and pillars, laid out along a circle of radius 6 m around the origin.
fn playground() -> Scene {
    let mut parts = vec![cuboid([20.0, 0.5, 20.0], [0.0, -0.5, 0.0], 0.0)];
    // Perimeter walls, 2 m tall.
    for sign in [-1.0, 1.0] {
        parts.push(cuboid([0.25, 1.0, 20.0], [sign * 20.25, 1.0, 0.0], 0.0));
        parts.push(cuboid([20.0, 1.0, 0.25], [0.0, 1.0, sign * 20.25], 0.0));
    }
    // Ziggurat around (0, 6), crossed along -X: six nested boxes, 0.3 m rise and 0.4 m tread
    // on each side, so the walk climbs six steps, crosses a 1.6 m top and walks down six.
    for k in 0..6 {
        let (half_x, top) = (2.8 - 0.4 * k as Real, 0.3 * (k + 1) as Real);
        parts.push(cuboid(
            [half_x, top / 2.0, 1.75],
            [0.0, top / 2.0, 5.75],
            0.0,
        ));
    }
    // A ridge around (-6, 0), crossed along -Z: up a 30-degree ramp to 1.5 m, then down one.
    let angle = 30f32.to_radians();
    parts.push(ramp(
        Point3::new(-5.8, 0.0, 2.6),
        -Vec3::z(),
        angle,
        3.0,
        3.0,
    ));
    parts.push(ramp(
        Point3::new(-5.8, 0.0, -2.6),
        Vec3::z(),
        angle,
        3.0,
        3.0,
    ));
    // Crates around (0, -6), crossed along +X: 0.2 m (stepped onto), a 0.3 m kerb 0.5 m deep
    // (stepped over), and a 1 m crate (slid around).
    parts.push(cuboid([0.4, 0.1, 0.6], [-2.0, 0.1, -5.7], 0.0));
    parts.push(cuboid([0.25, 0.15, 1.0], [0.0, 0.15, -6.0], 0.0));
    parts.push(cuboid([0.5, 0.5, 0.5], [2.2, 0.5, -5.6], 0.0));
    // An angled wall near (5.2, -3) and two pillars near the path.
    parts.push(cuboid(
        [0.1, 1.0, 1.2],
        [5.6, 1.0, -2.6],
        30f32.to_radians(),
    ));
    parts.push(cuboid([0.3, 0.75, 0.3], [4.5, 0.75, 4.0], 0.0));
    parts.push(cuboid([0.3, 1.5, 0.3], [-4.6, 1.5, -4.6], 0.0));
    // Scenery away from the path (it still populates the broad phase).
    for (x, z) in [(12.0, 12.0), (-12.0, 12.0), (12.0, -12.0), (-12.0, -12.0)] {
        parts.push(cuboid([1.0, 1.0, 1.0], [x, 1.0, z], 0.5));
    }
    Scene {
        name: "playground",
        parts,
        walk: Walk::Circle {
            start: Point3::new(6.0, 0.0, 0.0),
            radius: 6.0,
        },
    }
}

/// The planet: one ball of radius 30 m at the origin.
fn planet() -> Scene {
    Scene {
        name: "planet",
        parts: vec![(SharedShape::ball(30.0), Iso::identity())],
        walk: Walk::Planet {
            centre: Point3::origin(),
            radius: 30.0,
        },
    }
}

/// A character simulation carried across benchmark iterations.
trait Character {
    /// Advances one fixed step; restarts first when the episode is over or the character drifted.
    fn step(&mut self) -> Point3;
    /// Feet position (world, m): the lowest point of the character.
    fn feet(&self) -> Point3;
    /// True when the last step ended on walkable ground.
    fn grounded(&self) -> bool;
    /// Restarts so far (episode ends included).
    fn restarts(&self) -> u32;
    /// Deepest penetration (m) after the last step, when the controller reports it.
    fn penetration(&self) -> Option<Real> {
        None
    }
}

/// spherewalk: [`Motor::step`] on a [`CollisionWorld`].
struct Spherewalk {
    walk: Walk,
    world: CollisionWorld,
    motor: Motor,
    pose: Pose,
    state: MotorState,
    report: StepReport,
    tick: u32,
    restarts: u32,
}

impl Spherewalk {
    fn new(scene: &Scene) -> Self {
        let mut world = CollisionWorld::new();
        for (shape, pose) in &scene.parts {
            world
                .insert(ColliderDesc::new(shape.clone()).pose(*pose))
                .expect("scene colliders are finite");
        }
        world.optimize();
        let stack = SphereStack::capsule(HEIGHT, RADIUS, SPHERES).expect("valid capsule");
        let motor = Motor::new(stack, MotorSettings::default()).expect("default settings");
        Self {
            walk: scene.walk,
            world,
            motor,
            pose: Pose::new(scene.walk.start()),
            state: MotorState::default(),
            report: StepReport::new(),
            tick: 0,
            restarts: 0,
        }
    }
}

impl Character for Spherewalk {
    fn step(&mut self) -> Point3 {
        if self.tick >= self.walk.episode() || self.walk.drifted(&self.pose.position) {
            self.pose = Pose::new(self.walk.start());
            self.state = MotorState::default();
            self.tick = 0;
            self.restarts += 1;
        }
        let gravity = self.walk.gravity(&self.pose.position);
        let velocity = match self.walk {
            Walk::Circle { radius, .. } => Walk::circle_velocity(radius, self.tick),
            Walk::Planet { .. } => self.pose.forward().into_inner() * SPEED,
        };
        let input = StepInput::new(MoveIntent::walk(velocity), gravity, DT);
        let (world, pose, state) = (&self.world, &mut self.pose, &mut self.state);
        self.motor
            .step(world, pose, state, &input, &mut self.report);
        self.tick += 1;
        self.pose.position
    }

    fn feet(&self) -> Point3 {
        self.pose.position
    }

    fn grounded(&self) -> bool {
        self.report.is_grounded()
    }

    fn restarts(&self) -> u32 {
        self.restarts
    }

    fn penetration(&self) -> Option<Real> {
        Some(self.report.max_penetration)
    }
}

/// rapier3d 0.31: `KinematicCharacterController::move_shape` over a broad-phase BVH query
/// pipeline. The character is not a collider (nothing to exclude).
struct Rapier {
    walk: Walk,
    bodies: rp::RigidBodySet,
    colliders: rp::ColliderSet,
    broad_phase: rp::BroadPhaseBvh,
    narrow_phase: rp::NarrowPhase,
    kcc: KinematicCharacterController,
    shape: Capsule,
    /// Feet position (world, m); the capsule's centre is `HEIGHT / 2` above it along up.
    feet: Point3,
    /// Heading (world, unit, tangent to the ground): carried along on the planet.
    forward: UnitVec3,
    /// Speed along up (m/s), integrated by the caller as rapier's KCC expects.
    vertical_speed: Real,
    grounded: bool,
    tick: u32,
    restarts: u32,
}

impl Rapier {
    fn new(scene: &Scene) -> Self {
        let bodies = rp::RigidBodySet::new();
        let mut colliders = rp::ColliderSet::new();
        let handles: Vec<rp::ColliderHandle> = scene
            .parts
            .iter()
            .map(|(shape, pose)| {
                colliders.insert(rp::ColliderBuilder::new(shape.clone()).position(*pose))
            })
            .collect();
        // Static colliders only: one broad-phase update builds the BVH the queries use.
        let mut broad_phase = rp::BroadPhaseBvh::new();
        let params = rp::IntegrationParameters::default();
        let mut events = Vec::new();
        broad_phase.update(&params, &colliders, &bodies, &handles, &[], &mut events);
        let kcc = KinematicCharacterController {
            offset: CharacterLength::Absolute(0.01),
            slide: true,
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(0.35),
                min_width: CharacterLength::Absolute(0.1),
                include_dynamic_bodies: false,
            }),
            max_slope_climb_angle: 45f32.to_radians(),
            min_slope_slide_angle: 45f32.to_radians(),
            snap_to_ground: Some(CharacterLength::Absolute(0.35)),
            ..KinematicCharacterController::default()
        };
        Self {
            walk: scene.walk,
            bodies,
            colliders,
            broad_phase,
            narrow_phase: rp::NarrowPhase::new(),
            kcc,
            shape: Capsule::new_y(HEIGHT / 2.0 - RADIUS, RADIUS),
            feet: scene.walk.start(),
            forward: -Vec3::z_axis(),
            vertical_speed: 0.0,
            grounded: false,
            tick: 0,
            restarts: 0,
        }
    }

    fn restart(&mut self) {
        self.feet = self.walk.start();
        self.forward = -Vec3::z_axis();
        self.vertical_speed = 0.0;
        self.grounded = false;
        self.tick = 0;
        self.restarts += 1;
    }
}

impl Character for Rapier {
    fn step(&mut self) -> Point3 {
        if self.tick >= self.walk.episode() || self.walk.drifted(&self.feet) {
            self.restart();
        }
        let gravity = self.walk.gravity(&self.feet);
        let up = UnitVec3::new_normalize(-gravity);
        let horizontal = match self.walk {
            Walk::Circle { radius, .. } => Walk::circle_velocity(radius, self.tick),
            Walk::Planet { .. } => {
                let f = self.forward.into_inner();
                self.forward = UnitVec3::new_normalize(f - up.into_inner() * f.dot(&up));
                self.forward.into_inner() * SPEED
            }
        };
        if self.grounded {
            self.vertical_speed = 0.0;
        }
        self.vertical_speed -= GRAVITY * DT;
        let desired = (horizontal + up.into_inner() * self.vertical_speed) * DT;
        self.kcc.up = up;
        let axis = Quat::rotation_between_axis(&Vec3::y_axis(), &up).unwrap_or_else(Quat::identity);
        let centre = self.feet + up.into_inner() * (HEIGHT / 2.0);
        let pose = Iso::from_parts(Translation3::from(centre.coords), axis);
        let queries = self.broad_phase.as_query_pipeline(
            self.narrow_phase.query_dispatcher(),
            &self.bodies,
            &self.colliders,
            rp::QueryFilter::default(),
        );
        let moved = self
            .kcc
            .move_shape(DT, &queries, &self.shape, &pose, desired, |_| {});
        self.feet += moved.translation;
        self.grounded = moved.grounded;
        self.tick += 1;
        self.feet
    }

    fn feet(&self) -> Point3 {
        self.feet
    }

    fn grounded(&self) -> bool {
        self.grounded
    }

    fn restarts(&self) -> u32 {
        self.restarts
    }
}

/// Runs one episode of `sim` from its current state and prints a one-line sanity check.
fn sanity(scene: &Scene, label: &str, sim: &mut dyn Character) {
    let walk = scene.walk;
    let steps = walk.episode();
    let (mut grounded, mut step_ups) = (0u32, 0u32);
    let (mut path, mut deepest): (Real, Real) = (0.0, 0.0);
    let (mut low, mut high) = (Real::MAX, Real::MIN);
    for _ in 0..steps {
        let before = sim.feet();
        let after = sim.step();
        let (h0, h1) = (walk.height(&before), walk.height(&after));
        grounded += u32::from(sim.grounded());
        step_ups += u32::from(h1 - h0 > STEP_UP_RISE);
        path += (after - before).norm();
        low = low.min(h1);
        high = high.max(h1);
        deepest = deepest.max(sim.penetration().unwrap_or(0.0));
    }
    let p = sim.feet();
    let penetration = match sim.penetration() {
        Some(_) => format!(", max penetration {:.1} mm", deepest * 1000.0),
        None => String::new(),
    };
    eprintln!(
        "sanity {}/{label}: {steps} steps -> feet ({:.2}, {:.2}, {:.2}), grounded {:.0}%, walked \
         {path:.1} m of {:.1} m, height {low:.2}..{high:.2} m, {step_ups} step-ups, {} restarts{penetration}",
        scene.name,
        p.x,
        p.y,
        p.z,
        100.0 * grounded as Real / steps as Real,
        SPEED * DT * steps as Real,
        sim.restarts(),
    );
}

/// Benchmarks both controllers on `scene` in one group named after it.
fn bench_scene(c: &mut Criterion, scene: &Scene) {
    let mut ours = Spherewalk::new(scene);
    let mut theirs = Rapier::new(scene);
    sanity(scene, "spherewalk", &mut Spherewalk::new(scene));
    sanity(scene, "rapier", &mut Rapier::new(scene));
    let mut group = c.benchmark_group(scene.name);
    group.throughput(Throughput::Elements(1));
    group.bench_function("spherewalk", |b| b.iter(|| ours.step()));
    group.bench_function("rapier", |b| b.iter(|| theirs.step()));
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_scene(c, &playground());
    bench_scene(c, &planet());
}

criterion_group!(step, benches);
criterion_main!(step);
