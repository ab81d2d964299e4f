//! Shared fixtures: scenes built in a scene-local frame and placed in several up frames.

#![allow(dead_code)]

use spherewalk_core::hooks::Surroundings;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::world::WorldQueries;
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, ContactHooks, Motor, MotorSettings, MotorState,
    MoveIntent, Point3, Pose, Real, SphereStack, StepInput, StepReport, UnitVec3, Vec3, math::Iso,
    world::QueryFilter,
};

/// Standard gravity (m/s²).
pub const G: Real = 9.81;
/// Fixed step (s).
pub const DT: Real = 1.0 / 60.0;
/// Radius of the test planet (m).
pub const PLANET_RADIUS: Real = 30.0;

/// Where a scene built in its own frame (+Y up, floor at y = 0) is placed in the world.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// Name for assertion messages.
    pub name: &'static str,
    /// Scene-local to world transform.
    pub iso: Iso,
    /// Planet centre in scene-local coordinates, when gravity points at a planet.
    pub planet: Option<Point3>,
}

impl Frame {
    /// World +Y up, scene at the origin.
    pub fn world_up() -> Self {
        Self {
            name: "world +Y",
            iso: Iso::identity(),
            planet: None,
        }
    }

    /// The scene rotated 90 degrees about world Z (its up is world -X) and moved off the origin.
    pub fn rotated() -> Self {
        let rot = spherewalk_core::math::axis_angle(&Vec3::z_axis(), std::f32::consts::FRAC_PI_2);
        Self {
            name: "rotated 90 deg",
            iso: Iso::from_parts(Vec3::new(3.0, -7.0, 11.0).into(), rot),
            planet: None,
        }
    }

    /// The scene at the north pole of a 30 m planet (ball collider + point gravity), the
    /// planet itself tilted and moved off the origin.
    pub fn planet() -> Self {
        let rot = spherewalk_core::math::euler_xyz(0.3, -0.2, 0.5);
        Self {
            name: "planet r=30",
            iso: Iso::from_parts(Vec3::new(-5.0, 2.0, 4.0).into(), rot),
            planet: Some(Point3::new(0.0, -PLANET_RADIUS, 0.0)),
        }
    }

    /// The three frames every capability is checked in.
    pub fn all() -> [Frame; 3] {
        [Self::world_up(), Self::rotated(), Self::planet()]
    }

    /// Gravity (m/s², world) at a world point.
    pub fn gravity_at(&self, world: &Point3) -> Vec3 {
        match self.planet {
            Some(c) => (self.iso * c - world).normalize() * G,
            None => self.iso.rotation * Vec3::new(0.0, -G, 0.0),
        }
    }

    pub fn to_world(self, local: &Point3) -> Point3 {
        self.iso * local
    }

    pub fn to_local(self, world: &Point3) -> Point3 {
        self.iso.inverse_transform_point(world)
    }

    pub fn vec_to_world(&self, local: &Vec3) -> Vec3 {
        self.iso.rotation * local
    }

    pub fn vec_to_local(&self, world: &Vec3) -> Vec3 {
        self.iso.rotation.inverse() * world
    }
}

/// A collision world built in scene-local coordinates.
pub struct Scene {
    pub world: CollisionWorld,
    pub frame: Frame,
}

impl Scene {
    pub fn new(frame: Frame) -> Self {
        let mut scene = Self {
            world: CollisionWorld::new(),
            frame,
        };
        if let Some(c) = frame.planet {
            scene.add(
                SharedShape::ball(PLANET_RADIUS),
                Iso::translation(c.x, c.y, c.z),
            );
        }
        scene
    }

    /// Adds `shape` at `local` (scene frame).
    pub fn add(&mut self, shape: SharedShape, local: Iso) -> ColliderId {
        self.add_desc(ColliderDesc::new(shape), local)
    }

    pub fn add_desc(&mut self, desc: ColliderDesc, local: Iso) -> ColliderId {
        let pose = self.frame.iso * local;
        self.world
            .insert(desc.pose(pose))
            .expect("valid test collider")
    }

