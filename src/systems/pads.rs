//! Jump pads: a character that ends a step stably grounded on a pad is thrown.

use crate::components::JumpPad;
use hecs::World;
use spherewalk_core::MotorState;

/// Throws every character that ends the step stably grounded on a [`JumpPad`]'s collider
/// ([`MotorState::launch`] with the pad's launch velocity, m/s, world). Where pads share a
/// collider, the first spawned wins.
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
    for state in ecs.query_mut::<&mut MotorState>() {
        let Some(hit) = state.stable_ground() else {
            continue;
        };
        if let Some((_, pad)) = pads.iter().find(|(_, p)| p.collider == hit.collider) {
            state.launch(pad.launch);
        }
    }
}
