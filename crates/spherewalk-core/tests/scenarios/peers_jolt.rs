//! Jolt Physics' `CharacterVirtual` unit tests (jrouwe/JoltPhysics,
//! `UnitTests/Physics/CharacterVirtualTests.cpp`) and scenes of its character samples
//! (`Samples/Tests/Character/CharacterBaseTest.cpp`), re-expressed for spherewalk.
//!
//! Shape mapping: Jolt's test character is a capsule of radius 0.3 m around a 1.35 m cylinder
//! whose bottom sits at the character's origin, plus 0.02 m of "padding" that keeps it off
//! the floor. Our stack is the same capsule, 1.95 m tall, as 4 spheres of 0.3 m (3 would leave
//! gaps: their centres 0.675 m apart are further than two radii). We keep no padding: our feet
//! rest *on* the ground, so every Jolt distance of `radius + padding` = 0.32 m is 0.3 m here.
//!
//! Settings mapping: Jolt's defaults are a 50 deg slope limit, a 0.4 m stair step-up and a
//! 0.5 m stick-to-floor step-down; the tests set the horizontal velocity directly every frame
//! whether grounded or not, which is an unbounded `air_acceleration` for us.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderDesc, ColliderId, GroundState, Motor, MotorSettings, MoveIntent, Point3, Quat, Real,
    SphereStack, Vec3, math::Iso,
};

/// Jolt's test character: radius 0.3 m, 1.35 m cylinder, 1.95 m in all, as 4 spheres.
fn jolt_stack() -> SphereStack {
    SphereStack::capsule(1.95, 0.3, 4).expect("valid stack")
}

/// Jolt's default `CharacterVirtualSettings` and `ExtendedUpdateSettings`, in our terms.
fn jolt_settings() -> MotorSettings {
    {
        let mut v = MotorSettings::default();
        v.slope_limit = 50f32.to_radians();
        v.stair_height = 0.4;
        v.ground_clamp_distance = 0.5;
        v.air_acceleration = 1.0e4;
        v
    }
}

fn jolt_motor(settings: MotorSettings) -> Motor {
    Motor::new(jolt_stack(), settings).expect("valid settings")
}

/// Jolt's `CreateFloor`: a 200 m box whose top face is y = 0.
fn jolt_floor(scene: &mut Scene) -> ColliderId {
    scene.add_box([-100.0, -2.0, -100.0], [100.0, 0.0, 100.0])
}

fn runner_at(scene: Scene, settings: MotorSettings, at: Point3, dt: Real) -> Runner {
    let mut r = Runner::new(scene, jolt_motor(settings), at);
    r.dt = dt;
    r
}

/// Builds a one-sided trimesh from quads, each given with the normal its front must face.
#[derive(Default)]
struct MeshBuilder {
    vertices: Vec<Point3>,
    triangles: Vec<[u32; 3]>,
}

impl MeshBuilder {
    fn triangle(&mut self, corners: [Point3; 3], front: Vec3) {
        let n = (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
        let base = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&corners);
        if n.dot(&front) >= 0.0 {
            self.triangles.push([base, base + 1, base + 2]);
        } else {
            self.triangles.push([base, base + 2, base + 1]);
        }
    }

    fn quad(&mut self, c: [Point3; 4], front: Vec3) {
        self.triangle([c[0], c[1], c[2]], front);
        self.triangle([c[0], c[2], c[3]], front);
    }

    fn build(self) -> SharedShape {
        SharedShape::trimesh(self.vertices, self.triangles).expect("valid mesh")
    }
}