    /// Adds an axis-aligned box (scene frame) spanning `min..max`.
    pub fn add_box(&mut self, min: [Real; 3], max: [Real; 3]) -> ColliderId {
        let half = Vec3::new(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * 0.5;
        let centre = Vec3::new(min[0], min[1], min[2]) + half;
        self.add(
            SharedShape::cuboid(half.x, half.y, half.z),
            Iso::translation(centre.x, centre.y, centre.z),
        )
    }

    /// A ramp rising along scene +X at `angle_deg`: a 6 m wide slab whose top face starts at
    /// `(start_x, 0, 0)` and runs `length` metres up the slope.
    pub fn add_ramp(&mut self, angle_deg: Real, length: Real, start_x: Real) -> ColliderId {
        let a = angle_deg.to_radians();
        let rot = spherewalk_core::math::axis_angle(&Vec3::z_axis(), a);
        let normal = rot * Vec3::y();
        let top_centre = Vec3::new(
            start_x + 0.5 * length * spherewalk_core::math::cos(a),
            0.5 * length * spherewalk_core::math::sin(a),
            0.0,
        );
        let centre = top_centre - normal * 0.5;
        let pose = Iso::from_parts(centre.into(), rot);
        self.add(SharedShape::cuboid(0.5 * length, 0.5, 3.0), pose)
    }

    /// A large floor slab whose top is y = 0 (scene frame).
    pub fn add_floor(&mut self, half_extent: Real) -> ColliderId {
        self.add_box(
            [-half_extent, -1.0, -half_extent],
            [half_extent, 0.0, half_extent],
        )
    }
}

/// The standard test character: 1.8 m tall, 3 spheres of 0.3 m.
pub fn capsule_motor(settings: MotorSettings) -> Motor {
    let stack = SphereStack::capsule(1.8, 0.3, 3).expect("valid stack");
    Motor::new(stack, settings).expect("valid settings")
}

/// Drives one character through a scene, speaking scene-local coordinates.
pub struct Runner {
    pub scene: Scene,
    pub motor: Motor,
    pub pose: Pose,
    pub state: MotorState,
    pub report: StepReport,
    pub steps: u32,
    /// Fixed step (s) used by [`Runner::step`]; [`DT`] unless a test changes it.
    pub dt: Real,
    /// Gravity (m/s², world) used instead of the frame's, when set.
    pub gravity: Option<Vec3>,
}

impl Runner {
    /// Spawns the character at `local` (scene frame) with its up along the scene's +Y and
    /// its forward along scene -Z.
    pub fn new(scene: Scene, motor: Motor, local: Point3) -> Self {
        let position = scene.frame.to_world(&local);
        let pose = Pose {
            position,
            orientation: scene.frame.iso.rotation,
        };
        Self {
            scene,
            motor,
            pose,
            state: MotorState::default(),
            report: StepReport::new(),
            steps: 0,
            dt: DT,
            gravity: None,
        }
    }

    /// One step with a scene-local intent velocity (m/s).
    pub fn step(&mut self, local_velocity: Vec3) -> &StepReport {
        let intent = MoveIntent::walk(self.scene.frame.vec_to_world(&local_velocity));
        self.step_intent(intent)
    }

    pub fn step_intent(&mut self, intent: MoveIntent) -> &StepReport {
        self.step_intent_with(intent, &spherewalk_core::hooks::NoHooks)
    }

    /// One step with `hooks`, a scene-local intent velocity (m/s) and a jump speed (m/s).
    pub fn step_with(&mut self, hooks: &dyn ContactHooks, local_velocity: Vec3, jump: Real) {
        let intent = MoveIntent {
            velocity: self.scene.frame.vec_to_world(&local_velocity),
            jump_speed: jump,
            ..Default::default()
        };
        self.step_intent_with(intent, hooks);
    }

    /// One step with a world intent and `hooks`, under the frame's gravity unless
    /// [`Runner::gravity`] is set.
    pub fn step_intent_with(
        &mut self,
        intent: MoveIntent,
        hooks: &dyn ContactHooks,
    ) -> &StepReport {
        let input = self.input(intent);
        let around = Surroundings::new(&self.scene.world).with_hooks(hooks);
        let (pose, state) = (&mut self.pose, &mut self.state);
        self.motor
            .step(around, pose, state, &input, &mut self.report);
        self.steps += 1;
        &self.report
    }

