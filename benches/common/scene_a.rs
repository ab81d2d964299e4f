//! Scene A: Jolt's `CharacterVirtual` performance scene (`PerformanceTest/CharacterVirtualScene.h`
//! in jrouwe/JoltPhysics) re-expressed for spherewalk, shared by `benches/jolt_scene.rs` and the
//! scenario test `tests/scenarios/crowds.rs`.
//!
//! - A mesh terrain of 100 x 100 cells of 0.5 m (20,000 triangles, fronts up), heights
//!   `2 sin(20 x / 100) cos(20 z / 100)` m at grid vertex (x, z), shifted by (-25, 0, -25) m.
//! - Pyramid stairs: ten boxes 0.3 m thick, half-widths 4.0 down to 0.4 m, the i-th centred at
//!   (-4, -1 + 0.3 i, 0) m.
//! - A wall of ten pillars 0.2 x 5 x 0.2 m, centred at (2, 1, 2 + 0.2 k) m: they touch.
//! - 100 characters on a 10 x 10 grid 4 m apart, feet at (4 x - 20, 2, 4 y - 20) m. Jolt's are
//!   capsules of 1.35 m between centres and 0.3 m radius (1.95 m tall); ours are the same
//!   capsule as a stack of four spheres. They collide with each other.
//! - Every step each character walks toward a target picked from a hash of
//!   `floor(t / 2 s) * 100 + its index`: a grid point (4 x - 20, 5, 4 y - 20) m and a speed of
//!   5 + 0.5 s m/s, digits x, y, s of the hash. As in Jolt's scene, the direction is the unit
//!   vector to the target with its vertical part then dropped, so the walking speed falls as a
//!   character nears its target's column. The hash is splitmix64's finaliser, not Jolt's, so
//!   the targets are other pseudo-random ones. Jolt's scene also drops 100 dynamic boxes; they
//!   are left out here (no dynamic bodies).

#![allow(dead_code)] // Each including target uses a part.

use spherewalk::components::Walker;
use spherewalk::hecs::Entity;
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    CharacterDesc, ColliderDesc, CollisionWorld, GravityField, MoveIntent, Point3, Pose, Real, Sim,
    SphereStack, Vec3,
};

/// Cells along each side of the terrain.
const CELLS: usize = 100;
/// Characters along x and along z.
pub const GRID: usize = 10;
/// Fixed step (s): 60 Hz.
pub const DT: Real = 1.0 / 60.0;

/// The scene's colliders: terrain, stairs, pillars (world, m).
pub fn colliders() -> Vec<ColliderDesc> {
    let cell = 0.5;
    let centre = CELLS as Real * cell / 2.0;
    let n = CELLS as Real;
    let mut vertices = Vec::with_capacity((CELLS + 1) * (CELLS + 1));
    for z in 0..=CELLS {
        for x in 0..=CELLS {
            let (fx, fz) = (x as Real, z as Real);
            let height = 2.0 * (fx * 20.0 / n).sin() * (fz * 20.0 / n).cos();
            vertices.push(Point3::new(cell * fx - centre, height, cell * fz - centre));
        }
    }
    let row = CELLS as u32 + 1;
    let mut indices = Vec::with_capacity(2 * CELLS * CELLS);
    for x in 0..CELLS as u32 {
        for z in 0..CELLS as u32 {
            let start = row * z + x;
            indices.push([start, start + row, start + 1]);
            indices.push([start + 1, start + row, start + row + 1]);
        }
    }
    let terrain = SharedShape::trimesh(vertices, indices).unwrap_or_else(|e| panic!("{e}"));
    let mut out = vec![ColliderDesc::new(terrain)];
    for i in 0..10 {
        let width = 4.0 - 0.4 * i as Real;
        out.push(
            ColliderDesc::new(SharedShape::cuboid(width, 0.15, width)).translation(
                -4.0,
                -1.0 + 0.3 * i as Real,
                0.0,
            ),
        );
    }
    for k in 0..10 {
        out.push(
            ColliderDesc::new(SharedShape::cuboid(0.1, 2.5, 0.1)).translation(
                2.0,
                1.0,
                2.0 + 0.2 * k as Real,
            ),
        );
    }
    out
}

/// The scene's collision world.
pub fn world() -> CollisionWorld {
    let mut world = CollisionWorld::new();
    for desc in colliders() {
        world.insert(desc).unwrap_or_else(|e| panic!("{e}"));
    }
    world.optimize();
    world
}

/// A character's stack: Jolt's capsule (1.35 m between centres, radius 0.3 m) as 4 spheres.
pub fn stack() -> SphereStack {
    SphereStack::capsule(1.95, 0.3, 4).unwrap_or_else(|e| panic!("{e}"))
}

/// Where character `index` (0..100, x fastest) starts (world, m; its feet).
pub fn start(index: usize) -> Pose {
    let (x, y) = ((index % GRID) as Real, (index / GRID) as Real);
    Pose::new(Point3::new(4.0 * x - 20.0, 2.0, 4.0 * y - 20.0))
}

/// splitmix64's finaliser: a well-mixed 64-bit hash of `v`.
fn hash(mut v: u64) -> u64 {
    v = (v ^ (v >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    v = (v ^ (v >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    v ^ (v >> 31)
}

/// The walk of character `index` at `position` (world, m) in step `step` (1-based: the time
/// is `step * DT` when its target is picked), in a crowd of `count`.
pub fn intent(step: u64, index: usize, count: usize, position: &Point3) -> MoveIntent {
    let period = (step as f64 * f64::from(DT) / 2.0).floor() as u64;
    let h = hash(period * count as u64 + index as u64);
    let (x, y, s) = (h % 10, (h / 10) % 10, (h / 100) % 10);
    let target = Point3::new(4.0 * x as Real - 20.0, 5.0, 4.0 * y as Real - 20.0);
    let mut dir = (target - position)
        .try_normalize(1e-9)
        .unwrap_or_else(Vec3::zeros);
    dir.y = 0.0;
    MoveIntent::walk(dir * (5.0 + 0.5 * s as Real))
}

/// A sim of scene A with the first `count` characters (1 to 100), solid; returns it and the
/// characters in index order.
pub fn sim(count: usize) -> (Sim, Vec<Entity>) {
    let mut sim = Sim::new(world(), DT).unwrap_or_else(|e| panic!("{e}"));
    sim.add_gravity(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))
        .unwrap_or_else(|e| panic!("{e}"));
    let entities = (0..count)
        .map(|i| {
            sim.spawn_character(CharacterDesc::new(format!("c{i}"), stack(), start(i)))
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    (sim, entities)
}

/// Writes every character's walk for the coming step (`sim.steps() + 1`).
pub fn set_intents(sim: &mut Sim, entities: &[Entity]) {
    let step = sim.steps() + 1;
    for (i, &e) in entities.iter().enumerate() {
        // One lookup a character, as a game would write its inputs.
        if let Ok((walker, held)) = sim.ecs.query_one_mut::<(&Walker, &mut MoveIntent)>(e) {
            *held = intent(step, i, entities.len(), &walker.pose.position);
        }
    }
}
