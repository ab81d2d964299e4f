//! `--headless`: simulate N frames at a fixed 1/60 s, render the last one offscreen (no
//! window) and write it as a PNG.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::time::Instant;

use crate::cli::Args;
use crate::error::DemoError;
use crate::gpu::Gpu;
use crate::input::Controls;
use crate::overlay::Overlay;
use crate::panel::{self, PanelState};
use crate::play::Play;
use crate::render::Renderer;
use crate::scenes::load_scene;

/// Fixed frame time of the headless mode (s).
pub const FRAME_DT: f32 = 1.0 / 60.0;

/// Offscreen colour format (sRGB, like the window's).
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Runs the headless mode; returns a one-line report.
pub fn run(args: &Args) -> Result<String, DemoError> {
    let start = Instant::now();
    let scene = load_scene(&args.scene)?;
    let gpu = Gpu::open(None)?;
    let mut play = Play::new(scene, args.scene.clone());
    play.debug.on = args.debug;
    let mut controls = Controls::default();
    let frames = args.frames.unwrap_or(120);
    for _ in 0..frames {
        play.tick(FRAME_DT, &mut controls);
    }
    let samples = gpu.sample_count(FORMAT);
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, FORMAT, samples, args.size);
    renderer.set_scenery(&play.scenery_shapes());
    let (view, frame) = play.frame(args.size);
    renderer.update(&view, &frame);
    let mut overlay = (!args.hide_ui).then(|| Overlay::new(&gpu.device, FORMAT, None));
    let mut panel = PanelState::default();
    let pixels = render_to_pixels(&gpu, &renderer, |target| {
        if let Some(overlay) = overlay.as_mut() {
            // egui lays a new window out unseen on its first pass; the second shows it.
            for _ in 0..2 {
                overlay.frame(&gpu, target, args.size, |ctx| {
                    // Headless there is no input, so the panel asks for nothing.
                    let _ = panel::show(ctx, &mut panel, &mut play, None);
                });
            }
        }
    })?;
    write_png(&args.screenshot, args.size, &pixels)?;
    Ok(format!(
        "wrote {} ({}x{}, {} frames, {} steps, {}x MSAA) on {} in {:.2} s",
        args.screenshot.display(),
        args.size.0,
        args.size.1,
        frames,
        play.scene.sim.steps(),
        samples,
        gpu.describe(),
        start.elapsed().as_secs_f64()
    ))
}

/// Bytes per row of the readback buffer: a multiple of wgpu's 256-byte copy alignment.
pub fn padded_row_bytes(width: u32) -> u32 {
    let row = width * 4;
    row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

/// Renders into an offscreen texture, lets `over` paint on top of it (the UI), and reads it
/// back as tightly packed RGBA8 rows.
fn render_to_pixels(
    gpu: &Gpu,
    renderer: &Renderer,
    over: impl FnOnce(&wgpu::TextureView),
) -> Result<Vec<u8>, DemoError> {
    let (width, height) = renderer.size();
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("offscreen"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: renderer.format(),
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    renderer.render(&view);
    over(&view);

    let padded = padded_row_bytes(width);
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("readback"),
        });
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    gpu.queue.submit([encoder.finish()]);

    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| DemoError::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| DemoError::Readback(e.to_string()))?
        .map_err(|e| DemoError::Readback(e.to_string()))?;
    let data = slice.get_mapped_range();
    let row = width as usize * 4;
    let mut pixels = Vec::with_capacity(row * height as usize);
    for r in data.chunks(padded as usize).take(height as usize) {
        pixels.extend_from_slice(&r[..row]);
    }
    drop(data);
    buffer.unmap();
    Ok(pixels)
}

fn write_png(path: &Path, (width, height): (u32, u32), rgba: &[u8]) -> Result<(), DemoError> {
    let io = |source| DemoError::Io {
        path: path.to_owned(),
        source,
    };
    let png_err = |source| DemoError::Png {
        path: path.to_owned(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let file = File::create(path).map_err(io)?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_err)?;
    writer.write_image_data(rgba).map_err(png_err)?;
    writer.finish().map_err(png_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_256_bytes() {
        assert_eq!(padded_row_bytes(64), 256);
        assert_eq!(padded_row_bytes(65), 512);
        assert_eq!(padded_row_bytes(320), 1280);
        assert_eq!(padded_row_bytes(1), 256);
    }
}
