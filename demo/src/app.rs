//! The window: winit event handling around [`Play`] and [`Renderer`]. Natively the event
//! loop runs until the window closes; in a browser it is handed to the page, the canvas is the
//! window, and the device arrives asynchronously.

use std::sync::Arc;

use web_time::Instant;

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use crate::cli::Args;
use crate::error::DemoError;
use crate::gpu::Gpu;
use crate::input::{Action, Controls};
use crate::overlay::Overlay;
use crate::panel::{self, PanelAction, PanelState};
use crate::play::Play;
use crate::render::Renderer;
use crate::scenes::{SHIPPED_SCENES, load_scene, shipped_scene};

/// Longest frame time fed to the sim (s): a stall does not turn into a burst of steps.
const MAX_FRAME_DT: f32 = 0.25;

/// Opens the window and plays until it is closed. In a browser this returns at once, with the
/// page running the loop; later errors are shown on the page.
pub fn run(args: Args) -> Result<(), DemoError> {
    // Load first so a bad scene fails before any window opens.
    let scene = load_scene(&args.scene)?;
    let event_loop = EventLoop::new()?;
    event_loop.set_control_flow(ControlFlow::Poll);
    #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
    let mut app = App {
        pending: Some(Play::new(scene, args.scene.clone())),
        args,
        running: None,
        error: None,
        #[cfg(target_arch = "wasm32")]
        connecting: Default::default(),
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        event_loop.run_app(&mut app)?;
        app.error.map_or(Ok(()), Err)
    }
    #[cfg(target_arch = "wasm32")]
    {
        use winit::platform::web::EventLoopExtWebSys;
        event_loop.spawn_app(app);
        Ok(())
    }
}

/// A window whose device is being opened, and the result once it is (browser only).
#[cfg(target_arch = "wasm32")]
type Connecting = std::rc::Rc<std::cell::RefCell<Option<(Arc<Window>, Result<Gpu, DemoError>)>>>;

struct App {
    args: Args,
    /// The scene to play once the window and its device are open.
    pending: Option<Play>,
    running: Option<Running>,
    error: Option<DemoError>,
    /// Where the page's asynchronous device request leaves its answer.
    #[cfg(target_arch = "wasm32")]
    connecting: Connecting,
}

/// Frames per second, averaged over about half a second.
struct FpsCounter {
    since: Instant,
    frames: u32,
    fps: f32,
}

struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    overlay: Option<Overlay>,
    panel: PanelState,
    #[cfg(feature = "gamepad")]
    pads: crate::gamepad::Pads,
    play: Play,
    controls: Controls,
    last: Instant,
    fps: FpsCounter,
    started: Instant,
    frames: u32,
    quit_after: Option<u32>,
}

/// The window to open: natively `--size` pixels; in a browser the page's canvas, whose size
/// the page's style sets (the whole tab), taking the keys it is sent.
fn window_attributes(args: &Args) -> winit::window::WindowAttributes {
    let attributes = Window::default_attributes().with_title("spherewalk");
    #[cfg(not(target_arch = "wasm32"))]
    let attributes = attributes.with_inner_size(PhysicalSize::new(args.size.0, args.size.1));
    #[cfg(target_arch = "wasm32")]
    let attributes = {
        use winit::platform::web::WindowAttributesExtWebSys;
        let _ = args;
        attributes
            .with_canvas(crate::web::canvas())
            .with_append(crate::web::canvas().is_none())
            .with_prevent_default(true)
            .with_focusable(true)
    };
    attributes
}

