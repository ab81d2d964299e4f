//! Scene geometry generators: stairs, ramps, box grids, planets, heightfields and OBJ
//! trimeshes, checked through `CollisionWorld` ray casts against analytic surfaces, plus every
//! refused parameter and every OBJ error with its line number.

use approx::{assert_abs_diff_eq, assert_relative_eq};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::scene::{
    GenerateError, MAX_HEIGHTFIELD_CELLS, MAX_LENGTH, MAX_PARTS, ObjError, Part, box_grid,
    heightfield, planet, ramp, stairs, trimesh_from_obj,
};
use spherewalk::world::WorldQueries;
use spherewalk::{
    CollisionWorld, Point3, Quat, Real, UnitVec3, Vec3, math::Iso, world::QueryFilter,
    world::RayHit,
};

/// Positions built from a few f32 products and sums of values up to ~10 m, then found again
/// by parry's closed-form casts of rays at most ~10 m long (hence `hit_down` starts at
/// y = 10): a few ulps of 10 m (ulp ~1e-6 m) remain; 1e-5 m covers them.
const EXACT: Real = 1e-5;
/// Unit normals from parry's box and triangle casts: a few ulps of 1.
const NORMAL: Real = 1e-5;
/// Positions on the 30 m planet, rotated by f32 quaternions: a few ulps of 30 m (~2e-6 m
/// each) through a rotation and a translation; 1e-4 m leaves a wide margin.
const PLANET: Real = 1e-4;
/// Parry's ray-box cast on a rotated box (the ramp) goes through the inverse rotation in f32:
/// relative error of a few 1e-7 on coordinates up to ~5 m; 1e-5 m covers it.
const ROTATED: Real = 1e-5;

fn down() -> UnitVec3 {
    -Vec3::y_axis()
}

fn world_of(parts: &[Part], group: &Iso) -> CollisionWorld {
    let mut world = CollisionWorld::new();
    for part in parts {
        world
            .insert(part.collider(group))
            .expect("generated parts are finite");
    }
    world
}

fn ray(world: &CollisionWorld, origin: Point3, dir: &UnitVec3) -> Option<RayHit> {
    world.cast_ray(&origin, dir, 1000.0, &QueryFilter::default())
}

/// Casts straight down from y = 10 (above every generated top here) at (x, z) and returns
/// the hit.
fn hit_down(world: &CollisionWorld, x: Real, z: Real) -> RayHit {
    ray(world, Point3::new(x, 10.0, z), &down())
        .unwrap_or_else(|| panic!("ray down at x = {x}, z = {z} missed"))
}

// ---------------------------------------------------------------------------------------------
// Stairs, ramps, box grids
// ---------------------------------------------------------------------------------------------

#[test]
fn stairs_tops_are_at_rise_times_step_number() {
    let (steps, rise, tread, width) = (5, 0.2, 0.3, 2.0);
    let parts = stairs(steps, rise, tread, width).expect("valid stairs");
    assert_eq!(parts.len(), steps as usize);
    let world = world_of(&parts, &Iso::identity());
    for k in 0..steps {
        let x = tread * k as Real + tread / 2.0;
        for z in [-0.95, 0.0, 0.95] {
            let hit = hit_down(&world, x, z);
            assert_abs_diff_eq!(hit.point.y, rise * (k + 1) as Real, epsilon = EXACT);
            assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
        }
        // The riser of step k faces -X at x = tread * k.
        let riser = ray(
            &world,
            Point3::new(-1.0, rise * k as Real + rise / 2.0, 0.0),
            &Vec3::x_axis(),
        )
        .expect("riser hit");
        assert_abs_diff_eq!(riser.point.x, tread * k as Real, epsilon = EXACT);
        assert_abs_diff_eq!(riser.normal.into_inner(), -Vec3::x(), epsilon = NORMAL);
    }
    // Every box stands on y = 0 and reaches the back; nothing outside the width.
    for part in &parts {
        let aabb = part.shape.compute_aabb(&part.pose);
        assert_abs_diff_eq!(aabb.mins.y, 0.0, epsilon = EXACT);
        assert_abs_diff_eq!(aabb.maxs.x, tread * steps as Real, epsilon = EXACT);
        assert_abs_diff_eq!(aabb.mins.z, -width / 2.0, epsilon = EXACT);
        assert_abs_diff_eq!(aabb.maxs.z, width / 2.0, epsilon = EXACT);
    }
    assert!(ray(&world, Point3::new(0.1, 10.0, 1.05), &down()).is_none());
}

