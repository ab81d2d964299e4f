//! The renderer shared by the window and `--headless`: [`Renderer::render`] draws the last
//! [`Renderer::update`] into any texture view of its format and size.

pub mod lines;
pub mod meshes;
mod pipelines;

use pipelines::Pipelines;

use spherewalk::parry3d::shape::Shape;
use spherewalk::{Point3, Vec3, math::Iso, na};
use wgpu::util::DeviceExt;

use meshes::MeshVertex;

/// Depth buffer format.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Per-object data of the lit mesh pipeline.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Instance {
    /// Object-to-world matrix, column by column.
    pub model: [[f32; 4]; 4],
    /// Linear RGB; alpha 1 draws a world-space checker over it.
    pub colour: [f32; 4],
}

impl Instance {
    /// An instance at `m` with `colour`.
    pub fn new(m: &na::Matrix4<f32>, colour: [f32; 4]) -> Self {
        let mut model = [[0.0; 4]; 4];
        for (c, col) in model.iter_mut().enumerate() {
            for (r, v) in col.iter_mut().enumerate() {
                *v = m[(r, c)];
            }
        }
        Self { model, colour }
    }

    /// A sphere of `radius` centred at `centre`.
    pub fn sphere(centre: &Point3, radius: f32, colour: [f32; 4]) -> Self {
        let m = na::Matrix4::new_translation(&centre.coords) * na::Matrix4::new_scaling(radius);
        Self::new(&m, colour)
    }
}

/// A coloured vertex of a debug line (world space).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ColourVertex {
    /// Position.
    pub pos: [f32; 3],
    /// RGBA (linear, alpha blended).
    pub colour: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
struct Globals {
    view_proj: [f32; 16],
    inv_view_proj: [f32; 16],
    eye: [f32; 4],
    up: [f32; 4],
    sun: [f32; 4],
}

/// The camera for one frame.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Projection times view (wgpu clip space, depth 0..1).
    pub view_proj: na::Matrix4<f32>,
    /// Camera position.
    pub eye: Point3,
    /// Camera up (sky and ambient light follow it).
    pub up: Vec3,
    /// Unit vector towards the sun.
    pub sun: Vec3,
}

/// What one frame draws.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The pose (world) of each scenery mesh, in the order given to
    /// [`Renderer::set_scenery`].
    pub scenery: Vec<Iso>,
    /// Character spheres near the camera (fine mesh).
    pub spheres: Vec<Instance>,
    /// Character spheres far from the camera (coarse mesh: crowds stay cheap).
    pub far_spheres: Vec<Instance>,
    /// Grounding shadows: unit discs (local XZ plane) placed on the ground under each
    /// character; the colour's alpha is the shadow's darkness.
    pub shadows: Vec<Instance>,
    /// Spheres drawn see-through where scenery hides them (the controlled character).
    pub xray: Vec<Instance>,
    /// Debug line segments (pairs of vertices).
    pub lines: Vec<ColourVertex>,
}

struct GpuMesh {
    vertices: wgpu::Buffer,
    count: u32,
}

impl GpuMesh {
    fn new(device: &wgpu::Device, label: &str, vertices: &[MeshVertex]) -> Self {
        let vertices_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        Self {
            vertices: vertices_buf,
            count: vertices.len() as u32,
        }
    }
}

/// A vertex buffer that grows to fit what is written to it.
struct DynBuffer {
    label: &'static str,
    buffer: wgpu::Buffer,
    len: u32,
}

impl DynBuffer {
    fn new(device: &wgpu::Device, label: &'static str) -> Self {
        Self {
            label,
            buffer: Self::alloc(device, label, 4096),
            len: 0,
        }
    }

