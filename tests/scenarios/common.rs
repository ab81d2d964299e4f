//! Helpers shared by the runtime's scenario tests.

use spherewalk::hecs::Entity;
use spherewalk::{MotorState, Pose, Sim};

/// Every character's position, orientation and velocity bits, in entity order (entity bits
/// first).
pub fn character_bits(sim: &Sim) -> Vec<(u64, Vec<u32>)> {
    let mut rows: Vec<(u64, Vec<u32>)> = sim
        .ecs
        .query::<(Entity, &Pose, &MotorState)>()
        .iter()
        .map(|(e, p, s)| {
            let reals = p
                .position
                .iter()
                .chain(p.orientation.coords.iter())
                .chain(s.velocity.iter());
            (e.to_bits().get(), reals.map(|r| r.to_bits()).collect())
        })
        .collect();
    rows.sort_by_key(|(e, _)| *e);
    rows
}