/// The stairs mesh of `TestWalkStairs`: 10 steps of 0.3 m rise and 0.3 m run, 4 m wide,
/// climbing toward +Z from z = 0, each a riser facing -Z and a tread facing +Y.
fn jolt_mesh_stairs() -> SharedShape {
    let mut mesh = MeshBuilder::default();
    for i in 0..10 {
        let (y0, z0) = (0.3 * i as Real, 0.3 * i as Real);
        let (y1, z1) = (y0 + 0.3, z0 + 0.3);
        let p = |x: Real, y: Real, z: Real| Point3::new(x, y, z);
        mesh.quad(
            [
                p(-2.0, y0, z0),
                p(2.0, y0, z0),
                p(2.0, y1, z0),
                p(-2.0, y1, z0),
            ],
            -Vec3::z(),
        );
        mesh.quad(
            [
                p(-2.0, y1, z0),
                p(2.0, y1, z0),
                p(2.0, y1, z1),
                p(-2.0, y1, z1),
            ],
            Vec3::y(),
        );
    }
    mesh.build()
}

/// `TestFallingAndJumping`: fall 2 m onto the floor, rest exactly on it, jump at 1 m/s.
#[test]
fn jolt_falling_and_jumping() {
    let mut scene = Scene::new(Frame::world_up());
    jolt_floor(&mut scene);
    let mut r = runner_at(scene, jolt_settings(), Point3::new(0.0, 2.0, 0.0), DT);
    r.step(Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::Airborne);
    r.run(60, Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::Grounded);
    // Jolt checks 1e-6 m; the ground probe polishes contacts to well under a micrometre.
    assert_abs_diff_eq!(r.local(), Point3::origin(), epsilon = 1e-6);
    assert_abs_diff_eq!(r.local_velocity(), Vec3::zeros(), epsilon = 1e-6);

    let start = r.local();
    r.step_intent(MoveIntent {
        jump_speed: 1.0,
        ..MoveIntent::default()
    });
    // Jolt's numbers: the launch step already feels gravity, v = 1 - 9.81 dt = 0.8365 m/s
    // and the character rises v dt = 0.01394167 m, airborne.
    let v = 1.0 - G * DT;
    assert_eq!(r.report.ground, GroundState::Airborne);
    assert_abs_diff_eq!(r.local_velocity(), Vec3::new(0.0, v, 0.0), epsilon = 1e-6);
    assert_abs_diff_eq!(
        r.local() - start,
        Vec3::new(0.0, v * DT, 0.0),
        epsilon = 1e-6
    );
    r.run(60, Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::Grounded);
    assert_abs_diff_eq!(r.local(), Point3::origin(), epsilon = 1e-6);
    assert_abs_diff_eq!(r.local_velocity(), Vec3::zeros(), epsilon = 1e-6);
}

/// The slope of `TestMovingOnSlope` and `TestStickToFloor`: a 200 m box rotated by `angle`
/// (rad) about Z, its top face the plane n . p = 1 rising toward +X; no floor under it.
fn jolt_slope(angle: Real) -> (Scene, Vec3, Point3) {
    let mut scene = Scene::new(Frame::world_up());
    let rot = Quat::from_axis_angle(&Vec3::z_axis(), angle);
    scene.add(
        SharedShape::cuboid(100.0, 1.0, 100.0),
        Iso::from_parts(Vec3::zeros().into(), rot),
    );
    let normal = rot * Vec3::y();
    // Where the feet sphere (radius 0.3) just touches the top face above the origin.
    let start = Point3::new(0.0, 1.3 / angle.cos() - 0.3, 0.0);
    (scene, normal, start)
}

fn along_plane(v: Vec3, normal: &Vec3) -> Vec3 {
    v - normal * v.dot(normal)
}