    fn alloc(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn write<T: bytemuck::Pod>(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[T]) {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        if bytes.len() as u64 > self.buffer.size() {
            let size = (bytes.len() as u64).next_power_of_two();
            self.buffer = Self::alloc(device, self.label, size);
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        self.len = data.len() as u32;
    }
}

/// Where a scenery item's pose comes from each frame.
/// One scenery mesh: its triangles and its colour.
struct SceneryItem {
    mesh: GpuMesh,
    colour: [f32; 4],
}

/// A shape to draw as scenery: its local frame is placed each frame by [`Frame::scenery`].
pub struct SceneryShape<'a> {
    /// The shape (local frame).
    pub shape: &'a dyn Shape,
    /// Linear RGB.
    pub colour: [f32; 3],
    /// Whether a world-space checker is drawn over it.
    pub checker: bool,
}

/// Draws scenes with wgpu: lit colliders, instanced character spheres, sky, shadows, debug
/// lines.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    samples: u32,
    size: (u32, u32),
    depth: wgpu::TextureView,
    msaa: Option<wgpu::TextureView>,
    globals: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    pipelines: Pipelines,
    scenery: Vec<SceneryItem>,
    scenery_instances: DynBuffer,
    sphere: GpuMesh,
    spheres: DynBuffer,
    far_sphere: GpuMesh,
    far_spheres: DynBuffer,
    disc: GpuMesh,
    shadows: DynBuffer,
    xray: DynBuffer,
    lines: DynBuffer,
}

fn attachment_texture(
    device: &wgpu::Device,
    label: &str,
    format: wgpu::TextureFormat,
    samples: u32,
    (width, height): (u32, u32),
) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

