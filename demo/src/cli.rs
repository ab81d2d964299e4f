//! The command line: what it asks for ([`Args`]) and how it is read ([`parse_args`]).

use std::path::PathBuf;

use crate::error::DemoError;
use crate::scenes::shipped_scene;

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// Scene file to play.
    pub scene: PathBuf,
    /// Render offscreen and exit.
    pub headless: bool,
    /// Frames to simulate before the screenshot (headless, default 120), or to show before
    /// quitting (window; none: run until closed).
    pub frames: Option<u32>,
    /// PNG to write (headless).
    pub screenshot: PathBuf,
    /// Image size (headless) or initial window size.
    pub size: (u32, u32),
    /// Start with debug drawing on.
    pub debug: bool,
    /// Leave the settings panel out (headless screenshots of the scene alone).
    pub hide_ui: bool,
}

/// The usage text printed for `--help` and after a command-line error.
#[cfg(not(target_arch = "wasm32"))]
pub const USAGE: &str = "\
usage: spherewalk-demo [SCENE.ron] [--debug] [--hide-ui] [--size WxH] [--frames N (quit after N frames)]
       spherewalk-demo --headless [--frames N] [--screenshot OUT.png] [--scene FILE] [--size WxH] [--debug] [--hide-ui]

Plays scenes/galaxy.ron by default. Keys: WASD move (camera-relative), mouse drag look,
wheel zoom, Space jump, Shift dash, C crouch, Tab switch character, F1 debug draw, 1-8 shipped scenes,
R restart, Esc quit.
Backends: Vulkan then GL; set WGPU_BACKEND=vulkan|gl to choose.";

fn parse_size(value: &str) -> Result<(u32, u32), DemoError> {
    let bad = |reason| DemoError::BadValue {
        flag: "--size",
        value: value.to_owned(),
        reason,
    };
    let (w, h) = value.split_once(['x', 'X']).ok_or(bad("expected WxH"))?;
    let w: u32 = w.trim().parse().map_err(|_| bad("expected WxH"))?;
    let h: u32 = h.trim().parse().map_err(|_| bad("expected WxH"))?;
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(bad("each side must be 16 to 8192 pixels"));
    }
    Ok((w, h))
}

/// Parses the command line (without the program name). `Ok(None)` means `--help`.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Option<Args>, DemoError> {
    let mut scene: Option<PathBuf> = None;
    let mut headless = false;
    let mut frames = None;
    let mut screenshot = None;
    let mut size = None;
    let mut debug = false;
    let mut hide_ui = false;
    let mut it = args.into_iter();
    let set_scene = |p: PathBuf, scene: &mut Option<PathBuf>| match scene.take() {
        Some(old) => Err(DemoError::TwoScenes(old, p)),
        None => {
            *scene = Some(p);
            Ok(())
        }
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--headless" => headless = true,
            "--debug" => debug = true,
            "--hide-ui" => hide_ui = true,
            "--frames" => {
                let v = it.next().ok_or(DemoError::MissingValue("--frames"))?;
                let n: u32 = v.parse().map_err(|_| DemoError::BadValue {
                    flag: "--frames",
                    value: v.clone(),
                    reason: "expected a whole number",
                })?;
                if n > 1_000_000 {
                    return Err(DemoError::BadValue {
                        flag: "--frames",
                        value: v,
                        reason: "at most 1000000",
                    });
                }
                frames = Some(n);
            }
            "--screenshot" => {
                let v = it.next().ok_or(DemoError::MissingValue("--screenshot"))?;
                screenshot = Some(PathBuf::from(v));
            }
            "--scene" => {
                let v = it.next().ok_or(DemoError::MissingValue("--scene"))?;
                set_scene(PathBuf::from(v), &mut scene)?;
            }
            "--size" => {
                let v = it.next().ok_or(DemoError::MissingValue("--size"))?;
                size = Some(parse_size(&v)?);
            }
            s if s.starts_with('-') => return Err(DemoError::UnknownArgument(arg)),
            _ => set_scene(PathBuf::from(arg), &mut scene)?,
        }
    }
    if !headless && screenshot.is_some() {
        return Err(DemoError::NeedsHeadless("--screenshot"));
    }
    Ok(Some(Args {
        scene: scene.unwrap_or_else(|| shipped_scene("galaxy")),
        headless,
        frames,
        screenshot: screenshot.unwrap_or_else(|| PathBuf::from("screenshot.png")),
        size: size.unwrap_or((1280, 720)),
        debug,
        hide_ui,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Option<Args>, DemoError> {
        parse_args(s.split_whitespace().map(String::from))
    }

    #[test]
    fn parses_headless_flags() {
        let a = parse("--headless --frames 30 --screenshot o.png --scene s.ron --size 320x192")
            .ok()
            .flatten()
            .expect("valid");
        assert!(a.headless);
        assert_eq!(a.frames, Some(30));
        assert_eq!(a.size, (320, 192));
        assert_eq!(a.scene, PathBuf::from("s.ron"));
        assert_eq!(a.screenshot, PathBuf::from("o.png"));
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(parse("--frames"), Err(DemoError::MissingValue(_))));
        assert!(matches!(
            parse("--size 10"),
            Err(DemoError::BadValue { .. })
        ));
        assert!(matches!(
            parse("--size 0x5"),
            Err(DemoError::BadValue { .. })
        ));
        assert!(matches!(
            parse("--bogus"),
            Err(DemoError::UnknownArgument(_))
        ));
        assert!(matches!(
            parse("a.ron b.ron"),
            Err(DemoError::TwoScenes(..))
        ));
        assert!(matches!(
            parse("--screenshot a.png"),
            Err(DemoError::NeedsHeadless(_))
        ));
        assert!(matches!(parse("--help"), Ok(None)));
    }
}
