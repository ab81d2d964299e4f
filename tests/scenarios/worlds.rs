//! Small worlds of any shape under surface gravity: a character walks once round a cube, a
//! capsule and a torus's tube, turning over every edge, and comes back to where it began.

use spherewalk::scene::SceneFile;
use spherewalk::trace::{TraceRecord, records};
use spherewalk::world::WorldQueries;
use spherewalk::{Point3, Real, Vec3};
use std::path::Path;

/// The turn (rad, in -pi..pi) from angle `from` to angle `to`, across the -pi/pi seam.
fn angle_step(from: Real, to: Real) -> Real {
    let delta = to - from;
    if delta > std::f32::consts::PI {
        delta - std::f32::consts::TAU
    } else if delta < -std::f32::consts::PI {
        delta + std::f32::consts::TAU
    } else {
        delta
    }
}

/// What one walk round a world measured.
struct Walk {
    /// Distance (m) from the start when the walk had turned once round `pivot`.
    miss: Real,
    /// Steps it took.
    steps: u32,
    /// Deepest penetration reported by any step (m).
    worst_penetration: Real,
    /// Steps ended off the ground.
    airborne: u32,
    /// Least distance (m) the walker's position kept from the start of the walk after the
    /// first tenth of the way, to show it really went round.
    farthest: Real,
    /// Farthest the walker's position strayed from the XY plane it started in (m).
    off_plane: Real,
    /// Largest gap (m) between the feet sphere and the world's surface after a step, from the
    /// first landing on.
    gap: Real,
}

