//! Every error the demo reports, each with a message meant for the user.

use std::path::PathBuf;

use thiserror::Error;

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
    #[cfg(not(target_arch = "wasm32"))]
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
    /// The browser gave neither a WebGPU nor a WebGL2 adapter.
    #[error(
        "this browser gives spherewalk neither WebGPU nor WebGL2, so it cannot draw.\n\
         Try a current Chrome, Edge, Firefox or Safari, and check that hardware acceleration \
         (or WebGL) is not switched off in its settings."
    )]
    NoBrowserGraphics,
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
    #[cfg(not(target_arch = "wasm32"))]
    #[error("cannot read the rendered image back: {0}")]
    Readback(String),
    /// Writing the PNG failed.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("cannot write {path}: {source}")]
    Png {
        /// The PNG file.
        path: PathBuf,
        /// Why.
        source: png::EncodingError,
    },
    /// Creating the PNG file failed.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("cannot create {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
