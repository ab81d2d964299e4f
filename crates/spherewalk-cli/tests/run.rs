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
fn exits_2_on_usage_errors_and_1_on_a_bad_scene() {
    let out = cli().args(["run"]).output().expect("the CLI runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage:"));

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
