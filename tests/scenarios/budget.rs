//! Scene budgets (issue "hostile input"): colliders, triangles, characters and crowd density
//! are counted from a scene's parameters and held against `SceneOptions` before anything is
//! built, so a scene that would take a minute or gigabytes is refused at once.

use spherewalk::components::Walker;
use spherewalk::scene::{self, Excess, Scene, SceneError, SceneFile, SceneOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A refusal must come long before any building could: the three regression scenes took 19 s
/// to 28 s to build (and 2.7 GB to over 6 GB) before; counting them takes microseconds, so a
/// whole second leaves room for the slowest, busiest test machine.
const AT_ONCE: Duration = Duration::from_secs(1);

/// A fresh temp folder for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spherewalk-budget-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` to `file` in `dir` and loads it within `options`, timing the load.
fn load_text(
    dir: &Path,
    file: &str,
    text: &str,
    options: &SceneOptions,
) -> (Result<Scene, SceneError>, Duration) {
    let path = dir.join(file);
    std::fs::write(&path, text).expect("write the scene");
    let start = Instant::now();
    let result = scene::load_with(&path, options);
    (result, start.elapsed())
}

/// The item and excess of an over-budget error, or a panic naming what came instead.
fn over_budget(result: Result<Scene, SceneError>) -> (String, Excess, String) {
    match result {
        Err(e @ SceneError::OverBudget { .. }) => {
            let message = e.to_string();
            let SceneError::OverBudget { item, excess, .. } = e else {
                unreachable!("matched above")
            };
            (item, excess, message)
        }
        Err(other) => panic!("expected OverBudget, got {other}"),
        Ok(_) => panic!("expected OverBudget, the scene was built"),
    }
}

/// `scenes/crowd.ron` with its crowd's `count` set to `count`.
fn crowd_ron(count: u32) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/crowd.ron");
    let text = std::fs::read_to_string(path).expect("shipped scene");
    assert!(text.contains("count: 1000,"), "crowd.ron changed its count");
    text.replace("count: 1000,", &format!("count: {count},"))
}

