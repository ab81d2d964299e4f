//! The render pipelines and the globals they share: lit meshes, sky, grounding shadows, the
//! see-through pass and debug lines (the UI is egui's, drawn after them).

use super::meshes::MeshVertex;
use super::{ColourVertex, DEPTH_FORMAT, Globals, Instance};

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

/// Every pipeline the renderer draws with.
pub(super) struct Pipelines {
    /// Lit instanced meshes: scenery and character spheres.
    pub mesh: wgpu::RenderPipeline,
    /// The sky, one full-screen triangle.
    pub sky: wgpu::RenderPipeline,
    /// Grounding shadow discs, blended over the ground.
    pub shadow: wgpu::RenderPipeline,
    /// The controlled character where scenery hides it.
    pub xray: wgpu::RenderPipeline,
    /// Debug lines, depth-tested.
    pub line: wgpu::RenderPipeline,
}

impl Pipelines {
    /// Builds every pipeline for `format` targets with `samples` MSAA, with the globals
    /// uniform buffer they read and its bind group.
    pub(super) fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        samples: u32,
    ) -> (Self, wgpu::Buffer, wgpu::BindGroup) {
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
        let mesh = make(PipelineSpec {
            label: "meshes",
            vs: "vs_mesh",
            fs: "fs_mesh",
            buffers: &mesh_buffers,
            topology: triangles,
            depth_write: true,
            depth_compare: Depth::Less,
            blend: false,
        });
        let sky = make(PipelineSpec {
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
        let shadow = make(PipelineSpec {
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
        let xray = make(PipelineSpec {
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
        let line = make(PipelineSpec {
            label: "lines",
            vs: "vs_line",
            fs: "fs_flat",
            buffers: &colour_buffers,
            topology: wgpu::PrimitiveTopology::LineList,
            depth_write: false,
            depth_compare: Depth::LessEqual,
            blend: true,
        });
        (
            Self {
                mesh,
                sky,
                shadow,
                xray,
                line,
            },
            globals,
            bind_group,
        )
    }
}
