// spherewalk demo: lit instanced meshes, sky gradient, grounding shadows, x-ray, debug lines.

struct Globals {
    view_proj: mat4x4<f32>,
    inv_view_proj: mat4x4<f32>,
    eye: vec4<f32>,
    // The camera's up (the followed character's up): sky and ambient follow it.
    up: vec4<f32>,
    // Towards the sun.
    sun: vec4<f32>,
};

@group(0) @binding(0) var<uniform> g: Globals;

fn sky_colour(dir: vec3<f32>) -> vec3<f32> {
    let h = dot(normalize(dir), g.up.xyz);
    let zenith = vec3<f32>(0.10, 0.24, 0.60);
    let horizon = vec3<f32>(0.62, 0.74, 0.88);
    let below = vec3<f32>(0.22, 0.26, 0.33);
    var c: vec3<f32>;
    if (h >= 0.0) {
        c = mix(horizon, zenith, pow(h, 0.6));
    } else {
        c = mix(horizon, below, min(-h * 4.0, 1.0));
    }
    let s = max(dot(normalize(dir), g.sun.xyz), 0.0);
    c += vec3<f32>(1.0, 0.85, 0.6) * (pow(s, 600.0) * 4.0 + pow(s, 12.0) * 0.15);
    return c;
}

// ---- lit meshes (scenery and character spheres), one instance per object ----

struct MeshIn {
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) m0: vec4<f32>,
    @location(3) m1: vec4<f32>,
    @location(4) m2: vec4<f32>,
    @location(5) m3: vec4<f32>,
    // rgb: base colour (linear); a: 1 = world-space checker, 0 = plain.
    @location(6) colour: vec4<f32>,
};

struct MeshOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
};

@vertex
fn vs_mesh(v: MeshIn) -> MeshOut {
    let m = mat4x4<f32>(v.m0, v.m1, v.m2, v.m3);
    let w = m * vec4<f32>(v.pos, 1.0);
    var out: MeshOut;
    out.clip = g.view_proj * w;
    out.world = w.xyz;
    out.normal = (m * vec4<f32>(v.normal, 0.0)).xyz;
    out.colour = v.colour;
    return out;
}

// One planar checker: 1 m squares with thin darker lines.
fn checker_2d(uv: vec2<f32>) -> f32 {
    let c = floor(uv);
    let k = (c.x + c.y) - 2.0 * floor((c.x + c.y) * 0.5);
    let f = abs(fract(uv) - vec2<f32>(0.5));
    let line = step(0.47, max(f.x, f.y));
    return (0.86 + 0.14 * k) * (1.0 - 0.25 * line);
}

// The world-space checker projected along all three axes and blended by how squarely the
// surface faces each: axis-aligned faces get one crisp projection, and curved surfaces (a
// planet) fade from one to the next instead of breaking into triangles where the dominant
// axis switches.
fn checker(p: vec3<f32>, n: vec3<f32>) -> f32 {
    var w = pow(abs(n), vec3<f32>(8.0));
    w = w / max(w.x + w.y + w.z, 1e-6);
    return w.x * checker_2d(p.yz) + w.y * checker_2d(p.xz) + w.z * checker_2d(p.xy);
}

@fragment
fn fs_mesh(i: MeshOut) -> @location(0) vec4<f32> {
    // Orient the normal by the true facing (winding-independent, meshes are two-sided).
    let to_eye = normalize(g.eye.xyz - i.world);
    var ng = cross(dpdx(i.world), dpdy(i.world));
    if (dot(ng, to_eye) < 0.0) {
        ng = -ng;
    }
    var n = normalize(i.normal);
    if (dot(n, ng) < 0.0) {
        n = -n;
    }
    var base = i.colour.rgb;
    if (i.colour.a > 0.5) {
        base = base * checker(i.world, n);
    }
    let sun = max(dot(n, g.sun.xyz), 0.0);
    let hemi = 0.5 + 0.5 * dot(n, g.up.xyz);
    let ambient = mix(vec3<f32>(0.16, 0.15, 0.14), vec3<f32>(0.36, 0.42, 0.52), hemi);
    let h = normalize(g.sun.xyz + to_eye);
    let spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * step(0.0, dot(n, g.sun.xyz));
    let rim = pow(1.0 - max(dot(n, to_eye), 0.0), 3.0) * 0.12;
    var c = base * (ambient + vec3<f32>(1.0, 0.94, 0.84) * sun * 0.95) + vec3<f32>(spec + rim);
    let d = length(g.eye.xyz - i.world);
    let fog = 1.0 - exp(-d * 0.006);
    c = mix(c, sky_colour(-to_eye), fog);
    return vec4<f32>(c, 1.0);
}

// ---- sky: one full-screen triangle behind everything ----

struct SkyOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

@vertex
fn vs_sky(@builtin(vertex_index) i: u32) -> SkyOut {
    let x = f32((i << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(i & 2u) * 2.0 - 1.0;
    var out: SkyOut;
    out.clip = vec4<f32>(x, y, 0.0, 1.0);
    out.ndc = vec2<f32>(x, y);
    return out;
}

@fragment
fn fs_sky(i: SkyOut) -> @location(0) vec4<f32> {
    let far = g.inv_view_proj * vec4<f32>(i.ndc, 1.0, 1.0);
    let dir = far.xyz / far.w - g.eye.xyz;
    return vec4<f32>(sky_colour(dir), 1.0);
}

// ---- coloured lines (world space) ----

struct LineIn {
    @location(0) pos: vec3<f32>,
    @location(1) colour: vec4<f32>,
};

struct LineOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) colour: vec4<f32>,
};

@vertex
fn vs_line(v: LineIn) -> LineOut {
    var out: LineOut;
    out.clip = g.view_proj * vec4<f32>(v.pos, 1.0);
    out.colour = v.colour;
    return out;
}

@fragment
fn fs_flat(i: LineOut) -> @location(0) vec4<f32> {
    return i.colour;
}

// ---- grounding shadows: dark discs on the ground under each character ----

struct ShadowOut {
    @builtin(position) clip: vec4<f32>,
    // Position in the unit disc (x, z in -1..1).
    @location(0) local: vec2<f32>,
    @location(1) opacity: f32,
};

@vertex
fn vs_shadow(v: MeshIn) -> ShadowOut {
    let m = mat4x4<f32>(v.m0, v.m1, v.m2, v.m3);
    var out: ShadowOut;
    out.clip = g.view_proj * (m * vec4<f32>(v.pos, 1.0));
    out.local = v.pos.xz;
    out.opacity = v.colour.a;
    return out;
}

@fragment
fn fs_shadow(i: ShadowOut) -> @location(0) vec4<f32> {
    // Dark in the middle, soft toward the rim.
    let r = length(i.local);
    let a = i.opacity * (1.0 - smoothstep(0.3, 1.0, r));
    return vec4<f32>(0.02, 0.02, 0.03, a);
}

// ---- x-ray: the controlled character seen through whatever hides it ----

@fragment
fn fs_xray(i: MeshOut) -> @location(0) vec4<f32> {
    let to_eye = normalize(g.eye.xyz - i.world);
    // Brighter toward the silhouette, so the outline reads.
    let rim = 1.0 - abs(dot(normalize(i.normal), to_eye));
    return vec4<f32>(i.colour.rgb, 0.25 + 0.5 * rim);
}
