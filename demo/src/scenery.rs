//! The scenery list: what the renderer draws besides the characters, read from the sim's
//! public API once per scene (shapes and colours) and once per frame (poses). The renderer
//! itself never sees the sim.

use spherewalk::components::{JumpPad, Platform, Walker};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::physics::spherewalk_rapier::rapier3d::prelude as rp;
use spherewalk::{CHARACTER_LAYER, ColliderId, Sim, math::Iso, world::QueryFilter};

/// A query filter that sees the scenery (static colliders, platforms, pads) and not the
/// characters' bodies: what the camera, the shadows and the tests cast against.
pub fn scenery_filter() -> QueryFilter {
    QueryFilter {
        mask: !CHARACTER_LAYER,
        ..QueryFilter::default()
    }
}

/// Where a scenery item's pose comes from each frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// A collider of the sim's collision world (static scenery, platforms, pads).
    Collider(ColliderId),
    /// A collider of the sim's rapier world (a dynamic body).
    Dynamic(rp::ColliderHandle),
}

/// One thing to draw: a shape, its colour, and where its pose comes from.
#[derive(Clone)]
pub struct Scenery {
    /// Where its pose comes from.
    pub source: Source,
    /// Its shape (local frame).
    pub shape: SharedShape,
    /// Linear RGB.
    pub colour: [f32; 3],
    /// Whether a world-space checker is drawn over it.
    pub checker: bool,
}

/// Muted scenery colours (linear), none of them close to the player's orange.
const SCENERY_PALETTE: [[f32; 3]; 5] = [
    [0.42, 0.46, 0.42],
    [0.36, 0.42, 0.50],
    [0.48, 0.48, 0.52],
    [0.34, 0.44, 0.36],
    [0.46, 0.44, 0.50],
];
const PLATFORM_COLOUR: [f32; 3] = [0.10, 0.45, 0.55];
/// Jump pads: a bright green that says "step here".
const PAD_COLOUR: [f32; 3] = [0.20, 0.62, 0.16];
/// Dynamic bodies: warm wood, so what can be pushed stands out from the scenery.
const DYNAMIC_COLOUR: [f32; 3] = [0.55, 0.33, 0.12];

/// The palette colour of a collider group, chosen by its name: every part of a group (the
/// steps of a flight of stairs) shares one colour, so their coplanar faces draw alike
/// instead of striping where they overlap.
fn group_colour(name: &str) -> [f32; 3] {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    SCENERY_PALETTE[(hash % SCENERY_PALETTE.len() as u64) as usize]
}

/// Everything to draw of `sim` but its characters: every collider not on the character
/// layer (the characters are drawn from their sphere stacks), then the dynamic bodies.
pub fn list(sim: &Sim) -> Vec<Scenery> {
    let platforms: Vec<ColliderId> = sim
        .ecs
        .query::<&Platform>()
        .iter()
        .map(|p| p.collider)
        .collect();
    let pads: Vec<ColliderId> = sim
        .ecs
        .query::<&JumpPad>()
        .iter()
        .map(|p| p.collider)
        .collect();
    let bodies: std::collections::HashSet<ColliderId> = sim
        .ecs
        .query::<&Walker>()
        .iter()
        .filter_map(|w| w.body)
        .collect();
    let mut out = Vec::new();
    for (id, collider) in sim.collision.iter() {
        if bodies.contains(&id) || collider.layers == CHARACTER_LAYER {
            continue;
        }
        let (colour, checker) = if platforms.contains(&id) {
            (PLATFORM_COLOUR, true)
        } else if pads.contains(&id) {
            (PAD_COLOUR, false)
        } else {
            (group_colour(sim.collider_name(id).unwrap_or("")), true)
        };
        out.push(Scenery {
            source: Source::Collider(id),
            shape: collider.shape.clone(),
            colour,
            checker,
        });
    }
    // Dynamic bodies, from the rapier world (the characters' kinematic bodies and the
    // mirrors of the scenery are drawn already).
    if let Some(physics) = sim.physics() {
        for (handle, collider) in physics.colliders.iter() {
            let dynamic = collider
                .parent()
                .and_then(|b| physics.bodies.get(b))
                .is_some_and(|b| b.is_dynamic());
            if dynamic {
                out.push(Scenery {
                    source: Source::Dynamic(handle),
                    shape: collider.shared_shape().clone(),
                    colour: DYNAMIC_COLOUR,
                    checker: true,
                });
            }
        }
    }
    out
}

/// The pose (world) of every item of `list` now; identity for one that is gone.
pub fn poses(sim: &Sim, list: &[Scenery]) -> Vec<Iso> {
    list.iter()
        .map(|item| {
            let pose = match item.source {
                Source::Collider(id) => sim.collision.get(id).map(|c| c.pose),
                Source::Dynamic(h) => sim
                    .physics()
                    .and_then(|p| p.colliders.get(h))
                    .map(|c| *c.position()),
            };
            pose.unwrap_or_else(Iso::identity)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_of_a_group_shares_its_colour_and_pads_and_platforms_stand_out() {
        let path = crate::scenes::shipped_scene("galaxy");
        let scene = crate::scenes::load_scene(&path).expect("galaxy loads");
        let list = list(&scene.sim);
        let colour_of = |name: &str| {
            list.iter()
                .filter(|s| match s.source {
                    Source::Collider(id) => scene.sim.collider_name(id) == Some(name),
                    Source::Dynamic(_) => false,
                })
                .map(|s| s.colour)
                .collect::<Vec<_>>()
        };
        assert_eq!(colour_of("pad_east"), vec![PAD_COLOUR]);
        assert_eq!(colour_of("turntable"), vec![PLATFORM_COLOUR]);
        // Two crates, drawn from rapier.
        let crates = list
            .iter()
            .filter(|s| matches!(s.source, Source::Dynamic(_)))
            .count();
        assert_eq!(crates, 2);
        let path = crate::scenes::shipped_scene("playground");
        let scene = crate::scenes::load_scene(&path).expect("playground loads");
        let list = super::list(&scene.sim);
        let stairs: Vec<[f32; 3]> = list
            .iter()
            .filter(|s| match s.source {
                Source::Collider(id) => scene.sim.collider_name(id) == Some("stairs"),
                Source::Dynamic(_) => false,
            })
            .map(|s| s.colour)
            .collect();
        assert!(stairs.len() > 3, "{} stair parts", stairs.len());
        assert!(
            stairs.iter().all(|c| *c == stairs[0]),
            "steps differ: {stairs:?}"
        );
    }
}
