//! Nanoseconds per character step: spherewalk's [`Motor::step`] against rapier3d 0.31's
//! `KinematicCharacterController::move_shape`, on the same scenes, in the same criterion group,
//! next to a `floor`: the collision queries one step cannot do without.
//!
//! `cargo bench --bench step -- --warm-up-time 1 --measurement-time 4`
//!
//! One scene only: `cargo bench --bench step -- rocky_planet/` (a criterion filter).
//!
//! **Unit.** One criterion iteration is one fixed step (dt = 1/60 s) of one character, so the
//! reported time per iteration *is* the time per character step (`Throughput::Elements(1)`; the
//! throughput line is steps per second). Each controller carries its simulation state across
//! iterations and restarts from the scene's start pose after a fixed episode (the same scripted
//! walk for both controllers) or as soon as it drifts out of the scene, so both are measured on
//! the same mix of flat ground, stairs, ramps, rocks, hills and walls. The ratio to report is
//! `rapier / spherewalk` per group.
//!
//! **Backend.** `spherewalk_on_rapier` is the same motor and walk on the rapier world the KCC
//! walks (its `ColliderSet` and `BroadPhaseBvh`), read through
//! `spherewalk_rapier::RapierGeometry` instead of a `CollisionWorld`: the ratio
//! `spherewalk_on_rapier / spherewalk` is what the rapier backend costs. Before measuring, each
//! scene checks that both walks end at the same pose, bit for bit.
//!
//! **Floor.** The `floor` function of each group, `floor`, is what any step of a sphere-stack
//! character must at least do: one broad-phase query and one closest point per sphere per
//! nearby primitive. At the poses spherewalk went through in its sanity episode (replayed in
//! order, cycling), it calls [`CollisionWorld::gather_primitives`] with the least box a step
//! must look in (the spheres' bounding box grown by one step's move, speed * dt, and the skin
//! width; speed being the larger of the carried speed plus a step of gravity and the walking
//! speed), then
//! `closest_primitive` (of `WorldQueries`) for every sphere and every gathered primitive whose
//! bounding box overlaps the sphere's. `spherewalk / floor` says how many such passes a motor
//! step costs.
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
//! - `rocky_planet`: the rocky planet of `scenes/rocky.ron`, from the crate's generator
//!   (`spherewalk::scene::planet(20.0, 60, 1.2, 7)`): a ball of radius 20 m and 60 convex rocks
//!   up to 0.6 m high half-buried in it, 61 colliders. Gravity and walk as on `planet`, but the
//!   great circle starts on top heading 135 degrees left of -Z: of the headings tried every 5
//!   degrees (both controllers walked all of them), it gives the circle passing the most rocks,
//!   6 (centres within 0.9 m of its plane). Episode: one great circle (1508 steps).
//! - `heightfield`: `spherewalk::scene::heightfield(64, 64.0, 3.5, 3)`: 64 x 64 cells (8192
//!   triangles) over 64 m x 64 m centred on the origin, hills of +-3.5 m from three sine waves,
//!   steepest slope 29 degrees (the output's `scene` line prints it). Walked on a circle of
//!   radius 20 m round the origin under gravity (0, -9.81, 0). Episode: one lap (1508 steps).
//! - `trimesh`: one triangle mesh of 100 x 100 quads (20,000 triangles, wound counter-clockwise
//!   seen from above, so the front faces up; checked when built) over 100 m x 100 m centred on
//!   the origin, heights from three sines (+-4.3 m, steepest slope 30 degrees). Walked on a
//!   circle of radius 25 m round the origin. Episode: one lap (1885 steps).
//! - `box_grid`: the seam floor `spherewalk::scene::box_grid(40, 40, 1.0)`: 1600 unit cubes
//!   edge to edge, tops at y = 0, centred on the origin. Walked on a circle of radius 15 m
//!   round the origin, so the feet cross seams at every angle. Episode: one lap (1131 steps).
//!
//! **Characters.** spherewalk: `SphereStack::capsule(1.8, 0.3, 3)` with `MotorSettings::default()`
//! (`UpFrame::Gravity`; on the planets the intent is `pose.forward() * 5`). rapier: a capsule of
//! total height 1.8 m and radius 0.3 m, with the KCC settings that mirror our defaults: offset
//! 0.01 m (our skin width), autostep 0.35 m high / 0.1 m wide, snap to ground 0.35 m, climb and
//! slide slope limits 45 degrees. The rapier KCC leaves gravity to the caller, so it is driven the
//! usual way: the vertical speed resets to zero when grounded and accumulates gravity every step,
//! and the desired translation is `(horizontal velocity + up * vertical speed) * dt`. On the
//! planets `kcc.up` and the capsule's axis follow the radial direction each step, and the heading
//! is carried along by projecting it onto the new tangent plane (a great circle, like ours).
//!
//! Before measuring, each scene prints what it holds, then runs one episode per controller and
//! prints a one-line sanity check to stderr (final position, grounded share, distance walked,
//! height range, step-ups, restarts, and for spherewalk the deepest penetration), so a stuck or
//! sinking character shows; a line ends in `POOR WALK` when the controller covered less than
//! 90 % of the distance, was grounded less than 90 % of the steps or restarted before the
//! episode's end. A last line gives the floor's average work per step.