/// `TestMovingOnSlope`: on 5 deg to 85 deg slopes (50 deg limit), the landing step does not
/// move a character on walkable ground, and a steep slope slides exactly like a frictionless
/// plane; walking uphill at 2 m/s for 1.5 s climbs walkable slopes and does nothing on steep
/// ones.
#[test]
fn jolt_moving_on_slope() {
    let limit = 50f32.to_radians();
    let mut angles = Vec::new();
    // Jolt steps the angle by 10 deg in f32 while it is below 85 deg: rounding lets 85 deg in.
    let mut a = 5f32.to_radians();
    while a < 85f32.to_radians() {
        angles.push(a);
        a += 10f32.to_radians();
    }
    assert_eq!(angles.len(), 9);
    for angle in angles {
        let (scene, normal, start) = jolt_slope(angle);
        let steep = angle > limit;
        let mut r = runner_at(scene, jolt_settings(), start, DT);
        let deg = angle.to_degrees();
        r.step(Vec3::zeros());
        let expected_state = if steep {
            GroundState::SteepGround
        } else {
            GroundState::Grounded
        };
        assert_eq!(r.report.ground, expected_state, "{deg} deg");
        let expected = if steep {
            // One frame of sliding: gravity's velocity along the plane, times dt.
            start + along_plane(Vec3::new(0.0, -G * DT, 0.0), &normal) * DT
        } else {
            start
        };
        // Jolt's tolerance: 1e-5 m.
        assert_abs_diff_eq!(r.local(), expected, epsilon = 1e-5);

        r.state.velocity = Vec3::zeros();
        let from = r.local();
        r.run(90, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(r.report.ground, expected_state, "{deg} deg");
        let moved = r.local() - from;
        let expected = if steep {
            // Jolt: the uphill input is cancelled and the character slides like a frictionless
            // body, semi-implicit Euler over 90 steps: g dt^2 (1 + 2 + .. + 90) = 11.158875 m
            // of fall, along the plane.
            along_plane(Vec3::new(0.0, -G * DT * DT * 4095.0, 0.0), &normal)
        } else {
            // Our documented rule differs from Jolt's here: walking up a walkable ramp keeps
            // the full horizontal speed (Jolt projects the input onto the plane, which slows
            // it), so 2 m/s for 1.5 s is 3 m along X and 3 tan(angle) m up.
            Vec3::new(3.0, 3.0 * angle.tan(), 0.0)
        };
        // Jolt's tolerance: 1e-4 m over 1.5 s of motion.
        assert_abs_diff_eq!(moved, expected, epsilon = 1e-4);
    }
}

/// `TestStickToFloor`: running down a 45 deg slope at 10 m/s, faster than gravity can follow,
/// stays on it with a 0.5 m stick-to-floor distance.
#[test]
fn jolt_stick_to_floor() {
    for clamp in [0.5, 0.0] {
        let (scene, _, start) = jolt_slope(45f32.to_radians());
        let settings = {
            let mut v = jolt_settings();
            v.ground_clamp_distance = clamp;
            v
        };
        let mut r = runner_at(scene, settings, start, DT);
        r.step(Vec3::zeros());
        assert_eq!(r.report.ground, GroundState::Grounded);
        r.state.velocity = Vec3::zeros();
        let from = r.local();
        for _ in 0..90 {
            r.step(Vec3::new(-10.0, 0.0, 0.0));
            assert_eq!(r.report.ground, GroundState::Grounded, "clamp {clamp}");
        }
        // Jolt: with stick-to-floor the character follows the slope exactly, (-15, -15, 0).
        // Without it Jolt's character flies off in free fall, because Jolt walks with a
        // horizontal velocity. Our rule differs: on stable ground the velocity follows the
        // ground plane, so a walkable slope is followed with or without the ground clamp.
        assert_abs_diff_eq!(
            r.local() - from,
            Vec3::new(-15.0, -15.0, 0.0),
            epsilon = 1e-4
        );
    }
}

/// `TestWalkStairs` (first part): with the stair step disabled, a 0.3 m riser is a wall.
#[test]
fn jolt_walk_stairs_blocked_without_step_up() {
    for hz in [60.0, 120.0, 240.0, 360.0] {
        let dt = 1.0 / hz as Real;
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        scene.add(jolt_mesh_stairs(), Iso::identity());
        let settings = {
            let mut v = jolt_settings();
            v.stair_height = 0.0;
            v
        };
        let mut r = runner_at(scene, settings, Point3::new(0.0, 0.0, -2.0), dt);
        r.run(hz as u32, Vec3::new(0.0, 0.0, 4.0));
        assert_eq!(r.report.ground, GroundState::Grounded, "{hz} Hz");
        // Jolt expects z = -0.32 (radius plus padding) within 1.1e-2 m; ours is -0.3.
        assert_abs_diff_eq!(r.local(), Point3::new(0.0, 0.0, -0.3), epsilon = 1.1e-2);
    }
}

/// `TestWalkStairs` (second part): at 60, 120, 240 and 360 Hz, ten 0.3 m stairs are climbed
/// at 4 m/s, grounded on every step, always moving forward and never past the top.
#[test]
fn jolt_walk_stairs_at_every_frame_rate() {
    for hz in [60u32, 120, 240, 360] {
        let dt = 1.0 / hz as Real;
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        scene.add(jolt_mesh_stairs(), Iso::identity());
        let mut r = runner_at(scene, jolt_settings(), Point3::new(0.0, 0.0, -2.0), dt);
        // Jolt's budget: 1.5 times the steps needed to walk 3.32 m at 4 m/s.
        let max_steps = (1.5 * ((3.0 + 0.32) / 4.0 / dt).round()) as u32;
        let mut reached = false;
        let mut z = r.local().z;
        for step in 0..max_steps {
            r.step(Vec3::new(0.0, 0.0, 4.0));
            let p = r.local();
            assert_eq!(
                r.report.ground,
                GroundState::Grounded,
                "{hz} Hz step {step}"
            );
            assert!(p.x.abs() <= 1e-6, "{hz} Hz: drifted to x = {}", p.x);
            assert!(p.z > z, "{hz} Hz step {step}: stalled at z = {}", p.z);
            assert!(p.z < 3.0, "{hz} Hz: walked past the top, z = {}", p.z);
            z = p.z;
            if p.y > 3.0 - 1e-3 {
                reached = true;
                break;
            }
        }
        assert!(reached, "{hz} Hz: stuck at {:?}", r.local());
    }
}

/// `TestRotatingPlatform`: a character on a platform turning at one revolution per second
/// follows the arc exactly.
#[test]
fn jolt_rotating_platform() {
    let mut scene = Scene::new(Frame::world_up());
    let platform = scene.add_box([-10.0, -1.0, -10.0], [10.0, 1.0, 10.0]);
    let mut r = runner_at(scene, jolt_settings(), Point3::new(9.0, 1.0, 0.0), DT);
    r.step(Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::Grounded);
    let rate = std::f32::consts::TAU;
    for t in 0..60 {
        let angle = rate * DT * (t + 1) as Real;
        let pose = Iso::from_parts(
            Vec3::zeros().into(),
            Quat::from_axis_angle(&Vec3::y_axis(), angle),
        );
        r.scene.world.set_pose(platform, pose).expect("platform");
        r.scene
            .world
            .set_velocity(platform, Vec3::zeros(), Vec3::new(0.0, rate, 0.0))
            .expect("platform");
        r.step(Vec3::zeros());
        assert_eq!(r.report.ground, GroundState::Grounded);
        // Jolt's tolerance: 1e-4 m; Jolt lags one frame, we move the platform first.
        let expected = pose * Point3::new(9.0, 1.0, 0.0);
        assert_abs_diff_eq!(r.local(), expected, epsilon = 1e-4);
    }
}

/// `TestMovingPlatformUp`: a platform rising, pausing and sinking at 0.5 m/s, moved by game
/// code before each character step, keeps its rider on top and grounded.
#[test]
fn jolt_moving_platform_up() {
    let mut scene = Scene::new(Frame::world_up());
    let platform = scene.add_desc(
        ColliderDesc::new(SharedShape::cuboid(10.0, 1.0, 10.0)),
        Iso::identity(),
    );
    let mut r = runner_at(scene, jolt_settings(), Point3::new(0.0, 1.0, 0.0), DT);
    r.step(Vec3::zeros());
    assert_eq!(r.report.ground, GroundState::Grounded);
    let mut height: Real = 0.0;
    for (speed, steps) in [(0.5, 60), (0.0, 30), (-0.5, 60)] {
        for _ in 0..steps {
            height += speed * DT;
            let world = &mut r.scene.world;
            world
                .set_pose(platform, Iso::translation(0.0, height, 0.0))
                .expect("platform");
            world
                .set_velocity(platform, Vec3::new(0.0, speed, 0.0), Vec3::zeros())
                .expect("platform");
            r.step(Vec3::zeros());
            assert_eq!(r.report.ground, GroundState::Grounded, "speed {speed}");
            // Jolt's tolerance: 1e-2 m.
            let expected = Point3::new(0.0, height + 1.0, 0.0);
            assert_abs_diff_eq!(r.local(), expected, epsilon = 1e-2);
        }
    }
}

/// The half-cylinder trough of `TestContactPointLimit`: 2 m long along X, `segments` facets
/// round its half circle of radius `radius`, both top rims raised to 0.5 m, ends closed; its
/// faces look inward. The lowest line is local y = 0.
fn jolt_trough(segments: usize, radius: Real) -> SharedShape {
    let mut mesh = MeshBuilder::default();
    let point = |x: Real, a: usize| {
        let theta = (-0.5 + a as Real / segments as Real) * std::f32::consts::PI;
        let y = if a == 0 || a == segments {
            0.5
        } else {
            (1.0 - theta.cos()) * radius
        };
        Point3::new(x, y, theta.sin() * radius)
    };
    let inward = |a: usize| {
        let p = point(0.0, a);
        Vec3::new(0.0, radius - p.y, -p.z)
    };
    for a in 0..segments {
        let front = inward(a) + inward(a + 1);
        mesh.quad(
            [
                point(-1.0, a),
                point(1.0, a),
                point(1.0, a + 1),
                point(-1.0, a + 1),
            ],
            front,
        );
        // End caps: fans from the first rim vertex, facing into the trough.
        if a > 0 {
            for (x, front) in [(-1.0, Vec3::x()), (1.0, -Vec3::x())] {
                mesh.triangle([point(x, 0), point(x, a), point(x, a + 1)], front);
            }
        }
    }
    mesh.build()
}

/// `TestContactPointLimit`: a character in a trough just wider than it (hundreds of
/// triangles in contact) walks to either end; beside the trough it walks on the floor.
///
/// Jolt keeps at most 256 contacts and merges near-parallel ones; without merging (its
/// phases C and D) its character sticks. Spherewalk keeps no contact cap, so those two phases
/// have no counterpart: we check instead that the pushback budget is never exhausted.
#[test]
fn jolt_contact_point_limit() {
    let mut scene = Scene::new(Frame::world_up());
    let floor = jolt_floor(&mut scene);
    // Jolt's trough is 0.01 m wider than its padded radius (0.32 m); ours than 0.3 m.
    let trough = scene.add(jolt_trough(768, 0.31), Iso::translation(0.0, 1.0, 0.0));
    let settings = {
        let mut v = jolt_settings();
        v.ground_clamp_distance = 0.0;
        v.stair_height = 0.0;
        v
    };
    let mut r = runner_at(scene, settings, Point3::new(0.0, 1.0, 0.0), DT);
    for (speed, end_x) in [(2.0, 0.7), (-2.0, -0.7)] {
        for _ in 0..60 {
            r.step(Vec3::new(speed, 0.0, 0.0));
            let hit = r.report.ground_hit.expect("ground under the feet");
            assert_eq!(hit.collider, trough);
            assert!(hit.surface_normal.y > 0.999, "{:?}", hit.surface_normal);
        }
        // Jolt: the end caps stop the character one padded radius short of x = +-1; 1e-4 m.
        assert_abs_diff_eq!(r.local(), Point3::new(end_x, 1.0, 0.0), epsilon = 1e-4);
    }
    r.pose.position = Point3::new(0.0, 0.0, 1.0);
    r.state = Default::default();
    for _ in 0..60 {
        r.step(Vec3::new(2.0, 0.0, 0.0));
    }
    assert_eq!(r.report.ground_hit.map(|h| h.collider), Some(floor));
    assert_abs_diff_eq!(r.local(), Point3::new(2.0, 0.0, 1.0), epsilon = 1e-4);
}

/// `TestStairWalkAlongWall`: sliding along a wall while pushing into it (5 m/s along, 1 m/s
/// into it) never triggers a stair step: the character slides exactly 5 m in 1 s.
#[test]
fn jolt_stair_walk_along_wall() {
    for hz in [60u32, 120, 240, 360] {
        let dt = 1.0 / hz as Real;
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        // Jolt's wall face is at z = -0.32 (touching its padded character); ours at -0.3.
        scene.add_box([-50.0, 0.0, -0.4], [50.0, 2.0, -0.3]);
        let mut r = runner_at(scene, jolt_settings(), Point3::origin(), dt);
        r.run(hz, Vec3::new(5.0, 0.0, -1.0));
        assert_eq!(r.report.ground, GroundState::Grounded, "{hz} Hz");
        // Jolt's tolerance: 1e-2 m.
        assert_abs_diff_eq!(r.local(), Point3::new(5.0, 0.0, 0.0), epsilon = 1e-2);
    }
}

/// The box of `TestInitiallyIntersecting`: x in [-1, 0], y in [0, 1], z in [-0.5, 0.5], so a
/// character at the origin overlaps it by one radius.
fn add_jolt_intersecting_box(scene: &mut Scene) {
    scene.add_box([-1.0, 0.0, -0.5], [0.0, 1.0, 0.5]);
}

/// `TestInitiallyIntersecting`: a character spawned half inside a box is pushed sideways by
/// exactly one radius, (r, 0, 0), whatever its sphere count, and stays there.
#[test]
fn jolt_initially_intersecting() {
    for spheres in [4, 8] {
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        add_jolt_intersecting_box(&mut scene);
        let stack = SphereStack::capsule(1.95, 0.3, spheres).expect("stack");
        let motor = Motor::new(stack, jolt_settings()).expect("motor");
        let mut r = Runner::new(scene, motor, Point3::origin());
        for _ in 0..3 {
            r.step(Vec3::zeros());
            // Jolt: (0.32, 0, 0) within 1e-6 m after each of 3 steps (radius plus padding);
            // ours is the radius, within the pushback tolerance (1e-4 m).
            assert_abs_diff_eq!(r.local(), Point3::new(0.3, 0.0, 0.0), epsilon = 1e-4);
        }
    }
}

/// `TestInitiallyIntersecting2`: spawned in the crossing of two 75 deg slabs (and the box), the
/// character rises out without ever sinking, then walks 2 m and lands back on the floor.
#[test]
fn jolt_initially_intersecting_between_steep_slabs() {
    let mut scene = Scene::new(Frame::world_up());
    jolt_floor(&mut scene);
    add_jolt_intersecting_box(&mut scene);
    for deg in [75.0f32, -75.0] {
        let rot = Quat::from_axis_angle(&Vec3::z_axis(), deg.to_radians());
        scene.add(
            SharedShape::cuboid(1.0, 0.1, 1.0),
            Iso::from_parts(Vec3::zeros().into(), rot),
        );
    }
    let mut r = runner_at(scene, jolt_settings(), Point3::origin(), DT);
    let mut y = r.local().y;
    for step in 0..10 {
        r.step(Vec3::zeros());
        assert!(r.local().y >= y, "step {step}: sank to {}", r.local().y);
        y = r.local().y;
    }
    let p = r.local();
    // Jolt: straight up, |x| and |z| under 1e-3 m, above 0.5 m.
    assert!(p.x.abs() < 1e-3 && p.z.abs() < 1e-3 && p.y > 0.5, "{p:?}");
    let start = r.local();
    r.run(60, Vec3::new(2.0, 0.0, 0.0));
    // Jolt: 2 m further along X, back on the floor, within 0.05 m.
    let expected = Point3::new(start.x + 2.0, 0.0, start.z);
    assert_abs_diff_eq!(r.local(), expected, epsilon = 0.05);
}

/// `TestCharacterVsCharacter`: a 600 m/s character stops against another character (here a
/// static capsule in its place) without tunnelling through it or the box behind it, and
/// against a box put between them; at 1 m/s it ends in the same places.
#[test]
fn jolt_character_vs_character() {
    // Jolt's first character: radius 0.2 m (+0.04 padding), 1.35 m cylinder: 5 spheres.
    let stack = SphereStack::capsule(1.75, 0.2, 5).expect("stack");
    let settings = {
        let mut v = jolt_settings();
        v.max_speed = 1000.0;
        v
    };
    for between in [false, true] {
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        // The second character: radius 0.3 m around a 1.35 m segment, standing at x = 1.
        let other = scene.add(
            SharedShape::capsule_y(0.675, 0.3),
            Iso::translation(1.0, 0.975, 0.0),
        );
        let behind = scene.add_box([1.4, -1.0, -1.0], [1.6, 1.0, 1.0]);
        let wall = between.then(|| scene.add_box([0.4, -1.0, -1.0], [0.6, 1.0, 1.0]));
        let motor = Motor::new(stack.clone(), settings).expect("motor");
        let mut r = Runner::new(scene, motor, Point3::origin());
        // Against the other character: 1 - 0.3 - 0.2; against the box: 0.4 - 0.2 (Jolt's
        // 0.43 and 0.16 include both paddings). 1e-4 m: the pushback tolerance.
        let stop = if between { 0.2 } else { 0.5 };
        for (speed, steps) in [(600.0, 1), (1.0, 61)] {
            r.pose.position = Point3::origin();
            r.state = Default::default();
            r.settle(1);
            let mut touched = Vec::new();
            for _ in 0..steps {
                r.step(Vec3::new(speed, 0.0, 0.0));
                touched.extend(r.report.hits.iter().map(|h| h.collider));
            }
            assert_abs_diff_eq!(r.local(), Point3::new(stop, 0.0, 0.0), epsilon = 1e-4);
            assert!(
                !touched.contains(&behind),
                "speed {speed}: reached the far box"
            );
            let blocker = wall.unwrap_or(other);
            assert!(touched.contains(&blocker), "speed {speed}: {touched:?}");
        }
    }
}

// ----------------------------------------------------------------------------------------
// Scenes of Jolt's character samples (CharacterBaseTest's obstacle course). The sample's
// player walks at 6 m/s with a 45 deg slope limit.
// ----------------------------------------------------------------------------------------

fn sample_settings() -> MotorSettings {
    {
        let mut v = jolt_settings();
        v.slope_limit = 45f32.to_radians();
        v
    }
}

/// Walks +Z from `start` at `speed` (m/s) for `seconds` with the sample's settings, checking
/// every step, and returns the runner.
fn walk_z(
    scene: Scene,
    start: Point3,
    speed: Real,
    seconds: Real,
    mut each: impl FnMut(&Runner),
) -> Runner {
    let mut r = runner_at(scene, sample_settings(), start, DT);
    r.settle(2);
    for _ in 0..(seconds / DT).round() as u32 {
        r.step(Vec3::new(0.0, 0.0, speed));
        each(&r);
    }
    r
}

/// Obstacle course, "small bumps": ten 5 cm high, 1 cm wide bars 0.5 m apart are walked over
/// without losing ground or speed.
#[test]
fn jolt_sample_small_bumps() {
    let mut scene = Scene::new(Frame::world_up());
    jolt_floor(&mut scene);
    for i in 0..10 {
        let z = 2.5 + 0.5 * i as Real;
        scene.add_box([-2.0, 0.0, z - 0.005], [2.0, 0.05, z + 0.005]);
    }
    let mut last_z = 1.0;
    let r = walk_z(scene, Point3::new(0.0, 0.0, 1.0), 6.0, 1.5, |r| {
        assert!(r.report.is_grounded(), "airborne at {:?}", r.local());
        // Bumps lift the round feet straight up: every step covers 6 m/s * dt along Z
        // (1e-4 m: float rounding of the position).
        assert_abs_diff_eq!(r.local().z - last_z, 6.0 * DT, epsilon = 1e-4);
        last_z = r.local().z;
    });
    assert!(r.local().z > 7.5, "stopped at {:?}", r.local());
}

/// Obstacle course, "large bumps": five 0.3 m high, 0.1 m deep bars 2 m apart need the stair
/// step. Identical obstacles behave identically: all five are crossed, at 6 m/s and 1 m/s.
#[test]
fn jolt_sample_large_bumps() {
    for speed in [6.0 as Real, 1.0] {
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        for i in 0..5 {
            let z = 2.5 + 2.0 * i as Real;
            scene.add_box([-2.0, 0.0, z - 0.05], [2.0, 0.3, z + 0.05]);
        }
        let seconds = 12.0 / speed;
        let r = walk_z(scene, Point3::new(0.0, 0.0, 1.0), speed, seconds, |_| {});
        assert!(
            r.local().z > 11.0,
            "{speed} m/s: stopped at {:?}",
            r.local()
        );
    }
}

/// Obstacle course, "box stairs": ten boxes of 0.3 m rise and 0.3 m run, climbed at the
/// sample's 6 m/s and at a slow 0.2 m/s.
#[test]
fn jolt_sample_box_stairs() {
    for speed in [6.0 as Real, 0.9, 0.2] {
        let mut scene = Scene::new(Frame::world_up());
        jolt_floor(&mut scene);
        for i in 0..10 {
            let (y, z) = (0.3 * (i + 1) as Real, 2.5 + 0.3 * i as Real);
            scene.add_box([-2.0, y - 0.3, z - 0.15], [2.0, y, z + 0.15]);
        }
        // The top step's far edge is at z = 5.35; stop on its tread.
        let seconds = 5.0 / speed;
        let mut r = runner_at(scene, sample_settings(), Point3::new(0.0, 0.0, 1.0), DT);
        r.settle(2);
        for _ in 0..(seconds / DT).round() as u32 {
            r.step(Vec3::new(0.0, 0.0, speed));
            if r.local().z > 5.1 {
                break;
            }
        }
        // On the top tread: 3 m up (1e-3 m: the ground probe's tolerance).
        let p = r.local();
        assert!(
            (p.y - 3.0).abs() < 1e-3 && p.z > 5.1,
            "{speed} m/s: stopped at {p:?}"
        );
        assert!(r.report.is_grounded(), "{speed} m/s");
    }
}

/// Obstacle course, "no stairs": ten 0.3 m risers with only 5 cm treads make an 80 deg wall
/// that must not be climbed: the character stays on the floor and never reports ground it
/// does not stand on.
#[test]
fn jolt_sample_treads_too_shallow_to_climb() {
    let mut scene = Scene::new(Frame::world_up());
    let floor = jolt_floor(&mut scene);
    for i in 0..10 {
        let (y, z) = (0.3 * (i + 1) as Real, 10.0 + 0.05 * i as Real);
        scene.add_box([-2.0, y - 0.3, z - 0.15], [2.0, y, z + 0.15]);
    }
    let r = walk_z(scene, Point3::new(0.0, 0.0, 8.0), 6.0, 3.0, |r| {
        if r.report.is_grounded() {
            let hit = r.report.ground_hit.expect("grounded has a hit");
            assert_eq!(hit.collider, floor, "stood on a tread at {:?}", r.local());
        }
    });
    // Pressed against the first riser (its face at z = 9.85), on the floor.
    assert_abs_diff_eq!(r.local().y, 0.0, epsilon = 1e-3);
    assert!(r.report.is_grounded());
}
