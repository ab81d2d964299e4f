//! The motor step, in the phases it runs: gather, up frame, movement, stairs, ground. Each
//! phase has a file; [`attempt`] is the outline that calls them in order, and the building
//! blocks they are made of ([`pushback`], [`move_substepped`], [`try_climb_stair`],
//! [`probe_ground`], [`clamp_to_ground`], ...) are public, so a game can compose a step of its
//! own.

mod admit;
mod carry;
mod contacts;
mod context;
mod coyote;
mod escape;
mod frame;
mod gather;
mod ground;
mod knock;
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
pub use movement::{MAX_SUBSTEPS, move_substepped, movement_velocity};
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
use crate::math::UnitVec3;
use crate::pose::Pose;
use crate::settings::UpFrame;
use crate::state::{MotorState, StepInput};
use crate::world::Geometry;
use carry::Carry;
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// One step's borrows and givens: the character the step moves, its report and buffers, the
/// sanitised input, and what was worked out before the first phase (the ground's carry, the
/// up frame's turn, the ground it started on). What the phases produce is handed from one to
/// the next in [`attempt`], as arguments and return values.
struct Step<'s> {
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
}

impl Motor {
    /// Advances one character by one fixed step through `around`: a collision world (or any
    /// other [`Geometry`]) alone, or [`Surroundings`] with the game's contact hooks. Pure and
    /// deterministic: the same inputs (and deterministic hooks) give bit-identical `pose`,
    /// `state` and `report`.
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
        reason = "the one public exception to the limit of 5: the step's own shape (where, \
                  the three things it updates, and the input), called directly by every game; \
                  a bundle would be one more type each call site builds and takes apart"
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
        let around = around.into();
        report.reset();
        let Some(clean) = sanitize::sanitize(&self.settings, pose, state, input, report) else {
            report.ground = state.ground;
            report.ground_hit = state.ground_hit;
            return;
        };
        // The buffers may come from another character: nothing in them may carry over.
        report.scratch.contacts.begin_step();
        // What the ground carries the character by is known before the move, so the gathered
        // region covers it.
        let carry = carry::carried(&around, pose, state, clean.dt);
        let turn = frame::plan_turn(self, pose, state, &clean);
        let (start, start_state, flags) = (*pose, *state, report.flags);
        let mut step = Step {
            motor: self,
            world: around.geometry,
            hooks: around.hooks,
            was_grounded: state.ground == GroundState::Grounded,
            pose,
            state,
            report,
            input: clean,
            carry,
            turn,
        };
        let tight = gather::tight(&step);
        if attempt(&mut step, &tight) {
            return;
        }
        // Something reached past the tight region: the whole step again over the wide one,
        // from where it started.
        *step.pose = start;
        *step.state = start_state;
        step.report.reset();
        step.report.flags = flags;
        let wide = gather::wide(&step);
        attempt(&mut step, &tight.merged(&wide));
    }
}

/// The outline of one step, over the primitives gathered in `bounds` (world, m). False when
/// the step reached past `bounds` (a squeeze escape cut short at its edge, or spheres ending
/// closer to its edge than their reach): its result is not to be kept.
fn attempt(s: &mut Step<'_>, bounds: &Aabb) -> bool {
    let mut prims = std::mem::take(&mut s.report.scratch.prims);
    let recovery = s.motor.settings().penetration_recovery_speed;
    s.report
        .scratch
        .contacts
        .begin_attempt(recovery.map(|v| v * s.input.dt));
    // Gather: the primitives in the region whose collider the hooks keep.
    phase!("spherewalk: gather", gather::gather(s, bounds, &mut prims));
    let ctx = context(s, &prims, bounds);
    // Up frame: turn toward the target up, yaw, and push out of what the turn swept into;
    // the velocity the step starts from (m/s, world), clipped by that push.
    let mut velocity = phase!("spherewalk: up frame", frame::up_frame(&ctx, s));
    // Movement: own velocity plus the ground's carry, in substeps with pushback after each.
    let moved = phase!(
        "spherewalk: movement",
        movement::movement(&ctx, s, &mut velocity)
    );
    // Stairs: climb what blocked a grounded move (Surface mode: latch the wall to climb it).
    phase!(
        "spherewalk: stairs",
        stairs::stairs(&ctx, s, &moved, &mut velocity)
    );
    // Ground: probe, clamp or hold an edge; the ground state, its events, the velocity kept.
    phase!(
        "spherewalk: ground",
        ground::ground(&ctx, s, &moved, velocity)
    );
    // What the next step inherits: the velocity less the ground's, coyote time, the knock.
    carry::settle(s);
    coyote::tick(s, moved.jumped);
    knock::wear(s);
    // The report's last measures: hits kept, deepest penetration.
    finish(&ctx, s);
    s.report.scratch.prims = prims;
    !s.report.scratch.contacts.reached_edge() && gather::reached(s.motor, s.pose, bounds)
}

/// The context the phases of an attempt read: the gathered `prims` and the region `bounds`
/// they came from.
fn context<'a>(
    s: &Step<'a>,
    prims: &'a [crate::world::Primitive],
    bounds: &Aabb,
) -> StepContext<'a> {
    let settings = s.motor.settings();
    StepContext {
        hooks: s.hooks,
        bounds: Some(*bounds),
        fall: match settings.up_frame {
            UpFrame::Surface => None,
            _ => UnitVec3::try_new(s.input.gravity, 1e-6),
        },
        ..s.motor.context(s.world, prims)
    }
}

/// The report's last measures once the phases ran: whether the hit list filled up, and the
/// deepest penetration where the step ended (a pushback pass that ended clear exactly there
/// measured it already).
fn finish(ctx: &StepContext<'_>, s: &mut Step<'_>) {
    s.report.hits_truncated = s.report.hits.len() >= MAX_HITS;
    s.report.max_penetration = s
        .report
        .scratch
        .contacts
        .penetration_at(s.pose)
        .unwrap_or_else(|| max_penetration(ctx, s.pose));
}
