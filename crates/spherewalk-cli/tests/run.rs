//! The CLI as a user runs it: a shipped scene, a trace file, the summary, and exit codes.

use std::path::PathBuf;
use std::process::Command;

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spherewalk-cli"))
}

fn scene(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenes")
        .join(name)
}

#[test]
fn runs_the_planet_scene_writes_its_trace_and_prints_a_summary() {
    let trace = std::env::temp_dir().join(format!("spherewalk-cli-{}.jsonl", std::process::id()));
    let out = cli()
        .arg("run")
        .arg(scene("planet.ron"))
        .args(["--steps", "60", "--trace"])
        .arg(&trace)
        .output()
        .expect("the CLI runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for label in [
        "scene",
        "steps",
        "grounded",
        "penetration",
        "speed",
        "trace",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(label)),
            "no `{label}` line in\n{stdout}"
        );
    }
    assert!(
        stdout.contains("60 x 0.0167 s = 1.00 s simulated, 6 characters"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&trace).expect("trace written");
    // One line per character per step: 6 characters x 60 steps.
    assert_eq!(text.lines().count(), 360);
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap_or_default()).expect("JSON");
    assert_eq!(last["step"], 59);
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn help_and_version_behave_like_any_clap_tool() {
    for args in [
        &["--help"][..],
        &["run", "--help"],
        &["help", "run"],
        &["--version"],
    ] {
        let out = cli().args(args).output().expect("the CLI runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.is_empty() && out.stderr.is_empty(),
            "{args:?}: {stdout}"
        );
    }
    let out = cli()
        .args(["run", "--help"])
        .output()
        .expect("the CLI runs");
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--steps",
        "--trace",
        "--serial",
        "--max-colliders",
        "--quiet",
        "--json",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    let out = cli().arg("--version").output().expect("the CLI runs");
    let version = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        version.trim(),
        format!("spherewalk-cli {}", env!("CARGO_PKG_VERSION"))
    );
    let out = cli()
        .args(["completions", "bash"])
        .output()
        .expect("the CLI runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("spherewalk-cli"));
}