#[path = "common/kcc.rs"]
mod kcc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapier3d::control::KinematicCharacterController;
use rapier3d::prelude as rp;
use spherewalk::na::{Rotation3, Translation3};
use spherewalk::parry3d::bounding_volume::{Aabb, BoundingVolume};
use spherewalk::parry3d::query::Ray;
use spherewalk::parry3d::shape::{Capsule, SharedShape, Triangle};
use spherewalk::world::WorldQueries;
use spherewalk::{
    ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Quat,
    Real, SphereStack, StepInput, StepReport, UnitVec3, Vec3, backend::Geometry,
    backend::Primitive, math, math::Iso, world::QueryFilter,
};
use spherewalk_rapier::RapierGeometry;
use std::hint::black_box;

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
/// Below this share of the episode's distance or of grounded steps, the sanity line says
/// `POOR WALK`.
const POOR_SHARE: Real = 0.9;

/// One collider of a scene, shared by both worlds.
type Part = (SharedShape, Iso);

/// How the character is driven through a scene.
#[derive(Clone, Copy, Debug)]
enum Walk {
    /// Uniform gravity along -Y; the heading turns at `SPEED / radius` so the character walks a
    /// circle of `radius` (m) counter-clockwise seen from above, starting at `start` (world, m)
    /// heading +Z, for `steps` steps. Feet leaving `low..=high` (world y, m) count as drifting.
    Circle {
        start: Point3,
        radius: Real,
        steps: u32,
        low: Real,
        high: Real,
    },
    /// Gravity points at `centre`; the character starts on top of the ball of `radius` (m),
    /// facing -Z turned `heading` rad left about +Y, and walks forward.
    Planet {
        centre: Point3,
        radius: Real,
        heading: Real,
    },
}

impl Walk {
    /// Feet position (world, m) at the start of an episode.
    fn start(&self) -> Point3 {
        match *self {
            Walk::Circle { start, .. } => start,
            Walk::Planet { centre, radius, .. } => centre + Vec3::y() * radius,
        }
    }

    /// Turn (rad, left about +Y) of the starting heading from -Z.
    fn heading(&self) -> Real {
        match *self {
            Walk::Circle { .. } => 0.0,
            Walk::Planet { heading, .. } => heading,
        }
    }

    /// spherewalk's pose at the start of an episode: at [`Walk::start`], up +Y, facing
    /// [`Walk::forward`].
    fn start_pose(&self) -> Pose {
        let mut pose = Pose::new(self.start());
        pose.orientation = math::axis_angle(&Vec3::y_axis(), self.heading());
        pose
    }

