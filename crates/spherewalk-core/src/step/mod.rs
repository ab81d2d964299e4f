//! The motor step, in the phases it runs: gather, up frame, movement, stairs, ground. Each
//! phase has a file; [`Step::attempt`] is the outline that calls them in order, and the
//! building blocks they are made of ([`pushback`], [`move_substepped`], [`try_climb_stair`],
//! [`probe_ground`], [`clamp_to_ground`], ...) are public, so a game can compose a step of
//! its own.

mod admit;
mod carry;
mod climb;
mod contacts;
mod context;
mod coyote;
mod dash;
mod escape;
mod frame;
mod gather;
mod ground;
mod knock;
mod mantle;
mod mode;
mod motor;
mod movement;
mod pushback;
mod report;
mod resize;
mod sanitize;
mod scratch;
mod solver;
mod stairs;

pub use admit::AdmitError;
pub use context::StepContext;
pub use frame::{target_up, turn_up, yaw};
pub(crate) use gather::{REGION_SLACK, stack_box};
pub use ground::{ClampRules, Landing, clamp_to_ground, probe_ground, surface_normal_at};
pub use motor::Motor;
pub use movement::{MAX_SUBSTEPS, Moved, move_substepped, movement_velocity};
pub use pushback::{
    ContactBuffer, MAX_HITS, Moving, PushBuffers, PushMode, PushbackSummary, max_penetration,
    pushback,
};
pub use report::{InputFlags, StepEvent, StepReport};
pub use resize::ResizeError;
pub use sanitize::MAX_GRAVITY;
pub use scratch::StepScratch;
pub use solver::Wall;
pub use stairs::{Blocked, StairClimb, try_climb_stair};

use crate::contact::GroundState;
use crate::hooks::{ContactHooks, Surroundings};
use crate::math::{UnitVec3, Vec3};
use crate::pose::Pose;
use crate::settings::UpFrame;
use crate::state::{MotorState, StepInput};
use crate::world::{Geometry, Primitive};
use carry::Carry;
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// One step of one character in progress, for a game that runs the step's phases itself:
/// [`Motor::step`] is [`Step::begin`], then [`Step::run`]: [`Step::attempt`] over
/// [`Step::tight_region`], and when that reached past its region, [`Step::restart`] and an
/// attempt over the tight region merged with [`Step::wide_region`]. An attempt is the outline: [`Step::gather`],
/// [`Step::context`], [`Step::up_frame`], [`Step::movement`], [`Step::stairs`],
/// [`Step::ground`], [`Step::inherit`], [`Step::finish`] and [`Step::recycle`], each
/// phase handing the next what it made.
///
/// It holds the step's borrows (the motor, where it moves, the pose, state and report it
/// writes) and what was worked out before the first phase: the input after the documented
/// clamps, the ground's carry, the up frame's turn and whether it started on stable ground.
/// Keep it where `begin` put it (`if let Some(step) = &mut Step::begin(..)`): moving a
/// struct this size right after writing it costs the step some 7 % (measured on the step
/// bench).
pub struct Step<'s> {
    motor: &'s Motor,
    world: &'s dyn Geometry,
    hooks: &'s dyn ContactHooks,
    pose: &'s mut Pose,
    state: &'s mut MotorState,
    /// The report, which also holds the step's working buffers (`report.scratch`).
    report: &'s mut StepReport,
    /// The step's input after the documented clamps.
    input: StepInput,
    /// What the ground carries the character by this step.
    carry: Carry,
    /// The up frame's turn this step, planned where it starts.
    turn: frame::Turn,
    /// Whether the character stood on stable ground when the step began.
    was_grounded: bool,
    /// Where the step began (pose and state) and the input flags the clamps raised, for
    /// [`Step::restart`].
    began: Began,
}

/// What [`Step::restart`] puts back.
#[derive(Clone, Copy)]
struct Began {
    pose: Pose,
    state: MotorState,
    flags: InputFlags,
}

