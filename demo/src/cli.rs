//! The command line: what it asks for ([`Args`]), how it is read ([`parse_args`]), and every
//! error the demo reports ([`DemoError`]).

use std::path::PathBuf;

use thiserror::Error;

use crate::scenes::shipped_scene;

/// Everything that can stop the demo, each with a message meant for the user.
#[derive(Debug, Error)]
pub enum DemoError {
    /// A command-line flag the demo does not know.
    #[error("unknown argument `{0}` (try --help)")]
    UnknownArgument(String),
    /// A flag given without its value.
    #[error("`{0}` needs a value")]
    MissingValue(&'static str),
    /// A flag whose value does not parse.
    #[error("bad value `{value}` for `{flag}`: {reason}")]
    BadValue {
        /// The flag.
        flag: &'static str,
        /// What was given.
        value: String,
        /// What was expected.
        reason: &'static str,
    },
    /// Two scene paths were given.
    #[error("more than one scene given (`{0}` and `{1}`)")]
    TwoScenes(PathBuf, PathBuf),
    /// `--frames` or `--screenshot` used without `--headless`.
    #[error("`{0}` only makes sense with --headless")]
    NeedsHeadless(&'static str),
    /// The scene file did not load (the scene error names the file).
    #[error("cannot load scene: {source}")]
    Scene {
        /// The scene file.
        path: PathBuf,
        /// Why (boxed: scene errors are large).
        source: Box<spherewalk::scene::SceneError>,
    },
    /// `WGPU_BACKEND` names something that is not a backend.
    #[error(
        "WGPU_BACKEND={value}: `{name}` is not a backend; use vulkan, gl, metal, dx12 or webgpu \
         (comma-separated), or unset it to try Vulkan then GL"
    )]
    BadBackend {
        /// The variable's whole value.
        value: String,
        /// The first name in it that is not a backend.
        name: String,
    },
    /// No graphics adapter on any backend tried.
    #[error(
        "no graphics adapter found (backends tried: {tried}).\n\
         hint: without a GPU, install Mesa's software drivers:\n  \
         apt-get install mesa-vulkan-drivers libvulkan1   (Vulkan: lavapipe)\n  \
         apt-get install libegl1 libgl1-mesa-dri           (GL: llvmpipe)\n\
         and pick one with WGPU_BACKEND=vulkan or WGPU_BACKEND=gl"
    )]
    NoAdapter {
        /// The backends tried, in order.
        tried: String,
    },
    /// The adapter refused to open a device.
    #[error("cannot open the graphics device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// The window's surface could not be created.
    #[error("cannot create the window surface: {0}")]
    Surface(#[from] wgpu::CreateSurfaceError),
    /// The adapter cannot present to the window.
    #[error("the adapter cannot present to this window")]
    SurfaceUnsupported,
    /// The window system failed.
    #[error(
        "window system error: {0}\n(no display? `--headless --frames 120 --screenshot out.png` renders without a window)"
    )]
    EventLoop(#[from] winit::error::EventLoopError),
    /// A window could not be opened.
    #[error("cannot open a window: {0}")]
    Window(#[from] winit::error::OsError),
    /// A frame could not be drawn to the window.
    #[error("cannot draw to the window: {0}")]
    Frame(String),
    /// Reading the rendered image back failed.
    #[error("cannot read the rendered image back: {0}")]
    Readback(String),
    /// Writing the PNG failed.
    #[error("cannot write {path}: {source}")]
    Png {
        /// The PNG file.
        path: PathBuf,
        /// Why.
        source: png::EncodingError,
    },
    /// Creating the PNG file failed.
    #[error("cannot create {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

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
}

/// The usage text printed for `--help` and after a command-line error.
pub const USAGE: &str = "\
usage: spherewalk-demo [SCENE.ron] [--debug] [--size WxH] [--frames N (quit after N frames)]
       spherewalk-demo --headless [--frames N] [--screenshot OUT.png] [--scene FILE] [--size WxH] [--debug]

Plays scenes/galaxy.ron by default. Keys: WASD move (camera-relative), mouse drag look,
wheel zoom, Space jump, C crouch, Tab switch character, F1 debug draw, 1-6 shipped scenes,
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