#[test]
fn part_collider_places_the_whole_group() {
    // Stairs turned 90 degrees about +Y (local +X becomes world -Z) and lifted by 3 m.
    let group = Iso::from_parts(
        Vec3::new(1.0, 3.0, -2.0).into(),
        Quat::from_axis_angle(&Vec3::y_axis(), std::f32::consts::FRAC_PI_2),
    );
    let world = world_of(&stairs(3, 0.25, 0.5, 1.0).expect("valid"), &group);
    for k in 0..3 {
        let local = Point3::new(0.5 * k as Real + 0.25, 0.0, 0.0);
        let above = group * local;
        let hit = hit_down(&world, above.x, above.z);
        assert_abs_diff_eq!(hit.point.y, 3.0 + 0.25 * (k + 1) as Real, epsilon = EXACT);
    }
}

#[test]
fn ramp_top_rises_at_its_angle_from_the_origin() {
    let (length, width, thickness) = (4.0, 2.0, 0.5);
    for angle in [0.1, 0.5, 1.0, 1.4] {
        let parts = ramp(angle, length, width, thickness).expect("valid ramp");
        assert_eq!(parts.len(), 1);
        let world = world_of(&parts, &Iso::identity());
        let top_normal = Vec3::new(-angle.sin(), angle.cos(), 0.0);
        let run = length * angle.cos();
        for d in [0.02 * run, 0.25 * run, 0.5 * run, 0.98 * run] {
            for z in [-0.9, 0.0, 0.9] {
                let hit = hit_down(&world, d, z);
                assert_abs_diff_eq!(hit.point.y, d * angle.tan(), epsilon = ROTATED);
                assert_abs_diff_eq!(hit.normal.into_inner(), top_normal, epsilon = NORMAL);
                // acos scales the normal's error by 1 / sin(angle) <= 10 here: 10 x NORMAL.
                assert_abs_diff_eq!(hit.normal.y.acos(), angle, epsilon = 10.0 * NORMAL);
            }
        }
        // No lip: a ray skimming the floor 1 cm up meets the slope itself, at x = h / tan.
        let h = 0.01;
        let skim = ray(&world, Point3::new(-1.0, h, 0.0), &Vec3::x_axis()).expect("slope hit");
        assert_abs_diff_eq!(skim.point.x, h / angle.tan(), epsilon = ROTATED);
        assert_abs_diff_eq!(skim.normal.into_inner(), top_normal, epsilon = NORMAL);
        // Nothing of the ramp lies at x < 0.
        let aabb = parts[0].shape.compute_aabb(&parts[0].pose);
        assert_abs_diff_eq!(aabb.mins.x, 0.0, epsilon = ROTATED);
        assert_abs_diff_eq!(aabb.maxs.y, length * angle.sin(), epsilon = ROTATED);
    }
}

#[test]
fn box_grid_top_is_flat_at_zero_with_no_gaps() {
    let (nx, nz, size) = (4, 3, 0.5);
    let parts = box_grid(nx, nz, size).expect("valid grid");
    assert_eq!(parts.len(), (nx * nz) as usize);
    let world = world_of(&parts, &Iso::identity());
    // A lattice of quarter cells, which lands exactly on every seam and corner.
    for i in 0..=4 * nx {
        for j in 0..=4 * nz {
            let (x, z) = (i as Real * size / 4.0, j as Real * size / 4.0);
            let hit = hit_down(&world, x, z);
            assert_abs_diff_eq!(hit.point.y, 0.0, epsilon = EXACT);
            assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
        }
    }
    assert!(ray(&world, Point3::new(-0.01, 1.0, 0.5), &down()).is_none());
    assert!(ray(&world, Point3::new(2.01, 1.0, 0.5), &down()).is_none());
    assert!(ray(&world, Point3::new(1.0, 1.0, 1.51), &down()).is_none());
    for part in &parts {
        let aabb = part.shape.compute_aabb(&part.pose);
        assert_abs_diff_eq!(aabb.maxs.y, 0.0, epsilon = EXACT);
        assert_abs_diff_eq!(aabb.mins.y, -size, epsilon = EXACT);
    }
}

