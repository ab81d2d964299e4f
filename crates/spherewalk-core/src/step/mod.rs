//! The motor step: movement -> pushback -> resolution, in any up frame.

mod contacts;
mod escape;
mod frame;
mod ground;
mod movement;
mod pushback;
mod report;
mod resize;
mod scratch;
mod solver;
mod stairs;

pub use frame::{target_up, turn_up, yaw};
pub use report::{InputFlags, StepReport};
pub use resize::ResizeError;
pub use scratch::StepScratch;

pub use ground::{ClampRules, Landing, clamp_to_ground, probe_ground, surface_normal_at};
pub use movement::{MAX_SUBSTEPS, move_substepped, movement_velocity};
pub use pushback::{ContactBuffer, MAX_HITS, PushMode, PushbackSummary, max_penetration, pushback};
pub use stairs::{StepUp, try_step_up};

use crate::contact::GroundState;
use crate::hooks::{Candidate, ContactHooks, NoHooks};
use crate::math::{Point3, Real, UnitVec3, Vec3, clamp_length, is_finite_vec, project_on_plane};
use crate::pose::Pose;
use crate::settings::{MotorSettings, SettingsError, UpFrame};
use crate::shape::SphereStack;
use crate::state::{MotorState, MoveIntent, StepInput};
use crate::world::{Geometry, Primitive, QueryFilter};
use parry3d::bounding_volume::{Aabb, BoundingVolume};
use std::cell::Cell;

/// A move blocked by more than this speed (m/s) tries the step offset.
const BLOCKED_SPEED: Real = 1e-3;
/// Room (m) the step's region leaves beyond its computed reach: the surface rays' sideways
/// offsets and heights and f32 rounding.
const REGION_SLACK: Real = 0.05;
/// Longest gravity vector a step accepts (m/s², about 10 000 g); longer ones are clamped.
pub const MAX_GRAVITY: Real = 1e5;

/// A character's validated shape and settings: what [`Motor::step`] needs besides the world and
/// the per-step state.
#[derive(Clone, Debug, PartialEq)]
pub struct Motor {
    stack: SphereStack,
    settings: MotorSettings,
    filter: QueryFilter,
    cos_slope: Real,
    /// Sine of the slope limit (the step offset's least forward move), computed once.
    sin_slope: Real,
}

/// Everything the phases read during one step: the world, the motor, the primitives gathered
/// around the character for this step, and derived constants.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// The collision world.
    pub world: &'a dyn Geometry,
    /// The character's motor.
    pub motor: &'a Motor,
    /// Primitives near the character (world frame), gathered once per step and kept by the
    /// hooks' [`ContactHooks::validate`].
    pub prims: &'a [Primitive],
    /// Cosine of the slope limit.
    pub cos_slope: Real,
    /// The game's contact hooks.
    pub hooks: &'a dyn ContactHooks,
    /// What is left of this step's penetration recovery (m): how much further than undoing
    /// their own motions the step's pushback passes may still push, starting at
    /// `penetration_recovery_speed * dt`. `None` when recovery is not limited.
    pub recovery: Option<&'a Cell<Real>>,
    /// The region (world, m) `prims` was gathered from: no phase moves the stack out of it
    /// without looking further. `None` when `prims` is all there is.
    pub bounds: Option<Aabb>,
    /// Set by a phase that stopped short at the edge of `bounds` (a squeeze escape longer than
    /// the region allows): [`Motor::step`] then runs the step again over a wider region.
    pub cut_short: Option<&'a Cell<bool>>,
    /// The direction this step's gravity pulls (unit, world), if any: a landing removes the
    /// velocity it falls with along it when up lags well behind it. `None` (and in `Surface`
    /// mode, where gravity pulls along -up): along up.
    pub fall: Option<UnitVec3>,
}

