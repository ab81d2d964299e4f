//! The renderer shared by the window and `--headless`: [`Renderer::render`] draws the last
//! [`Renderer::update`] into any texture view of its format and size.

pub mod lines;
pub mod meshes;

use spherewalk::parry3d::shape::Shape;
use spherewalk::{Iso, Point3, Vec3, na};
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

/// A coloured vertex: world-space for lines, clip-space (x, y) for the HUD.
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
    /// HUD triangles (clip space).
    pub hud: Vec<ColourVertex>,
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

/// Draws scenes with wgpu: lit colliders, instanced character spheres, sky, debug lines, HUD.
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
    mesh_pipeline: wgpu::RenderPipeline,
    sky_pipeline: wgpu::RenderPipeline,
    shadow_pipeline: wgpu::RenderPipeline,
    xray_pipeline: wgpu::RenderPipeline,
    line_pipeline: wgpu::RenderPipeline,
    hud_pipeline: wgpu::RenderPipeline,
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
    hud: DynBuffer,
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

struct PipelineSpec<'a> {
    label: &'a str,
    vs: &'a str,
    fs: &'a str,
    buffers: &'a [wgpu::VertexBufferLayout<'a>],
    topology: wgpu::PrimitiveTopology,
    /// Whether it writes depth.
    depth_write: bool,
    /// How it tests depth.
    depth_compare: wgpu::CompareFunction,
    blend: bool,
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
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("spherewalk shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("globals"),
            size: std::mem::size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("globals"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("globals"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("spherewalk"),
            bind_group_layouts: &[&layout],
            push_constant_ranges: &[],
        });
        let make = |spec: PipelineSpec| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(spec.label),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &shader,
                    entry_point: Some(spec.vs),
                    compilation_options: Default::default(),
                    buffers: spec.buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: spec.topology,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: spec.depth_write,
                    depth_compare: spec.depth_compare,
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: samples,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some(spec.fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend: spec.blend.then_some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview: None,
                cache: None,
            })
        };
        let mesh_attrs = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
        let instance_attrs = wgpu::vertex_attr_array![
            2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4
        ];
        let colour_attrs = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
        let mesh_buffers = [
            wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<MeshVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &mesh_attrs,
            },
            wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<Instance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &instance_attrs,
            },
        ];
        let colour_buffers = [wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<ColourVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &colour_attrs,
        }];
        use wgpu::CompareFunction as Depth;
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let mesh_pipeline = make(PipelineSpec {
            label: "meshes",
            vs: "vs_mesh",
            fs: "fs_mesh",
            buffers: &mesh_buffers,
            topology: triangles,
            depth_write: true,
            depth_compare: Depth::Less,
            blend: false,
        });
        let sky_pipeline = make(PipelineSpec {
            label: "sky",
            vs: "vs_sky",
            fs: "fs_sky",
            buffers: &[],
            topology: triangles,
            depth_write: false,
            depth_compare: Depth::Always,
            blend: false,
        });
        // Shadows lie on the ground (lifted 2 cm), seen only where the ground is.
        let shadow_pipeline = make(PipelineSpec {
            label: "shadows",
            vs: "vs_shadow",
            fs: "fs_shadow",
            buffers: &mesh_buffers,
            topology: triangles,
            depth_write: false,
            depth_compare: Depth::Less,
            blend: true,
        });
        // The controlled character where something nearer hides it.
        let xray_pipeline = make(PipelineSpec {
            label: "x-ray",
            vs: "vs_mesh",
            fs: "fs_xray",
            buffers: &mesh_buffers,
            topology: triangles,
            depth_write: false,
            depth_compare: Depth::Greater,
            blend: true,
        });
        // Debug lines are hidden behind scenery like everything else.
        let line_pipeline = make(PipelineSpec {
            label: "lines",
            vs: "vs_line",
            fs: "fs_flat",
            buffers: &colour_buffers,
            topology: wgpu::PrimitiveTopology::LineList,
            depth_write: false,
            depth_compare: Depth::LessEqual,
            blend: true,
        });
        let hud_pipeline = make(PipelineSpec {
            label: "hud",
            vs: "vs_hud",
            fs: "fs_flat",
            buffers: &colour_buffers,
            topology: triangles,
            depth_write: false,
            depth_compare: Depth::Always,
            blend: true,
        });
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
            mesh_pipeline,
            sky_pipeline,
            shadow_pipeline,
            xray_pipeline,
            line_pipeline,
            hud_pipeline,
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
            hud: DynBuffer::new(device, "hud"),
        }
    }

    /// The target size in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// MSAA sample count in use.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// The target format.
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
        self.hud.write(&self.device, &self.queue, &frame.hud);
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
            pass.set_pipeline(&self.sky_pipeline);
            pass.draw(0..3, 0..1);

            pass.set_pipeline(&self.mesh_pipeline);
            pass.set_vertex_buffer(1, self.scenery_instances.buffer.slice(..));
            for (i, item) in self.scenery.iter().enumerate() {
                if item.mesh.count == 0 {
                    continue;
                }
                let i = i as u32;
                pass.set_vertex_buffer(0, item.mesh.vertices.slice(..));
                pass.draw(0..item.mesh.count, i..i + 1);
            }
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
                pass.set_pipeline(&self.shadow_pipeline);
                pass.set_vertex_buffer(0, self.disc.vertices.slice(..));
                pass.set_vertex_buffer(1, self.shadows.buffer.slice(..));
                pass.draw(0..self.disc.count, 0..self.shadows.len);
            }
            if self.xray.len > 0 {
                pass.set_pipeline(&self.xray_pipeline);
                pass.set_vertex_buffer(0, self.sphere.vertices.slice(..));
                pass.set_vertex_buffer(1, self.xray.buffer.slice(..));
                pass.draw(0..self.sphere.count, 0..self.xray.len);
            }
            if self.lines.len > 0 {
                pass.set_pipeline(&self.line_pipeline);
                pass.set_vertex_buffer(0, self.lines.buffer.slice(..));
                pass.draw(0..self.lines.len, 0..1);
            }
            if self.hud.len > 0 {
                pass.set_pipeline(&self.hud_pipeline);
                pass.set_vertex_buffer(0, self.hud.buffer.slice(..));
                pass.draw(0..self.hud.len, 0..1);
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