impl<'s> Step<'s> {
    /// Begins one step of `motor`'s character at `pose` with `state` through `around`:
    /// resets `report`, applies the documented clamps to `input` (see [`StepInput`] and
    /// [`InputFlags`]), and works out what the ground carries it by and how its up will turn.
    /// `None` when the step ends here: a pose or velocity that is not finite leaves the
    /// character where it is (the report says why).
    #[expect(
        clippy::too_many_arguments,
        reason = "Motor::step's own shape (where, the three things the step updates, and the \
                  input), which it hands over whole"
    )]
    #[inline]
    pub fn begin(
        motor: &'s Motor,
        around: Surroundings<'s>,
        pose: &'s mut Pose,
        state: &'s mut MotorState,
        input: &StepInput,
        report: &'s mut StepReport,
    ) -> Option<Self> {
        report.reset();
        let Some(clean) = sanitize::sanitize(&motor.settings, pose, state, input, report) else {
            report.ground = state.ground;
            report.ground_hit = state.ground_hit;
            return None;
        };
        // The buffers may come from another character: nothing in them may carry over.
        report.scratch.contacts.begin_step();
        // What the ground carries the character by is known before the move, so the gathered
        // region covers it.
        let carry = carry::carried(&around, pose, state, clean.dt);
        let turn = frame::plan_turn(motor, pose, state, &clean);
        let began = Began {
            pose: *pose,
            state: *state,
            flags: report.flags,
        };
        Some(Step {
            motor,
            world: around.geometry,
            hooks: around.hooks,
            was_grounded: state.ground == GroundState::Grounded,
            pose,
            state,
            report,
            input: clean,
            carry,
            turn,
            began,
        })
    }

    /// The region (world, m) an attempt gathers from first: everything the phases can reach
    /// from where the step began (see `gather::tight`).
    pub fn tight_region(&self) -> Aabb {
        gather::tight(self)
    }

    /// The wider region (world, m) to merge with [`Self::tight_region`] when an attempt over
    /// it reached past it: a cube round where the step began (see `gather::wide`).
    pub fn wide_region(&self) -> Aabb {
        gather::wide(self)
    }

    /// Puts the character back where the step began (pose, state, a fresh report with the
    /// clamps' input flags), for another attempt.
    pub fn restart(&mut self) {
        *self.pose = self.began.pose;
        *self.state = self.began.state;
        self.report.reset();
        self.report.flags = self.began.flags;
    }

    /// The rest of the step once begun: an [`Self::attempt`] over [`Self::tight_region`],
    /// and when that reached past it, [`Self::restart`] and an attempt over the tight region
    /// merged with [`Self::wide_region`].
    pub fn run(&mut self) {
        let tight = self.tight_region();
        if self.attempt(&tight) {
            return;
        }
        // Something reached past the tight region: the whole step again over the wide one,
        // from where it started.
        self.restart();
        let wide = self.wide_region();
        self.attempt(&tight.merged(&wide));
    }

    /// One attempt over the primitives gathered in `bounds` (world): the outline. False when
    /// the step reached past `bounds` (a squeeze escape cut short at its edge, or spheres
    /// ending closer to its edge than their reach): its result is not to be kept.
    pub fn attempt(&mut self, bounds: &Aabb) -> bool {
        // Gather: the primitives in the region whose collider the hooks keep.
        let prims = self.gather(bounds);
        let ctx = self.context(&prims, bounds);
        // Up frame: turn toward the target up, yaw, and push out of what the turn swept into;
        // the velocity the step starts from (m/s, world), clipped by that push.
        let mut velocity = self.up_frame(&ctx);
        // Movement: own velocity plus the ground's carry, in substeps with pushback after each.
        let moved = self.movement(&ctx, &mut velocity);
        // Stairs: climb what blocked a grounded move (Surface mode: latch the wall to climb it).
        self.stairs(&ctx, &moved, &mut velocity);
        // Ground: probe, clamp or hold an edge; the ground state, its events, the velocity kept.
        self.ground(&ctx, &moved, velocity);
        // Modes: a climb holds on, follows its face or lets go; a mantle rises and ends.
        self.modes(&ctx, &moved);
        // What the next step inherits: the velocity less the ground's, coyote time, the knock.
        self.inherit(&moved);
        // The report's last measures, and whether the step stayed inside its region.
        let kept = self.finish(&ctx);
        self.recycle(prims);
        kept
    }

    /// The gather phase, which begins an attempt: the primitives within `bounds` (world) that
    /// the motor's filter passes and whose collider the hooks validate, in the report's
    /// buffer (hand it back with [`Self::recycle`]). Sets the attempt's penetration recovery
    /// budget (`penetration_recovery_speed * dt`).
    pub fn gather(&mut self, bounds: &Aabb) -> Vec<Primitive> {
        let mut prims = std::mem::take(&mut self.report.scratch.prims);
        let recovery = self.motor.settings().penetration_recovery_speed;
        let budget = recovery.map(|v| v * self.input.dt);
        self.report.scratch.contacts.begin_attempt(budget);
        phase!(
            "spherewalk: gather",
            gather::gather(self, bounds, &mut prims)
        );
        prims
    }

    /// The context the phases of an attempt read: the gathered `prims`, the region `bounds`
    /// (world) they came from, the hooks, and the way gravity pulls (none in `Surface` mode).
    pub fn context<'p>(&self, prims: &'p [Primitive], bounds: &Aabb) -> StepContext<'p>
    where
        's: 'p,
    {
        let settings = self.motor.settings();
        StepContext {
            hooks: self.hooks,
            bounds: Some(*bounds),
            fall: match settings.up_frame {
                UpFrame::Surface => None,
                _ => UnitVec3::try_new(self.input.gravity, 1e-6),
            },
            ..self.motor.context(self.world, prims)
        }
    }

    /// The up frame phase: turns up toward [`target_up`], yaws, and pushes out of what the
    /// turn swept into. Returns the velocity (m/s, world) the step goes on with.
    pub fn up_frame(&mut self, ctx: &StepContext<'_>) -> Vec3 {
        phase!("spherewalk: up frame", frame::up_frame(ctx, self))
    }

    /// The movement phase: the character's own velocity from `velocity` plus the ground's
    /// carry, moved in substeps with [`pushback`] after each; `velocity` (m/s, world) is then
    /// the one the move ended with. Returns what the move did.
    pub fn movement(&mut self, ctx: &StepContext<'_>, velocity: &mut Vec3) -> Moved {
        phase!(
            "spherewalk: movement",
            movement::movement(ctx, self, velocity)
        )
    }

    /// The stairs phase: [`try_climb_stair`] when the grounded move `moved` was blocked
    /// (`velocity`, m/s world, becomes the wanted move's on a climb); in `Surface` mode a
    /// blocking wall that is no stair is latched to climb next step.
    pub fn stairs(&mut self, ctx: &StepContext<'_>, moved: &Moved, velocity: &mut Vec3) {
        phase!(
            "spherewalk: stairs",
            stairs::stairs(ctx, self, moved, velocity)
        );
    }

    /// The ground phase: [`probe_ground`] and [`clamp_to_ground`] (or the edge hold), then
    /// the ground state, the landed and left-ground events, and the state's velocity: the
    /// step's `velocity` (m/s, world) as the landing leaves it.
    pub fn ground(&mut self, ctx: &StepContext<'_>, moved: &Moved, velocity: Vec3) {
        phase!(
            "spherewalk: ground",
            ground::ground(ctx, self, moved, velocity)
        );
    }

    /// The modes phase, after the ground phase: a walking character that moved into a
    /// climbable face holds on ([`crate::motor::Mode::Climb`]); a climbing one follows the
    /// face, lets go onto the ground or off its side, or mantles over its top
    /// ([`crate::motor::Mode::Mantle`]); a mantle rises and ends once standing. `moved` is
    /// what the movement phase did.
    pub fn modes(&mut self, ctx: &StepContext<'_>, moved: &Moved) {
        phase!(
            "spherewalk: modes",
            climb::settle(ctx, self, &moved.start.position)
        );
    }

    /// What the next step inherits, after the ground phase: the state's velocity less the
    /// ground's carry (unless kept on leaving it), coyote time (spent by a jump in `moved`),
    /// and the knock worn off.
    pub fn inherit(&mut self, moved: &Moved) {
        carry::settle(self);
        dash::tick(self);
        coyote::tick(self, moved.jumped);
        knock::wear(self);
    }

    /// The report's last measures once the phases ran (whether the hit list filled up, the
    /// deepest penetration where the step ended), and whether the attempt stayed inside
    /// `ctx`'s region: false when its result is not to be kept.
    pub fn finish(&mut self, ctx: &StepContext<'_>) -> bool {
        let report = &mut *self.report;
        report.hits_truncated = report.hits.len() >= MAX_HITS;
        // A pushback pass that ended clear exactly there measured it already.
        report.max_penetration = report
            .scratch
            .contacts
            .penetration_at(self.pose)
            .unwrap_or_else(|| max_penetration(ctx, self.pose));
        let inside = ctx
            .bounds
            .is_none_or(|b| gather::reached(self.motor, self.pose, &b));
        !report.scratch.contacts.reached_edge() && inside
    }

    /// Hands the gathered primitives' buffer back to the report, so the next attempt or step
    /// reuses it instead of allocating.
    pub fn recycle(&mut self, prims: Vec<Primitive>) {
        self.report.scratch.prims = prims;
    }
}