impl Running {
    fn start(
        window: Arc<Window>,
        mut gpu: Gpu,
        args: &Args,
        play: Play,
    ) -> Result<Self, DemoError> {
        let surface = gpu.surface.take().ok_or(DemoError::SurfaceUnsupported)?;
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .ok_or(DemoError::SurfaceUnsupported)?;
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);
        let samples = gpu.sample_count(format);
        let mut renderer = Renderer::new(
            &gpu.device,
            &gpu.queue,
            format,
            samples,
            (config.width, config.height),
        );
        renderer.set_scenery(&play.scenery_shapes());
        let overlay =
            (!args.hide_ui).then(|| Overlay::new(&gpu.device, format, Some(window.clone())));
        let mut running = Self {
            window,
            gpu,
            surface,
            config,
            renderer,
            overlay,
            panel: PanelState::default(),
            #[cfg(feature = "gamepad")]
            pads: crate::gamepad::Pads::new(),
            play,
            controls: Controls::default(),
            last: Instant::now(),
            started: Instant::now(),
            frames: 0,
            quit_after: args.frames,
            fps: FpsCounter {
                since: Instant::now(),
                frames: 0,
                fps: 0.0,
            },
        };
        running.play.debug.on = args.debug;
        running.set_title();
        #[cfg(target_arch = "wasm32")]
        {
            running.window.focus_window();
            crate::web::status(&format!("running on {}", running.gpu.describe()));
        }
        Ok(running)
    }

    fn set_title(&self) {
        self.window.set_title(&format!(
            "spherewalk - {} - {}x MSAA on {}",
            self.play.scene.name,
            self.renderer.samples(),
            self.gpu.describe()
        ));
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.renderer.resize((size.width, size.height));
    }

    fn load(&mut self, path: std::path::PathBuf) {
        match load_scene(&path) {
            Ok(scene) => {
                let debug = self.play.debug;
                self.play = Play::new(scene, path);
                self.play.debug = debug;
                self.renderer.set_scenery(&self.play.scenery_shapes());
                self.set_title();
            }
            Err(e) => eprintln!("error: {e}"),
        }
    }

    /// Handles one action; false to quit.
    fn act(&mut self, action: Action) -> bool {
        match action {
            Action::SwitchCharacter => self.play.switch_character(),
            Action::ToggleDebug => self.play.debug.on = !self.play.debug.on,
            Action::LoadScene(i) => {
                if let Some(name) = SHIPPED_SCENES.get(i) {
                    self.load(shipped_scene(name));
                }
            }
            Action::Reload => self.load(self.play.path.clone()),
            // A page has nothing to quit to: Esc does nothing there.
            Action::Quit => return cfg!(target_arch = "wasm32"),
        }
        true
    }

    /// Draws one frame; false once `--frames` frames have been shown.
    fn redraw(&mut self) -> Result<bool, DemoError> {
        let now = Instant::now();
        self.frames += 1;
        let dt = (now - self.last).as_secs_f32().min(MAX_FRAME_DT);
        self.last = now;
        self.fps.frames += 1;
        let window = (now - self.fps.since).as_secs_f32();
        if window >= 0.5 {
            self.fps.fps = self.fps.frames as f32 / window;
            self.fps.frames = 0;
            self.fps.since = now;
        }
        #[cfg(feature = "gamepad")]
        self.pads.poll(&mut self.controls, dt);
        self.play.tick(dt, &mut self.controls);
        let size = (self.config.width, self.config.height);
        let (view, frame) = self.play.frame(size);
        self.renderer.update(&view, &frame);
        let mut asked = None;
        match self.surface.get_current_texture() {
            Ok(texture) => {
                let target = texture
                    .texture
                    .create_view(&wgpu::TextureViewDescriptor::default());
                self.renderer.render(&target);
                if let Some(overlay) = self.overlay.as_mut() {
                    let (play, panel, fps) = (&mut self.play, &mut self.panel, self.fps.fps);
                    overlay.frame(&self.gpu, &target, size, |ctx| {
                        asked = panel::show(ctx, panel, play, Some(fps));
                    });
                }
                self.window.pre_present_notify();
                texture.present();
                #[cfg(target_arch = "wasm32")]
                crate::web::frame_drawn(
                    &self.play,
                    self.frames,
                    self.fps.fps,
                    &self.gpu.describe(),
                );
            }
            Err(wgpu::SurfaceError::Lost | wgpu::SurfaceError::Outdated) => {
                self.surface.configure(&self.gpu.device, &self.config);
            }
            Err(wgpu::SurfaceError::OutOfMemory) => {
                return Err(DemoError::Frame("out of memory".into()));
            }
            // Timeouts and the like: skip this frame.
            Err(_) => {}
        }
        match asked {
            Some(PanelAction::LoadScene(i)) => {
                self.act(Action::LoadScene(i));
            }
            Some(PanelAction::Restart) => {
                self.act(Action::Reload);
            }
            None => {}
        }
        Ok(self.quit_after.is_none_or(|n| self.frames < n))
    }

    /// One line about the run so far, ending with where the controlled character is.
    fn summary(&self) -> String {
        let secs = self.started.elapsed().as_secs_f64();
        let at = match self.play.probe() {
            Some((p, grounded)) => format!(
                "; controlled character at ({:.2}, {:.2}, {:.2}) m, {}",
                p.x,
                p.y,
                p.z,
                if grounded { "grounded" } else { "airborne" }
            ),
            None => String::new(),
        };
        format!(
            "{} frames in {secs:.1} s ({:.1} fps), {} steps, {} on {}{at}",
            self.frames,
            f64::from(self.frames) / secs.max(1e-9),
            self.play.scene.sim.steps(),
            self.play.scene.name,
            self.gpu.describe()
        )
    }
}