    /// The input of a step with a world `intent`: the frame's gravity where the character is
    /// (unless [`Runner::gravity`] is set) and [`Runner::dt`].
    pub fn input(&self, intent: MoveIntent) -> StepInput {
        let gravity = self
            .gravity
            .unwrap_or_else(|| self.scene.frame.gravity_at(&self.pose.position));
        StepInput::new(intent, gravity, self.dt)
    }

    /// Steps `n` times walking at `local_velocity`.
    pub fn run(&mut self, n: u32, local_velocity: Vec3) {
        for _ in 0..n {
            self.step(local_velocity);
        }
    }

    /// Lets the character fall and settle for `n` steps.
    pub fn settle(&mut self, n: u32) {
        self.run(n, Vec3::zeros());
    }

    /// The numbers a trace pins, in a fixed order: the position (world, m), the orientation
    /// quaternion's coordinates and the velocity (world, m/s).
    pub fn state_reals(&self) -> impl Iterator<Item = Real> + '_ {
        let p = &self.pose;
        p.position
            .iter()
            .chain(p.orientation.coords.iter())
            .chain(self.state.velocity.iter())
            .copied()
    }

    /// Position in the scene frame (m).
    pub fn local(&self) -> Point3 {
        self.scene.frame.to_local(&self.pose.position)
    }

    /// Centre of the feet sphere in the scene frame (m): unlike the feet point, it does not
    /// move when the up frame tilts (the turn pivots about it).
    pub fn feet_centre(&self) -> Point3 {
        let c = self.pose.centre_at(self.motor.stack().feet().offset_local);
        self.scene.frame.to_local(&c)
    }

    /// Centres of every sphere in the scene frame (m), feet first.
    pub fn sphere_centres(&self) -> Vec<Point3> {
        let stack = self.motor.stack();
        (0..stack.len())
            .filter_map(|i| self.pose.sphere_centre(stack, i))
            .map(|c| self.scene.frame.to_local(&c))
            .collect()
    }

    /// Largest scene-frame coordinate `axis` (0 = x, 2 = z) over the sphere centres: on a planet
    /// the stack leans, so the sphere nearest a vertical wall is not always the feet.
    pub fn max_sphere_coord(&self, axis: usize) -> Real {
        self.sphere_centres()
            .iter()
            .map(|c| c[axis])
            .fold(Real::MIN, Real::max)
    }

    /// Smallest scene-frame coordinate `axis` over the sphere centres.
    pub fn min_sphere_coord(&self, axis: usize) -> Real {
        self.sphere_centres()
            .iter()
            .map(|c| c[axis])
            .fold(Real::MAX, Real::min)
    }

    /// Up in the scene frame.
    pub fn local_up(&self) -> Vec3 {
        self.scene.frame.vec_to_local(&self.pose.up())
    }

    /// Velocity in the scene frame (m/s).
    pub fn local_velocity(&self) -> Vec3 {
        self.scene.frame.vec_to_local(&self.state.velocity)
    }

    /// Deepest penetration of any sphere into the world right now (m), measured as the
    /// motor's report does.
    pub fn penetration(&self) -> Real {
        self.scene
            .world
            .stack_penetration(&self.pose, self.motor.stack(), &QueryFilter::default())
    }

    /// Height of the feet above the planet surface (m); panics when the frame has no planet.
    pub fn altitude(&self) -> Real {
        let c = self
            .scene
            .frame
            .to_world(&self.scene.frame.planet.expect("planet frame"));
        (self.pose.position - c).norm() - PLANET_RADIUS
    }
}

/// The mode changes (from, to) the runner's last step reported.
pub fn mode_changes(
    r: &Runner,
) -> Vec<(spherewalk_core::motor::Mode, spherewalk_core::motor::Mode)> {
    r.report
        .events()
        .filter_map(|e| match e {
            spherewalk_core::motor::StepEvent::ModeChanged { from, to } => Some((from, to)),
            _ => None,
        })
        .collect()
}

/// Unit vector helper.
pub fn unit(v: Vec3) -> UnitVec3 {
    UnitVec3::new_normalize(v)
}
