//! The egui overlay: runs a UI pass over a frame's input and paints it on top of the rendered
//! scene, in the window (input from winit) or headless (no input).

use egui_wgpu::ScreenDescriptor;
use std::sync::Arc;
use winit::window::Window;

use crate::gpu::Gpu;

/// Height (physical pixels) at which the UI is drawn at its natural size; taller windows get
/// bigger text, up to twice the size, so it stays readable on large screens.
const NATURAL_HEIGHT: f32 = 720.0;

/// egui's context, its wgpu painter, and (in a window) its winit input state with the window
/// it reads.
pub struct Overlay {
    ctx: egui::Context,
    painter: egui_wgpu::Renderer,
    input: Option<(egui_winit::State, Arc<Window>)>,
}

/// The zoom that keeps the UI readable in a target `height` physical pixels tall: 1 at
/// [`NATURAL_HEIGHT`] and below, growing with the height up to 2.
pub fn zoom_for(height: u32) -> f32 {
    (height as f32 / NATURAL_HEIGHT).clamp(1.0, 2.0)
}

impl Overlay {
    /// An overlay painting into `format` targets. In a window, pass it so egui reads its
    /// input and scale factor.
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        window: Option<Arc<Window>>,
    ) -> Self {
        let ctx = egui::Context::default();
        ctx.set_visuals(egui::Visuals::dark());
        // No fades or slides: the panel is a tool, and a headless shot shows it at once.
        ctx.all_styles_mut(|style| style.animation_time = 0.0);
        let input = window.map(|w| {
            let state = egui_winit::State::new(
                ctx.clone(),
                egui::ViewportId::ROOT,
                &w,
                Some(w.scale_factor() as f32),
                None,
                None,
            );
            (state, w)
        });
        let painter = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions {
                msaa_samples: 1,
                ..Default::default()
            },
        );
        Self {
            ctx,
            painter,
            input,
        }
    }

    /// Feeds a window event to egui; true when egui took it (a click on the panel, typing in
    /// a field) and the game should not see it.
    pub fn on_window_event(&mut self, event: &winit::event::WindowEvent) -> bool {
        self.input
            .as_mut()
            .is_some_and(|(s, w)| s.on_window_event(w, event).consumed)
    }

    /// Whether egui wants the pointer (it is over the panel or dragging in it).
    pub fn wants_pointer(&self) -> bool {
        self.ctx.wants_pointer_input() || self.ctx.is_pointer_over_area()
    }

    /// Whether egui wants the keyboard (a text field has focus).
    pub fn wants_keyboard(&self) -> bool {
        self.ctx.wants_keyboard_input()
    }

    /// Runs one UI pass for a target of `size` physical pixels and paints it over `target`
    /// (a view of a texture of the overlay's format and that size) with `gpu`. The window the
    /// overlay was made with gives egui its input; without one (headless) it sees no input at
    /// all.
    pub fn frame(
        &mut self,
        gpu: &Gpu,
        target: &wgpu::TextureView,
        size: (u32, u32),
        ui: impl FnMut(&egui::Context),
    ) {
        let (device, queue) = (&gpu.device, &gpu.queue);
        let native = self
            .input
            .as_ref()
            .map_or(1.0, |(_, w)| w.scale_factor() as f32);
        // The zoom follows the height in logical pixels: a HiDPI scale is egui's own.
        self.ctx
            .set_zoom_factor(zoom_for((size.1 as f32 / native.max(0.5)) as u32));
        let raw = match self.input.as_mut() {
            Some((state, w)) => state.take_egui_input(w),
            None => {
                let mut raw = egui::RawInput {
                    screen_rect: Some(egui::Rect::from_min_size(
                        egui::Pos2::ZERO,
                        egui::vec2(size.0 as f32, size.1 as f32) / native,
                    )),
                    ..Default::default()
                };
                raw.viewports
                    .entry(egui::ViewportId::ROOT)
                    .or_default()
                    .native_pixels_per_point = Some(native);
                raw
            }
        };
        let output = self.ctx.run(raw, ui);
        if let Some((state, w)) = self.input.as_mut() {
            state.handle_platform_output(w, output.platform_output.clone());
        }
        let jobs = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        let screen = ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: output.pixels_per_point,
        };
        for (id, delta) in &output.textures_delta.set {
            self.painter.update_texture(device, queue, *id, delta);
        }
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ui") });
        let extra = self
            .painter
            .update_buffers(device, queue, &mut encoder, &jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
            });
            let mut pass = pass.forget_lifetime();
            self.painter.render(&mut pass, &jobs, &screen);
        }
        queue.submit(extra.into_iter().chain([encoder.finish()]));
        for id in &output.textures_delta.free {
            self.painter.free_texture(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_grows_with_the_window_up_to_twice_its_size() {
        assert_eq!(zoom_for(480), 1.0);
        assert_eq!(zoom_for(720), 1.0);
        assert_eq!(zoom_for(1080), 1.5);
        assert_eq!(zoom_for(4000), 2.0);
    }
}