// ---------------------------------------------------------------------------------------------
// Planet
// ---------------------------------------------------------------------------------------------

/// World-frame vertices of every rock (parts 1..).
fn rock_points(parts: &[Part]) -> Vec<Vec<Point3>> {
    parts[1..]
        .iter()
        .map(|part| {
            let hull = part
                .shape
                .as_convex_polyhedron()
                .expect("rocks are convex hulls");
            hull.points().iter().map(|p| part.pose * p).collect()
        })
        .collect()
}

#[test]
fn planet_rocks_are_half_buried_within_rock_size_of_the_surface() {
    let (radius, rocks, rock_size) = (30.0, 64, 0.8);
    let parts = planet(radius, rocks, rock_size, 7).expect("valid planet");
    assert_eq!(parts.len(), rocks as usize + 1);
    let ball = parts[0].shape.as_ball().expect("part 0 is the ball");
    assert_eq!(ball.radius, radius);
    assert_eq!(parts[0].pose, Iso::identity());
    for (part, points) in parts[1..].iter().zip(rock_points(&parts)) {
        let centre = part.pose.translation.vector;
        assert_relative_eq!(centre.norm(), radius, epsilon = PLANET);
        let heights: Vec<Real> = points.iter().map(|p| p.coords.norm() - radius).collect();
        for h in &heights {
            assert!(h.abs() <= rock_size / 2.0 + PLANET, "rock point {h} m off");
        }
        // Half-buried: part of every rock is inside the ball and part outside.
        assert!(heights.iter().any(|h| *h > 0.05 * rock_size));
        assert!(heights.iter().any(|h| *h < -0.05 * rock_size));
    }
    // Rays toward the centre from every side land on the ball or on a rock.
    let world = world_of(&parts, &Iso::identity());
    for dir in [
        Vec3::x(),
        -Vec3::x(),
        Vec3::y(),
        -Vec3::y(),
        Vec3::z(),
        Vec3::new(1.0, 1.0, 1.0),
    ] {
        let dir = UnitVec3::new_normalize(dir);
        let hit = ray(&world, Point3::from(dir.into_inner() * 100.0), &-dir).expect("hit");
        let r = hit.point.coords.norm();
        assert!(
            r >= radius - PLANET && r <= radius + rock_size / 2.0 + PLANET,
            "r = {r}"
        );
    }
}

