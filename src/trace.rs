//! Traces: one JSON object per character per step (JSON Lines), for the CLI, for tests and
//! for comparing runs.
//!
//! A record describes a character right after fixed step number `step` (0-based), at
//! simulated time `t` = (`step` + 1) * dt seconds. Vectors are world-frame `[x, y, z]`:
//! `pos` is the bottom of the feet sphere (m), `up` the character's unit up, `vel` its
//! velocity (m/s). `ground_normal` is the surface normal of the ground under the feet and
//! `ground_collider` that collider's name (both `null` when nothing is under the feet within
//! the probe), `climbed` the height climbed by the stairs phase in that step (m), and
//! `max_penetration` the deepest overlap of any of its spheres with any collider other than
//! its own body, measured after the step (m, characters included), and `mode` the movement
//! rule it follows after the step (`walk`, `dash`, `climb`, `mantle`).

use crate::components::{Name, Walker};
use crate::sim::Sim;
use serde::{Deserialize, Serialize};
use spherewalk_core::Real;
use spherewalk_core::world::{QueryFilter, WorldQueries};
use std::io::Write;

/// One character after one step (see the module docs for every field's meaning and units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRecord {
    /// 0-based index of the step.
    pub step: u64,
    /// Simulated time at the end of the step (s).
    pub t: f64,
    /// The character's name.
    pub character: String,
    /// Feet position (m, world).
    pub pos: [Real; 3],
    /// Unit up (world).
    pub up: [Real; 3],
    /// Velocity (m/s, world).
    pub vel: [Real; 3],
    /// Stably grounded.
    pub grounded: bool,
    /// Surface normal of the ground under the feet (world), if any.
    pub ground_normal: Option<[Real; 3]>,
    /// Name of that ground's collider, if it has one.
    pub ground_collider: Option<String>,
    /// Height climbed onto a stair in this step (m). Traces written before it was renamed
    /// call it `stepped_up`.
    #[serde(alias = "stepped_up")]
    pub climbed: Real,
    /// Deepest overlap of any sphere with any other collider after the step (m, >= 0).
    pub max_penetration: Real,
    /// The movement rule it follows after the step ([`spherewalk_core::motor::Mode::name`]:
    /// `walk`, `dash`, `climb`, `mantle`). Traces written before modes read as `walk`.
    #[serde(default = "walking")]
    pub mode: String,
}

/// The mode of a trace record that names none.
fn walking() -> String {
    "walk".to_owned()
}

/// Appends a record for every character of `sim` as it is now (after its last step), in
/// entity order. Before the first step, `step` is 0 and `t` is 0.
pub fn records(sim: &Sim, out: &mut Vec<TraceRecord>) {
    let step = sim.steps().saturating_sub(1);
    let t = sim.time();
    let mut query = sim.ecs.query::<(hecs::Entity, &Name, &Walker)>();
    let mut rows: Vec<_> = query.iter().collect();
    rows.sort_by_key(|row| row.0.id());
    for (_, name, walker) in rows {
        let filter = QueryFilter {
            exclude: walker.body,
            ..QueryFilter::default()
        };
        let (pose, last) = (&walker.pose, &walker.report);
        let hit = last.ground_hit;
        out.push(TraceRecord {
            step,
            t,
            character: name.0.clone(),
            pos: pose.position.coords.into(),
            up: pose.up().into_inner().into(),
            vel: walker.state.velocity.into(),
            grounded: last.is_grounded(),
            ground_normal: hit.map(|h| h.surface_normal.into_inner().into()),
            ground_collider: hit
                .and_then(|h| sim.collider_name(h.collider))
                .map(str::to_owned),
            climbed: last.climbed,
            max_penetration: sim
                .collision
                .stack_penetration(pose, walker.motor.stack(), &filter),
            mode: walker.state.mode.name().to_owned(),
        });
    }
}

/// Writes [`TraceRecord`]s as JSON Lines.
pub struct TraceWriter<W: Write> {
    out: W,
    rows: Vec<TraceRecord>,
}

impl<W: Write> TraceWriter<W> {
    /// A writer appending to `out` (wrap files in a `BufWriter`).
    pub fn new(out: W) -> Self {
        Self {
            out,
            rows: Vec::new(),
        }
    }

    /// Writes one line per character of `sim` as it is now, and returns the records written.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write_step(&mut self, sim: &Sim) -> std::io::Result<&[TraceRecord]> {
        self.rows.clear();
        records(sim, &mut self.rows);
        for row in &self.rows {
            serde_json::to_writer(&mut self.out, row)?;
            self.out.write_all(b"\n")?;
        }
        Ok(&self.rows)
    }

    /// Flushes and returns the underlying writer.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
