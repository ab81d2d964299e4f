//! `spherewalk-demo`: a wgpu + winit window that plays a spherewalk scene, or (with
//! `--headless`) renders one offscreen to a PNG with no window at all.
//!
//! ```text
//! spherewalk-demo [SCENE.ron]
//! spherewalk-demo --headless --frames 120 --screenshot out.png [--scene FILE] [--size 1280x720]
//! ```

mod app;
mod camera;
mod cli;
mod control;
mod error;
mod figures;
#[cfg(feature = "gamepad")]
mod gamepad;
mod gpu;
mod headless;
mod input;
mod overlay;
mod panel;
mod play;
mod render;
mod scenery;
mod scenes;

use std::process::ExitCode;

use cli::{Args, USAGE, parse_args};
use error::DemoError;

fn run(args: Args) -> Result<(), DemoError> {
    if args.headless {
        let report = headless::run(&args)?;
        println!("{report}");
        Ok(())
    } else {
        app::run(args)
    }
}

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