impl Renderer {
    /// A renderer drawing into `format` targets of `size` pixels with `samples` (1 or 4) MSAA.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        samples: u32,
        size: (u32, u32),
    ) -> Self {
        let (pipelines, globals, bind_group) = Pipelines::new(device, format, samples);
        let msaa =
            (samples > 1).then(|| attachment_texture(device, "msaa colour", format, samples, size));
        Self {
            device: device.clone(),
            queue: queue.clone(),
            format,
            samples,
            size,
            depth: attachment_texture(device, "depth", DEPTH_FORMAT, samples, size),
            msaa,
            globals,
            bind_group,
            pipelines,
            scenery: Vec::new(),
            scenery_instances: DynBuffer::new(device, "scenery instances"),
            sphere: GpuMesh::new(device, "unit sphere", &meshes::unit_sphere(24, 16)),
            spheres: DynBuffer::new(device, "sphere instances"),
            far_sphere: GpuMesh::new(device, "coarse unit sphere", &meshes::unit_sphere(12, 8)),
            far_spheres: DynBuffer::new(device, "far sphere instances"),
            disc: GpuMesh::new(device, "unit disc", &meshes::unit_disc(32)),
            shadows: DynBuffer::new(device, "shadow instances"),
            xray: DynBuffer::new(device, "x-ray instances"),
            lines: DynBuffer::new(device, "lines"),
        }
    }

    /// The target size in pixels.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// MSAA sample count in use.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// The target format.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Resizes the depth and MSAA buffers for targets of `size` pixels.
    pub fn resize(&mut self, size: (u32, u32)) {
        let size = (size.0.max(1), size.1.max(1));
        if size == self.size {
            return;
        }
        self.size = size;
        self.depth = attachment_texture(&self.device, "depth", DEPTH_FORMAT, self.samples, size);
        self.msaa = (self.samples > 1).then(|| {
            attachment_texture(&self.device, "msaa colour", self.format, self.samples, size)
        });
    }

    /// Builds a mesh for each of `items`; [`Frame::scenery`] places them, in this order.
    pub fn set_scenery(&mut self, items: &[SceneryShape<'_>]) {
        self.scenery.clear();
        for item in items {
            let vertices = meshes::shape_mesh(item.shape);
            let [r, g, b] = item.colour;
            self.scenery.push(SceneryItem {
                mesh: GpuMesh::new(&self.device, "scenery", &vertices),
                colour: [r, g, b, if item.checker { 1.0 } else { 0.0 }],
            });
        }
    }

    /// Uploads the camera and `frame`.
    pub fn update(&mut self, view: &View, frame: &Frame) {
        let inv = view
            .view_proj
            .try_inverse()
            .unwrap_or_else(na::Matrix4::identity);
        let globals = Globals {
            view_proj: mat_cols(&view.view_proj),
            inv_view_proj: mat_cols(&inv),
            eye: [view.eye.x, view.eye.y, view.eye.z, 1.0],
            up: [view.up.x, view.up.y, view.up.z, 0.0],
            sun: [view.sun.x, view.sun.y, view.sun.z, 0.0],
        };
        self.queue
            .write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
        let scenery: Vec<Instance> = self
            .scenery
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let pose = frame
                    .scenery
                    .get(i)
                    .map_or_else(na::Matrix4::identity, Iso::to_homogeneous);
                Instance::new(&pose, item.colour)
            })
            .collect();
        self.scenery_instances
            .write(&self.device, &self.queue, &scenery);
        self.spheres
            .write(&self.device, &self.queue, &frame.spheres);
        self.far_spheres
            .write(&self.device, &self.queue, &frame.far_spheres);
        self.shadows
            .write(&self.device, &self.queue, &frame.shadows);
        self.xray.write(&self.device, &self.queue, &frame.xray);
        self.lines.write(&self.device, &self.queue, &frame.lines);
    }

    /// Draws the last [`Renderer::update`] into `target` (a view of a texture of this
    /// renderer's format and size) and submits the work.
    pub fn render(&self, target: &wgpu::TextureView) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        {
            let (view, resolve_target) = match &self.msaa {
                Some(msaa) => (msaa, Some(target)),
                None => (target, None),
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("frame"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
            });
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.set_pipeline(&self.pipelines.sky);
            pass.draw(0..3, 0..1);

            pass.set_pipeline(&self.pipelines.mesh);
            pass.set_vertex_buffer(1, self.scenery_instances.buffer.slice(..));
            for (i, item) in self.scenery.iter().enumerate() {
                if item.mesh.count == 0 {
                    continue;
                }
                let i = i as u32;
                pass.set_vertex_buffer(0, item.mesh.vertices.slice(..));
                pass.draw(0..item.mesh.count, i..i + 1);
            }
            // The see-through pass goes between the scenery and the characters: it shows only
            // where scenery is nearer, not where the stack's own spheres cover each other.
            if self.xray.len > 0 {
                pass.set_pipeline(&self.pipelines.xray);
                pass.set_vertex_buffer(0, self.sphere.vertices.slice(..));
                pass.set_vertex_buffer(1, self.xray.buffer.slice(..));
                pass.draw(0..self.sphere.count, 0..self.xray.len);
            }
            pass.set_pipeline(&self.pipelines.mesh);
            for (mesh, instances) in [
                (&self.sphere, &self.spheres),
                (&self.far_sphere, &self.far_spheres),
            ] {
                if instances.len > 0 {
                    pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                    pass.set_vertex_buffer(1, instances.buffer.slice(..));
                    pass.draw(0..mesh.count, 0..instances.len);
                }
            }
            if self.shadows.len > 0 {
                pass.set_pipeline(&self.pipelines.shadow);
                pass.set_vertex_buffer(0, self.disc.vertices.slice(..));
                pass.set_vertex_buffer(1, self.shadows.buffer.slice(..));
                pass.draw(0..self.disc.count, 0..self.shadows.len);
            }
            if self.lines.len > 0 {
                pass.set_pipeline(&self.pipelines.line);
                pass.set_vertex_buffer(0, self.lines.buffer.slice(..));
                pass.draw(0..self.lines.len, 0..1);
            }
        }
        self.queue.submit([encoder.finish()]);
    }
}

fn mat_cols(m: &na::Matrix4<f32>) -> [f32; 16] {
    let mut out = [0.0; 16];
    out.copy_from_slice(m.as_slice());
    out
}
