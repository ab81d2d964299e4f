//! The motor: a character's validated shape and settings, and the entry points of its step.

#[cfg(doc)]
use super::InputFlags;
use super::sanitize::sanitize;
use super::{Step, StepContext, StepReport, StepScratch, attempt, carry, gather};
#[cfg(doc)]
use super::{
    clamp_to_ground, move_substepped, movement_velocity, probe_ground, pushback, target_up,
    try_step_up, turn_up,
};
use crate::contact::GroundState;
use crate::hooks::{ContactHooks, NoHooks};
use crate::math::Real;
use crate::pose::Pose;
use crate::settings::{MotorSettings, SettingsError};
use crate::shape::SphereStack;
use crate::state::{MotorState, StepInput};
use crate::world::{Geometry, Primitive, QueryFilter};
use parry3d::bounding_volume::BoundingVolume;

/// A character's validated shape and settings: what [`Motor::step`] needs besides the world and
/// the per-step state.
#[derive(Clone, Debug, PartialEq)]
pub struct Motor {
    pub(super) stack: SphereStack,
    pub(super) settings: MotorSettings,
    pub(super) filter: QueryFilter,
    /// Cosine of the slope limit, computed once.
    pub(super) cos_slope: Real,
    /// Sine of the slope limit (the step offset's least forward move), computed once.
    pub(super) sin_slope: Real,
}

impl Motor {
    /// Pairs a stack with settings after validating them.
    ///
    /// # Errors
    /// [`SettingsError`] when a setting is out of its documented range, or out of scale with
    /// the stack: a `skin_width` over half the smallest radius (never grounded), a
    /// `penetration_tolerance` over a tenth of it (overlaps left alone, sinking through
    /// floors), a `step_height` at or over the stack's height (a character climbing more than
    /// itself).
    pub fn new(stack: SphereStack, settings: MotorSettings) -> Result<Self, SettingsError> {
        settings.validate()?;
        settings.check_scale(&stack)?;
        Ok(Self {
            stack,
            settings,
            filter: QueryFilter::default(),
            cos_slope: crate::math::cos(settings.slope_limit),
            sin_slope: crate::math::sin(settings.slope_limit),
        })
    }

    /// Uses `filter` to choose which colliders the character collides with.
    pub fn with_filter(mut self, filter: QueryFilter) -> Self {
        self.filter = filter;
        self
    }

    /// The sphere stack (character-local).
    pub fn stack(&self) -> &SphereStack {
        &self.stack
    }

    /// The validated settings.
    pub fn settings(&self) -> &MotorSettings {
        &self.settings
    }

    /// The collision filter.
    pub fn filter(&self) -> &QueryFilter {
        &self.filter
    }

