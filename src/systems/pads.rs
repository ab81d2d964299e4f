//! Jump pads: a character that ends a step stably grounded on a pad is thrown.

use crate::components::JumpPad;
use hecs::World;
use spherewalk_core::walker::Walker;

/// Throws every character that ends the step stably grounded on a [`JumpPad`]'s collider
/// (the core's [`spherewalk_core::MotorState::launch_from_pad`] with the pad's launch velocity, m/s, world).
/// Where pads share a collider, the first spawned wins.
pub fn launch_from_pads(ecs: &mut World) {
    let mut pads: Vec<(u32, JumpPad)> = ecs
        .query::<(hecs::Entity, &JumpPad)>()
        .iter()
        .map(|(e, pad)| (e.id(), *pad))
        .collect();
    if pads.is_empty() {
        return;
    }
    pads.sort_by_key(|(id, _)| *id);
    let launch_of = |collider| {
        let pad = pads.iter().find(|(_, p)| p.collider == collider);
        pad.map(|(_, p)| p.launch)
    };
    for walker in ecs.query_mut::<&mut Walker>() {
        walker.state.launch_from_pad(launch_of);
    }
}