#[test]
fn planet_is_a_pure_function_of_its_seed() {
    let a = planet(10.0, 20, 0.5, 42).expect("valid");
    let b = planet(10.0, 20, 0.5, 42).expect("valid");
    let c = planet(10.0, 20, 0.5, 43).expect("valid");
    let poses = |parts: &[Part]| parts.iter().map(|p| p.pose).collect::<Vec<_>>();
    assert_eq!(poses(&a), poses(&b));
    assert_eq!(rock_points(&a), rock_points(&b));
    assert_ne!(poses(&a)[1..], poses(&c)[1..]);
    assert_ne!(rock_points(&a), rock_points(&c));
    // Zero rocks is the bare ball.
    assert_eq!(planet(10.0, 0, 0.5, 42).expect("valid").len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Heightfield
// ---------------------------------------------------------------------------------------------

#[test]
fn heightfield_heights_are_bounded_by_the_amplitude_and_match_casts() {
    let (cells, size, amplitude) = (16, 20.0, 1.5);
    let parts = heightfield(cells, size, amplitude, 3).expect("valid field");
    assert_eq!(parts.len(), 1);
    let field = parts[0].shape.as_heightfield().expect("a heightfield");
    assert_eq!((field.nrows(), field.ncols()), (16, 16));
    let heights = field.heights();
    assert!(heights.iter().all(|h| h.abs() <= amplitude));
    assert!(
        heights.iter().any(|h| h.abs() > 0.1 * amplitude),
        "not flat"
    );
    let aabb = parts[0].shape.compute_aabb(&parts[0].pose);
    assert_abs_diff_eq!(aabb.mins.x, -size / 2.0, epsilon = EXACT);
    assert_abs_diff_eq!(aabb.maxs.z, size / 2.0, epsilon = EXACT);
    // Rays down just beside interior grid points hit the sampled heights. NOTE: a vertical
    // ray exactly on a grid line misses (parry's heightfield cell range is empty for the
    // ray's zero-width box), hence the offset `BESIDE`.
    const BESIDE: Real = 1e-3;
    // Each partial derivative of the field is at most
    // amplitude * sum(weight * 2 pi (i + 1) / size) = 1.5 * 0.314 * 1.7 < 0.81, and so is each
    // finite difference along a cell's x or z edge, which sets the triangles' slopes: moving
    // BESIDE along both x and z changes the height by at most 2 * 0.81 * BESIDE.
    let near_vertex = 2.0 * 0.81 * BESIDE + EXACT;
    let world = world_of(&parts, &Iso::identity());
    for (row, col) in [(1, 1), (5, 9), (8, 8), (15, 2), (12, 14)] {
        let (x, z) = (field.x_at(col) + BESIDE, field.z_at(row) + BESIDE);
        let hit = hit_down(&world, x, z);
        assert_abs_diff_eq!(hit.point.y, heights[(row, col)], epsilon = near_vertex);
    }
    let again = heightfield(cells, size, amplitude, 3).expect("valid");
    let other = heightfield(cells, size, amplitude, 4).expect("valid");
    let heights_of = |p: &[Part]| {
        p[0].shape
            .as_heightfield()
            .expect("field")
            .heights()
            .clone()
    };
    assert_eq!(heights_of(&again), *heights);
    assert_ne!(heights_of(&other), *heights);
}

#[test]
fn heightfield_with_zero_amplitude_is_flat_at_zero() {
    let parts = heightfield(4, 8.0, 0.0, 99).expect("valid");
    let field = parts[0].shape.as_heightfield().expect("a heightfield");
    assert!(field.heights().iter().all(|&h| h == 0.0));
    let world = world_of(&parts, &Iso::identity());
    // Off the grid lines (every 2 m here): see the NOTE on vertical rays above.
    for (x, z) in [(0.3, -0.7), (-3.9, 3.9), (1.234, -2.5)] {
        let hit = hit_down(&world, x, z);
        assert_abs_diff_eq!(hit.point.y, 0.0, epsilon = EXACT);
        assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
    }
}

// ---------------------------------------------------------------------------------------------
// OBJ trimeshes
// ---------------------------------------------------------------------------------------------

fn mesh_world(shape: SharedShape) -> CollisionWorld {
    world_of(
        &[Part {
            shape,
            pose: Iso::identity(),
        }],
        &Iso::identity(),
    )
}

fn triangle_count(shape: &SharedShape) -> usize {
    shape.as_trimesh().expect("a trimesh").indices().len()
}

#[test]
fn obj_quad_becomes_two_triangles_facing_its_counter_clockwise_side() {
    // Counter-clockwise seen from above (+Y): (-1,-1) -> (-1,1) -> (1,1) -> (1,-1) in (x, z).
    let text = "# a unit quad\nmtllib quad.mtl\no quad\ng floor\n\
                v -1 0 -1\nv -1 0 1\nv 1 0 1\nv 1 0 -1 1.0\n\
                vt 0 0\nvt 0 1\nvt 1 1\nvt 1 0\nvn 0 1 0\n\
                usemtl stone\ns off\n\
                f 1/1/1 2/2/1 3/3/1 4/4/1 # the quad\n";
    let shape = trimesh_from_obj(text).expect("valid obj");
    assert_eq!(triangle_count(&shape), 2);
    let world = mesh_world(shape);
    for (x, z) in [(-0.5, 0.5), (0.5, -0.5), (0.9, 0.9), (-0.9, -0.9)] {
        let hit = hit_down(&world, x, z);
        assert_abs_diff_eq!(hit.point.y, 0.0, epsilon = EXACT);
        assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::y(), epsilon = NORMAL);
        // One-sided: the clockwise (back) side is never hit.
        assert!(ray(&world, Point3::new(x, -10.0, z), &Vec3::y_axis()).is_none());
    }
}

#[test]
fn obj_negative_indices_fan_a_pentagon_and_skip_zero_area_triangles() {
    // A pentagon facing +Z (counter-clockwise seen from +Z), referenced with relative indices,
    // then a face that repeats a vertex: its first fan triangle has zero area.
    let text = "v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\n\
                f -5 -4//1 -3 -2/1 -1\n\
                f 1 2 2 3\n";
    let shape = trimesh_from_obj(text).expect("valid obj");
    assert_eq!(triangle_count(&shape), 3 + 1);
    let world = mesh_world(shape);
    let hit = ray(&world, Point3::new(1.0, 1.0, 5.0), &-Vec3::z_axis()).expect("front hit");
    assert_abs_diff_eq!(hit.point.z, 0.0, epsilon = EXACT);
    assert_abs_diff_eq!(hit.normal.into_inner(), Vec3::z(), epsilon = NORMAL);
    assert!(ray(&world, Point3::new(1.0, 1.0, -5.0), &Vec3::z_axis()).is_none());
}

/// Three vertices, lines 1 to 3, for the face error cases.
const VERTS: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

fn assert_obj_error(text: &str, expected: ObjError) {
    match trimesh_from_obj(text) {
        Err(error) => assert_eq!(error, expected, "for {text:?}"),
        Ok(_) => panic!("{text:?} was accepted"),
    }
}

fn bad_number(line: usize, text: &str) -> ObjError {
    ObjError::BadNumber {
        line,
        text: text.into(),
    }
}

fn bad_index(line: usize, text: &str) -> ObjError {
    ObjError::BadIndex {
        line,
        text: text.into(),
        count: 3,
    }
}

#[test]
fn obj_bad_numbers_and_indices_carry_their_line_number_and_text() {
    assert_obj_error("# header\nv 0 0 zero\n", bad_number(2, "zero"));
    assert_obj_error("v 0 0\n", bad_number(1, "v 0 0"));
    assert_obj_error("v 0 0 nan\n", bad_number(1, "nan"));
    // Overflows f32 to infinity.
    assert_obj_error("v 1e39 0 0\n", bad_number(1, "1e39"));
    assert_obj_error(&format!("{VERTS}f 1 2 x/1\n"), bad_number(4, "x/1"));
    assert_obj_error(&format!("{VERTS}\nf 1 2 4\n"), bad_index(5, "4"));
    assert_obj_error(&format!("{VERTS}f 0/1 1 2\n"), bad_index(4, "0/1"));
    assert_obj_error(&format!("{VERTS}f -1 -2 -4\n"), bad_index(4, "-4"));
}

#[test]
fn obj_face_errors_carry_their_line_number_and_text() {
    let short = ObjError::ShortFace {
        line: 4,
        text: "f 1 2".into(),
    };
    assert_obj_error(&format!("{VERTS}f 1 2 # third missing\n"), short);
    assert_obj_error(
        &format!("{VERTS}# nothing else\n"),
        ObjError::NoFaces { lines: 4 },
    );
    assert_obj_error("", ObjError::NoFaces { lines: 0 });
    // Collinear vertices: both faces have exactly zero area.
    let flat = ObjError::AllDegenerate {
        line: 4,
        text: "f 1 2 3".into(),
    };
    assert_obj_error("v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\nf 3 2 1\n", flat);
}

// ---------------------------------------------------------------------------------------------
// Refused parameters
// ---------------------------------------------------------------------------------------------

fn bad_length(field: &'static str, value: Real) -> GenerateError {
    GenerateError::BadLength { field, value }
}

fn bad_count(field: &'static str, value: u64, min: u64, max: u64) -> GenerateError {
    GenerateError::BadCount {
        field,
        value,
        min,
        max,
    }
}

/// The error of a generator call (parts are not `Debug`, so no `unwrap_err`).
fn error_of(result: Result<Vec<Part>, GenerateError>) -> GenerateError {
    match result {
        Err(error) => error,
        Ok(parts) => panic!("accepted, {} parts", parts.len()),
    }
}

/// Lengths every generator refuses (NaN is checked separately: NaN != NaN).
const BAD_LENGTHS: [Real; 5] = [
    0.0,
    -1.0,
    Real::INFINITY,
    Real::NEG_INFINITY,
    2.0 * MAX_LENGTH,
];

#[test]
fn every_bad_length_is_refused_with_its_field_and_value() {
    for v in BAD_LENGTHS {
        assert_eq!(error_of(stairs(3, v, 0.3, 1.0)), bad_length("rise", v));
        assert_eq!(error_of(stairs(3, 0.2, v, 1.0)), bad_length("tread", v));
        assert_eq!(error_of(stairs(3, 0.2, 0.3, v)), bad_length("width", v));
        assert_eq!(error_of(ramp(0.3, v, 1.0, 0.2)), bad_length("length", v));
        assert_eq!(error_of(ramp(0.3, 2.0, v, 0.2)), bad_length("width", v));
        assert_eq!(error_of(ramp(0.3, 2.0, 1.0, v)), bad_length("thickness", v));
        assert_eq!(error_of(box_grid(2, 2, v)), bad_length("size", v));
        assert_eq!(error_of(planet(v, 3, 0.5, 1)), bad_length("radius", v));
        assert_eq!(error_of(planet(10.0, 3, v, 1)), bad_length("rock_size", v));
        assert_eq!(error_of(heightfield(4, v, 1.0, 1)), bad_length("size", v));
    }
    let nan_field = |result| match error_of(result) {
        GenerateError::BadLength { field, value } if value.is_nan() => field,
        other => panic!("expected a NaN BadLength, got {other:?}"),
    };
    assert_eq!(nan_field(stairs(3, Real::NAN, 0.3, 1.0)), "rise");
    assert_eq!(nan_field(ramp(0.3, 2.0, 1.0, Real::NAN)), "thickness");
    assert_eq!(nan_field(box_grid(2, 2, Real::NAN)), "size");
    assert_eq!(nan_field(planet(10.0, 3, Real::NAN, 1)), "rock_size");
    assert_eq!(nan_field(heightfield(4, Real::NAN, 1.0, 1)), "size");
}

#[test]
fn bad_angles_and_amplitudes_are_refused() {
    let right = std::f32::consts::FRAC_PI_2;
    for angle in [0.0, -0.1, right, 2.0, Real::INFINITY] {
        assert_eq!(
            error_of(ramp(angle, 2.0, 1.0, 0.2)),
            GenerateError::BadAngle {
                field: "angle",
                value: angle
            }
        );
    }
    assert!(matches!(
        error_of(ramp(Real::NAN, 2.0, 1.0, 0.2)),
        GenerateError::BadAngle { value, .. } if value.is_nan()
    ));
    for amplitude in [-0.5, Real::INFINITY, 2.0 * MAX_LENGTH] {
        assert_eq!(
            error_of(heightfield(4, 8.0, amplitude, 1)),
            GenerateError::BadAmplitude {
                field: "amplitude",
                value: amplitude
            }
        );
    }
    assert!(matches!(
        error_of(heightfield(4, 8.0, Real::NAN, 1)),
        GenerateError::BadAmplitude { value, .. } if value.is_nan()
    ));
}

#[test]
fn zero_and_absurd_counts_are_refused() {
    let cells = u64::from(MAX_HEIGHTFIELD_CELLS);
    assert_eq!(
        error_of(stairs(0, 0.2, 0.3, 1.0)),
        bad_count("steps", 0, 1, MAX_PARTS)
    );
    let huge = u32::MAX;
    assert_eq!(
        error_of(stairs(huge, 0.2, 0.3, 1.0)),
        bad_count("steps", u64::from(huge), 1, MAX_PARTS)
    );
    assert_eq!(
        error_of(box_grid(0, 3, 1.0)),
        bad_count("nx", 0, 1, MAX_PARTS)
    );
    assert_eq!(
        error_of(box_grid(3, 0, 1.0)),
        bad_count("nz", 0, 1, MAX_PARTS)
    );
    assert_eq!(
        error_of(box_grid(1001, 1000, 1.0)),
        bad_count("nx * nz", 1_001_000, 1, MAX_PARTS)
    );
    assert_eq!(
        error_of(planet(10.0, huge, 0.5, 1)),
        bad_count("rocks", u64::from(huge), 0, MAX_PARTS - 1)
    );
    assert_eq!(
        error_of(heightfield(0, 8.0, 1.0, 1)),
        bad_count("cells", 0, 1, cells)
    );
    assert_eq!(
        error_of(heightfield(MAX_HEIGHTFIELD_CELLS + 1, 8.0, 1.0, 1)),
        bad_count("cells", cells + 1, 1, cells)
    );
    // The limits themselves are accepted.
    assert_eq!(
        heightfield(MAX_HEIGHTFIELD_CELLS, 8.0, 1.0, 1)
            .expect("at the limit")
            .len(),
        1
    );
    assert_eq!(
        box_grid(1000, 1000, 1.0).expect("at the limit").len(),
        1_000_000
    );
}

/// Every triangle of a generated one-sided mesh, with the test's idea of "outward" at it.
fn outward_fraction(parts: &[Part], outward: impl Fn(&Point3) -> Vec3) -> (usize, usize) {
    let mesh = parts[0].shape.as_trimesh().expect("a trimesh");
    let mut out = 0;
    for t in mesh.triangles() {
        let normal = (t.b - t.a).cross(&(t.c - t.a));
        if normal.dot(&outward(&t.center())) > 0.0 {
            out += 1;
        }
    }
    (out, mesh.indices().len())
}

#[test]
fn torus_faces_outward_and_lies_on_its_tube() {
    use spherewalk::scene::torus;
    let parts = torus(8.0, 3.0, 48, 24).expect("valid");
    assert_eq!(parts.len(), 1);
    // Outward: away from the circle the tube runs round.
    let from_ring = |p: &Point3| {
        let ring = Vec3::new(p.x, 0.0, p.z).normalize() * 8.0;
        p.coords - ring
    };
    assert_eq!(
        outward_fraction(&parts, from_ring),
        (2 * 48 * 24, 2 * 48 * 24)
    );
    // Vertices lie on the tube (f32 trigonometry of radii below 11 m: 1e-5 m).
    let mesh = parts[0].shape.as_trimesh().expect("a trimesh");
    for v in mesh.vertices() {
        assert_abs_diff_eq!(from_ring(v).norm(), 3.0, epsilon = 1e-5);
    }
    // A ray down onto the top of the tube meets it at y = 3 on a vertex (f32: 1e-5 m), and
    // between vertices within the flat facets' sag (3 (1 - cos(pi / 24)) = 2.6 cm).
    let world = mesh_world(parts[0].shape.clone());
    let hit = ray(&world, Point3::new(8.0, 10.0, 0.0), &down()).expect("hit");
    assert_abs_diff_eq!(hit.point.y, 3.0, epsilon = 1e-5);
    let between = Quat::from_axis_angle(&Vec3::y_axis(), 0.5 * std::f32::consts::TAU / 48.0);
    let origin = Point3::from(between * Vec3::new(8.0, 10.0, 0.0));
    let hit = ray(&world, origin, &down()).expect("hit");
    assert!((2.97..3.0).contains(&hit.point.y), "{:?}", hit.point);
}

#[test]
fn terrain_planet_faces_outward_stays_within_its_relief_and_repeats_its_seed() {
    use spherewalk::scene::{TerrainDesc, terrain_planet};
    let desc = TerrainDesc {
        radius: 20.0,
        relief: 2.0,
        detail: 4,
        hills: 10,
        craters: 6,
        cliffs: 3,
        seed: 7,
    };
    let parts = terrain_planet(desc).expect("valid");
    // 20 * 4^4 triangles, every one facing away from the centre.
    assert_eq!(outward_fraction(&parts, |p| p.coords), (5120, 5120));
    let mesh = parts[0].shape.as_trimesh().expect("a trimesh");
    let radii: Vec<Real> = mesh.vertices().iter().map(|v| v.coords.norm()).collect();
    let lowest = radii.iter().copied().fold(Real::INFINITY, Real::min);
    let highest = radii.iter().copied().fold(0.0, Real::max);
    // Real relief: at least a metre of rise and of fall somewhere, never past the sum of
    // every feature's size (cliffs add a relief each, hills a relief, craters 0.45 of one).
    assert!(highest > 21.0 && lowest < 19.5, "{lowest}..{highest}");
    assert!(
        highest < 20.0 + 2.0 * 5.0 && lowest > 10.0,
        "{lowest}..{highest}"
    );
    // The same description gives the same mesh; another seed another.
    let again = terrain_planet(desc).expect("valid");
    let vertices = |p: &[Part]| p[0].shape.as_trimesh().expect("mesh").vertices().to_vec();
    assert_eq!(vertices(&again), vertices(&parts));
    let other = terrain_planet(TerrainDesc { seed: 8, ..desc }).expect("valid");
    assert_ne!(vertices(&other), vertices(&parts));
}

/// The steepest triangle of a terrain planet (degrees between its normal and the direction
/// from the centre), and how many are steeper than `limit` degrees.
fn terrain_slopes(parts: &[Part], limit: Real) -> (Real, usize) {
    let mesh = parts[0].shape.as_trimesh().expect("a trimesh");
    let mut steepest: Real = 0.0;
    let mut over = 0;
    for t in mesh.triangles() {
        let normal = t.normal().expect("no flat triangle");
        let radial = t.center().coords.normalize();
        let slope = normal.dot(&radial).clamp(-1.0, 1.0).acos().to_degrees();
        steepest = steepest.max(slope);
        over += usize::from(slope > limit);
    }
    (steepest, over)
}

#[test]
fn terrain_hills_and_craters_are_walkable_and_its_cliffs_are_not() {
    use spherewalk::scene::{TerrainDesc, terrain_planet};
    // The shipped planet's description (scenes/planet.ron).
    let desc = TerrainDesc {
        radius: 20.0,
        relief: 2.0,
        detail: 5,
        hills: 10,
        craters: 6,
        cliffs: 3,
        seed: 7,
    };
    // Without cliffs no triangle is steeper than 40 degrees: under the 45 degree default slope
    // limit with a margin.
    let smooth = terrain_planet(TerrainDesc { cliffs: 0, ..desc }).expect("valid");
    let (steepest, _) = terrain_slopes(&smooth, 40.0);
    assert!(steepest < 40.0 && steepest > 20.0, "steepest {steepest}");
    // With them, hundreds of triangles stand steeper than 60 degrees: walls no default
    // character walks up.
    let cliffs = terrain_planet(desc).expect("valid");
    let (steepest, over) = terrain_slopes(&cliffs, 60.0);
    assert!(
        steepest > 65.0 && over > 100,
        "steepest {steepest}, {over} over 60"
    );
}

#[test]
fn torus_and_terrain_refuse_bad_parameters_by_name() {
    use spherewalk::scene::{MAX_TERRAIN_DETAIL, TerrainDesc, terrain_planet, torus};
    assert!(matches!(
        torus(3.0, 3.0, 8, 8),
        Err(GenerateError::TooLarge {
            field: "minor_radius",
            ..
        })
    ));
    assert!(matches!(
        torus(Real::NAN, 1.0, 8, 8),
        Err(GenerateError::BadLength {
            field: "major_radius",
            ..
        })
    ));
    assert!(matches!(
        torus(3.0, 1.0, 2, 8),
        Err(GenerateError::BadCount {
            field: "segments",
            ..
        })
    ));
    let desc = TerrainDesc {
        radius: 20.0,
        relief: 2.0,
        detail: 2,
        hills: 1,
        craters: 1,
        cliffs: 1,
        seed: 0,
    };
    assert!(matches!(
        terrain_planet(TerrainDesc {
            relief: 6.0,
            ..desc
        }),
        Err(GenerateError::TooLarge {
            field: "relief",
            ..
        })
    ));
    assert!(matches!(
        terrain_planet(TerrainDesc {
            relief: -1.0,
            ..desc
        }),
        Err(GenerateError::BadAmplitude {
            field: "relief",
            ..
        })
    ));
    assert!(matches!(
        terrain_planet(TerrainDesc {
            detail: MAX_TERRAIN_DETAIL + 1,
            ..desc
        }),
        Err(GenerateError::BadCount {
            field: "detail",
            ..
        })
    ));
    assert!(matches!(
        terrain_planet(TerrainDesc {
            cliffs: 10_000,
            ..desc
        }),
        Err(GenerateError::BadCount {
            field: "cliffs",
            ..
        })
    ));
}