impl StepContext<'_> {
    /// True when a contact with primitive `k` whose normal is `normal` (world) is walkable
    /// ground for a character whose up is `up`: the collider is walkable and the normal is
    /// within the slope limit of up.
    #[inline]
    pub fn walkable(&self, k: usize, normal: &UnitVec3, up: &UnitVec3) -> bool {
        self.climbable(k) && normal.dot(up) >= self.cos_slope
    }

    /// Whether primitive `k`'s collider may be stood on at all (not flagged not walkable),
    /// whatever the slope of a contact with it.
    #[inline]
    pub fn climbable(&self, k: usize) -> bool {
        self.prims.get(k).is_some_and(|p| p.walkable)
    }
}

/// The velocity a step starts its move with and what the movement phase decided.
struct Moved {
    /// Velocity after the move (m/s, world), the ground's surface velocity included.
    velocity: Vec3,
    /// What the ground carried the character by this step (m/s, world): a belt's surface
    /// velocity and a kinematic collider's motion.
    carried: Vec3,
    /// True when the character jumped.
    jumped: bool,
    /// True when the substeps' pushback touched anything.
    touched: bool,
    /// The step's time step after clamping (s).
    dt: Real,
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
    /// It gathers the primitives in the step's region (the stack's box grown by what the
    /// phases can reach; run again over a wider cube when a phase reaches past it), keeps those
    /// whose collider `hooks` validates, and composes the public phases:
    /// 1. **Up frame**: [`turn_up`] toward [`target_up`] at the turn rate (pivoting about the
    ///    ground contact when grounded, else the feet sphere's centre; heading carried along),
    ///    the intent's yaw, then [`pushback`] if it turned.
    /// 2. **Movement**: [`movement_velocity`] plus what the ground carries (a kinematic
    ///    collider's motion, [`ContactHooks::surface_velocity`]), then [`move_substepped`] (substeps no longer
    ///    than `max_substep_fraction` of the smallest radius, [`pushback`] after each), then
    ///    [`try_step_up`] when a grounded move was blocked by a collider not flagged
    ///    not walkable.
    /// 3. **Ground**: [`probe_ground`] (as far as the clamp distance while walking), then
    ///    [`clamp_to_ground`]: the slope limit, the snap onto stable ground (dropping past an
    ///    edge when the feet hang over it) and steep faces the feet touch.
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
        let Some(clean) = self.sanitize(pose, state, input, report) else {
            report.ground = state.ground;
            report.ground_hit = state.ground_hit;
            return;
        };
        // The scratch may come from another character: nothing in it may carry over.
        scratch.contacts.forget_rest();
        // What the ground carries the character by is known before the move, so the gathered
        // region covers it.
        let carry = carried_velocity(world, hooks, pose, state, clean.dt);
        let tight = self.region(pose, state, &clean, &carry.0);
        let (start, start_state, flags) = (*pose, *state, report.flags);
        let mut bounds = tight;
        for attempt in 0..2 {
            let done = self.step_in(
                world, &bounds, pose, state, &clean, carry, report, hooks, scratch,
            );
            if done || attempt > 0 {
                break;
            }
            // Something reached past the tight region: the whole step again over the wide
            // one, from where it started.
            *pose = start;
            *state = start_state;
            report.reset();
            report.flags = flags;
            bounds = tight.merged(&self.wide_region(&start, state, &clean, carry.0.norm()));
        }
    }

    /// The phases of one step over the primitives gathered in `bounds` (world, m). False when
    /// the step reached past `bounds` (a squeeze escape cut short at its edge, or spheres ending
    /// closer to its edge than their radius plus the skin width): its result is not to be kept.
    #[allow(clippy::too_many_arguments)]
    fn step_in(
        &self,
        world: &dyn Geometry,
        bounds: &Aabb,
        pose: &mut Pose,
        state: &mut MotorState,
        clean: &StepInput,
        carry: (Vec3, Real),
        report: &mut StepReport,
        hooks: &dyn ContactHooks,
        scratch: &mut StepScratch,
    ) -> bool {
        let mut prims = std::mem::take(&mut scratch.prims);
        {
            phase!("spherewalk: gather");
            self.gather(
                world,
                bounds,
                pose,
                state,
                hooks,
                &mut scratch.ids,
                &mut prims,
            );
        }
        let budget = Cell::new(0.0);
        let cut_short = Cell::new(false);
        let ctx = StepContext {
            hooks,
            recovery: self.settings.penetration_recovery_speed.map(|v| {
                budget.set(v * clean.dt);
                &budget
            }),
            bounds: Some(*bounds),
            cut_short: Some(&cut_short),
            fall: match self.settings.up_frame {
                UpFrame::Surface => None,
                _ => UnitVec3::try_new(clean.gravity, 1e-6),
            },
            ..self.context(world, &prims)
        };
        let velocity = {
            phase!("spherewalk: up frame");
            self.turn(&ctx, pose, state, clean, report, scratch)
        };
        let moved = {
            phase!("spherewalk: movement and pushback");
            self.move_and_push(&ctx, pose, state, clean, velocity, carry, report, scratch)
        };
        {
            phase!("spherewalk: ground resolution");
            self.resolve_ground(&ctx, pose, state, &moved, report, scratch);
        }
        report.hits_truncated = report.hits.len() >= MAX_HITS;
        // A pushback pass that ended clear exactly here measured it already.
        report.max_penetration = scratch
            .contacts
            .penetration_at(pose)
            .unwrap_or_else(|| max_penetration(&ctx, pose));
        scratch.prims = prims;
        !cut_short.get() && self.inside(pose, bounds)
    }

    /// True when the stack at `pose`, grown by the skin width and reaching the ground probe's
    /// distance below (`ground_clamp_distance` plus twice the skin width along -up), lies
    /// inside `bounds`: everything the next phases look at from there was gathered.
    fn inside(&self, pose: &Pose, bounds: &Aabb) -> bool {
        let stack = self.stack_box(pose, self.settings.skin_width);
        let drop = self.probe_drop(&pose.up());
        let zero = Vec3::zeros();
        let reach = Aabb::new(stack.mins + drop.inf(&zero), stack.maxs + drop.sup(&zero));
        bounds.contains(&reach)
    }

    /// The bounding box (world, m) of the stack's spheres at `pose`, each grown by `grow` (m).
    fn stack_box(&self, pose: &Pose, grow: Real) -> Aabb {
        let mut lo = Point3::from(Vec3::repeat(Real::INFINITY));
        let mut hi = Point3::from(Vec3::repeat(Real::NEG_INFINITY));
        for (c, sphere) in pose.sphere_centres(&self.stack).zip(self.stack.spheres()) {
            let r = Vec3::repeat(sphere.radius + grow);
            lo = lo.inf(&(c - r));
            hi = hi.sup(&(c + r));
        }
        Aabb::new(lo, hi)
    }

    /// How far below the feet (world, m, along -`up`) the ground probe may look: the ground
    /// clamp distance plus twice the skin width.
    fn probe_drop(&self, up: &UnitVec3) -> Vec3 {
        let s = &self.settings;
        -up.into_inner() * (s.ground_clamp_distance + 2.0 * s.skin_width)
    }

    /// Fills `prims` with the primitives within `bounds` (world) whose collider the hooks
    /// validate.
    #[allow(clippy::too_many_arguments)]
    fn gather(
        &self,
        world: &dyn Geometry,
        bounds: &Aabb,
        pose: &Pose,
        state: &MotorState,
        hooks: &dyn ContactHooks,
        ids: &mut Vec<crate::contact::ColliderId>,
        prims: &mut Vec<Primitive>,
    ) {
        prims.clear();
        world.gather_primitives(bounds, &self.filter, ids, prims);
        // Primitives come grouped by collider: ask once per collider.
        let mut last = None;
        prims.retain(|p| {
            if let Some((id, keep)) = last
                && id == p.collider
            {
                return keep;
            }
            let candidate = Candidate {
                collider: p.collider,
                pose,
                velocity: state.velocity,
            };
            let keep = hooks.validate(&candidate);
            last = Some((p.collider, keep));
            keep
        });
    }

    /// Phase 1, the up frame: turns up toward its target (pivoting about the ground contact
    /// when grounded), applies the intent's yaw and resolves what the turn swept into.
    /// Returns the carried velocity, clipped by that pushback.
    fn turn(
        &self,
        ctx: &StepContext<'_>,
        pose: &mut Pose,
        state: &MotorState,
        input: &StepInput,
        report: &mut StepReport,
        scratch: &mut StepScratch,
    ) -> Vec3 {
        let dt = input.dt;
        let target = target_up(&self.settings.up_frame, pose, state, &input.gravity);
        let pivot = self.pivot(pose, state);
        report.up_turned = turn_up(pose, &pivot, &target, self.max_turn(pose, state, dt));
        yaw(
            pose,
            input.intent.yaw_rate * dt + facing_turn(pose, &input.intent, dt),
        );
        let mut velocity = state.velocity;
        if report.up_turned > 0.0 {
            let s = pushback(
                ctx,
                pose,
                &mut velocity,
                PushMode::Free,
                &Vec3::zeros(),
                &mut scratch.contacts,
                &mut report.hits,
            );
            report.note_pushback(&s);
        }
        velocity
    }

    /// Phase 2, movement: from the carried-over `velocity` (m/s, world), the velocity from
    /// intent and gravity plus what the ground carries (a velocity and a turn about up, rad), moved in
    /// substeps with pushback after each, then the step offset when a grounded move was
    /// blocked.
    #[allow(clippy::too_many_arguments)]
    fn move_and_push(
        &self,
        ctx: &StepContext<'_>,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        velocity: Vec3,
        (carried, turn): (Vec3, Real),
        report: &mut StepReport,
        scratch: &mut StepScratch,
    ) -> Moved {
        let (own, jumped) = self.own_velocity(ctx, pose, state, input, velocity, report);
        let grounded = state.ground == GroundState::Grounded;
        // The ground's turn about up turns the heading with it.
        yaw(pose, turn);
        let (total, fast) = clamp_length(&(own + carried), self.settings.max_speed);
        report.flags.speed_clamped |= fast;
        let mut velocity = total;
        let start = *pose;
        let mode = if grounded && !jumped {
            PushMode::Grounded
        } else {
            PushMode::Free
        };
        let (contacts, hits) = (&mut scratch.contacts, &mut report.hits);
        let (substeps, s) =
            move_substepped(ctx, pose, &mut velocity, input.dt, mode, contacts, hits);
        report.substeps = substeps;
        report.note_pushback(&s);
        report.jumped = jumped;
        state.wall_normal = None;
        if mode == PushMode::Grounded && s.blocked_speed > BLOCKED_SPEED {
            let want = project_on_plane(&input.intent.velocity, &start.up()) + carried;
            let trial = (&mut scratch.contacts, &mut scratch.trial_hits);
            // Nothing can be stood on past a collider flagged not walkable (another
            // character's body): the step offset is not tried against it.
            // A crushed stack has no room to rise either.
            let step = if s.blocked_climbable && !s.crushed {
                let displacement = want * input.dt;
                try_step_up(
                    ctx,
                    &start,
                    pose,
                    s.blocked_by,
                    &displacement,
                    input.dt,
                    trial,
                )
            } else {
                None
            };
            if let Some(step) = step {
                *pose = step.pose;
                report.stepped_up = step.rise;
                velocity = want;
            } else if self.settings.up_frame == UpFrame::Surface {
                // Surface mode climbs what blocked it: the next step turns up to its normal.
                state.wall_normal = s.blocked_by;
            }
        }
        scratch.trial_hits.clear();
        Moved {
            velocity,
            carried,
            jumped,
            touched: s.pushes > 0,
            dt: input.dt,
        }
    }

    /// The character's own velocity for this step (m/s, world): [`movement_velocity`] from the
    /// intent and gravity (along -up in Surface mode) with the speed cap, and whether it
    /// jumped.
    fn own_velocity(
        &self,
        ctx: &StepContext<'_>,
        pose: &Pose,
        state: &MotorState,
        input: &StepInput,
        velocity: Vec3,
        report: &mut StepReport,
    ) -> (Vec3, bool) {
        let gravity = match self.settings.up_frame {
            UpFrame::Surface => -pose.up().into_inner() * input.gravity.norm(),
            _ => input.gravity,
        };
        let knock = usable_knock(state);
        let stable = state.ground == GroundState::Grounded;
        // In the air a knock is momentum: it joins the velocity the air steering starts from.
        let velocity = match knock {
            Some(k) if !stable => velocity + k,
            _ => velocity,
        };
        let moving = MotorState { velocity, ..*state };
        let (mut own, jumped) =
            movement_velocity(ctx, pose, &moving, &input.intent, &gravity, input.dt);
        // On the ground it slides the character along on top of the intent (and a jump takes
        // it along into the air).
        if let Some(k) = knock.filter(|_| stable) {
            own += project_on_plane(&k, &pose.up());
        }
        let (own, fast) = clamp_length(&own, self.settings.max_speed);
        report.flags.speed_clamped |= fast;
        (own, jumped)
    }

    /// Phase 3, the ground: lands on (or clamps to) the ground under the feet and writes the
    /// ground state, the events and the carried velocity.
    fn resolve_ground(
        &self,
        ctx: &StepContext<'_>,
        pose: &mut Pose,
        state: &mut MotorState,
        moved: &Moved,
        report: &mut StepReport,
        scratch: &mut StepScratch,
    ) {
        let was_grounded = state.ground == GroundState::Grounded;
        let rules = ClampRules {
            clamp: was_grounded && !moved.jumped,
            jumped: moved.jumped,
        };
        let mut velocity = moved.velocity;
        let landing = self.land(ctx, pose, &mut velocity, rules, report, scratch);
        let ground = match landing.ground {
            GroundState::Airborne if moved.touched => GroundState::Touching,
            g => g,
        };
        if ground == GroundState::Grounded || !self.settings.keep_ground_velocity {
            // The ground's velocity is not the character's own: it is carried again next step
            // while grounded, and kept on leaving only when the settings say so.
            velocity -= moved.carried;
        }
        report.ground = ground;
        report.ground_hit = landing.hit;
        report.landed = !was_grounded && ground == GroundState::Grounded;
        report.left_ground = was_grounded && ground != GroundState::Grounded;
        state.velocity = velocity;
        state.ground = ground;
        state.ground_hit = landing.hit;
        state.coyote = if ground == GroundState::Grounded {
            self.settings.coyote_time
        } else if moved.jumped {
            0.0
        } else {
            (state.coyote - moved.dt).max(0.0)
        };
        if state.knock != Vec3::zeros() {
            state.knock = match usable_knock(state) {
                // Grounded before and after: the knock wears off.
                Some(k) if was_grounded && ground == GroundState::Grounded => {
                    let speed = k.norm();
                    let slower = (speed - self.settings.knock_deceleration * moved.dt).max(0.0);
                    k * (slower / speed)
                }
                // Left in the velocity (the air) or not usable: gone.
                _ => Vec3::zeros(),
            };
        }
    }

    /// [`probe_ground`] (as far as the clamp distance while walking), [`clamp_to_ground`], and
    /// a pushback when the snap down pressed the stack into a steep face beside the feet.
    fn land(
        &self,
        ctx: &StepContext<'_>,
        pose: &mut Pose,
        velocity: &mut Vec3,
        rules: ClampRules,
        report: &mut StepReport,
        scratch: &mut StepScratch,
    ) -> Landing {
        let settings = &self.settings;
        let reach = if rules.clamp {
            settings.ground_clamp_distance.max(settings.skin_width)
        } else {
            settings.skin_width
        };
        let probed = probe_ground(ctx, pose, reach);
        let buffers = (&mut scratch.contacts, &mut scratch.trial_hits);
        let mut landing = clamp_to_ground(ctx, pose, velocity, probed, rules, buffers);
        if rules.clamp
            && landing.ground != GroundState::Grounded
            && let Some(hit) = ground::hug_edge(ctx, pose, velocity)
        {
            landing.ground = GroundState::Grounded;
            landing.hit = Some(hit);
        }
        report.clamped_down = landing.clamped_down;
        if landing.snapped > settings.penetration_tolerance {
            let s = pushback(
                ctx,
                pose,
                velocity,
                PushMode::Grounded,
                &(-pose.up().into_inner() * landing.snapped),
                &mut scratch.contacts,
                &mut report.hits,
            );
            report.note_pushback(&s);
        }
        landing
    }

    /// The most the up may turn this step (rad): `up_turn_rate * dt`, or, for grounded feet
    /// rolling over the ground, as far as they roll (speed along the ground times `dt` over the
    /// feet radius) when that is more: round a sharp edge the ground's normal turns as fast as
    /// the feet roll, 10 rad/s for 0.15 m feet at 1.5 m/s, and an up that lags it leaves the
    /// edge.
    fn max_turn(&self, pose: &Pose, state: &MotorState, dt: Real) -> Real {
        let rate = self.settings.up_turn_rate * dt;
        if state.ground != GroundState::Grounded {
            return rate;
        }
        let along = project_on_plane(&state.velocity, &pose.up()).norm();
        rate.max(along * dt / self.stack.feet().radius)
    }

    /// The point (world, m) the up frame turns about: the ground contact while grounded (the
    /// feet roll over the ground), else the feet sphere's centre. Turning to climb a wall that
    /// blocked the move (`Surface` mode) is about the feet sphere's centre too: the feet stay
    /// in the corner against the wall and the body swings away from it, where turning about
    /// the floor contact would roll them away from the wall, unblock the next move and give
    /// the turn up.
    fn pivot(&self, pose: &Pose, state: &MotorState) -> Point3 {
        match (state.ground, state.ground_hit, state.wall_normal) {
            (GroundState::Grounded, Some(hit), None) => hit.point,
            _ => pose.centre_at(self.stack.feet().offset_local),
        }
    }

    /// The region (world, m) this step may touch anything in: the stack's bounding box at
    /// `pose`, grown by how far any phase can take a sphere or look from it. `carried` is what
    /// the ground carries the character by (m/s, world).
    ///
    /// Every direction gets the move (`speed * dt`, the speed capped at `max_speed`), the
    /// chord the up frame's turn sweeps (the turn toward this step's target up, at most
    /// `Self::max_turn`, times the farthest sphere surface from the pivot), twice the skin
    /// width and [`REGION_SLACK`] for the surface rays. Along the wanted move (the intent's
    /// velocity along the ground plus `carried`) it also reaches the step offset's look past
    /// the feet (twice the least forward move it retries with, plus `min_step_depth`); along
    /// up, `step_height` above and the ground probe's reach (`ground_clamp_distance` plus
    /// twice the skin width) below. A push out of an overlap the character did not move into
    /// can go further: [`Self::step_in`] notices a stack ending near the region's edge, and the
    /// step runs again over the wide region.
    fn region(&self, pose: &Pose, state: &MotorState, input: &StepInput, carried: &Vec3) -> Aabb {
        let s = &self.settings;
        let speed = self.speed(state, input, carried.norm());
        let pivot = self.pivot(pose, state);
        let stack = self.stack_box(pose, 0.0);
        let arm = pose
            .sphere_centres(&self.stack)
            .zip(self.stack.spheres())
            .map(|(centre, sphere)| (centre - pivot).norm() + sphere.radius)
            .fold(0.0, Real::max);
        let up = pose.up();
        // The chord of a turn is at most its angle, and at most the distance between the two
        // unit ups.
        let target = target_up(&s.up_frame, pose, state, &input.gravity);
        let turn = (up.into_inner() - target.into_inner())
            .norm()
            .min(self.max_turn(pose, state, input.dt))
            * arm;
        let margin = speed * input.dt + turn + 2.0 * s.skin_width + REGION_SLACK;
        let want = project_on_plane(&input.intent.velocity, &up) + carried;
        let least = self.least_forward();
        let ahead = UnitVec3::try_new(want, 1e-6).map_or(Vec3::zeros(), |d| {
            d.into_inner() * (2.0 * least + s.min_step_depth)
        });
        let rise = up.into_inner() * s.step_height;
        let drop = self.probe_drop(&up);
        let zero = Vec3::zeros();
        let below = rise.inf(&drop).inf(&zero) + ahead.inf(&zero);
        let above = rise.sup(&drop).sup(&zero) + ahead.sup(&zero);
        let m = Vec3::repeat(margin);
        Aabb::new(stack.mins + below - m, stack.maxs + above + m)
    }

    /// The least forward move (m) that lands the round feet on a tread they were stopped at:
    /// `radius * (1 - sin(slope_limit)) + skin_width`, the feet's contact with the edge then
    /// leaning back within the slope limit.
    pub(crate) fn least_forward(&self) -> Real {
        self.stack.feet().radius * (1.0 - self.sin_slope) + self.settings.skin_width
    }

    /// The wide region (world, m) a step falls back on when it reached past its tight one
    /// ([`Self::region`]): a cube around the position reaching the stack's height (the
    /// longest squeeze escape) plus the move, the step height, the clamp distance and twice
    /// the skin width.
    fn wide_region(
        &self,
        pose: &Pose,
        state: &MotorState,
        input: &StepInput,
        carried: Real,
    ) -> Aabb {
        let s = &self.settings;
        let reach = self.stack.height()
            + self.speed(state, input, carried) * input.dt
            + s.step_height
            + s.ground_clamp_distance
            + 2.0 * s.skin_width;
        let r = Vec3::repeat(reach);
        Aabb::new(pose.position - r, pose.position + r)
    }

    /// The fastest this step may move (m/s): the carried velocity plus gravity's pull, or the
    /// intent's velocity and jump, whichever is more, plus the `carried` speed (m/s) of the
    /// ground, at most `max_speed`.
    fn speed(&self, state: &MotorState, input: &StepInput, carried: Real) -> Real {
        let own = (state.velocity.norm() + input.gravity.norm() * input.dt)
            .max(input.intent.velocity.norm() + input.intent.jump_speed.max(0.0));
        (own + carried).min(self.settings.max_speed)
    }

    /// Applies the documented clamps to the per-step inputs and the carried velocity; `None`
    /// when the step must not run.
    fn sanitize(
        &self,
        pose: &Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
    ) -> Option<StepInput> {
        let settings = &self.settings;
        let flags = &mut report.flags;
        if !pose.is_finite() || !is_finite_vec(&state.velocity) {
            flags.state_invalid = true;
            return None;
        }
        if !(input.dt.is_finite() && input.dt > 0.0) {
            flags.dt_invalid = true;
            return None;
        }
        let mut clean = *input;
        if clean.dt > settings.max_dt {
            clean.dt = settings.max_dt;
            flags.dt_clamped = true;
        }
        let i = &input.intent;
        let facing_ok = i.facing.is_none_or(|f| is_finite_vec(&f));
        let rates_ok = i.yaw_rate.is_finite() && i.turn_rate.is_finite();
        if !(is_finite_vec(&i.velocity) && i.jump_speed.is_finite() && rates_ok && facing_ok) {
            clean.intent = MoveIntent::default();
            flags.intent_invalid = true;
        }
        // Lengths are clamped before any dot product, so huge finite inputs cannot overflow.
        let (velocity, intent_fast) = clamp_length(&clean.intent.velocity, settings.max_speed);
        let (carried, carried_fast) = clamp_length(&state.velocity, settings.max_speed);
        clean.intent.velocity = velocity;
        state.velocity = carried;
        let jump = clean.intent.jump_speed.clamp(0.0, settings.max_speed);
        flags.speed_clamped = intent_fast || carried_fast || jump < clean.intent.jump_speed;
        clean.intent.jump_speed = jump;
        let along_up = clean.intent.velocity.dot(&pose.up());
        if along_up.abs() > 1e-3 * clean.intent.velocity.norm().max(1.0) {
            flags.intent_off_plane = true;
        }
        if !is_finite_vec(&clean.gravity) {
            clean.gravity = Vec3::zeros();
            flags.gravity_invalid = true;
        }
        let (gravity, strong) = clamp_length(&clean.gravity, MAX_GRAVITY);
        clean.gravity = gravity;
        flags.gravity_clamped = strong;
        Some(clean)
    }
}

