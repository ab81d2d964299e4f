//! Runs the demo's `--headless` mode on shipped scenes (on Mesa's software drivers where
//! there is no GPU) and checks the screenshots.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const WIDTH: u32 = 320;
const HEIGHT: u32 = 192;

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scenes")
        .join(format!("{name}.ron"))
}

/// Renders `name` headless at `size` (the settings panel drawn when `ui`) and returns its
/// pixels (RGBA8).
fn render(name: &str, size: (u32, u32), ui: bool) -> Vec<u8> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{ui}.png"));
    let _ = std::fs::remove_file(&out);
    let mut command = Command::new(env!("CARGO_BIN_EXE_spherewalk-demo"));
    if !ui {
        command.arg("--hide-ui");
    }
    let result = command
        .args(["--headless", "--frames", "30", "--size"])
        .arg(format!("{}x{}", size.0, size.1))
        .arg("--scene")
        .arg(scene(name))
        .arg("--screenshot")
        .arg(&out)
        .output()
        .expect("the demo binary runs");
    assert!(
        result.status.success(),
        "headless {name} failed:\n{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    let file = std::fs::File::open(&out).expect("the PNG was written");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("a valid PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size fits")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!((info.width, info.height), size, "{name}: size");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    buf
}

/// Renders `name` headless at the tests' small size, without the panel.
fn screenshot(name: &str) -> Vec<u8> {
    render(name, (WIDTH, HEIGHT), false)
}

/// Pixels of the controlled character's orange (lit or in shade).
fn orange_pixels(rgba: &[u8]) -> usize {
    rgba.chunks_exact(4)
        .filter(|p| {
            let (r, g, b) = (f32::from(p[0]), f32::from(p[1]), f32::from(p[2]));
            r > 90.0 && g > 0.25 * r && g < 0.8 * r && b < 0.5 * g
        })
        .count()
}

fn check(name: &str) {
    let rgba = screenshot(name);
    let colours: HashSet<[u8; 3]> = rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
    assert!(colours.len() > 50, "{name}: only {} colours", colours.len());
    let orange = orange_pixels(&rgba);
    assert!(orange > 100, "{name}: only {orange} pixels of the player");
}

#[test]
fn planet_screenshot_shows_the_player() {
    check("planet");
}

#[test]
fn galaxy_screenshot_shows_the_player() {
    check("galaxy");
}

#[test]
fn walls_screenshot_shows_the_player() {
    check("walls");
}

#[test]
fn the_settings_panel_is_drawn_over_the_scene_and_leaves_the_player_in_view() {
    let (w, h) = (960, 540);
    let with = render("galaxy", (w, h), true);
    let without = render("galaxy", (w, h), false);
    // The panel sits at the top left: there the two shots differ, and it is dark (egui's
    // dark theme, for contrast with the sky); the far corner is the same sky in both.
    let at = |rgba: &[u8], x: u32, y: u32| {
        let i = ((y * w + x) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    // A block inside the panel, right of its short lines of text: mostly dark (text and
    // widgets are lighter), where the scene behind is the bright sky.
    let block: Vec<[u8; 3]> = (250..290)
        .flat_map(|x| (150..200).map(move |y| (x, y)))
        .map(|(x, y)| at(&with, x, y))
        .collect();
    let dark = block.iter().filter(|p| p.iter().all(|c| *c < 60)).count();
    assert!(
        dark * 10 > block.len() * 9,
        "{dark} of {} dark",
        block.len()
    );
    assert_ne!(at(&with, 270, 175), at(&without, 270, 175));
    assert_eq!(at(&with, w - 5, 5), at(&without, w - 5, 5));
    assert!(
        orange_pixels(&with) > 100,
        "the player is hidden by the panel"
    );
}

#[test]
fn bad_scene_is_a_clear_error() {
    let result = Command::new(env!("CARGO_BIN_EXE_spherewalk-demo"))
        .args(["--headless", "--scene", "no/such/scene.ron"])
        .output()
        .expect("the demo binary runs");
    assert!(!result.status.success());
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("no/such/scene.ron"), "{err}");
}