/// Builds a scene of one `collider` (RON), a surface field toward it of 9.81 m/s² within
/// `reach` metres, and a 1.8 m x 0.3 m walker with default settings standing at `at` facing
/// +X, walking forward at `speed` m/s. Steps until the walker's position has turned once
/// round `pivot` about world Z (the walk stays in the XY plane), or `most` steps.
fn walk_round(
    (collider, reach): (&str, Real),
    at: [Real; 3],
    pivot: Point3,
    most: u32,
    speed: Real,
) -> Walk {
    let text = format!(
        "Scene(
            gravity: [Surface(collider: \"world\", strength: 9.81, reach: {reach:?})],
            colliders: [{collider}],
            characters: [Character(
                name: \"walker\",
                stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),
                at: ({:?}, {:?}, {:?}),
                yaw_deg: -90.0,
                settings: (),
                input: Script(looping: true, commands: [Walk(forward: {speed:?}, seconds: 1000.0)]),
            )],
        )",
        at[0], at[1], at[2]
    );
    let file = SceneFile::parse(&text, "world.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut scene = file
        .build(Path::new("."), Path::new("world.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let start = Point3::from(at);
    let angle_of = |p: &Point3| (p.y - pivot.y).atan2(p.x - pivot.x);
    let mut last_angle = angle_of(&start);
    let mut turned: Real = 0.0;
    let mut rows: Vec<TraceRecord> = Vec::new();
    let mut walk = Walk {
        miss: Real::INFINITY,
        steps: 0,
        worst_penetration: 0.0,
        airborne: 0,
        farthest: 0.0,
        off_plane: 0.0,
        gap: 0.0,
    };
    // The world's own collider (the walker's body collider is in the collision world too).
    let (_, world) = scene
        .sim
        .collision
        .iter()
        .find(|(id, _)| scene.sim.collider_name(*id) == Some("world"))
        .expect("the world collider");
    let world = world.clone();
    let mut position = start;
    let mut landed = false;
    while walk.steps < most && turned.abs() < std::f32::consts::TAU {
        scene.sim.step();
        walk.steps += 1;
        rows.clear();
        records(&scene.sim, &mut rows);
        let row = &rows[0];
        position = Point3::from(row.pos);
        walk.worst_penetration = walk.worst_penetration.max(row.max_penetration);
        walk.airborne += u32::from(!row.grounded);
        let angle = angle_of(&position);
        turned += angle_step(last_angle, angle);
        last_angle = angle;
        walk.farthest = walk.farthest.max((position - start).norm());
        walk.off_plane = walk.off_plane.max((position.z - start.z).abs());
        // The feet sphere (0.3 m) is centred 0.3 m up the walker's up from its position.
        let feet = position + Vec3::from(row.up) * 0.3;
        let gap = world.shape.distance_to_point(&world.pose, &feet, true) - 0.3;
        // From its first landing on (it starts 2 cm up).
        landed |= row.grounded;
        if landed {
            walk.gap = walk.gap.max(gap);
        }
    }
    walk.miss = (position - start).norm();
    walk
}

/// The bounds every walk is held to; `plane` is how far (m) it may stray from its start's XY
/// plane.
fn check(name: &str, walk: &Walk, most: u32, plane: Real) {
    assert!(
        walk.off_plane < plane,
        "{name}: strayed {} m from the XY plane",
        walk.off_plane
    );
    assert!(
        walk.steps < most,
        "{name}: did not get round in {most} steps"
    );
    // The bound: back at the start within 0.5 m.
    assert!(
        walk.miss < 0.5,
        "{name}: ended {} m from the start",
        walk.miss
    );
    // The default skin is 1 cm: no step left the walker deeper than skin + 1 mm.
    assert!(
        walk.worst_penetration < 0.011,
        "{name}: penetrated {} m",
        walk.worst_penetration
    );
    // Over each edge it keeps its feet: grounded on all but a few steps.
    assert!(
        walk.airborne <= 3,
        "{name}: airborne for {} of {} steps",
        walk.airborne,
        walk.steps
    );
}

#[test]
fn walks_once_round_a_cube_world_over_all_four_edges() {
    // A 10 m cube with edges rounded by 0.5 m; the walker starts on top, walking +X, and goes
    // down the +X face, across the bottom and up the -X face: 38 m at 4 m/s is 570 steps. It
    // starts 2 cm up, out of contact, and lands at once.
    let walk = walk_round(
        (
            "Solid(name: \"world\", shape: Cuboid(half_extents: (4.5, 4.5, 4.5), border_radius: 0.5))",
            6.0,
        ),
        [0.0, 5.02, 0.0],
        Point3::origin(),
        900,
        4.0,
    );
    // The walk is along a symmetry plane of the cube: it stays in it within 1 mm.
    check("cube", &walk, 900, 0.001);
    // It went all the way round: at some point it was across the cube (over 10 m away).
    assert!(walk.farthest > 10.0, "only got {} m away", walk.farthest);
}

/// Issue 28: surface gravity round a sharp-edged cube (border radius 0). Gravity used to be
/// read at the middle of the stack, which lags the turn round an edge: at 4 m/s the walker
/// left the edge and fell back onto the next face. Read at the feet sphere's centre, it
/// loops a 10 m cube at 2, 4 and 6 m/s with its feet on the cube.
#[test]
fn walks_round_a_sharp_cube_world_at_2_4_and_6_m_s() {
    for speed in [2.0, 4.0, 6.0] {
        // A lap is 40 m; the walker starts on top, 2 cm up, walking +X.
        let most = (60.0 / speed / (1.0 / 60.0)) as u32;
        let walk = walk_round(
            (
                "Solid(name: \"world\", shape: Cuboid(half_extents: (5.0, 5.0, 5.0)))",
                20.0,
            ),
            [0.0, 5.02, 0.0],
            Point3::origin(),
            most,
            speed,
        );
        eprintln!(
            "sharp cube at {speed} m/s: {} steps, gap {:.4} m, airborne {}, deepest {:.4} m, \
             off plane {:.5} m, back within {:.3} m",
            walk.steps, walk.gap, walk.airborne, walk.worst_penetration, walk.off_plane, walk.miss
        );
        // The bound: never more than 0.5 m from the surface.
        assert!(walk.gap < 0.5, "{speed} m/s: {} m off the cube", walk.gap);
        check(&format!("sharp cube at {speed} m/s"), &walk, most, 0.001);
        assert!(walk.farthest > 10.0, "only got {} m away", walk.farthest);
    }
}

#[test]
fn walks_once_round_a_capsule_world_over_both_caps() {
    // A capsule 8 m between cap centres, radius 3: its length round is 2 * 8 + 2 pi 3 =
    // 34.8 m, 522 steps at 4 m/s.
    let walk = walk_round(
        (
            "Solid(name: \"world\", shape: Capsule(half_height: 4.0, radius: 3.0), rot_deg: (0.0, 0.0, 90.0))",
            5.0,
        ),
        [0.0, 3.0, 0.0],
        Point3::origin(),
        800,
        4.0,
    );
    // The walk is along a symmetry plane of the capsule: it stays in it within 1 mm.
    check("capsule", &walk, 800, 0.001);
    assert!(walk.farthest > 6.0, "only got {} m away", walk.farthest);
}

#[test]
fn walks_once_round_a_torus_tube_through_the_hole() {
    // A ring of radius 8 round world Y with a 3 m tube, cut by the XY plane into two
    // circles; the walker goes round the one centred on (8, 0, 0): over the top, down the
    // outside, under, and up the inside facing the hole. 2 pi 3 = 18.8 m, 283 steps.
    let walk = walk_round(
        (
            "Torus(name: \"world\", major_radius: 8.0, minor_radius: 3.0, segments: 64, sides: 32)",
            4.0,
        ),
        [8.0, 3.0, 0.0],
        Point3::new(8.0, 0.0, 0.0),
        600,
        4.0,
    );
    // The walk follows a seam of the faceted tube (64 segments round Y, 5.6 degrees apart).
    // Under and inside the tube the seam is a concave crease: the feet sphere's centre, where
    // gravity is read, is as near one face as the other, and the pull picks one of them, so
    // the walk bends by up to 12 mm over the lap (0.7 mm when gravity was read at mid-stack,
    // 0.9 m from the crease). 2 cm.
    check("torus", &walk, 600, 0.02);
    assert!(walk.farthest > 5.5, "only got {} m away", walk.farthest);
}

#[test]
fn a_surface_field_naming_a_missing_or_many_part_collider_is_refused_by_name() {
    let build = |text: &str| {
        SceneFile::parse(text, "bad.ron")
            .unwrap_or_else(|e| panic!("{e}"))
            .build(Path::new("."), Path::new("bad.ron"))
            .map(|_| ())
            .expect_err("refused")
            .to_string()
    };
    let missing = build(
        "Scene(gravity: [Surface(collider: \"moon\", strength: 9.81, reach: 2.0)],
               colliders: [Solid(name: \"earth\", shape: Ball(radius: 2.0))])",
    );
    assert!(
        missing.contains("\"moon\"") && missing.contains("no collider"),
        "{missing}"
    );
    let stairs = build(
        "Scene(gravity: [Surface(collider: \"stairs\", strength: 9.81, reach: 2.0)],
               colliders: [Stairs(steps: 3, rise: 0.2, tread: 0.3, width: 1.0)])",
    );
    assert!(stairs.contains("3 parts"), "{stairs}");
    // Bad numbers are refused while parsing, with the item's line.
    for bad in ["strength: -1.0, reach: 2.0", "strength: 9.81, reach: 0.0"] {
        let text = format!(
            "Scene(gravity: [Surface(collider: \"earth\", {bad})],
                   colliders: [Solid(name: \"earth\", shape: Ball(radius: 2.0))])"
        );
        let e = SceneFile::parse(&text, "bad.ron").expect_err("refused");
        assert!(e.to_string().contains("bad.ron:1:"), "{e}");
    }
}

#[test]
fn surface_gravity_points_at_the_closest_point_of_the_cube() {
    use spherewalk::{GravityField, GravityFields, gravity::Surface};
    let cube = Surface::new(
        spherewalk::parry3d::shape::SharedShape::cuboid(1.0, 1.0, 1.0),
        spherewalk::math::Iso::identity(),
    );
    let mut fields = GravityFields::new();
    fields
        .add(GravityField::surface(cube, 9.81, 2.0))
        .expect("valid");
    // Above a face: straight down at full strength (f32 rounding only).
    let g = fields.at(&Point3::new(0.3, 1.5, -0.2));
    approx::assert_relative_eq!(g, Vec3::new(0.0, -9.81, 0.0), epsilon = 1e-5);
    // Off an edge, diagonally: toward the edge, 45 degrees.
    let g = fields.at(&Point3::new(1.5, 1.5, 0.0));
    let diagonal = -Vec3::new(1.0, 1.0, 0.0).normalize() * 9.81;
    approx::assert_relative_eq!(g, diagonal, epsilon = 1e-5);
    // Out of reach (2 m from the nearest face): no gravity.
    assert_eq!(fields.at(&Point3::new(0.0, 3.01, 0.0)), Vec3::zeros());
    // Inside, nearer the top face: pulled away from the top, deeper in.
    let g = fields.at(&Point3::new(0.0, 0.8, 0.0));
    approx::assert_relative_eq!(g, Vec3::new(0.0, -9.81, 0.0), epsilon = 1e-5);
}

#[test]
fn a_jump_pad_throws_a_character_as_high_as_its_launch_speed_gives() {
    let text = "Scene(
        gravity: [Uniform(accel: (0.0, -9.81, 0.0))],
        colliders: [Solid(name: \"floor\", shape: Cuboid(half_extents: (10.0, 0.5, 10.0)), at: (0.0, -0.5, 0.0))],
        pads: [Pad(name: \"pad\", shape: Cuboid(half_extents: (1.0, 0.05, 1.0)), at: (0.0, 0.05, 0.0), launch: (0.0, 8.0, 2.0))],
        characters: [Character(name: \"jumper\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3), at: (0.0, 0.1, 0.0))],
    )";
    let file = SceneFile::parse(text, "pad.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut scene = file
        .build(Path::new("."), Path::new("pad.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rows = Vec::new();
    let mut peak: Real = 0.0;
    let mut launched_at = None;
    for step in 0..240 {
        scene.sim.step();
        rows.clear();
        records(&scene.sim, &mut rows);
        let row = &rows[0];
        peak = peak.max(row.pos[1]);
        if launched_at.is_none() && row.vel[1] > 7.0 {
            launched_at = Some(step);
        }
    }
    // Thrown on the first step that stood on the pad.
    assert!(
        launched_at.is_some_and(|s| s <= 2),
        "launched at {launched_at:?}"
    );
    // 8 m/s up under 9.81 m/s² peaks 8² / (2 g) = 3.262 m above the pad's top (0.1 m); the
    // fixed step's integration is within half a step's travel (8 / 60 / 2 = 0.067 m).
    approx::assert_abs_diff_eq!(peak, 0.1 + 3.262, epsilon = 0.067);
    // It flew 2 m/s along +Z for the whole flight (2 v / g = 1.63 s): about 3.3 m, and landed
    // on the floor, off the 1 m pad.
    let row = &rows[0];
    assert!(row.grounded, "still flying at {:?}", row.pos);
    assert_eq!(row.ground_collider.as_deref(), Some("floor"));
    approx::assert_abs_diff_eq!(row.pos[2], 3.3, epsilon = 0.2);
}

#[test]
fn a_jump_pad_with_a_non_finite_launch_is_refused() {
    let text = "Scene(pads: [Pad(shape: Ball(radius: 1.0), launch: (0.0, inf, 0.0))])";
    let e = SceneFile::parse(text, "pad.ron").expect_err("refused");
    assert!(e.to_string().contains("launch"), "{e}");
    let mut sim = spherewalk::Sim::new(spherewalk::CollisionWorld::new(), 1.0 / 60.0).expect("dt");
    let desc = spherewalk::ColliderDesc::new(spherewalk::parry3d::shape::SharedShape::ball(1.0));
    let refused = sim.add_jump_pad(desc, Vec3::new(0.0, Real::NAN, 0.0));
    assert!(matches!(refused, Err(spherewalk::SpawnError::BadLaunch(_))));
    assert_eq!(sim.collision.len(), 0, "nothing inserted");
}

/// The terrain planet the walks below use (and `scenes/planet.ron` ships): 20 m, 2 m of
/// relief, the default features, seed 7.
const TERRAIN: &str = "Terrain(name: \"terrain\", radius: 20.0, relief: 2.0, seed: 7)";

/// A terrain planet under 9.81 m/s² point gravity, with nobody on it yet.
fn terrain_sim() -> spherewalk::Sim {
    let text = format!(
        "Scene(
            gravity: [Point(centre: (0.0, 0.0, 0.0), strength: 9.81, reach: 40.0)],
            colliders: [{TERRAIN}],
        )"
    );
    let file = SceneFile::parse(&text, "terrain.ron").unwrap_or_else(|e| panic!("{e}"));
    file.build(Path::new("."), Path::new("terrain.ron"))
        .unwrap_or_else(|e| panic!("{e}"))
        .sim
}

/// The ground (a ray from outside toward the centre) along unit `dir`.
fn ground_along(sim: &spherewalk::Sim, dir: &Vec3) -> spherewalk::world::RayHit {
    let down = spherewalk::UnitVec3::new_normalize(-dir);
    let filter = spherewalk::world::QueryFilter::default();
    sim.collision
        .cast_ray(&Point3::from(dir * 30.0), &down, 30.0, &filter)
        .expect("the planet is under every direction")
}

/// The steepest ground (degrees from level) along the great circle from the north pole
/// heading `forward` (unit, horizontal), sampled every 10 cm on the path and 30 cm either side
/// of it, with the angle (rad round the circle) of the first cliff that rises ahead: ground
/// steeper than 60 degrees where the ground 1 m further on is over a metre higher than 1 m
/// before.
fn steepest_on_circle(sim: &spherewalk::Sim, forward: &Vec3) -> (Real, Option<Real>) {
    let side = Vec3::y().cross(forward);
    let samples = (std::f32::consts::TAU * 20.0 / 0.1) as usize;
    let angle = |k: usize| std::f32::consts::TAU * k as Real / samples as Real;
    let mut steepest: Real = 0.0;
    let mut slopes = Vec::with_capacity(samples);
    let mut heights = Vec::with_capacity(samples);
    for k in 0..samples {
        let dir = Vec3::y() * angle(k).cos() + forward * angle(k).sin();
        let mut slope: Real = 0.0;
        for lateral in [-0.3, 0.0, 0.3] {
            let d = (dir + side * (lateral / 20.0)).normalize();
            let hit = ground_along(sim, &d);
            slope = slope.max(hit.normal.dot(&d).clamp(-1.0, 1.0).acos().to_degrees());
            if lateral == 0.0 {
                heights.push(hit.point.coords.norm());
            }
        }
        steepest = steepest.max(slope);
        slopes.push(slope);
    }
    let first_cliff = (10..samples - 10)
        .find(|&k| slopes[k] > 60.0 && heights[k + 10] - heights[k - 10] > 1.0)
        .map(angle);
    (steepest, first_cliff)
}

/// A walker on the terrain's north pole, heading `yaw` (rad about +Y) and walking forward at
/// 4 m/s; returns the sim, the walker and its forward.
fn terrain_walker(yaw: Real) -> (spherewalk::Sim, spherewalk::hecs::Entity) {
    use spherewalk::input::{Command, Script};
    let mut sim = terrain_sim();
    let pole = ground_along(&sim, &Vec3::y()).point;
    let mut pose = spherewalk::Pose::new(pole + Vec3::y() * 0.02);
    spherewalk::phases::yaw(&mut pose, yaw);
    let stack = spherewalk::SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    let mut desc = spherewalk::CharacterDesc::new("walker", stack, pose);
    let walk = Command::Walk {
        forward: 4.0,
        right: 0.0,
        seconds: 1000.0,
        crouch: false,
    };
    desc.input = spherewalk::Input::Script(Script::new(vec![walk], false));
    let walker = sim.spawn_character(desc).expect("spawn");
    (sim, walker)
}

#[test]
fn walks_round_the_terrain_planet_over_hills_and_craters() {
    // Find a great circle from the pole clear of cliffs (the generator's tests show the cliffs
    // are steeper than any slope limit; here the walk is over what is walkable).
    let sim = terrain_sim();
    let mut clear = None;
    for k in 0..24 {
        let yaw = (k as Real * 15.0).to_radians();
        let mut pose = spherewalk::Pose::new(Point3::origin());
        spherewalk::phases::yaw(&mut pose, yaw);
        let forward = pose.forward().into_inner();
        let (steepest, cliff) = steepest_on_circle(&sim, &forward);
        // The slope limit is 45 degrees; a clear circle keeps 5 degrees of margin.
        if steepest < 40.0 && steepest > 15.0 && cliff.is_none() && clear.is_none() {
            clear = Some((yaw, forward, steepest));
        }
    }
    let (yaw, forward, steepest) = clear.expect("a great circle clear of cliffs");
    let (sim, walker) = terrain_walker(yaw);
    let walk = walk_terrain(sim, walker, &forward, 2400);
    // Round and back to the start (the 0.5 m), the skin (1 cm) + 1 mm deep at most,
    // and never stuck: at least 2 m of progress in every second at 4 m/s.
    assert!(
        walk.turned >= std::f32::consts::TAU,
        "turned {} rad",
        walk.turned
    );
    assert!(walk.miss < 0.5, "ended {} m from the start", walk.miss);
    assert!(walk.worst_penetration < 0.011, "{}", walk.worst_penetration);
    assert!(
        walk.slowest_second > 2.0,
        "{} m in a second",
        walk.slowest_second
    );
    // The circle really crossed terrain: slopes of over 15 degrees (found above).
    assert!(steepest > 15.0);
}

/// What a walk on the terrain measured.
struct TerrainWalk {
    /// Angle (rad) turned round the centre in the circle's plane.
    turned: Real,
    /// Distance from the start at the end (m).
    miss: Real,
    /// Deepest penetration after any step (m).
    worst_penetration: Real,
    /// Least distance covered in any whole second (m).
    slowest_second: Real,
    /// Speed at the end (m/s).
    final_speed: Real,
}

/// Walks until the walker has turned once round the centre in the plane of +Y and `forward`,
/// or `most` steps.
fn walk_terrain(
    mut sim: spherewalk::Sim,
    walker: spherewalk::hecs::Entity,
    forward: &Vec3,
    most: u32,
) -> TerrainWalk {
    let position = |sim: &spherewalk::Sim| {
        sim.ecs
            .get::<&spherewalk::components::Walker>(walker)
            .expect("walker")
            .pose
            .position
    };
    // Land first, then start counting from where it stands.
    for _ in 0..10 {
        sim.step();
    }
    let start = position(&sim);
    let angle_of = |p: &Point3| p.coords.dot(forward).atan2(p.y);
    let mut last = angle_of(&start);
    let mut walk = TerrainWalk {
        turned: 0.0,
        miss: 0.0,
        worst_penetration: 0.0,
        slowest_second: Real::INFINITY,
        final_speed: 0.0,
    };
    let mut second_start = start;
    let mut rows = Vec::new();
    for step in 1..=most {
        sim.step();
        rows.clear();
        records(&sim, &mut rows);
        walk.worst_penetration = walk.worst_penetration.max(rows[0].max_penetration);
        walk.final_speed = Vec3::from(rows[0].vel).norm();
        let p = position(&sim);
        let angle = angle_of(&p);
        walk.turned += angle_step(last, angle);
        last = angle;
        if step % 60 == 0 {
            walk.slowest_second = walk.slowest_second.min((p - second_start).norm());
            second_start = p;
        }
        walk.miss = (p - start).norm();
        if walk.turned >= std::f32::consts::TAU {
            break;
        }
    }
    walk
}
