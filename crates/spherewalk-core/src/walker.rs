//! One walking character's fixed step as every host runs it: the runtime's `Sim` and the
//! Bevy plugin keep a character's parts in their own storage (hecs components, a Bevy
//! component) and step it through [`Walker::step`] (and separate a crowd of them with
//! [`crate::crowd::separate`]), so neither writes that logic itself.

use crate::contact::ColliderId;
use crate::gravity::GravityFields;
use crate::hooks::{ContactHooks, NoHooks, Surroundings};
use crate::math::{Real, Vec3};
use crate::pose::Pose;
use crate::state::{MotorState, MoveIntent, StepInput};
use crate::step::{Motor, StepReport, StepScratch};
use crate::world::Geometry;

/// One fixed step as every character meets it: the geometry and the game's contact hooks
/// around them, the gravity fields (m/s², world) and the time step `dt` (s). Shared by all the
/// characters of a step, across threads.
#[derive(Clone, Copy)]
pub struct Tick<'a> {
    geometry: &'a dyn Geometry,
    hooks: &'a (dyn ContactHooks + Sync),
    fields: &'a GravityFields,
    /// The gravity of `fields` when it is the same everywhere (no point to look up).
    uniform: Option<Vec3>,
    dt: Real,
}

impl<'a> Tick<'a> {
    /// A step of `dt` seconds through `geometry` under `fields`, with no contact hooks.
    pub fn new(geometry: &'a dyn Geometry, fields: &'a GravityFields, dt: Real) -> Self {
        Self {
            geometry,
            hooks: &NoHooks,
            fields,
            uniform: fields.uniform(),
            dt,
        }
    }

    /// The same step with the game's contact `hooks`.
    pub fn with_hooks(self, hooks: &'a (dyn ContactHooks + Sync)) -> Self {
        Self { hooks, ..self }
    }

    /// The time step (s).
    pub fn dt(&self) -> Real {
        self.dt
    }
}

impl std::fmt::Debug for Tick<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tick")
            .field("uniform", &self.uniform)
            .field("dt", &self.dt)
            .finish_non_exhaustive()
    }
}

/// One walking character, borrowed from wherever its host keeps its parts: its motor, its
/// body, where its last step ended (`pose`, world) and started (`previous`: a host draws it
/// between the two with [`Pose::interpolate`]), its motor state and its last step's report.
/// Its life in a host: [`crate::crowd::admit`] lets it in, [`Walker::step`] steps it,
/// [`crate::crowd::separate`] pushes a crowd of them apart, and
/// [`MotorState::launch_from_pad`] throws it from a jump pad.
#[derive(Debug)]
pub struct Walker<'a> {
    /// Its shape, settings and collision filter.
    pub motor: &'a Motor,
    /// Its body collider in the world (the others meet it), if it has one.
    pub body: Option<ColliderId>,
    /// Where its last step ended (world).
    pub pose: &'a mut Pose,
    /// Where its last step started (world).
    pub previous: &'a mut Pose,
    /// What carries over from one step to the next.
    pub state: &'a mut MotorState,
    /// What its last step did.
    pub report: &'a mut StepReport,
}

impl Walker<'_> {
    /// The gravity (m/s², world) `tick` pulls this character with: read at its gravity point
    /// ([`Motor::gravity_point`], its feet sphere's centre) unless it is the same everywhere.
    pub fn gravity(&self, tick: &Tick<'_>) -> Vec3 {
        tick.uniform
            .unwrap_or_else(|| tick.fields.at(&self.motor.gravity_point(self.pose)))
    }

    /// One fixed step wanting `intent`: the pose it starts from becomes `previous`, then
    /// [`Motor::step`] runs under [`Self::gravity`] for `tick.dt()` seconds. With `scratch`
    /// (a thread's working buffers, hot in cache) the step works in those instead of the
    /// report's own; the report keeps its own afterwards.
    pub fn step(
        &mut self,
        tick: &Tick<'_>,
        intent: MoveIntent,
        mut scratch: Option<&mut StepScratch>,
    ) {
        *self.previous = *self.pose;
        let input = StepInput::new(intent, self.gravity(tick), tick.dt);
        let around = Surroundings::new(tick.geometry).with_hooks(tick.hooks);
        if let Some(scratch) = scratch.as_deref_mut() {
            self.report.swap_scratch(scratch);
        }
        self.motor
            .step(around, self.pose, self.state, &input, self.report);
        if let Some(scratch) = scratch {
            self.report.swap_scratch(scratch);
        }
    }
}
