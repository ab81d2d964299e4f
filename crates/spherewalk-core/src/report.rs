//! What a motor step did: ground state, events, contacts and input flags.

use crate::math::{Point3, Real, UnitVec3};
use crate::world::{ColliderId, Primitive};

/// Where the character stands after a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GroundState {
    /// On walkable ground (slope within the limit): no gravity, no sliding.
    Grounded,
    /// On ground steeper than the slope limit (or not walkable): slides under gravity.
    SteepGround,
    /// Touching something but with no ground under the feet (e.g. against a wall in the air).
    Touching,
    /// Touching nothing.
    #[default]
    Airborne,
}

/// The ground found under the feet sphere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundHit {
    /// The collider stood on.
    pub collider: ColliderId,
    /// Contact point (world, m).
    pub point: Point3,
    /// Normal of the sphere-surface contact (world): edges give a rounded normal.
    pub contact_normal: UnitVec3,
    /// The face's own normal at the contact (world); the slope is judged on it.
    pub surface_normal: UnitVec3,
    /// Angle between `surface_normal` and the character's up (rad).
    pub slope_angle: Real,
    /// True when the slope is within the limit and the collider is walkable.
    pub stable: bool,
    /// Gap between the feet sphere and the ground when probed, before any snap (m).
    pub distance: Real,
}

/// One pushback contact: a sphere of the stack was pushed out of a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The collider touched.
    pub collider: ColliderId,
    /// Index of the sphere in the stack, feet first.
    pub sphere: usize,
    /// Closest point on the collider (world, m).
    pub point: Point3,
    /// Contact normal, from the surface toward the sphere centre (world).
    pub contact_normal: UnitVec3,
    /// The face's own normal (world).
    pub surface_normal: UnitVec3,
    /// Penetration depth that was resolved (m).
    pub depth: Real,
}

/// Bad per-step inputs that were clamped or ignored, each by a documented rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputFlags {
    /// `dt` was NaN, infinite or <= 0: the step did nothing.
    pub dt_invalid: bool,
    /// `dt` exceeded `max_dt` and was clamped to it.
    pub dt_clamped: bool,
    /// The intent held NaN or infinity and was replaced by "stand still".
    pub intent_invalid: bool,
    /// The intent velocity had a component along up that was dropped.
    pub intent_off_plane: bool,
    /// Gravity held NaN or infinity and was treated as zero.
    pub gravity_invalid: bool,
    /// Gravity was longer than [`crate::MAX_GRAVITY`] and was clamped to it.
    pub gravity_clamped: bool,
    /// A speed (the intent's, the jump's, the carried velocity's or the resulting one) exceeded
    /// `max_speed` and was clamped to it.
    pub speed_clamped: bool,
    /// The pose or the motor state held NaN or infinity: the step did nothing.
    pub state_invalid: bool,
}

impl InputFlags {
    /// True when any input was clamped or ignored.
    pub fn any(&self) -> bool {
        self.dt_invalid
            || self.dt_clamped
            || self.intent_invalid
            || self.intent_off_plane
            || self.gravity_invalid
            || self.gravity_clamped
            || self.speed_clamped
            || self.state_invalid
    }
}

/// Everything a step did. Reuse one report per character: its buffers keep their capacity.
#[derive(Clone, Debug, Default)]
pub struct StepReport {
    /// Ground state after the step.
    pub ground: GroundState,
    /// The ground probed under the feet after the step, if any.
    pub ground_hit: Option<GroundHit>,
    /// True when the character became grounded this step after not being grounded.
    pub landed: bool,
    /// True when the character stopped being grounded this step (walked off, jumped).
    pub left_ground: bool,
    /// True when the character jumped this step.
    pub jumped: bool,
    /// Height climbed by the step offset this step (m, along up); 0 when no step was taken.
    pub stepped_up: Real,
    /// Distance snapped down onto the ground by the ground clamp (m); 0 when none.
    pub clamped_down: Real,
    /// Angle the up frame turned this step (rad).
    pub up_turned: Real,
    /// Number of movement substeps taken.
    pub substeps: u32,
    /// Pushback iterations run, summed over substeps.
    pub pushback_iterations: u32,
    /// Deepest remaining penetration of any sphere after the step (m, >= 0).
    pub max_penetration: Real,
    /// Every pushback contact of the step, in the order resolved.
    pub hits: Vec<Hit>,
    /// Inputs that were clamped or ignored.
    pub flags: InputFlags,
    pub(crate) scratch: Scratch,
}

/// Buffers reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub ids: Vec<ColliderId>,
    pub prims: Vec<Primitive>,
    pub contacts: crate::step::ContactBuffer,
    pub trial_hits: Vec<Hit>,
}

impl StepReport {
    /// A fresh report.
    pub fn new() -> Self {
        Self::default()
    }

    pub(crate) fn reset(&mut self) {
        let scratch = std::mem::take(&mut self.scratch);
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        *self = Self {
            hits,
            scratch,
            ..Self::default()
        };
    }

    /// True when the character is stably grounded after the step.
    pub fn is_grounded(&self) -> bool {
        self.ground == GroundState::Grounded
    }
}
