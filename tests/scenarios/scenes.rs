//! Shipped scene files: each loads and runs cleanly, and shows what it is there to show.

use spherewalk::components::{Name, Walker};
use spherewalk::hecs::Entity;
use spherewalk::scene::{self, Scene, SceneError, SceneFile};
use spherewalk::trace::{TraceRecord, records};
use spherewalk::{Pose, Real};
use std::path::{Path, PathBuf};

/// The scene files the README promises.
const SHIPPED: [&str; 8] = [
    "galaxy",
    "playground",
    "planet",
    "rocky",
    "walls",
    "platforms",
    "crowd",
    "traverse",
];

/// The shipped scenes that hold dynamic bodies, so load only with the `rapier` feature.
const WITH_BODIES: [&str; 4] = ["galaxy", "playground", "planet", "rocky"];

/// The shipped scenes this build can load: all of them with the `rapier` feature, the ones
/// without dynamic bodies otherwise.
fn loadable() -> impl Iterator<Item = &'static str> {
    SHIPPED
        .into_iter()
        .filter(|name| cfg!(feature = "rapier") || !WITH_BODIES.contains(name))
}

fn scene_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"))
}

fn load(name: &str) -> Scene {
    scene::load(scene_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn entity(scene: &Scene, name: &str) -> Entity {
    scene
        .sim
        .ecs
        .query::<(Entity, &Name)>()
        .iter()
        .find(|(_, n)| n.0 == name)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no character {name:?}"))
}

fn pose(scene: &Scene, e: Entity) -> Pose {
    scene.sim.ecs.get::<&Walker>(e).expect("a character").pose
}

/// Skin width of every character, in the entity order of [`records`].
fn skins(scene: &Scene) -> Vec<Real> {
    let mut rows: Vec<(Entity, Real)> = scene
        .sim
        .ecs
        .query::<(Entity, &Walker)>()
        .iter()
        .map(|(e, c)| (e, c.motor.settings().skin_width))
        .collect();
    rows.sort_by_key(|(e, _)| e.id());
    rows.into_iter().map(|(_, s)| s).collect()
}

#[test]
fn every_shipped_scene_runs_600_steps_without_nan_or_penetration_beyond_the_skin() {
    for name in loadable() {
        let mut scene = load(name);
        let skins = skins(&scene);
        assert!(!skins.is_empty(), "{name}: no characters");
        let mut rows = Vec::new();
        let mut worst: (Real, String, u64) = (0.0, String::new(), 0);
        for _ in 0..600 {
            scene.sim.step();
            rows.clear();
            records(&scene.sim, &mut rows);
            assert_eq!(rows.len(), skins.len(), "{name}");
            for (row, skin) in rows.iter().zip(&skins) {
                let numbers = row.pos.iter().chain(&row.up).chain(&row.vel);
                assert!(
                    numbers.copied().all(Real::is_finite),
                    "{name}: {row:?} is not finite"
                );
                // Allowed: the skin plus 1 mm, as the issue asks.
                assert!(
                    row.max_penetration < skin + 1e-3,
                    "{name}: {} penetrates {} m at step {}",
                    row.character,
                    row.max_penetration,
                    row.step
                );
                if row.max_penetration > worst.0 {
                    worst = (row.max_penetration, row.character.clone(), row.step);
                }
            }
        }
        println!("{name}: deepest penetration {worst:?}");
    }
}

#[test]
fn the_crowd_scene_spawns_a_thousand_wanderers_of_three_shapes() {
    let scene = load("crowd");
    let mut counts = [0usize; 6];
    for c in scene.sim.ecs.query::<&Walker>().iter() {
        counts[c.motor.stack().len()] += 1;
    }
    // 1000 walkers cycling through 2, 3 and 5 spheres (334, 333, 333) plus the 3-sphere hero.
    assert_eq!(counts, [0, 0, 334, 334, 0, 333]);
}

#[test]
fn walls_scene_climber_walks_floor_wall_ceiling_and_back_down() {
    let mut scene = load("walls");
    let climber = entity(&scene, "climber");
    let mut seen = Vec::new();
    for _ in 0..900 {
        scene.sim.step();
        let up = pose(&scene, climber).up();
        // Which inside face it stands on, by its up (within 2.6 degrees).
        let face = if up.y > 0.999 {
            "floor"
        } else if up.x < -0.999 {
            "wall_east"
        } else if up.y < -0.999 {
            "ceiling"
        } else if up.x > 0.999 {
            "wall_west"
        } else {
            continue;
        };
        if seen.last() != Some(&face) {
            seen.push(face);
        }
    }
    // At 3 m/s round a 10 m x 8 m tunnel: at least one whole loop in 15 s, always in the
    // same order.
    let cycle = ["floor", "wall_east", "ceiling", "wall_west"];
    assert!(seen.len() >= 5, "visited only {seen:?}");
    for (k, face) in seen.iter().enumerate() {
        assert_eq!(*face, cycle[k % 4], "faces visited: {seen:?}");
    }
}

#[cfg(feature = "rapier")]
#[test]
fn planet_scene_jumper_is_caught_by_the_moon_and_stands_on_it() {
    let mut scene = load("planet");
    let jumper = entity(&scene, "jumper");
    for _ in 0..600 {
        scene.sim.step();
    }
    let p = pose(&scene, jumper);
    let moon = spherewalk::Point3::new(0.0, 32.0, 0.0);
    let from_moon = p.position - moon;
    // Standing on the 5 m moon (or one of its rocks, 0.4 m at most above the surface),
    // up pointing away from the moon's centre (0.5 degree).
    assert!(
        (4.99..5.5).contains(&from_moon.norm()),
        "{} m from the moon's centre",
        from_moon.norm()
    );
    assert!(p.up().dot(&from_moon.normalize()) > 0.99996);
}

#[cfg(feature = "rapier")]
#[test]
fn galaxy_scene_flyer_is_thrown_from_the_cube_to_the_capsule_and_walks_it() {
    let mut scene = load("galaxy");
    let flyer = entity(&scene, "flyer");
    let mut rows = Vec::new();
    let mut left_cube = None;
    let mut on_capsule = None;
    for step in 0..600 {
        scene.sim.step();
        rows.clear();
        records(&scene.sim, &mut rows);
        let row = rows.iter().find(|r| r.character == "flyer").expect("flyer");
        if left_cube.is_none() && row.vel[0] > 10.0 {
            left_cube = Some(step);
        }
        if on_capsule.is_none() && row.ground_collider.as_deref() == Some("capsule") {
            on_capsule = Some(step);
        }
    }
    // It walks 5 m to the edge, 5 m down the east face onto the pad, and is thrown east.
    let left = left_cube.expect("thrown by the east pad");
    let landed = on_capsule.expect("landed on the capsule");
    // 16 m/s out, 11.7 m/s once out of the cube's 6 m reach: the 13 m gap to the capsule
    // takes about 1.5 s.
    assert!(
        (60..150).contains(&(landed - left)),
        "flew {} steps",
        landed - left
    );
    // At the end it stands on the capsule, up pointing away from its axis (the line x = 26,
    // y = 0 along Z). Up is turned at the start of a step and the step then walks on round
    // the 3 m radius, so it trails by about one step's arc: 3 m/s / 60 / 3 m = 0.95 degrees
    // (1.2 measured); the bound is 1.5 degrees.
    let p = pose(&scene, flyer);
    let from_axis = spherewalk::Vec3::new(p.position.x - 26.0, p.position.y, 0.0);
    assert!(
        (2.99..3.02).contains(&from_axis.norm()),
        "{} m from the capsule's axis",
        from_axis.norm()
    );
    let along = p.up().dot(&from_axis.normalize());
    assert!(
        along > 0.99966,
        "up {:?} at {:?}: cos {along}",
        p.up(),
        p.position
    );
}

#[test]
fn platforms_scene_disc_rider_turns_with_the_disc() {
    let mut scene = load("platforms");
    let rider = entity(&scene, "rider");
    scene.sim.step();
    let centre = spherewalk::Point3::new(-8.0, 0.5, 4.0);
    let start = pose(&scene, rider).position - centre;
    // One full turn at 1 rad/s: 2 pi seconds, 377 steps.
    let steps = (std::f32::consts::TAU / scene.sim.dt()).round() as u32;
    let mut farthest: Real = 0.0;
    for k in 1..=steps {
        scene.sim.step();
        let angle = k as Real * scene.sim.dt();
        let expected =
            spherewalk::Quat::from_axis_angle(&spherewalk::Vec3::y_axis(), angle) * start;
        let now = pose(&scene, rider).position - centre;
        farthest = farthest.max((now - expected).norm());
    }
    // Within 2 cm of where the disc carried its starting spot, all the way round.
    assert!(
        farthest < 0.02,
        "drifted {farthest} m from its spot on the disc"
    );
}

#[cfg(feature = "rapier")]
#[test]
fn playground_scene_climber_reaches_the_landing_by_the_stairs() {
    let mut scene = load("playground");
    let climber = entity(&scene, "climber");
    let mut highest: Real = 0.0;
    for _ in 0..240 {
        scene.sim.step();
        highest = highest.max(pose(&scene, climber).position.y);
    }
    // Eight 0.2 m steps up to the landing's top at y = 1.6 (1 mm).
    approx::assert_abs_diff_eq!(highest, 1.6, epsilon = 1e-3);
}

fn parse_err(text: &str) -> SceneError {
    match SceneFile::parse(text, "bad.ron") {
        Ok(_) => panic!("parsed a bad scene"),
        Err(e) => e,
    }
}

fn position(e: &SceneError) -> (usize, usize) {
    match e {
        SceneError::Parse { line, column, .. } => (*line, *column),
        other => panic!("not a parse error: {other}"),
    }
}

#[test]
fn bad_values_are_reported_with_their_line_and_the_item_name() {
    let text = "Scene(\n  colliders: [\n    Solid(name: \"ok\", shape: Ball(radius: 1.0)),\n    Solid(name: \"bad\", shape: Ball(radius: -1.0)),\n  ],\n)\n";
    let e = parse_err(text);
    assert_eq!(position(&e).0, 4, "{e}");
    let message = e.to_string();
    assert!(message.starts_with("bad.ron:4:"), "{message}");
    assert!(
        message.contains("\"bad\"") && message.contains("-1"),
        "{message}"
    );

    let text = "Scene(\n  characters: [\n    Character(name: \"a\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 0)),\n  ],\n)\n";
    let e = parse_err(text);
    assert_eq!(position(&e).0, 3, "{e}");
    assert!(e.to_string().contains("\"a\""), "{e}");

    let text = "Scene(\n  characters: [\n    Character(name: \"b\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),\n      settings: (skin_width: -0.01)),\n  ],\n)\n";
    let e = parse_err(text);
    assert_eq!(position(&e).0, 4, "{e}");
    assert!(e.to_string().contains("skin_width"), "{e}");

    let text = "Scene(\n  gravity: [Point(centre: (0.0, 0.0, 0.0), strength: -3.0)],\n)\n";
    let e = parse_err(text);
    assert_eq!(position(&e).0, 2, "{e}");
}

#[test]
fn malformed_ron_and_unknown_fields_are_reported_with_their_line() {
    // A missing comma between two items on line 3.
    let e = parse_err(
        "Scene(\n  colliders: [\n    Solid(shape: Ball(radius: 1.0)) Solid(shape: Ball(radius: 1.0))\n  ],\n)\n",
    );
    assert_eq!(position(&e).0, 3, "{e}");
    // A misspelt field on line 2.
    let e = parse_err("Scene(\n  gravty: [],\n)\n");
    assert_eq!(position(&e).0, 2, "{e}");
    assert!(e.to_string().contains("gravty"), "{e}");
    // A generator refusing zero steps.
    let e = parse_err(
        "Scene(colliders: [Stairs(name: \"s\", steps: 0, rise: 0.2, tread: 0.3, width: 1.0)])",
    );
    assert_eq!(position(&e).0, 1, "{e}");
    assert!(e.to_string().contains("steps"), "{e}");
}

#[test]
fn build_errors_name_the_file_and_item() {
    let dir = std::env::temp_dir().join(format!("spherewalk-scene-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A face referring to vertex 4 of 3 on line 4 of the OBJ file.
    std::fs::write(dir.join("tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n").expect("write");
    let scene = dir.join("mesh.ron");
    std::fs::write(
        &scene,
        "Scene(colliders: [Obj(name: \"rock\", path: \"tri.obj\")])",
    )
    .expect("write");
    // Issue "hostile input": OBJ errors named the OBJ but neither the scene nor the item.
    match scene::load(&scene) {
        Err(e @ SceneError::Obj { .. }) => {
            let SceneError::Obj { item, source, .. } = &e else {
                unreachable!()
            };
            assert_eq!(item, "rock");
            assert!(source.to_string().starts_with("line 4:"), "{source}");
            let text = e.to_string();
            let named = [
                scene.display().to_string(),
                "\"rock\"".into(),
                "tri.obj".into(),
            ];
            assert!(named.iter().all(|n| text.contains(n.as_str())), "{text}");
        }
        other => panic!("expected an OBJ error, got {:?}", other.err()),
    }
    std::fs::write(
        &scene,
        "Scene(colliders: [Obj(name: \"rock\", path: \"missing.obj\")])",
    )
    .expect("write");
    assert!(matches!(scene::load(&scene), Err(SceneError::Io { .. })));
    std::fs::write(&scene, "Scene(dt: 0.0)").expect("write");
    assert!(matches!(
        scene::load(&scene),
        Err(SceneError::Schedule { .. })
    ));
    assert!(matches!(
        scene::load(dir.join("nope.ron")),
        Err(SceneError::Io { .. })
    ));
    // A good OBJ (scaled by 2) loads as one trimesh collider named after its item.
    std::fs::write(dir.join("tri.obj"), "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n").expect("write");
    std::fs::write(
        &scene,
        "Scene(colliders: [Obj(name: \"rock\", path: \"tri.obj\", scale: 2.0)])",
    )
    .expect("write");
    let loaded = scene::load(&scene).unwrap_or_else(|e| panic!("{e}"));
    let (id, collider) = loaded.sim.collision.iter().next().expect("one collider");
    assert_eq!(loaded.sim.collider_name(id), Some("rock"));
    approx::assert_abs_diff_eq!(collider.aabb.maxs.x, 2.0, epsilon = 1e-6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue "hostile input": an OBJ holding a quad 1e20 m across loaded (only finiteness was
/// checked) and characters fell through it. The world's one range rule
/// ([`spherewalk::world::MAX_COORD`], 1e6 m) refuses it, and the error names the scene file and the
/// item.
#[test]
fn regression_an_obj_quad_of_1e20_m_is_refused_naming_file_and_item() {
    let dir = std::env::temp_dir().join(format!("spherewalk-huge-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let obj = "v -1e20 0 -1e20\nv 1e20 0 -1e20\nv 1e20 0 1e20\nv -1e20 0 1e20\nf 1 3 2\nf 1 4 3\n";
    std::fs::write(dir.join("huge.obj"), obj).expect("write");
    let path = dir.join("huge.ron");
    std::fs::write(
        &path,
        "Scene(colliders: [Obj(name: \"sky\", path: \"huge.obj\")])",
    )
    .expect("write");
    let err = scene::load(&path).err();
    let Some(SceneError::Spawn {
        path: file,
        item,
        source,
    }) = &err
    else {
        panic!("expected a spawn error, got {err:?}");
    };
    assert_eq!((file, item.as_str()), (&path, "sky"));
    assert!(
        matches!(
            source,
            spherewalk::SpawnError::World(spherewalk::WorldError::OutOfRange { .. })
        ),
        "{source:?}"
    );
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        text.contains("huge.ron") && text.contains("\"sky\"") && text.contains("1000000"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_records_have_the_documented_fields_and_values() {
    let text = "Scene(dt: 0.02, gravity: [Uniform(accel: (0.0, -10.0, 0.0))],
        colliders: [Solid(name: \"floor\", shape: Cuboid(half_extents: (10.0, 0.5, 10.0)), at: (0.0, -0.5, 0.0))],
        characters: [Character(name: \"hero\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3), at: (1.0, 0.0, 2.0))])";
    let file = SceneFile::parse(text, "trace.ron").unwrap_or_else(|e| panic!("{e}"));
    let mut scene = file
        .build(Path::new("."), Path::new("trace.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut writer = spherewalk::trace::TraceWriter::new(Vec::new());
    for _ in 0..3 {
        scene.sim.step();
        writer.write_step(&scene.sim).expect("in memory");
    }
    let bytes = writer.finish().expect("in memory");
    let text = String::from_utf8(bytes).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "one line per character per step");
    let keys = [
        "step",
        "t",
        "character",
        "pos",
        "up",
        "vel",
        "grounded",
        "ground_normal",
        "ground_collider",
        "climbed",
        "max_penetration",
        "mode",
    ];
    for (k, line) in lines.iter().enumerate() {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let object = value.as_object().expect("an object");
        assert_eq!(object.len(), keys.len(), "{line}");
        for key in keys {
            assert!(object.contains_key(key), "{key} missing from {line}");
        }
        let row: TraceRecord = serde_json::from_str(line).expect("a record");
        assert_eq!(row.step, k as u64);
        // t is the time at the end of the step: (step + 1) * dt.
        approx::assert_relative_eq!(row.t, (k as f64 + 1.0) * 0.02, max_relative = 1e-6);
        assert_eq!(row.character, "hero");
        assert_eq!(row.mode, "walk");
        // A trace written before modes (no `mode`) reads as walking.
        let old = line.replace(",\"mode\":\"walk\"", "");
        assert_ne!(&old, line);
        let old: TraceRecord = serde_json::from_str(&old).expect("an old record");
        assert_eq!(old.mode, "walk");
        // Standing on the floor's top where it spawned (1e-4 m: the pushback tolerance).
        approx::assert_abs_diff_eq!(row.pos[0], 1.0, epsilon = 1e-4);
        approx::assert_abs_diff_eq!(row.pos[1], 0.0, epsilon = 1e-4);
        approx::assert_abs_diff_eq!(row.pos[2], 2.0, epsilon = 1e-4);
        assert_eq!(row.up, [0.0, 1.0, 0.0]);
        assert!(row.grounded);
        assert_eq!(row.ground_normal, Some([0.0, 1.0, 0.0]));
        assert_eq!(row.ground_collider.as_deref(), Some("floor"));
        assert_eq!(row.climbed, 0.0);
        assert!(row.max_penetration < 1e-4, "{}", row.max_penetration);
    }
    // Airborne: no ground, JSON null.
    let text = "Scene(characters: [Character(name: \"floater\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3))])";
    let mut scene = SceneFile::parse(text, "air.ron")
        .and_then(|f| f.build(Path::new("."), Path::new("air.ron")))
        .unwrap_or_else(|e| panic!("{e}"));
    scene.sim.step();
    let mut writer = spherewalk::trace::TraceWriter::new(Vec::new());
    writer.write_step(&scene.sim).expect("in memory");
    let text = String::from_utf8(writer.finish().expect("in memory")).expect("utf-8");
    assert!(text.contains("\"ground_normal\":null"), "{text}");
    assert!(text.contains("\"ground_collider\":null"), "{text}");
    assert!(text.contains("\"grounded\":false"), "{text}");
}

#[test]
fn the_documented_scene_example_loads_and_runs() {
    let doc = include_str!("../../docs/scenes.md");
    let start = doc.find("```ron\n").expect("a RON block in docs/scenes.md") + "```ron\n".len();
    let len = doc[start..].find("```").expect("its end");
    let file = SceneFile::parse(&doc[start..start + len], "docs/scenes.md")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut scene = file
        .build(Path::new("."), Path::new("docs/scenes.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    // hero + guard + 20 walkers.
    let mut rows = Vec::new();
    for _ in 0..120 {
        scene.sim.step();
    }
    records(&scene.sim, &mut rows);
    assert_eq!(rows.len(), 22);
    let hero = rows.iter().find(|r| r.character == "hero").expect("hero");
    assert!(hero.grounded);
    assert_eq!(hero.ground_collider.as_deref(), Some("floor"));
    assert!(rows.iter().all(|r| r.max_penetration < 0.011), "{rows:?}");
}

/// Byte offsets of every number literal in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts {
            let j = i + bytes[i..]
                .iter()
                .take_while(|b| b.is_ascii_digit() || **b == b'.')
                .count();
            spans.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    spans
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 96,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5ce_e4e5),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Any number of the playground scene replaced by an extreme or malformed value, and the
    /// file cut anywhere, gives a scene or a `SceneError`, never a panic; a scene that builds
    /// steps without NaN.
    #[test]
    fn corrupted_scenes_never_panic(
        which in 0usize..10_000,
        value in proptest::sample::select(vec![
            "NaN", "inf", "-inf", "-1.0", "0", "0.0", "1e30", "-1e30", "3.4e38", "1e-30",
            "4294967296", "99999999999999999999", "-0.0", "1e6", ")", "\"x\"",
        ]),
        cut in proptest::option::of(0usize..5_000),
    ) {
        let original = std::fs::read_to_string(scene_path("playground")).expect("shipped scene");
        let spans = number_spans(&original);
        let (a, b) = spans[which % spans.len()];
        let mut text = format!("{}{}{}", &original[..a], value, &original[b..]);
        if let Some(cut) = cut {
            let mut at = cut.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
        }
        let built = SceneFile::parse(&text, "fuzz.ron")
            .and_then(|f| f.build(Path::new("."), Path::new("fuzz.ron")));
        if let Ok(mut scene) = built {
            for _ in 0..5 {
                scene.sim.step();
            }
            let mut rows = Vec::new();
            records(&scene.sim, &mut rows);
            for row in rows {
                proptest::prop_assert!(row.pos.iter().all(|c| c.is_finite()), "{:?}", row);
            }
        }
    }
}

#[cfg(feature = "rapier")]
#[test]
fn a_character_layer_query_sees_only_the_characters_bodies() {
    let scene = load("playground");
    let everything = spherewalk::parry3d::bounding_volume::Aabb::new(
        spherewalk::Point3::new(-100.0, -100.0, -100.0),
        spherewalk::Point3::new(100.0, 100.0, 100.0),
    );
    let mut ids = Vec::new();
    let bodies = spherewalk::world::QueryFilter {
        mask: spherewalk::CHARACTER_LAYER,
        ..spherewalk::world::QueryFilter::default()
    };
    scene
        .sim
        .collision
        .overlap_aabb(&everything, &bodies, &mut ids);
    let mut names: Vec<&str> = ids
        .iter()
        .filter_map(|id| scene.sim.collider_name(*id))
        .collect();
    names.sort_unstable();
    // The four characters' bodies, and none of the scenery (on DEFAULT_LAYER).
    assert_eq!(names, ["climber", "hero", "slim", "squat"]);
    ids.clear();
    let scenery = spherewalk::world::QueryFilter {
        mask: spherewalk::world::DEFAULT_LAYER,
        ..spherewalk::world::QueryFilter::default()
    };
    scene
        .sim
        .collision
        .overlap_aabb(&everything, &scenery, &mut ids);
    assert_eq!(ids.len() + 4, scene.sim.collision.len());
}

#[test]
fn soft_characters_and_crowds_ignore_the_character_layer_in_their_own_step() {
    let text = r#"Scene(
        characters: [
            Character(name: "hard", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3)),
            Character(name: "soft", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),
                      at: (3.0, 0.0, 0.0), soft: true),
        ],
        crowds: [
            Crowd(name: "w", count: 2, spread: Grid(origin: (0.0, 0.0, 5.0), spacing: 2.0, columns: 2),
                  stacks: [Capsule(height: 1.0, radius: 0.4, spheres: 2)], speed: 1.0, soft: true),
        ],
    )"#;
    let scene = SceneFile::parse(text, "soft.ron")
        .and_then(|f| f.build(Path::new("."), Path::new("soft.ron")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rows: Vec<(String, u32, bool)> = scene
        .sim
        .ecs
        .query::<(&spherewalk::components::Name, &Walker)>()
        .iter()
        .map(|(n, c)| {
            (
                n.0.clone(),
                c.motor.filter().mask,
                c.motor.filter().exclude.is_some(),
            )
        })
        .collect();
    rows.sort();
    let soft = !spherewalk::CHARACTER_LAYER;
    // Every one keeps its body (solid by default) and excludes it from its own queries; the
    // soft ones also skip every other body.
    assert_eq!(
        rows,
        [
            ("hard".to_string(), u32::MAX, true),
            ("soft".to_string(), soft, true),
            ("w0".to_string(), soft, true),
            ("w1".to_string(), soft, true),
        ]
    );
}

/// FNV-1a, 64-bit: a hash whose value no Rust release changes.
fn fnv1a(bytes: impl Iterator<Item = u8>, mut hash: u64) -> u64 {
    for b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The hash of 1000 steps of `scenes/playground.ron` without its dynamic bodies (rapier's
/// solver is not pinned across platforms): every character's position, orientation and
/// velocity bits after every step, in entity order.
fn playground_trace_hash(parallel: bool) -> u64 {
    let path = scene_path("playground");
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        file.dynamics_len() > 0,
        "the playground has dynamic bodies to drop"
    );
    file.clear_dynamics();
    let built = file.build(path.parent().unwrap_or(Path::new(".")), &path);
    let mut sim = built.unwrap_or_else(|e| panic!("{e}")).sim;
    sim.parallel = parallel;
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for _ in 0..1000 {
        sim.step();
        let rows = crate::common::character_bits(&sim);
        for (_, bits) in rows {
            hash = fnv1a(bits.iter().flat_map(|b| b.to_le_bytes()), hash);
        }
    }
    hash
}

/// The same bits on every machine: the motor, the runtime's systems and the scene builder
/// use only IEEE-exact arithmetic and `spherewalk_core::math`'s pure-Rust `sin`, `cos`, `tan`,
/// `acos` and `atan2` (never the platform's math library), so 1000 steps of the playground
/// hash to this constant on x86-64 and aarch64 alike, serial or parallel. A change to the step
/// changes it: say why in the commit that sets it anew.
#[test]
fn playground_trace_hash_is_pinned() {
    const PLAYGROUND_HASH: u64 = 0x4f10_7056_e894_a927;
    let serial = playground_trace_hash(false);
    assert_eq!(
        serial,
        playground_trace_hash(true),
        "parallel differs from serial"
    );
    assert_eq!(
        serial, PLAYGROUND_HASH,
        "the playground trace hashes to {serial:#018x} (pinned {PLAYGROUND_HASH:#018x})"
    );
}

/// Issue 27: `playground.ron` with the seesaw's `half_extents: (2.5, 1e-45, 0.6)` made the
/// CLI panic inside parry's BVH build. A length under `MIN_LENGTH` (0.1 mm), sub-normal or
/// zero, is refused by name with its line, before anything is built.
#[test]
fn regression_a_subnormal_half_extent_is_refused_by_name() {
    let text = std::fs::read_to_string(scene_path("playground")).expect("playground");
    let bad = text.replace(
        "Cuboid(half_extents: (2.5, 0.05, 0.6))",
        "Cuboid(half_extents: (2.5, 1e-45, 0.6))",
    );
    assert_ne!(text, bad, "the seesaw's line is in playground.ron");
    let file = SceneFile::parse(&bad, "playground.ron");
    let err = file
        .and_then(|f| {
            f.build(
                &scene_path("playground").with_file_name(""),
                Path::new("playground.ron"),
            )
        })
        .err()
        .expect("refused");
    let message = err.to_string();
    assert!(
        message.contains("half_extents.y") && message.contains("seesaw"),
        "{message}"
    );
    // And every other shape length, at zero and sub-normal.
    for (shape, field) in [
        ("Ball(radius: 1e-40)", "radius"),
        ("Capsule(half_height: 0.5, radius: 0.0)", "radius"),
        ("Cuboid(half_extents: (1.0, 1.0, 1e-5))", "half_extents.z"),
    ] {
        let text = format!("Scene(colliders: [Solid(name: \"thin\", shape: {shape})])");
        let err = SceneFile::parse(&text, "thin.ron")
            .and_then(|f| f.build(Path::new("."), Path::new("thin.ron")))
            .err()
            .unwrap_or_else(|| panic!("{shape} refused"));
        let message = err.to_string();
        assert!(
            message.contains(field) && message.contains("thin"),
            "{shape}: {message}"
        );
    }
}

/// Issue 27: `crowd.ron` with the planet's `rock_size: 100.0` and the point field's
/// `reach: 1.5` made both the CLI and `scene::load` run for over 10 s: every walker started
/// tens of metres inside 120 overlapping rocks, and each of its steps measured them all, many
/// times. A character that would start deeper inside the scenery than it is tall is refused
/// (`SpawnError::Buried`), by name, at once.
#[test]
fn regression_huge_rocks_and_a_short_reach_load_in_bounded_time() {
    let text = std::fs::read_to_string(scene_path("crowd")).expect("crowd");
    let bad = text
        .replace("rock_size: 1.5", "rock_size: 100.0")
        .replace("strength: 9.81, reach: 100.0", "strength: 9.81, reach: 1.5");
    assert_ne!(text, bad);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let result = SceneFile::parse(&bad, "crowd.ron")
            .and_then(|f| f.build(Path::new("."), Path::new("crowd.ron")))
            .map(|scene| scene.sim.ecs.len());
        let _ = tx.send(result.map_err(|e| e.to_string()));
    });
    let result = rx
        .recv_timeout(std::time::Duration::from_secs(5))
        .expect("refused within 5 s");
    let message = result.expect_err("refused");
    assert!(
        // The hero is the first character of the file, and as buried as the walkers.
        message.contains("\"hero\"") && message.contains("inside the scenery"),
        "{message}"
    );
}

/// Issue "hostile input": `/dev/zero` as the scene or as an OBJ allocated 2 GB, and a FIFO as
/// the scene path blocked forever. Only regular files are read, up to a size limit; anything
/// else is a clear `SceneError::Io`, at once.
#[test]
fn regression_dev_zero_and_fifos_are_refused_at_once() {
    let refused = |r: Result<Scene, SceneError>, what: &str| match r {
        Err(SceneError::Io { message, .. }) => assert!(message.contains(what), "{message}"),
        other => panic!("expected an I/O error, got {:?}", other.err()),
    };
    if Path::new("/dev/zero").exists() {
        refused(scene::load("/dev/zero"), "not a regular file");
    }
    let dir = std::env::temp_dir().join(format!("spherewalk-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let scene = dir.join("zero.ron");
    std::fs::write(
        &scene,
        "Scene(colliders: [Obj(name: \"zero\", path: \"/dev/zero\")])",
    )
    .expect("write");
    if Path::new("/dev/zero").exists() {
        refused(scene::load(&scene), "not a regular file");
    }
    // A FIFO: opening it would block until a writer came.
    let fifo = dir.join("pipe.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        refused(scene::load(&fifo), "not a regular file");
    }
    // A 17 MiB scene (sparse: no disk used) is over the 16 MiB limit.
    let big = dir.join("big.ron");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(17 << 20))
        .expect("sparse file");
    refused(scene::load(&big), "limit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A floor, a 5 kg crate 2 m ahead of a character that walks into it for 3 s.
const DYNAMIC_SCENE: &str = r#"Scene(
    gravity: [Uniform(accel: (0.0, -9.81, 0.0))],
    colliders: [
        Solid(name: "floor", shape: Cuboid(half_extents: (20.0, 0.5, 20.0)), at: (0.0, -0.5, 0.0)),
    ],
    dynamics: [
        Dynamic(name: "crate", shape: Cuboid(half_extents: (0.5, 0.5, 0.5)), at: (0.0, 0.5, -2.0),
                mass: 5.0, friction: 0.5),
    ],
    characters: [
        Character(name: "pusher", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),
                  input: Script(commands: [Walk(forward: 1.5, seconds: 3.0)])),
    ],
)"#;

#[cfg(feature = "rapier")]
#[test]
fn a_scene_with_a_dynamic_crate_lets_its_character_push_it() {
    let mut scene = SceneFile::parse(DYNAMIC_SCENE, "dynamic.ron")
        .and_then(|f| f.build(Path::new("."), Path::new("dynamic.ron")))
        .unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..180 {
        scene.sim.step();
    }
    let physics = scene.sim.physics().expect("dynamic items turn physics on");
    let (_, crate_body) = physics
        .bodies
        .iter()
        .find(|(_, b)| b.is_dynamic())
        .expect("crate");
    // Pushed from z = -2 along -Z for about 2.2 s at 1.5 m/s (10 %: friction between pushes;
    // the walk starts 1.2 m from the crate's face).
    let z = crate_body.translation().z;
    assert!((-5.6..-4.6).contains(&z), "the crate is at z = {z}");
    // Its collider carries the item's name for traces and events.
    let named = physics
        .colliders
        .iter()
        .filter(|(_, c)| c.parent().is_some_and(|p| physics.bodies[p].is_dynamic()))
        .map(|(h, _)| spherewalk::physics::spherewalk_rapier::Layered::rapier_id(h))
        .filter_map(|id| scene.sim.collider_name(id))
        .collect::<Vec<_>>();
    assert_eq!(named, ["crate"]);
}

#[cfg(not(feature = "rapier"))]
#[test]
fn a_scene_with_dynamic_bodies_needs_the_rapier_feature() {
    let file = SceneFile::parse(DYNAMIC_SCENE, "dynamic.ron").unwrap_or_else(|e| panic!("{e}"));
    let err = match file.build(Path::new("."), Path::new("dynamic.ron")) {
        Err(e) => e,
        Ok(_) => panic!("built without a physics engine"),
    };
    assert_eq!(
        err.to_string(),
        "dynamic.ron: \"crate\": dynamic bodies need spherewalk's `rapier` feature"
    ); // The shipped scenes with bodies are refused the same way, each naming its file.
    for name in WITH_BODIES {
        let err = match scene::load(scene_path(name)) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{name} built without a physics engine"),
        };
        assert!(
            err.contains(&format!("{name}.ron"))
                && err.ends_with("need spherewalk's `rapier` feature"),
            "{name}: {err}"
        );
    }
}

#[test]
fn bad_dynamic_items_are_reported_with_their_line() {
    let bad = |field: &str| DYNAMIC_SCENE.replace("mass: 5.0, friction: 0.5", field);
    for (field, message) in [
        (
            "mass: 5.0, density: 10.0",
            "give `mass` or `density`, not both",
        ),
        ("mass: -5.0", "`mass` must be in (0, 1000000], got -5"),
        ("density: NaN", "`density` must be in (0, 1000000], got NaN"),
        ("friction: -1.0", "`friction` must be in [0, 10], got -1"),
    ] {
        let err = parse_err(&bad(field));
        let text = err.to_string();
        assert!(text.contains(message), "{field}: {text}");
        assert!(text.contains("dynamic \"crate\""), "{text}");
        // The Dynamic item's line (1-based).
        assert_eq!(position(&err).0, 8, "{text}");
    }
}

/// The centre (world, m) of the dynamic body named `name` in `scene`'s rapier world.
#[cfg(feature = "rapier")]
fn dynamic_at(scene: &Scene, name: &str) -> spherewalk::Vec3 {
    use spherewalk::physics::spherewalk_rapier::Layered;
    let physics = scene.sim.physics().expect("physics on");
    let (_, collider) = physics
        .colliders
        .iter()
        .find(|(h, _)| scene.sim.collider_name(Layered::rapier_id(*h)) == Some(name))
        .unwrap_or_else(|| panic!("no dynamic body {name}"));
    *collider.translation()
}

#[cfg(feature = "rapier")]
#[test]
fn the_playground_ball_rolls_down_its_ramp_and_the_stack_and_seesaw_stay_put() {
    let mut scene = load("playground");
    let stack_top = dynamic_at(&scene, "stack_3");
    for _ in 0..300 {
        scene.sim.step();
    }
    // The ball (from x = -10.8, 1.95 m up the ramp) rolled down and away along -X, and rests
    // or rolls on the floor (1 cm: contact slop).
    let ball = dynamic_at(&scene, "ball");
    assert!(ball.x < -15.5, "the ball is at {ball}");
    approx::assert_abs_diff_eq!(ball.y, 0.4, epsilon = 0.01);
    // Three crates stacked 0.8 m apart still stand (the top one within 2 cm of its start).
    let top = dynamic_at(&scene, "stack_3");
    assert!(
        (top - stack_top).norm() < 0.02,
        "the stack's top moved to {top}"
    );
    // The seesaw stays on its fulcrum, level or tipped: its middle on the fulcrum's ridge,
    // 0.5 m up, plus half its 0.1 m thickness (2 cm: contact slop and a tip's rocking).
    let seesaw = dynamic_at(&scene, "seesaw");
    approx::assert_abs_diff_eq!(seesaw.y, 0.55, epsilon = 0.02);
}

/// Issue "Demo v2" defect: the hero's jump (6.0 m/s) peaked 1 m short of the moon's field, so
/// the moon could not be reached. A character standing where the jumper stands (the pole under
/// the moon) and jumping at the hero's own jump speed is caught by the moon.
#[cfg(feature = "rapier")]
#[test]
fn the_hero_can_reach_the_moon_from_the_pole_at_its_jump_speed() {
    use spherewalk::input::{Command, PlayerInput, Script};
    let mut scene = load("planet");
    let hero = entity(&scene, "hero");
    let speed = scene
        .sim
        .ecs
        .get::<&PlayerInput>(hero)
        .expect("the hero is a player")
        .jump_speed;
    let jumper = entity(&scene, "jumper");
    scene.sim.despawn(jumper).expect("jumper");
    let stack = spherewalk::SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    let at = spherewalk::Pose::new(spherewalk::Point3::new(0.0, 20.0, 0.0));
    let mut desc = spherewalk::CharacterDesc::new("tester", stack, at);
    desc.input = spherewalk::Input::Script(Script::new(
        vec![
            Command::Wait { seconds: 0.5 },
            Command::Jump { speed },
            Command::Wait { seconds: 100.0 },
        ],
        false,
    ));
    let tester = scene.sim.spawn_character(desc).expect("spawn");
    for _ in 0..600 {
        scene.sim.step();
    }
    let from_moon = pose(&scene, tester).position - spherewalk::Point3::new(0.0, 32.0, 0.0);
    // On the 5 m moon (or a rock on it, 0.4 m at most above its surface).
    assert!(
        (4.99..5.5).contains(&from_moon.norm()),
        "at jump speed {speed} m/s the tester ended {} m from the moon's centre",
        from_moon.norm()
    );
}

/// Issue 28: the galaxy's sharp-edged block (5 m, border radius 0, its own surface field).
/// Its scripted rounder walks round it at 4 m/s over the top, down the east face, under it
/// and up the west face, its feet on the block throughout.
#[cfg(feature = "rapier")]
#[test]
fn galaxy_scene_rounder_walks_round_the_sharp_block() {
    let mut scene = load("galaxy");
    let rounder = entity(&scene, "rounder");
    let centre = spherewalk::Point3::new(-2.5, 24.0, -2.5);
    let mut seen = Vec::new();
    let mut worst_gap: Real = 0.0;
    let mut airborne = 0;
    let mut rows = Vec::new();
    // 20 m round at 4 m/s: 300 steps a lap; two laps.
    for step in 0..600 {
        scene.sim.step();
        rows.clear();
        records(&scene.sim, &mut rows);
        let row = rows
            .iter()
            .find(|r| r.character == "rounder")
            .expect("rounder");
        airborne += u32::from(!row.grounded);
        let p = pose(&scene, rounder);
        // The feet sphere's centre is 0.3 m up the up; its gap to the block (a box of half
        // extent 2.5 about `centre`).
        let feet = p.centre_at(0.3) - centre;
        let outside = spherewalk::Vec3::new(
            (feet.x.abs() - 2.5).max(0.0),
            (feet.y.abs() - 2.5).max(0.0),
            (feet.z.abs() - 2.5).max(0.0),
        );
        if step > 3 {
            worst_gap = worst_gap.max(outside.norm() - 0.3);
        }
        // It stays in its walking plane z = -3.7 (1 mm: the walk is along a symmetry plane).
        assert!((p.position.z + 3.7).abs() < 1e-3, "left its plane: {p:?}");
        let up = p.up();
        let face = if up.y > 0.985 {
            "top"
        } else if up.x > 0.985 {
            "east"
        } else if up.y < -0.985 {
            "bottom"
        } else if up.x < -0.985 {
            "west"
        } else {
            continue;
        };
        if seen.last() != Some(&face) {
            seen.push(face);
        }
    }
    // The issue's bound is 0.5 m; the feet roll round each edge in contact (5 mm).
    assert!(
        worst_gap < 0.005,
        "the feet left the block by {worst_gap} m"
    );
    assert!(airborne <= 3, "off the ground for {airborne} steps");
    // Two laps: top, east, bottom, west, twice, and back on top.
    let cycle = ["top", "east", "bottom", "west"];
    assert!(seen.len() >= 9, "visited only {seen:?}");
    for (k, face) in seen.iter().enumerate() {
        assert_eq!(*face, cycle[k % 4], "faces visited: {seen:?}");
    }
}

/// The galaxy's pad beside the hero throws a character up to the sharp block, whose field
/// catches it on the underside; the pad there throws one standing on it back down to the
/// cube's top.
#[cfg(feature = "rapier")]
#[test]
fn galaxy_scene_pads_throw_a_character_up_to_the_block_and_back() {
    use spherewalk::input::{Command, Script};
    let mut scene = load("galaxy");
    let stand =
        || spherewalk::Input::Script(Script::new(vec![Command::Wait { seconds: 100.0 }], false));
    let stack = spherewalk::SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    // One on the up pad (its top at y = 5.1), one upside down on the down pad (its face at
    // y = 21.4 under the block).
    let mut up = spherewalk::CharacterDesc::new(
        "going_up",
        stack.clone(),
        spherewalk::Pose::new(spherewalk::Point3::new(-2.5, 5.11, -2.5)),
    );
    up.input = stand();
    let mut down = spherewalk::CharacterDesc::new(
        "going_down",
        stack,
        spherewalk::Pose::with_up(
            spherewalk::Point3::new(-2.5, 21.39, -0.9),
            &-spherewalk::Vec3::y_axis(),
        ),
    );
    down.input = stand();
    let going_up = scene.sim.spawn_character(up).expect("spawn");
    let going_down = scene.sim.spawn_character(down).expect("spawn");
    let mut reached = [None, None];
    let mut rows = Vec::new();
    for step in 0..300 {
        scene.sim.step();
        rows.clear();
        records(&scene.sim, &mut rows);
        for (k, (name, target)) in [("going_up", "block"), ("going_down", "cube")]
            .iter()
            .enumerate()
        {
            let row = rows.iter().find(|r| r.character == *name).expect(name);
            if reached[k].is_none() && row.ground_collider.as_deref() == Some(*target) {
                reached[k] = Some(step);
            }
        }
    }
    // Up: 16 m/s, 12.2 m/s once out of the cube's 6 m reach, 16.3 m to the block's underside
    // in about 1.3 s. Down: 16 m/s, 12.6 m/s out of the block's reach, 16.4 m in about 1.2 s.
    for (k, name) in ["going_up", "going_down"].iter().enumerate() {
        let step = reached[k].unwrap_or_else(|| panic!("{name} never arrived"));
        assert!((50..110).contains(&step), "{name} arrived at step {step}");
    }
    // Each stands on its new world, up turned to it (0.5 degree).
    let p = pose(&scene, going_up);
    approx::assert_abs_diff_eq!(p.position.y, 21.5, epsilon = 0.02);
    assert!(p.up().y < -0.99996, "up {:?}", p.up());
    let p = pose(&scene, going_down);
    approx::assert_abs_diff_eq!(p.position.y, 5.0, epsilon = 0.02);
    assert!(p.up().y > 0.99996, "up {:?}", p.up());
}

#[cfg(feature = "rapier")]
#[test]
fn galaxy_scene_looper_walks_round_the_inside_of_the_loop_tunnel() {
    let mut scene = load("galaxy");
    let looper = entity(&scene, "looper");
    let mut seen = Vec::new();
    for _ in 0..900 {
        scene.sim.step();
        let p = pose(&scene, looper);
        // It stays inside the 6 m tunnel (x, y in -3..3) all the way round (the skin: 1 cm).
        assert!(
            p.position.x.abs() < 3.01 && p.position.y.abs() < 3.01,
            "left the tunnel: {:?}",
            p.position
        );
        let up = p.up();
        // Which inside face it stands on, by its up (within 2.6 degrees).
        let face = if up.y > 0.999 {
            "floor"
        } else if up.x < -0.999 {
            "east"
        } else if up.y < -0.999 {
            "ceiling"
        } else if up.x > 0.999 {
            "west"
        } else {
            continue;
        };
        if seen.last() != Some(&face) {
            seen.push(face);
        }
    }
    // At 3 m/s round a 6 m square: 24 m in 8 s, so at least one loop in 15 s, in order.
    let cycle = ["floor", "east", "ceiling", "west"];
    assert!(seen.len() >= 5, "visited only {seen:?}");
    for (k, face) in seen.iter().enumerate() {
        assert_eq!(*face, cycle[k % 4], "faces visited: {seen:?}");
    }
}

/// Issue 28: the spider of `walls.ron` (two spheres, 0.5 m, `Surface` mode, 1.5 m/s) walks
/// round the outside of its floating sharp-edged box (centre (2.5, 3, -12), half-extents
/// (1, 0.5, 1)), over the top, down one side, under the bottom and up the other, staying on
/// it: never more than 5 cm from it in 10 s.
#[test]
fn walls_scene_spider_walks_round_its_box() {
    let mut scene = load("walls");
    let spider = entity(&scene, "spider");
    let (centre, half) = (
        spherewalk::Point3::new(2.5, 3.0, -12.0),
        spherewalk::Vec3::new(1.0, 0.5, 1.0),
    );
    let mut seen = Vec::new();
    for step in 0..600 {
        scene.sim.step();
        let p = pose(&scene, spider);
        // Distance from the feet sphere's centre to the box, less the radius.
        let d = (p.centre_at(0.15) - centre).abs() - half;
        let gap = d.sup(&spherewalk::Vec3::zeros()).norm() - 0.15;
        assert!(gap < 0.05, "step {step}: {gap} m off the box");
        let up = p.up();
        let face = match () {
            _ if up.y > 0.999 => "top",
            _ if up.y < -0.999 => "bottom",
            _ if up.z.abs() > 0.999 || up.x.abs() > 0.999 => "side",
            _ => continue,
        };
        if seen.last() != Some(&face) {
            seen.push(face);
        }
    }
    assert!(
        seen.starts_with(&["top", "side", "bottom", "side", "top"]),
        "{seen:?}"
    );
}

/// Scene files written before the stair settings were renamed (`step_height`,
/// `min_step_depth`) still load, into `stair_height` and `min_stair_depth`, with the values
/// they name; a file may not give both names of one setting.
#[test]
fn old_stair_setting_names_still_read() {
    let scene_with = |settings: &str| {
        format!(
            "Scene(gravity: [Uniform(accel: (0.0, -9.81, 0.0))],
            characters: [Character(name: \"hero\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),
                at: (0.0, 0.0, 0.0), settings: ({settings}))])"
        )
    };
    for settings in [
        "step_height: 0.2, min_step_depth: 0.05",
        "stair_height: 0.2, min_stair_depth: 0.05",
    ] {
        let file = SceneFile::parse(&scene_with(settings), "stairs.ron")
            .unwrap_or_else(|e| panic!("{settings}: {e}"));
        let scene = file
            .build(Path::new("."), Path::new("stairs.ron"))
            .unwrap_or_else(|e| panic!("{settings}: {e}"));
        let mut query = scene.sim.ecs.query::<&Walker>();
        let hero = query.iter().next().expect("the hero");
        let read = hero.motor.settings();
        // Exact: the RON text's f32 values pass through unchanged.
        assert_eq!(
            (read.stair_height, read.min_stair_depth),
            (0.2, 0.05),
            "{settings}"
        );
    }
    let both = scene_with("step_height: 0.2, stair_height: 0.3");
    assert!(SceneFile::parse(&both, "both.ron").is_err());
}

/// A scene file tunes the dash (`settings: (dash: (..))`): the fields given replace the
/// defaults, the others keep theirs, and a dash setting out of range or misspelt is an error
/// on its line naming it.
#[test]
fn scene_files_tune_the_dash() {
    let text = "Scene(characters: [Character(name: \"dasher\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),\n  settings: (dash: (speed: 15.0, stop_at_walls: false)))])";
    let scene = SceneFile::parse(text, "dash.ron")
        .and_then(|f| f.build(Path::new("."), Path::new("dash.ron")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut query = scene.sim.ecs.query::<&Walker>();
    let dash = query
        .iter()
        .next()
        .expect("one character")
        .motor
        .settings()
        .dash;
    assert_eq!(dash.speed, 15.0);
    assert!(!dash.stop_at_walls);
    assert_eq!(dash.duration, 0.2, "the default, not given");
    let bad = "Scene(characters: [Character(name: \"d\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),\n  settings: (dash: (duration: 0.0)))])";
    let e = parse_err(bad);
    assert_eq!(position(&e).0, 2, "{e}");
    assert!(e.to_string().contains("dash.duration"), "{e}");
    let e = parse_err(&bad.replace("duration", "durration"));
    assert!(e.to_string().contains("durration"), "{e}");
}

/// A scene file flags a collider climbable (`climbable: true` on a `Solid` or an `Obj`) and
/// tunes climbing in a character's `settings: (climb: (..))`; a field out of range is named.
#[test]
fn scene_files_flag_climbable_colliders_and_tune_the_climb() {
    let text = "Scene(colliders: [Solid(name: \"ladder\", shape: Cuboid(half_extents: (0.5, 3.0, 0.05)), at: (0.0, 3.0, -2.0), climbable: true),\n  Solid(name: \"floor\", shape: Cuboid(half_extents: (5.0, 0.5, 5.0)), at: (0.0, -0.5, 0.0))],\n  characters: [Character(name: \"climber\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),\n  settings: (climb: (speed: 1.5)))])";
    let scene = SceneFile::parse(text, "climb.ron")
        .and_then(|f| f.build(Path::new("."), Path::new("climb.ron")))
        .unwrap_or_else(|e| panic!("{e}"));
    let flags: Vec<bool> = scene
        .sim
        .collision
        .iter()
        .map(|(_, c)| c.flags.climbable)
        .collect();
    // The ladder (the first item) and nothing else: not the floor, not the character's body.
    assert_eq!(flags.iter().filter(|&&c| c).count(), 1, "{flags:?}");
    assert!(flags[0], "{flags:?}");
    let mut query = scene.sim.ecs.query::<&Walker>();
    let climb = query
        .iter()
        .next()
        .expect("one character")
        .motor
        .settings()
        .climb;
    assert_eq!(climb.speed, 1.5);
    assert_eq!(climb.mantle_speed, 2.5, "the default, not given");
    let bad = text.replace("speed: 1.5", "mantle_speed: -1.0");
    let e = parse_err(&bad);
    assert!(e.to_string().contains("climb.mantle_speed"), "{e}");
}

/// `traverse.ron`'s climber walks 1.8 m to the ladder at 2 m/s, climbs its 6 m at the climb
/// speed (2 m/s), pulls itself up and walks onto the tower's top: after 6.5 s it stands there
/// (feet at y = 6), past the ladder (x > 8), never deeper than the skin and 1 mm in anything.
#[test]
fn traverse_scene_climber_climbs_the_ladder_onto_the_tower() {
    let mut scene = load("traverse");
    let climber = entity(&scene, "climber");
    let mut modes = Vec::new();
    let mut rows = Vec::new();
    for step in 0..420 {
        scene.sim.step();
        rows.clear();
        records(&scene.sim, &mut rows);
        let row = rows
            .iter()
            .find(|r| r.character == "climber")
            .expect("the climber's record");
        assert!(
            row.max_penetration <= 0.011,
            "step {step}: {}",
            row.max_penetration
        );
        if modes.last() != Some(&row.mode) {
            modes.push(row.mode.clone());
        }
    }
    assert_eq!(modes, ["walk", "climb", "mantle", "walk"]);
    let p = pose(&scene, climber);
    // Standing on the tower's flat top (1e-3 m: the ground clamp's rest).
    assert!((p.position.y - 6.0).abs() < 1e-3, "feet at {}", p.position);
    assert!(p.position.x > 8.5, "feet at {}", p.position);
}