    /// Heading (world, unit) at the start of an episode.
    fn forward(&self) -> UnitVec3 {
        math::axis_angle(&Vec3::y_axis(), self.heading()) * -Vec3::z_axis()
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

    /// Height of `feet` (m): world y, or height above the planet's surface.
    fn height(&self, feet: &Point3) -> Real {
        match *self {
            Walk::Circle { .. } => feet.y,
            Walk::Planet { centre, radius, .. } => (feet - centre).norm() - radius,
        }
    }

    /// Steps in one episode: the circle's `steps`, or one great circle of the planet.
    fn episode(&self) -> u32 {
        match *self {
            Walk::Circle { steps, .. } => steps,
            Walk::Planet { radius, .. } => lap_steps(radius),
        }
    }

    /// True when the character left the area the episode is meant to cover.
    fn drifted(&self, feet: &Point3) -> bool {
        match *self {
            Walk::Circle {
                start,
                radius,
                low,
                high,
                ..
            } => {
                let centre = start - Vec3::x() * radius;
                let away = Vec3::new(feet.x - centre.x, 0.0, feet.z - centre.z).norm();
                away > radius + 6.0 || !(low..=high).contains(&feet.y)
            }
            Walk::Planet { .. } => self.height(feet).abs() > 1.0,
        }
    }
}

/// Steps (at `SPEED`) of one lap of a circle of `radius` (m).
fn lap_steps(radius: Real) -> u32 {
    (2.0 * std::f32::consts::PI * radius / SPEED / DT).round() as u32
}

/// A named scene: its colliders, how the character walks through it, and a line about what
/// it holds (printed before the sanity lines).
struct Scene {
    name: &'static str,
    parts: Vec<Part>,
    walk: Walk,
    about: String,
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
    let about = format!("{} cuboids", parts.len());
    Scene {
        name: "playground",
        parts,
        walk: Walk::Circle {
            start: Point3::new(6.0, 0.0, 0.0),
            radius: 6.0,
            steps: 900,
            low: -1.0,
            high: 4.0,
        },
        about,
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
            heading: 0.0,
        },
        about: "1 ball".to_owned(),
    }
}

/// The generator's parts placed in the world by `group` (the pose of the generator-local
/// frame, m, rad): each part's world pose is `group * part.pose`, as `Part::collider` places
/// it.
fn placed(generated: Vec<spherewalk::scene::Part>, group: &Iso) -> Vec<Part> {
    generated
        .into_iter()
        .map(|part| (part.shape, group * part.pose))
        .collect()
}

/// World y (m) of the highest surface of `parts` under (x, z) (a ray cast straight down from
/// y = 1000 m); panics when nothing is there (the scenes below always have ground).
fn ground_y(parts: &[Part], x: Real, z: Real) -> Real {
    let top = 1000.0;
    let ray = Ray::new(Point3::new(x, top, z), -Vec3::y());
    parts
        .iter()
        .filter_map(|(shape, pose)| shape.cast_ray(pose, &ray, 2.0 * top, true))
        .reduce(Real::min)
        .map(|toi| top - toi)
        .unwrap_or_else(|| panic!("no ground under ({x}, {z})"))
}

/// Triangles (world, m) of every heightfield and trimesh among `parts`.
fn triangles(parts: &[Part]) -> Vec<Triangle> {
    let mut out = Vec::new();
    for (shape, pose) in parts {
        if let Some(field) = shape.as_heightfield() {
            out.extend(field.triangles().map(|t| t.transformed(pose)));
        } else if let Some(mesh) = shape.as_trimesh() {
            out.extend(mesh.triangles().map(|t| t.transformed(pose)));
        }
    }
    out
}

/// "N triangles, steepest X deg, Y % over 30 deg" for the terrain triangles of `parts`
/// (slope = angle between the face normal, either side, and +Y).
fn slopes(parts: &[Part]) -> String {
    let tris = triangles(parts);
    let angles: Vec<Real> = tris
        .iter()
        .filter_map(Triangle::normal)
        .map(|n| n.y.abs().min(1.0).acos().to_degrees())
        .collect();
    let steepest = angles.iter().copied().fold(0.0, Real::max);
    let over = angles.iter().filter(|&&a| a > 30.0).count();
    format!(
        "{} triangles, steepest {steepest:.1} deg, {:.1} % over 30 deg",
        tris.len(),
        100.0 * over as Real / angles.len().max(1) as Real,
    )
}

/// The rocky planet of `scenes/rocky.ron` (radius 20 m, 60 rocks of 1.2 m, seed 7), walked on
/// a great circle that meets rocks.
fn rocky_planet() -> Scene {
    let generated = spherewalk::scene::planet(20.0, 60, 1.2, 7).unwrap_or_else(|e| panic!("{e}"));
    let parts = placed(generated, &Iso::identity());
    let walk = Walk::Planet {
        centre: Point3::origin(),
        radius: 20.0,
        heading: 135f32.to_radians(),
    };
    // Rocks whose centre lies within a rock's half size plus the character's radius of the
    // great circle's plane: the ones the walk meets.
    let plane = Vec3::y().cross(&walk.forward());
    let met = parts[1..]
        .iter()
        .filter(|(_, pose)| pose.translation.vector.dot(&plane).abs() < 0.6 + RADIUS)
        .count();
    let about = format!(
        "1 ball and {} rocks; the great circle passes {met} rocks",
        parts.len() - 1
    );
    Scene {
        name: "rocky_planet",
        parts,
        walk,
        about,
    }
}