impl Motor {
    /// Advances one character by one fixed step through `around`: a collision world (or any
    /// other [`Geometry`]) alone, or [`Surroundings`] with the game's contact hooks. Pure and
    /// deterministic: the same inputs (and deterministic hooks) give bit-identical `pose`,
    /// `state` and `report`.
    ///
    /// The step's phases, in order (the outline is [`crate::phases::Step::attempt`]; each
    /// phase has a file):
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
    /// - **stairs**: [`try_climb_stair`] when a grounded move was blocked by a collider not
    ///   flagged not walkable;
    /// - **ground**: [`probe_ground`] (as far as the clamp distance while walking), then
    ///   [`clamp_to_ground`]: the slope limit, the snap onto stable ground (dropping past an
    ///   edge when the feet hang over it) and steep faces the feet touch;
    /// - then what the next step inherits: the carried velocity, coyote time, the knock.
    ///
    /// Bad inputs never panic: see [`StepInput`] and [`InputFlags`] for the rules.
    ///
    /// The step's working buffers live in `report`; a crowd stepped through one
    /// [`StepScratch`] per thread swaps it in and out with [`StepReport::swap_scratch`] (the
    /// result is the same bit for bit whatever the buffers held).
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
    #[expect(
        clippy::too_many_arguments,
        reason = "the step's own shape (where, the three things it updates, and the input), \
                  called directly by every game; a bundle would be one more type each call \
                  site builds and takes apart (Step::begin, its first phase, shares it)"
    )]
    pub fn step<'w>(
        &self,
        around: impl Into<Surroundings<'w>>,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
    ) {
        phase!("spherewalk: step");
        // Run in place: the step in progress is never moved once begun.
        if let Some(step) = &mut Step::begin(self, around.into(), pose, state, input, report) {
            step.run();
        }
    }
}