#[test]
fn json_summary_and_quiet_runs_for_scripts() {
    // `--steps=5` is as good as `--steps 5`.
    let out = cli()
        .arg("run")
        .arg(scene("walls.ron"))
        .args(["--steps=5", "--json", "--serial"])
        .output()
        .expect("the CLI runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(summary["scene"], "walls");
    assert_eq!(summary["steps"], 5);
    assert_eq!(summary["characters"], 5);
    assert_eq!(summary["parallel"], false);
    // Four characters standing on the tunnel floor and the spider on its box: grounded
    // throughout, no penetration past the 1 cm skin.
    assert!(summary["grounded_ratio"].as_f64().is_some_and(|g| g > 0.99));
    assert!(
        summary["max_penetration"]
            .as_f64()
            .is_some_and(|p| p < 0.011)
    );
    let out = cli()
        .arg("run")
        .arg(scene("walls.ron"))
        .args(["--steps", "5", "--quiet"])
        .output()
        .expect("the CLI runs");
    assert!(out.status.success());
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    // Both at once is a usage error.
    let out = cli()
        .arg("run")
        .arg(scene("walls.ron"))
        .args(["--quiet", "--json"])
        .output()
        .expect("the CLI runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn exits_2_on_usage_errors_and_1_on_a_bad_scene() {
    let out = cli().args(["run"]).output().expect("the CLI runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage:"));

    let bad = std::env::temp_dir().join(format!("spherewalk-cli-bad-{}.ron", std::process::id()));
    std::fs::write(
        &bad,
        "Scene(\n  dt: 0.01,\n  colliders: [Solid(shape: Ball(radius: 0.0))],\n)\n",
    )
    .expect("write");
    let out = cli().arg("run").arg(&bad).output().expect("the CLI runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The message names the file, line 3, and the bad field.
    assert!(
        stderr.contains(".ron:3:") && stderr.contains("radius"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(&bad);
}

/// Runs the CLI on a scene file `file` (in the temp dir) holding `text` whose one character
/// has the settings `settings`; expects exit code 1 and returns the scene path and stderr.
fn run_bad_character_settings(file: &str, settings: &str) -> (PathBuf, String) {
    let path = std::env::temp_dir().join(format!("spherewalk-{}-{file}", std::process::id()));
    let text = format!(
        "Scene(\n    name: \"bad\",\n    characters: [\n        Character(name: \"hero\", stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),\n                  settings: ({settings})),\n    ],\n)\n"
    );
    std::fs::write(&path, text).expect("temp file");
    let out = cli().arg("run").arg(&path).output().expect("the CLI runs");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1));
    (path, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A bad value in a scene is shown on its line with a caret under it, in the scene's own field
/// name and unit, and the run exits with 1.
#[test]
fn a_bad_scene_value_is_shown_on_its_line_with_a_caret() {
    let (path, stderr) = run_bad_character_settings("slope.ron", "slope_limit_deg: 95.0");
    let expected = format!(
        "error: character \"hero\": `slope_limit_deg` = 95 is out of range (0 <= x < 90 degrees)\n --> {}:5:52\n  |\n5 |                   settings: (slope_limit_deg: 95.0)),\n  |                                                    ^\n",
        path.display()
    );
    assert!(stderr.ends_with(&expected), "{stderr}");
}

/// Issue "hostile input": a scene with `max_substep_fraction: 1e-30` hung the CLI. It is now a
/// scene error naming the setting, exit code 1, at once.
#[test]
fn regression_a_substep_fraction_of_1e_30_no_longer_hangs_the_cli() {
    let (_, stderr) = run_bad_character_settings("frac.ron", "max_substep_fraction: 1e-30");
    assert!(
        stderr.contains("`max_substep_fraction`") && stderr.contains("(0.01 <= x <= 1)"),
        "{stderr}"
    );
}

/// Runs the CLI on a scene file `file` (in the temp dir) holding `text` with the extra
/// arguments `extra`; returns the exit code and stderr.
fn run_scene_text(file: &str, text: &str, extra: &[&str]) -> (Option<i32>, String) {
    let path = std::env::temp_dir().join(format!("spherewalk-{}-{file}", std::process::id()));
    std::fs::write(&path, text).expect("temp file");
    let out = cli()
        .arg("run")
        .arg(&path)
        .args(extra)
        .output()
        .expect("the CLI runs");
    let _ = std::fs::remove_file(&path);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue "hostile input": `Planet(radius: 100.0, rocks: 999999)` took 19 s and 2.7 GB. It is
/// refused before anything is built: exit code 1, the count, the limit and how to raise it.
#[test]
fn regression_planet_999999_rocks_is_over_budget() {
    let (code, stderr) = run_scene_text(
        "rocks.ron",
        "Scene(colliders: [Planet(radius: 100.0, rocks: 999999)])\n",
        &["--steps", "1"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "rocks.ron: \"planet\": over budget: the scene has 1000000 colliders, over the limit \
             of 100000; raise `SceneOptions::max_colliders` to load it\n  = help: \
             `--max-colliders` raises it for this run"
        ),
        "{stderr}"
    );
}

/// Issue "hostile input": ten `BoxGrid(nx: 1000, nz: 1000)` took 26 s and 5.2 GB.
#[test]
fn regression_ten_1000x1000_box_grids_over_budget() {
    let grids = ["BoxGrid(nx: 1000, nz: 1000, size: 1.0)"; 10].join(",\n    ");
    let (code, stderr) = run_scene_text(
        "grids.ron",
        &format!("Scene(colliders: [\n    {grids},\n])\n"),
        &["--steps", "1"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "\"box_grid\": over budget: the scene has 10000000 colliders, over the limit of 100000"
        ),
        "{stderr}"
    );
}

/// Issue "hostile input": a crowd of 100,000 on `crowd.ron`'s 40 m planet (about 5 per m²)
/// ran out of 8 GB of address space. Refused for its density, 100000 / (4 pi 40²) per m².
#[test]
fn regression_crowd_100k_on_40m_planet_over_budget() {
    let text = std::fs::read_to_string(scene("crowd.ron")).expect("shipped scene");
    assert!(text.contains("count: 1000,"), "crowd.ron changed its count");
    let (code, stderr) = run_scene_text(
        "crowd.ron",
        &text.replace("count: 1000,", "count: 100000,"),
        &["--steps", "1"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "\"walker\": over budget: 100000 characters on a sphere of radius 40 m are 4.974 \
             characters per m², over the limit of 1; raise `SceneOptions::max_characters_per_m2`"
        ) && stderr.contains("`--max-characters-per-m2` raises it"),
        "{stderr}"
    );
}

/// The `--max-*` flags raise the budget: 1000 wanderers on a 5 m planet (3.18 per m²) are
/// refused by default and run with `--max-characters-per-m2 4`.
#[test]
fn budget_flags_let_a_dense_crowd_run() {
    let text = "Scene(
        colliders: [Planet(name: \"ball\", radius: 5.0)],
        crowds: [Crowd(name: \"walker\", count: 1000, spread: Sphere(centre: (0.0, 0.0, 0.0), radius: 5.0),
                       stacks: [Capsule(height: 0.5, radius: 0.15, spheres: 2)], speed: 1.0)],
    )";
    let (code, stderr) = run_scene_text("dense.ron", text, &["--steps", "1"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("3.183 characters per m²"), "{stderr}");
    let (code, stderr) = run_scene_text(
        "dense.ron",
        text,
        &["--steps", "1", "--max-characters-per-m2", "4"],
    );
    assert_eq!(code, Some(0), "{stderr}");
}

/// Issue "hostile input": an OBJ quad 1e20 m across loaded, and characters fell through it.
/// The CLI exits 1 naming the scene file, the item and the range.
#[test]
fn regression_an_obj_quad_of_1e20_m_exits_1() {
    let obj = format!("spherewalk-{}-huge.obj", std::process::id());
    let obj_path = std::env::temp_dir().join(&obj);
    let quad = "v -1e20 0 -1e20\nv 1e20 0 -1e20\nv 1e20 0 1e20\nv -1e20 0 1e20\nf 1 3 2\nf 1 4 3\n";
    std::fs::write(&obj_path, quad).expect("temp obj");
    let text = format!("Scene(colliders: [Obj(name: \"sky\", path: \"{obj}\")])\n");
    let (code, stderr) = run_scene_text("huge-obj.ron", &text, &["--steps", "1"]);
    let _ = std::fs::remove_file(&obj_path);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("huge-obj.ron: \"sky\": collider reaches beyond 1000000 m from the origin"),
        "{stderr}"
    );
}

/// Issue "hostile input": `spheres: 18446744073709551615` in a scene exited 101 (a panic) and
/// `4000000000` exited 134 (an abort). Both are a scene error now: exit 1, the count named.
#[test]
fn regression_scene_sphere_counts_of_u64_max_and_4e9_exit_1() {
    for count in ["18446744073709551615", "4000000000"] {
        let text = format!(
            "Scene(characters: [Character(name: \"hero\", stack: Capsule(height: 1.8, radius: 0.3, spheres: {count}))])\n"
        );
        let (code, stderr) = run_scene_text("spheres.ron", &text, &["--steps", "1"]);
        assert_eq!(code, Some(1), "{count}: {stderr}");
        assert!(
            stderr.contains(count) && stderr.contains("spheres"),
            "{stderr}"
        );
    }
}