impl App {
    /// Stops on `error`: natively the loop ends and `run` returns it; in a browser the page
    /// shows it.
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: DemoError) {
        #[cfg(target_arch = "wasm32")]
        crate::web::fail(&error.to_string());
        self.error = Some(error);
        event_loop.exit();
    }

    /// Starts playing the pending scene in `window` once its device is open.
    fn start(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        gpu: Result<Gpu, DemoError>,
    ) {
        let Some(play) = self.pending.take() else {
            return;
        };
        match gpu.and_then(|gpu| Running::start(window, gpu, &self.args, play)) {
            Ok(running) => self.running = Some(running),
            Err(e) => self.fail(event_loop, e),
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.pending.is_none() || self.running.is_some() {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        if self.connecting.borrow().is_some() {
            return;
        }
        let window = match event_loop.create_window(window_attributes(&self.args)) {
            Ok(w) => Arc::new(w),
            Err(e) => return self.fail(event_loop, e.into()),
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            let gpu = Gpu::open(Some(window.clone()));
            self.start(event_loop, window, gpu);
        }
        #[cfg(target_arch = "wasm32")]
        {
            let slot = self.connecting.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let gpu = Gpu::connect(Some(window.clone())).await;
                window.request_redraw();
                *slot.borrow_mut() = Some((window, gpu));
            });
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let game_only = matches!(
            &event,
            WindowEvent::KeyboardInput {
                event: KeyEvent {
                    physical_key: PhysicalKey::Code(code),
                    ..
                },
                ..
            } if Controls::game_only(*code)
        );
        let (taken, wants_pointer, wants_keys) = match r.overlay.as_mut() {
            Some(_) if game_only => (false, false, false),
            Some(o) => (
                o.on_window_event(&event),
                o.wants_pointer(),
                o.wants_keyboard(),
            ),
            None => (false, false, false),
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => r.resize(size),
            WindowEvent::Focused(false) => r.controls.release_all(),
            WindowEvent::KeyboardInput {
                event:
                    KeyEvent {
                        physical_key: PhysicalKey::Code(code),
                        state,
                        repeat,
                        ..
                    },
                ..
            } => {
                // Keys go to a focused text field, else to the game (a release always does,
                // so nothing stays held).
                if wants_keys && (state.is_pressed() || taken) {
                    return;
                }
                if let Some(action) = r.controls.key(code, state, repeat)
                    && !r.act(action)
                {
                    event_loop.exit();
                }
            }
            // Presses over the panel are the panel's; releases always reach the game.
            WindowEvent::MouseInput { state, button, .. }
                if !(state.is_pressed() && (taken || wants_pointer)) =>
            {
                r.controls.button(button, state);
            }
            WindowEvent::CursorMoved { position, .. } => r.controls.cursor(position.x, position.y),
            WindowEvent::MouseWheel { delta, .. } if !(taken || wants_pointer) => {
                r.controls.wheel(delta);
            }
            WindowEvent::RedrawRequested => match r.redraw() {
                Ok(true) => {}
                Ok(false) => {
                    println!("{}", r.summary());
                    event_loop.exit();
                }
                Err(e) => self.fail(event_loop, e),
            },
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        #[cfg(target_arch = "wasm32")]
        {
            let connected = self.connecting.borrow_mut().take();
            if let Some((window, gpu)) = connected {
                self.start(_event_loop, window, gpu);
            }
        }
        if let Some(r) = &self.running {
            r.window.request_redraw();
        }
    }
}