/// A circle walk of `radius` (m) round the origin on the terrain `parts`, one lap long, with
/// the drift band 2 m below and 3 m above the terrain's height range `low..high` (m).
fn terrain_walk(parts: &[Part], radius: Real, low: Real, high: Real) -> Walk {
    // A little above the ground, so a start on a slope does not begin inside it.
    let start = Point3::new(radius, ground_y(parts, radius, 0.0) + 0.05, 0.0);
    Walk::Circle {
        start,
        radius,
        steps: lap_steps(radius),
        low: low - 2.0,
        high: high + 3.0,
    }
}

/// The crate's generated heightfield: 64 x 64 cells over 64 m, hills of +-3.5 m.
fn heightfield() -> Scene {
    let amplitude = 3.5;
    let generated =
        spherewalk::scene::heightfield(64, 64.0, amplitude, 3).unwrap_or_else(|e| panic!("{e}"));
    let parts = placed(generated, &Iso::identity());
    let walk = terrain_walk(&parts, 20.0, -amplitude, amplitude);
    let about = format!("1 heightfield, {}", slopes(&parts));
    Scene {
        name: "heightfield",
        parts,
        walk,
        about,
    }
}

/// Height (m) of the trimesh terrain at (x, z) (world, m): three sines, within +-4.35 m.
fn hills(x: Real, z: Real) -> Real {
    2.4 * (0.09 * x + 0.4).sin() * (0.11 * z - 0.3).cos()
        + 1.4 * (0.15 * x + 0.12 * z + 1.3).sin()
        + 0.55 * (0.31 * x - 0.27 * z + 0.6).sin()
}

/// A 100 x 100-quad (20,000-triangle) mesh over 100 m x 100 m centred on the origin, heights
/// from [`hills`], each quad split into two triangles wound counter-clockwise seen from above
/// (front up, as spherewalk's one-sided triangles need).
fn trimesh() -> Scene {
    let (quads, size) = (100u32, 100.0);
    let cell = size / quads as Real;
    let samples = quads + 1;
    let mut vertices = Vec::with_capacity((samples * samples) as usize);
    // Vertex (i, k) at x = -50 + i, z = -50 + k, index i * samples + k.
    for i in 0..samples {
        for k in 0..samples {
            let (x, z) = (
                -size / 2.0 + i as Real * cell,
                -size / 2.0 + k as Real * cell,
            );
            vertices.push(Point3::new(x, hills(x, z), z));
        }
    }
    let at = |i: u32, k: u32| i * samples + k;
    let mut indices = Vec::with_capacity(2 * (quads * quads) as usize);
    for i in 0..quads {
        for k in 0..quads {
            let (a, b, c, d) = (at(i, k), at(i + 1, k), at(i + 1, k + 1), at(i, k + 1));
            // (d - a) x (c - a) and (c - a) x (b - a) point up (+Y) for a flat quad.
            indices.push([a, d, c]);
            indices.push([a, c, b]);
        }
    }
    let (low, high) = vertices.iter().fold((Real::MAX, Real::MIN), |(lo, hi), v| {
        (lo.min(v.y), hi.max(v.y))
    });
    let shape = SharedShape::trimesh(vertices, indices).unwrap_or_else(|e| panic!("{e}"));
    let parts = vec![(shape, Iso::identity())];
    let down = triangles(&parts)
        .iter()
        .filter(|t| t.normal().is_none_or(|n| n.y <= 0.0))
        .count();
    assert_eq!(down, 0, "every trimesh triangle must face up");
    let walk = terrain_walk(&parts, 25.0, low, high);
    let about = format!(
        "1 trimesh, {}, heights {low:.2}..{high:.2} m",
        slopes(&parts)
    );
    Scene {
        name: "trimesh",
        parts,
        walk,
        about,
    }
}