/// `Planet(radius: 100.0, rocks: 999999)` passed validation (at most 10^6 parts per generator),
/// then took 19 s and 2.7 GB to generate its rocks while the file was parsed. Now the planet's
/// 1,000,000 colliders (ball plus rocks) are counted from its parameters and refused at once.
#[test]
fn regression_planet_999999_rocks_is_over_budget() {
    let dir = temp_dir("planet");
    let text = "Scene(colliders: [Planet(radius: 100.0, rocks: 999999)])";
    let (result, took) = load_text(&dir, "rocks.ron", text, &SceneOptions::default());
    let (item, excess, message) = over_budget(result);
    assert_eq!(item, "planet");
    assert_eq!(
        excess,
        Excess::Colliders {
            count: 1_000_000,
            limit: 100_000
        }
    );
    assert!(took < AT_ONCE, "took {took:?}");
    let expected = "rocks.ron: \"planet\": over budget: the scene has 1000000 colliders, over \
                    the limit of 100000; raise `SceneOptions::max_colliders` to load it";
    assert!(message.ends_with(expected), "{message}");
    // Parsing alone no longer generates anything either.
    let start = Instant::now();
    SceneFile::parse(text, "rocks.ron").unwrap_or_else(|e| panic!("{e}"));
    assert!(
        start.elapsed() < AT_ONCE,
        "parse took {:?}",
        start.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ten `BoxGrid(nx: 1000, nz: 1000)` passed validation (10^6 cubes each) and took 26 s and
/// 5.2 GB. The scene's 10,000,000 colliders are refused at the first grid, which alone passes
/// the 100,000 limit.
#[test]
fn regression_ten_1000x1000_box_grids_over_budget() {
    let dir = temp_dir("grids");
    let grids = ["BoxGrid(nx: 1000, nz: 1000, size: 1.0)"; 10].join(", ");
    let text = format!("Scene(colliders: [{grids}])");
    let (result, took) = load_text(&dir, "grids.ron", &text, &SceneOptions::default());
    let (item, excess, message) = over_budget(result);
    assert_eq!(item, "box_grid");
    assert_eq!(
        excess,
        Excess::Colliders {
            count: 10_000_000,
            limit: 100_000
        }
    );
    assert!(took < AT_ONCE, "took {took:?}");
    assert!(
        message.contains("10000000 colliders") && message.contains("max_colliders"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A crowd of 100,000 on `crowd.ron`'s 40 m planet (about 5 per m²: everyone overlaps at
/// spawn) ran out of 8 GB of address space after 28 s. The crowd's density, 100,000 /
/// (4 pi 40²) per m², is refused at once; so is the 100,001-character total once the density
/// limit is lifted.
#[test]
fn regression_crowd_100k_on_40m_planet_over_budget() {
    let dir = temp_dir("crowd");
    let (result, took) = load_text(
        &dir,
        "crowd.ron",
        &crowd_ron(100_000),
        &SceneOptions::default(),
    );
    let (item, excess, message) = over_budget(result);
    assert_eq!(item, "walker");
    let Excess::CharactersPerM2 {
        count,
        radius,
        density,
        limit,
    } = excess
    else {
        panic!("expected a density excess, got {excess:?}");
    };
    assert_eq!((count, radius, limit), (100_000, 40.0, 1.0));
    // Both sides computed in f64 from the same exact inputs: equal to rounding.
    let expected = 100_000.0 / (4.0 * std::f64::consts::PI * 1600.0);
    approx::assert_relative_eq!(density, expected, max_relative = 1e-12);
    approx::assert_relative_eq!(density, 4.9736, max_relative = 1e-4);
    assert!(took < AT_ONCE, "took {took:?}");
    assert!(
        message.contains("100000 characters on a sphere of radius 40 m are 4.974 characters per m², over the limit of 1")
            && message.contains("max_characters_per_m2"),
        "{message}"
    );
    // The bench's way in, `set_crowd_counts`, meets the same budget.
    let mut file =
        SceneFile::parse(&crowd_ron(1000), "crowd.ron").unwrap_or_else(|e| panic!("{e}"));
    file.set_crowd_counts(100_000);
    let built = file.build(&dir, Path::new("crowd.ron"));
    assert_eq!(over_budget(built).1, excess);
    // With the density lifted, the total of characters (100,000 plus the hero) is over.
    let lifted = {
        let mut v = SceneOptions::default();
        v.max_characters_per_m2 = f64::INFINITY;
        v
    };
    let (item, excess, _) = over_budget(file.build_with(&dir, Path::new("crowd.ron"), &lifted));
    assert_eq!(item, "walker");
    assert_eq!(
        excess,
        Excess::Characters {
            count: 100_001,
            limit: 20_000
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The crowd bench's 10,000 wanderers on `crowd.ron` (10,001 characters, 0.5 per m²) build
/// within the default budget.
#[test]
fn the_crowd_bench_fits_the_default_budget() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/crowd.ron");
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    file.set_crowd_counts(10_000);
    let scene = file
        .build(Path::new("."), &path)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.sim.ecs.query::<&Walker>().iter().count(), 10_001);
}

/// A raised `SceneOptions` lets a scene over the default through: 1,000 wanderers on a 5 m
/// planet are 1000 / (4 pi 5²) = 3.18 per m².
#[test]
fn raised_options_let_a_dense_crowd_through() {
    let dir = temp_dir("raised");
    let text = "Scene(
        colliders: [Planet(name: \"ball\", radius: 5.0)],
        crowds: [Crowd(name: \"walker\", count: 1000, spread: Sphere(centre: (0.0, 0.0, 0.0), radius: 5.0),
                       stacks: [Capsule(height: 0.5, radius: 0.15, spheres: 2)], speed: 1.0)],
    )";
    let (result, _) = load_text(&dir, "dense.ron", text, &SceneOptions::default());
    let (item, excess, _) = over_budget(result);
    assert_eq!(item, "walker");
    let Excess::CharactersPerM2 { density, limit, .. } = excess else {
        panic!("expected a density excess, got {excess:?}");
    };
    approx::assert_relative_eq!(
        density,
        1000.0 / (100.0 * std::f64::consts::PI),
        max_relative = 1e-12
    );
    assert_eq!(limit, 1.0);
    let raised = {
        let mut v = SceneOptions::default();
        v.max_characters_per_m2 = 4.0;
        v
    };
    let (result, _) = load_text(&dir, "dense.ron", text, &raised);
    let scene = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.sim.ecs.query::<&Walker>().iter().count(), 1000);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every collider, triangle and character counts, and a scene exactly at a limit loads: the
/// limits are inclusive. The item named is the one at which the running total passes.
#[test]
fn budgets_count_every_item_and_a_scene_at_the_limit_loads() {
    let dir = temp_dir("limits");
    // A quad: 2 fan triangles.
    std::fs::write(
        dir.join("quad.obj"),
        "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nf 1 2 3 4\n",
    )
    .expect("write");
    // Colliders: 16 cubes + 3 steps + 1 ramp + 1 hills + 1 quad + 1 crate + 1 platform = 24.
    // Triangles: 32 x 32 cells x 2 = 2048, plus the quad's 2 = 2050.
    // Characters: 2 + a crowd of 20 = 22.
    let text = "Scene(
        colliders: [
            BoxGrid(name: \"seams\", nx: 4, nz: 4, size: 1.0),
            Stairs(name: \"stairs\", steps: 3, rise: 0.2, tread: 0.4, width: 2.0, at: (6.0, 0.0, 0.0)),
            Ramp(name: \"ramp\", angle_deg: 20.0, length: 3.0, width: 2.0, thickness: 0.2, at: (0.0, 0.0, 8.0)),
            Heightfield(name: \"hills\", cells: 32, size: 12.0, amplitude: 0.5, at: (20.0, -1.0, 0.0)),
            Obj(name: \"quad\", path: \"quad.obj\", at: (0.0, 0.0, -5.0)),
            Solid(name: \"crate\", shape: Cuboid(half_extents: (0.5, 0.5, 0.5)), at: (-4.0, 0.5, 0.0)),
        ],
        platforms: [Platform(name: \"lift\", shape: Cuboid(half_extents: (1.0, 0.2, 1.0)),
                             at: (-8.0, 0.0, 0.0), motion: Driven)],
        characters: [
            Character(name: \"a\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3), at: (1.0, 0.0, 1.0)),
            Character(name: \"b\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3), at: (2.0, 0.0, 2.0)),
        ],
        crowds: [Crowd(name: \"walker\", count: 20, spread: Grid(origin: (-10.0, 0.0, 10.0), spacing: 2.0, columns: 5),
                       stacks: [Capsule(height: 1.0, radius: 0.4, spheres: 2)], speed: 1.5)],
    )";
    // The grid crowd has no density budget (only sphere spreads do), so 0 per m² refuses
    // nothing here.
    let exact = {
        let mut v = SceneOptions::default();
        v.max_colliders = 24;
        v.max_triangles = 2050;
        v.max_characters = 22;
        v.max_characters_per_m2 = 0.0;
        v
    };
    let (result, _) = load_text(&dir, "limits.ron", text, &exact);
    let scene = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        scene.sim.collision.iter().count(),
        24 + 22,
        "colliders and bodies"
    );
    let cases = [
        (
            {
                let mut v = exact;
                v.max_colliders = 23;
                v
            },
            "lift",
            Excess::Colliders {
                count: 24,
                limit: 23,
            },
        ),
        (
            {
                let mut v = exact;
                v.max_triangles = 2049;
                v
            },
            "quad",
            Excess::Triangles {
                count: 2050,
                limit: 2049,
            },
        ),
        (
            {
                let mut v = exact;
                v.max_triangles = 2047;
                v
            },
            "hills",
            Excess::Triangles {
                count: 2050,
                limit: 2047,
            },
        ),
        (
            {
                let mut v = exact;
                v.max_characters = 21;
                v
            },
            "walker",
            Excess::Characters {
                count: 22,
                limit: 21,
            },
        ),
        (
            {
                let mut v = exact;
                v.max_characters = 1;
                v
            },
            "b",
            Excess::Characters {
                count: 22,
                limit: 1,
            },
        ),
    ];
    for (options, expected_item, expected) in cases {
        let (result, _) = load_text(&dir, "limits.ron", text, &options);
        let (item, excess, _) = over_budget(result);
        assert_eq!((item.as_str(), excess), (expected_item, expected));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts that would overflow `u32` (a 4e9 x 4e9 grid) are refused while parsing, with the
/// field named; nothing wraps.
#[test]
fn a_4e9_by_4e9_box_grid_is_a_parse_error() {
    let text = "Scene(colliders: [BoxGrid(nx: 4000000000, nz: 4000000000, size: 1.0)])";
    match SceneFile::parse(text, "huge.ron") {
        Err(SceneError::Parse { message, .. }) => assert!(message.contains("`nx`"), "{message}"),
        other => panic!("expected a parse error, got {:?}", other.map(|_| ())),
    }
}
