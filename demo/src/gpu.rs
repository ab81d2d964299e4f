//! Adapter and device: natively backends Vulkan then GL (or `WGPU_BACKEND`), so Mesa's
//! lavapipe or llvmpipe serve when there is no GPU; in a browser WebGPU where it works, else
//! WebGL2.

use std::sync::Arc;

use winit::window::Window;

use crate::error::DemoError;

/// An open device, with the window surface when there is a window.
pub struct Gpu {
    /// The adapter in use (for capability queries).
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The window surface (none headless).
    pub surface: Option<wgpu::Surface<'static>>,
}

/// The backends to try, in order: those `WGPU_BACKEND` names when set, else Vulkan then GL.
#[cfg(not(target_arch = "wasm32"))]
async fn backend_order() -> Result<Vec<wgpu::Backends>, DemoError> {
    backends_from(std::env::var("WGPU_BACKEND").ok().as_deref())
}

/// The backends to try in a browser: WebGPU when it hands out an adapter (some browsers have
/// `navigator.gpu` and no adapter behind it), else WebGL2. Only one is tried, because a canvas
/// keeps the first kind of context made on it.
#[cfg(target_arch = "wasm32")]
async fn backend_order() -> Result<Vec<wgpu::Backends>, DemoError> {
    Ok(if wgpu::util::is_browser_webgpu_supported().await {
        vec![wgpu::Backends::BROWSER_WEBGPU]
    } else {
        vec![wgpu::Backends::GL]
    })
}

/// The backends to try for a `WGPU_BACKEND` value (`None`: unset): every comma-separated name
/// must be one wgpu knows, so a typo is reported as such rather than as missing drivers.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn backends_from(value: Option<&str>) -> Result<Vec<wgpu::Backends>, DemoError> {
    const NAMES: [&str; 10] = [
        "vulkan", "vk", "dx12", "d3d12", "metal", "mtl", "opengl", "gles", "gl", "webgpu",
    ];
    let Some(value) = value else {
        return Ok(vec![wgpu::Backends::VULKAN, wgpu::Backends::GL]);
    };
    for name in value.split(',').map(|n| n.trim().to_lowercase()) {
        if !NAMES.contains(&name.as_str()) {
            return Err(DemoError::BadBackend {
                value: value.to_owned(),
                name,
            });
        }
    }
    Ok(vec![wgpu::Backends::from_comma_list(value)])
}

fn backend_name(b: wgpu::Backends) -> String {
    let names: Vec<&str> = [
        (wgpu::Backends::VULKAN, "vulkan"),
        (wgpu::Backends::GL, "gl"),
        (wgpu::Backends::METAL, "metal"),
        (wgpu::Backends::DX12, "dx12"),
        (wgpu::Backends::BROWSER_WEBGPU, "webgpu"),
    ]
    .iter()
    .filter(|(flag, _)| b.contains(*flag))
    .map(|(_, name)| *name)
    .collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join("+")
    }
}

impl Gpu {
    /// Opens a device on the first backend that has an adapter (able to present to `window`
    /// when given), waiting for it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(window: Option<Arc<Window>>) -> Result<Self, DemoError> {
        pollster::block_on(Self::connect(window))
    }

    /// Opens a device on the first backend that has an adapter (able to present to `window`
    /// when given). A browser answers these requests asynchronously, so this is the one entry
    /// point both targets share.
    pub async fn connect(window: Option<Arc<Window>>) -> Result<Self, DemoError> {
        let mut tried = Vec::new();
        for backends in backend_order().await? {
            tried.push(backend_name(backends));
            let mut desc = wgpu::InstanceDescriptor::from_env_or_default();
            desc.backends = backends;
            let instance = wgpu::Instance::new(&desc);
            let surface = match &window {
                Some(w) => match instance.create_surface(w.clone()) {
                    Ok(s) => Some(s),
                    // This backend cannot draw to the window; try the next one.
                    Err(_) => continue,
                },
                None => None,
            };
            let options = wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: surface.as_ref(),
            };
            let Ok(adapter) = instance.request_adapter(&options).await else {
                continue;
            };
            let limits =
                wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits());
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    label: Some("spherewalk-demo"),
                    required_features: wgpu::Features::empty(),
                    required_limits: limits,
                    experimental_features: wgpu::ExperimentalFeatures::disabled(),
                    memory_hints: wgpu::MemoryHints::Performance,
                    trace: wgpu::Trace::Off,
                })
                .await?;
            return Ok(Self {
                adapter,
                device,
                queue,
                surface,
            });
        }
        if cfg!(target_arch = "wasm32") {
            return Err(DemoError::NoBrowserGraphics);
        }
        Err(DemoError::NoAdapter {
            tried: tried.join(", "),
        })
    }

    /// One line naming the adapter and backend.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }

    /// The MSAA sample count to use for `format`: 4 where the adapter supports it (for the
    /// colour format and the depth format), else 1. In a browser drawing on the CPU
    /// (SwiftShader) it is 1: there every sample is paid for in frame time.
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        if cfg!(target_arch = "wasm32")
            && self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
        {
            return 1;
        }
        let ok = |f: wgpu::TextureFormat| {
            self.adapter
                .get_texture_format_features(f)
                .flags
                .sample_count_supported(4)
        };
        if ok(format) && ok(crate::render::DEPTH_FORMAT) {
            4
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_misspelt_wgpu_backend_is_named_not_blamed_on_drivers() {
        use super::backends_from;
        let err = match backends_from(Some("vulkn")) {
            Err(e) => e.to_string(),
            Ok(b) => panic!("accepted {b:?}"),
        };
        assert!(
            err.starts_with("WGPU_BACKEND=vulkn: `vulkn` is not a backend"),
            "{err}"
        );
        assert!(!err.contains("apt-get"), "{err}");
        // One bad name in a list is enough to refuse it.
        assert!(backends_from(Some("gl, bogus")).is_err());
        // Good values, any case and spacing, and the default order.
        let ok = |v: Option<&str>| backends_from(v).unwrap_or_default();
        assert_eq!(ok(Some("vulkan")), [wgpu::Backends::VULKAN]);
        assert_eq!(ok(Some(" GL ")), [wgpu::Backends::GL]);
        assert_eq!(
            ok(Some("vk,gles")),
            [wgpu::Backends::VULKAN | wgpu::Backends::GL]
        );
        assert_eq!(ok(None), [wgpu::Backends::VULKAN, wgpu::Backends::GL]);
    }
}
