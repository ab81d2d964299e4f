//! `spherewalk-demo`: a wgpu + winit window that plays a spherewalk scene, or (with
//! `--headless`) renders one offscreen to a PNG with no window at all.
//!
//! ```text
//! spherewalk-demo [SCENE.ron]
//! spherewalk-demo --headless --frames 120 --screenshot out.png [--scene FILE] [--size 1280x720]
//! ```
//!
//! Built for `wasm32-unknown-unknown` (`scripts/build-web.sh`) it plays in a web page's canvas
//! instead; see [`web`].

mod app;
mod camera;
mod cli;
mod control;
mod error;
mod figures;
#[cfg(feature = "gamepad")]
mod gamepad;
mod gpu;
#[cfg(not(target_arch = "wasm32"))]
mod headless;
mod input;
mod overlay;
mod panel;
mod play;
mod render;
mod scenery;
mod scenes;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

#[cfg(not(target_arch = "wasm32"))]
use cli::{Args, USAGE, parse_args};
#[cfg(not(target_arch = "wasm32"))]
use error::DemoError;

#[cfg(not(target_arch = "wasm32"))]
fn run(args: Args) -> Result<(), DemoError> {
    if args.headless {
        let report = headless::run(&args)?;
        println!("{report}");
        Ok(())
    } else {
        app::run(args)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// In a browser: called by the page's script once the module has loaded. Errors in the
/// address or the scene are shown on the page, as later ones are.
#[cfg(target_arch = "wasm32")]
fn main() {
    web::show_panics();
    if let Err(e) = web::args().and_then(app::run) {
        web::fail(&e.to_string());
    }
}
