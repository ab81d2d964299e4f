//! Helpers shared by the runtime's scenario tests.

use spherewalk::Sim;
use spherewalk::components::Walker;
use spherewalk::hecs::Entity;

/// Every character's position, orientation and velocity bits, in entity order (entity bits
/// first).
pub fn character_bits(sim: &Sim) -> Vec<(u64, Vec<u32>)> {
    let mut rows: Vec<(u64, Vec<u32>)> = sim
        .ecs
        .query::<(Entity, &Walker)>()
        .iter()
        .map(|(e, w)| {
            let (p, s) = (&w.pose, &w.state);
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