    /// A context over `prims` for calling the phases directly, with no hooks and no limit on
    /// penetration recovery.
    pub fn context<'a>(
        &'a self,
        world: &'a dyn Geometry,
        prims: &'a [Primitive],
    ) -> StepContext<'a> {
        StepContext {
            world,
            motor: self,
            prims,
            cos_slope: self.cos_slope,
            hooks: &NoHooks,
            recovery: None,
            bounds: None,
            cut_short: None,
            fall: None,
        }
    }

    /// Advances one character by one fixed step, with no contact hooks: see
    /// [`Self::step_with_hooks`].
    ///
    /// # Example
    /// A character steps off a 0.3 m ledge and lands on the floor below it.
    /// ```
    /// use spherewalk_core::parry3d::shape::SharedShape;
    /// use spherewalk_core::{
    ///     ColliderDesc, CollisionWorld, Motor, MotorSettings, MotorState, MoveIntent, Point3,
    ///     Pose, SphereStack, StepInput, StepReport, Vec3,
    /// };
    /// let mut world = CollisionWorld::new();
    /// // A floor at y = 0 and a 2 m wide ledge 0.3 m high over x in -2..0.
    /// world.insert(ColliderDesc::new(SharedShape::cuboid(10.0, 0.5, 10.0)).translation(0.0, -0.5, 0.0))?;
    /// world.insert(ColliderDesc::new(SharedShape::cuboid(1.0, 0.15, 3.0)).translation(-1.0, 0.15, 0.0))?;
    /// let motor = Motor::new(SphereStack::capsule(1.8, 0.3, 3)?, MotorSettings::default())?;
    /// let mut pose = Pose::new(Point3::new(-1.0, 0.3, 0.0));
    /// let (mut state, mut report) = (MotorState::default(), StepReport::new());
    /// let walk = MoveIntent::walk(Vec3::new(2.0, 0.0, 0.0));
    /// let input = StepInput::new(walk, Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0);
    /// for _ in 0..90 {
    ///     motor.step(&world, &mut pose, &mut state, &input, &mut report);
    /// }
    /// // 1.5 s at 2 m/s from x = -1: on the floor past the ledge, standing.
    /// assert!(report.is_grounded());
    /// assert!(pose.position.x > 1.5 && pose.position.y.abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(
        &self,
        world: &dyn Geometry,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
    ) {
        self.step_with_hooks(world, pose, state, input, report, &NoHooks);
    }

    /// Advances one character by one fixed step. Pure and deterministic: the same inputs (and
    /// deterministic `hooks`) give bit-identical `pose`, `state` and `report`.
    ///
    /// The step's phases, in order (the outline is `step::attempt`; each phase has a file):
    /// - **gather**: the primitives in the step's region (the stack's box grown by what the
    ///   phases can reach; the step runs again over a wider cube when a phase reaches past
    ///   it) whose collider `hooks` validates;
    /// - **up frame**: [`turn_up`] toward [`target_up`] (pivoting about the ground contact
    ///   when grounded, else the feet sphere's centre; heading carried along), the intent's
    ///   yaw, then [`pushback`] if it turned;
    /// - **movement**: [`movement_velocity`] plus what the ground carries (a kinematic
    ///   collider's motion, [`ContactHooks::surface_velocity`]), moved by [`move_substepped`]
    ///   (substeps no longer than `max_substep_fraction` of the smallest radius, [`pushback`]
    ///   after each);
    /// - **stairs**: [`try_step_up`] when a grounded move was blocked by a collider not
    ///   flagged not walkable;
    /// - **ground**: [`probe_ground`] (as far as the clamp distance while walking), then
    ///   [`clamp_to_ground`]: the slope limit, the snap onto stable ground (dropping past an
    ///   edge when the feet hang over it) and steep faces the feet touch;
    /// - then what the next step inherits: the carried velocity, coyote time, the knock.
    ///
    /// Bad inputs never panic: see [`StepInput`] and [`InputFlags`] for the rules.
    pub fn step_with_hooks(
        &self,
        world: &dyn Geometry,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
        hooks: &dyn ContactHooks,
    ) {
        let mut scratch = std::mem::take(&mut report.scratch);
        self.step_with_scratch(world, pose, state, input, report, hooks, &mut scratch);
        report.scratch = scratch;
    }

    /// [`Self::step_with_hooks`] with its working buffers in `scratch` instead of in `report`.
    /// The result is the same bit for bit whatever `scratch` held before; a crowd stepped
    /// through one scratch per thread keeps those buffers in cache.
    #[allow(clippy::too_many_arguments)]
    pub fn step_with_scratch(
        &self,
        world: &dyn Geometry,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
        hooks: &dyn ContactHooks,
        scratch: &mut StepScratch,
    ) {
        phase!("spherewalk: step");
        report.reset();
        let Some(clean) = sanitize(&self.settings, pose, state, input, report) else {
            report.ground = state.ground;
            report.ground_hit = state.ground_hit;
            return;
        };
        // The scratch may come from another character: nothing in it may carry over.
        scratch.contacts.forget_rest();
        // What the ground carries the character by is known before the move, so the gathered
        // region covers it.
        let carry = carry::carried(world, hooks, pose, state, clean.dt);
        let tight = gather::tight(self, pose, state, &clean, &carry.velocity);
        let (start, start_state, flags) = (*pose, *state, report.flags);
        let mut step = Step {
            motor: self,
            world,
            hooks,
            was_grounded: state.ground == GroundState::Grounded,
            pose,
            state,
            report,
            scratch,
            input: clean,
            carry,
            velocity: crate::math::Vec3::zeros(),
            start,
            mode: super::PushMode::Free,
            jumped: false,
            moved: super::PushbackSummary::default(),
        };
        if attempt(&mut step, &tight) {
            return;
        }
        // Something reached past the tight region: the whole step again over the wide one,
        // from where it started.
        *step.pose = start;
        *step.state = start_state;
        step.report.reset();
        step.report.flags = flags;
        let wide = gather::wide(self, &start, step.state, &clean, carry.velocity.norm());
        attempt(&mut step, &tight.merged(&wide));
    }

    /// The least forward move (m) that lands the round feet on a tread they were stopped at:
    /// `radius * (1 - sin(slope_limit)) + skin_width`, the feet's contact with the edge then
    /// leaning back within the slope limit.
    pub(crate) fn least_forward(&self) -> Real {
        self.stack.feet().radius * (1.0 - self.sin_slope) + self.settings.skin_width
    }
}
