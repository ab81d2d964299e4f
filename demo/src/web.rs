//! The browser build's side of the page (`web/index.html`): the arguments from the page's
//! address, the status line the page shows while loading and on failure, and the values the page
//! exposes for tests (`window.spherewalk`).
//!
//! The page's address chooses what the command line would: `?scene=planet&debug&hide-ui`.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::cli::{Args, parse_args};
use crate::play::Play;
use crate::scenes::shipped_scene;

/// The canvas the page gives the demo (`<canvas id="spherewalk">`); none when the page has
/// none, and then winit appends one of its own.
pub fn canvas() -> Option<web_sys::HtmlCanvasElement> {
    element("spherewalk")?.dyn_into().ok()
}

/// Shows panics on the page (and in the console) rather than only in the console.
pub fn show_panics() {
    std::panic::set_hook(Box::new(|info| {
        fail(&format!("spherewalk stopped: {info}"))
    }));
}

/// What the page's address asks for (`?scene=planet&debug`), as the command line would.
///
/// # Errors
/// As [`parse_args`], for a key it does not know or a bad value.
pub fn args() -> Result<Args, crate::error::DemoError> {
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    parse_args(query_to_args(&query)).map(|args| args.unwrap_or_else(default_args))
}

/// The arguments of a page that asks for nothing.
fn default_args() -> Args {
    // An empty command line always parses.
    parse_args(Vec::new())
        .ok()
        .flatten()
        .unwrap_or_else(|| Args {
            scene: shipped_scene("galaxy"),
            headless: false,
            frames: None,
            screenshot: "screenshot.png".into(),
            size: (1280, 720),
            debug: false,
            hide_ui: false,
        })
}

/// The command line a page address's query asks for: `scene=NAME` is `--scene
/// scenes/NAME.ron`, `debug` is `--debug`, `hide-ui` is `--hide-ui`; anything else is passed
/// on as `--KEY` so the parser refuses it by name.
fn query_to_args(query: &str) -> Vec<String> {
    let mut args = Vec::new();
    for pair in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        match pair.split_once('=') {
            Some(("scene", name)) => {
                args.push("--scene".to_owned());
                args.push(shipped_scene(name).to_string_lossy().into_owned());
            }
            Some((key, _)) => args.push(format!("--{key}")),
            None => args.push(format!("--{pair}")),
        }
    }
    args
}

fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Shows `text` in the page's status line (`#status`).
pub fn status(text: &str) {
    if let Some(e) = element("status") {
        e.set_text_content(Some(text));
    }
}

/// Shows `text` as an error in the status line (the loading line goes), and in the browser's
/// console.
pub fn fail(text: &str) {
    if let Some(e) = element("loading") {
        e.set_attribute("hidden", "").ok();
    }
    if let Some(e) = element("status") {
        e.set_text_content(Some(text));
        e.set_class_name("error");
    }
    web_sys::console::error_1(&JsValue::from_str(text));
}

/// After each frame shown: the page learns a frame is up (its loading line goes), and
/// `window.spherewalk` holds the numbers tests read: `frames`, `fps`, `scene`, `adapter`, and
/// the controlled character's `position` (`[x, y, z]`, metres, world frame) and `grounded`.
pub fn frame_drawn(play: &Play, frames: u32, fps: f32, adapter: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let state = Object::new();
    let set = |key: &str, value: JsValue| {
        // Setting a property on a plain object cannot fail.
        let _ = Reflect::set(&state, &JsValue::from_str(key), &value);
    };
    set("frames", frames.into());
    set("fps", fps.into());
    set("scene", play.scene.name.as_str().into());
    set("adapter", adapter.into());
    if let Some((position, grounded)) = play.probe() {
        let xyz = js_sys::Array::of3(&position.x.into(), &position.y.into(), &position.z.into());
        set("position", xyz.into());
        set("grounded", grounded.into());
    }
    let _ = Reflect::set(&window, &JsValue::from_str("spherewalk"), &state);
    // The first frame shown (whichever frame number that is) takes the loading line away.
    if let Some(e) = element("loading")
        && !e.has_attribute("hidden")
    {
        e.set_attribute("hidden", "").ok();
    }
}