/// The turn (rad, positive left) about up that brings the heading toward `intent.facing`,
/// at most `intent.turn_rate * dt` either way; 0 without a facing or with one along up.
fn facing_turn(pose: &Pose, intent: &MoveIntent, dt: Real) -> Real {
    let Some(facing) = intent.facing else {
        return 0.0;
    };
    let up = pose.up();
    let Some(target) = UnitVec3::try_new(project_on_plane(&facing, &up), 1e-6) else {
        return 0.0;
    };
    let forward = pose.forward();
    let angle = crate::math::atan2(forward.cross(&target).dot(&up), forward.dot(&target));
    let most = intent.turn_rate.max(0.0) * dt;
    angle.clamp(-most, most)
}

/// What the ground under a grounded character carries it by this step: a velocity (m/s,
/// world) and a turn about up (rad). Zero off the ground.
///
/// The velocity is the sum of the ground's [`ContactHooks::surface_velocity`] (projected onto
/// the ground's plane: a conveyor belt) and the motion of a kinematic collider: its linear
/// velocity plus the arc its angular velocity sweeps the character's position through in `dt`
/// (s), divided by `dt`, so a rider on a turning disc keeps its radius exactly. The collider's
/// pose is taken as the end of its motion (game code moves it, then steps the character), so
/// the turn is about where its origin was at the start, `pose - linear * dt`: a rider on a
/// platform that glides and spins at once stays where it stands on it. The turn is the angular
/// velocity's part along up, times `dt`. The step caps the character's own velocity plus this
/// at `max_speed` (flagged).
fn carried_velocity(
    world: &dyn Geometry,
    hooks: &dyn ContactHooks,
    pose: &Pose,
    state: &MotorState,
    dt: Real,
) -> (Vec3, Real) {
    let Some(hit) = state
        .ground_hit
        .filter(|_| state.ground == GroundState::Grounded)
    else {
        return (Vec3::zeros(), 0.0);
    };
    let n = hit.surface_normal;
    let belt = hooks.surface_velocity(hit.collider, &hit.point, &n);
    // A hook's NaN or infinite velocity is ignored, like a bad intent.
    let mut carried = if is_finite_vec(&belt) {
        project_on_plane(&belt, &n)
    } else {
        Vec3::zeros()
    };
    let mut turn = 0.0;
    if let Some(c) = world.motion(hit.collider) {
        carried += c.linear;
        let spin = c.angular * dt;
        // The turn this step, as an axis and an angle reduced to one revolution; an angle too
        // large for f32 (a bad velocity) is ignored rather than turned into NaN.
        let angle = spin.norm();
        if angle > 0.0 && angle.is_finite() {
            let axis = UnitVec3::new_unchecked(spin / angle);
            let angle = angle.rem_euclid(std::f32::consts::TAU);
            // The collider is already where this step takes it (game code moves it, then
            // steps the character): the turn is about where its origin was when the step
            // began, and the move then carries the turned arm along.
            let centre = Point3::from(c.pose.translation.vector - c.linear * dt);
            let arm = pose.position - centre;
            let swept = crate::math::axis_angle(&axis, angle) * arm - arm;
            carried += swept / dt;
            turn = axis.dot(&pose.up()) * angle;
        }
    }
    (carried, turn)
}

/// The state's knock when there is one to apply: non-zero and finite.
fn usable_knock(state: &MotorState) -> Option<Vec3> {
    let k = state.knock;
    (k != Vec3::zeros() && is_finite_vec(&k)).then_some(k)
}