/// The crate's seam floor: 40 x 40 unit cubes edge to edge, tops at y = 0, centred on the
/// origin.
fn box_grid() -> Scene {
    let (n, size) = (40, 1.0);
    let generated = spherewalk::scene::box_grid(n, n, size).unwrap_or_else(|e| panic!("{e}"));
    let half = n as Real * size / 2.0;
    let parts = placed(generated, &Iso::translation(-half, 0.0, -half));
    let about = format!("{} cubes of {size} m", parts.len());
    Scene {
        name: "box_grid",
        walk: terrain_walk(&parts, 15.0, 0.0, 0.0),
        parts,
        about,
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

/// The world a spherewalk character walks in: the scene's parts as static colliders.
fn spherewalk_world(scene: &Scene) -> CollisionWorld {
    let mut world = CollisionWorld::new();
    for (shape, pose) in &scene.parts {
        world
            .insert(ColliderDesc::new(shape.clone()).pose(*pose))
            .expect("scene colliders are finite");
    }
    world.optimize();
    world
}

/// The queries of one [`Floor`] pass, computed from one pose spherewalk went through.
struct FloorFrame {
    /// The box the motor gathers primitives in (world, m).
    bounds: Aabb,
    /// Each sphere's centre (world, m) and radius (m).
    spheres: [(Point3, Real); SPHERES],
}

/// The world a [`Spherewalk`] character walks in: spherewalk's own, or a rapier world's sets
/// and broad phase seen through `spherewalk_rapier::RapierGeometry`.
enum Backend {
    Native(Box<CollisionWorld>),
    Rapier(Box<RapierSets>),
}

/// What `RapierGeometry` reads: the scene's parts as fixed rapier colliders, in the broad phase.
struct RapierSets {
    bodies: rp::RigidBodySet,
    colliders: rp::ColliderSet,
    broad_phase: rp::BroadPhaseBvh,
}

/// The scene's parts as fixed rapier colliders, and a broad phase holding them: one
/// broad-phase update builds the BVH the queries use (static colliders only).
fn rapier_sets(scene: &Scene) -> (rp::RigidBodySet, rp::ColliderSet, rp::BroadPhaseBvh) {
    let bodies = rp::RigidBodySet::new();
    let mut colliders = rp::ColliderSet::new();
    let handles: Vec<rp::ColliderHandle> = scene
        .parts
        .iter()
        .map(|(shape, pose)| {
            colliders.insert(rp::ColliderBuilder::new(shape.clone()).position(*pose))
        })
        .collect();
    let mut broad_phase = rp::BroadPhaseBvh::new();
    let params = rp::IntegrationParameters::default();
    let mut events = Vec::new();
    broad_phase.update(&params, &colliders, &bodies, &handles, &[], &mut events);
    (bodies, colliders, broad_phase)
}

/// spherewalk: [`Motor::step`] on a [`CollisionWorld`], or on a rapier world.
struct Spherewalk {
    walk: Walk,
    world: Backend,
    motor: Motor,
    pose: Pose,
    state: MotorState,
    report: StepReport,
    tick: u32,
    restarts: u32,
    /// When recording: the floor's queries at the pose before each step.
    frames: Option<Vec<FloorFrame>>,
}

impl Spherewalk {
    /// A character at the start of `scene`'s walk, in a world of its parts.
    fn new(scene: &Scene) -> Self {
        let stack = SphereStack::capsule(HEIGHT, RADIUS, SPHERES).expect("valid capsule");
        let motor = Motor::new(stack, MotorSettings::default()).expect("default settings");
        Self {
            walk: scene.walk,
            world: Backend::Native(Box::new(spherewalk_world(scene))),
            motor,
            pose: scene.walk.start_pose(),
            state: MotorState::default(),
            report: StepReport::new(),
            tick: 0,
            restarts: 0,
            frames: None,
        }
    }

    /// Like [`Spherewalk::new`], in a rapier world of the scene's parts (the one the rapier
    /// controller walks, built the same way).
    fn on_rapier(scene: &Scene) -> Self {
        let (bodies, colliders, broad_phase) = rapier_sets(scene);
        let sets = RapierSets {
            bodies,
            colliders,
            broad_phase,
        };
        Self {
            world: Backend::Rapier(Box::new(sets)),
            ..Self::new(scene)
        }
    }

    /// Like [`Spherewalk::new`], recording a [`FloorFrame`] before every step.
    fn recording(scene: &Scene) -> Self {
        Self {
            frames: Some(Vec::new()),
            ..Self::new(scene)
        }
    }

    /// The floor's queries at the current pose, for a step under `gravity` (m/s², world):
    /// the least box any step must look in (the spheres' bounding box grown by one step's move
    /// and the skin width) and the sphere centres.
    fn frame(&self, gravity: &Vec3) -> FloorFrame {
        let (stack, s) = (self.motor.stack(), self.motor.settings());
        let speed = (self.state.velocity.norm() + gravity.norm() * DT)
            .max(SPEED)
            .min(s.max_speed);
        let p = self.pose.position;
        let mut spheres = [(p, 0.0); SPHERES];
        let grow = speed * DT + s.skin_width;
        let (mut lo, mut hi) = (p, p);
        for (slot, sphere) in spheres.iter_mut().zip(stack.spheres()) {
            let centre = self.pose.centre_at(sphere.offset_local);
            *slot = (centre, sphere.radius);
            let r = Vec3::repeat(sphere.radius + grow);
            lo = lo.inf(&(centre - r));
            hi = hi.sup(&(centre + r));
        }
        FloorFrame {
            bounds: Aabb::new(lo, hi),
            spheres,
        }
    }
}

impl Character for Spherewalk {
    fn step(&mut self) -> Point3 {
        if self.tick >= self.walk.episode() || self.walk.drifted(&self.pose.position) {
            self.pose = self.walk.start_pose();
            self.state = MotorState::default();
            self.tick = 0;
            self.restarts += 1;
        }
        let gravity = self.walk.gravity(&self.pose.position);
        let frame = self.frames.is_some().then(|| self.frame(&gravity));
        if let (Some(frames), Some(frame)) = (self.frames.as_mut(), frame) {
            frames.push(frame);
        }
        let velocity = match self.walk {
            Walk::Circle { radius, .. } => Walk::circle_velocity(radius, self.tick),
            Walk::Planet { .. } => self.pose.forward().into_inner() * SPEED,
        };
        let input = StepInput::new(MoveIntent::walk(velocity), gravity, DT);
        let (pose, state) = (&mut self.pose, &mut self.state);
        let on_rapier;
        let world: &dyn Geometry = match &self.world {
            Backend::Native(world) => &**world,
            Backend::Rapier(sets) => {
                on_rapier = RapierGeometry::new(&sets.bodies, &sets.colliders, &sets.broad_phase);
                &on_rapier
            }
        };
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

/// The floor of a step (see the module doc): the broad-phase gather and the closest points,
/// replayed at recorded poses, cycling.
struct Floor {
    /// The recorded character's world.
    world: CollisionWorld,
    /// The motor's collision filter.
    filter: QueryFilter,
    /// The queries at each recorded pose, in episode order.
    frames: Vec<FloorFrame>,
    /// Index of the frame the next pass replays.
    next: usize,
    /// Scratch for the broad phase, kept across passes like the motor's.
    ids: Vec<spherewalk::ColliderId>,
    /// The gathered primitives, kept across passes like the motor's.
    prims: Vec<Primitive>,
}

impl Floor {
    /// A floor over the recorded frames of `sim` (which must have been recording), in its
    /// world (spherewalk's own).
    fn new(sim: Spherewalk) -> Self {
        let frames = sim.frames.unwrap_or_default();
        assert!(!frames.is_empty(), "the floor needs recorded poses");
        let Backend::Native(world) = sim.world else {
            panic!("the floor replays the native world");
        };
        Self {
            world: *world,
            filter: *sim.motor.filter(),
            frames,
            next: 0,
            ids: Vec::new(),
            prims: Vec::new(),
        }
    }

    /// One pass at the next frame: gathers the primitives in the least box, then the closest
    /// point of every primitive whose box overlaps a sphere's, for every sphere. Returns
    /// (primitives gathered, closest points asked, closest points found).
    fn pass(&mut self) -> (usize, usize, usize) {
        let frame = &self.frames[self.next];
        self.next = (self.next + 1) % self.frames.len();
        self.prims.clear();
        self.world
            .gather_primitives(&frame.bounds, &self.filter, &mut self.ids, &mut self.prims);
        let (mut asked, mut found) = (0, 0);
        for (centre, radius) in &frame.spheres {
            let r = Vec3::repeat(*radius);
            let sphere = Aabb::new(centre - r, centre + r);
            for prim in &self.prims {
                if prim.aabb.intersects(&sphere) {
                    asked += 1;
                    let world: &dyn Geometry = &self.world;
                    let closest = world.closest_primitive(prim, centre, *radius);
                    found += usize::from(black_box(closest).is_some());
                }
            }
        }
        (self.prims.len(), asked, found)
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
    /// Heading (world, unit, tangent to the ground): carried along on the planets.
    forward: UnitVec3,
    /// Speed along up (m/s), integrated by the caller as rapier's KCC expects.
    vertical_speed: Real,
    grounded: bool,
    tick: u32,
    restarts: u32,
}

impl Rapier {
    /// A character at the start of `scene`'s walk, in a rapier world of its parts.
    fn new(scene: &Scene) -> Self {
        let (bodies, colliders, broad_phase) = rapier_sets(scene);
        let kcc = kcc::kcc();
        Self {
            walk: scene.walk,
            bodies,
            colliders,
            broad_phase,
            narrow_phase: rp::NarrowPhase::new(),
            kcc,
            shape: Capsule::new_y(HEIGHT / 2.0 - RADIUS, RADIUS),
            feet: scene.walk.start(),
            forward: scene.walk.forward(),
            vertical_speed: 0.0,
            grounded: false,
            tick: 0,
            restarts: 0,
        }
    }

    /// Back to the start of the walk, at rest.
    fn restart(&mut self) {
        self.feet = self.walk.start();
        self.forward = self.walk.forward();
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
    let restarts = sim.restarts();
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
    let planned = SPEED * DT * steps as Real;
    let grounded_share = grounded as Real / steps as Real;
    let restarted = sim.restarts() - restarts;
    let poor = path < POOR_SHARE * planned || grounded_share < POOR_SHARE || restarted > 0;
    eprintln!(
        "sanity {}/{label}: {steps} steps -> feet ({:.2}, {:.2}, {:.2}), grounded {:.0}%, walked \
         {path:.1} m of {planned:.1} m, height {low:.2}..{high:.2} m, {step_ups} step-ups, \
         {restarted} restarts{penetration}{}",
        scene.name,
        p.x,
        p.y,
        p.z,
        100.0 * grounded_share,
        if poor { " POOR WALK" } else { "" },
    );
}

/// Prints the floor's average work per step over one cycle of its frames, then rewinds it.
fn floor_sanity(scene: &Scene, floor: &mut Floor) {
    let n = floor.frames.len();
    let (mut gathered, mut asked, mut found) = (0, 0, 0);
    for _ in 0..n {
        let (g, a, f) = floor.pass();
        gathered += g;
        asked += a;
        found += f;
    }
    floor.next = 0;
    let per = |total: usize| total as Real / n as Real;
    eprintln!(
        "sanity {}/floor: {n} recorded poses, per step {:.1} primitives gathered, {:.1} closest \
         points asked, {:.1} within a sphere's radius",
        scene.name,
        per(gathered),
        per(asked),
        per(found),
    );
}

/// Benchmarks both controllers and the floor on `scene` in one group named after it.
fn bench_scene(c: &mut Criterion, scene: &Scene) {
    eprintln!("scene {}: {}", scene.name, scene.about);
    let mut ours = Spherewalk::new(scene);
    let mut theirs = Rapier::new(scene);
    let mut on_rapier = Spherewalk::on_rapier(scene);
    let mut recorded = Spherewalk::recording(scene);
    sanity(scene, "spherewalk", &mut recorded);
    let mut check = Spherewalk::on_rapier(scene);
    sanity(scene, "spherewalk_on_rapier", &mut check);
    // The same primitives in the same order: the same walk, bit for bit.
    assert_eq!(
        check.pose, recorded.pose,
        "{}: rapier backend differs",
        scene.name
    );
    sanity(scene, "rapier", &mut Rapier::new(scene));
    let mut floor = Floor::new(recorded);
    floor_sanity(scene, &mut floor);
    let mut group = c.benchmark_group(scene.name);
    group.throughput(Throughput::Elements(1));
    group.bench_function("spherewalk", |b| b.iter(|| ours.step()));
    group.bench_function("spherewalk_on_rapier", |b| b.iter(|| on_rapier.step()));
    group.bench_function("rapier", |b| b.iter(|| theirs.step()));
    group.bench_function("floor", |b| b.iter(|| floor.pass()));
    group.finish();
}

/// Every scene, in the order of the module doc.
fn benches(c: &mut Criterion) {
    bench_scene(c, &playground());
    bench_scene(c, &planet());
    bench_scene(c, &rocky_planet());
    bench_scene(c, &heightfield());
    bench_scene(c, &trimesh());
    bench_scene(c, &box_grid());
}

criterion_group!(step, benches);
criterion_main!(step);
