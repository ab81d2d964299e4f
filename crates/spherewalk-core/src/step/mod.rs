//! The motor step, in the phases it runs: gather, up frame, movement, stairs, ground. Each
//! phase has a file; [`attempt`] is the outline that calls them in order, and the building
//! blocks they are made of ([`pushback`], [`move_substepped`], [`try_step_up`],
//! [`probe_ground`], [`clamp_to_ground`], ...) are public, so a game can compose a step of its
//! own.

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

pub use context::StepContext;
pub use frame::{target_up, turn_up, yaw};
pub use ground::{ClampRules, Landing, clamp_to_ground, probe_ground, surface_normal_at};
pub use motor::Motor;
pub use movement::{MAX_SUBSTEPS, move_substepped, movement_velocity};
pub use pushback::{ContactBuffer, MAX_HITS, PushMode, PushbackSummary, max_penetration, pushback};
pub use report::{InputFlags, StepReport};
pub use resize::ResizeError;
pub use sanitize::MAX_GRAVITY;
pub use scratch::StepScratch;
pub use stairs::{StepUp, try_step_up};

use crate::hooks::ContactHooks;
use crate::math::{Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::settings::UpFrame;
use crate::state::{MotorState, StepInput};
use crate::world::Geometry;
use carry::Carry;
use parry3d::bounding_volume::Aabb;
use std::cell::Cell;

/// One step's borrows, and what its phases hand each other: the character the step moves,
/// its report and buffers, the sanitised input, and the velocity and move passed from phase
/// to phase.
struct Step<'s> {
    motor: &'s Motor,
    world: &'s dyn Geometry,
    hooks: &'s dyn ContactHooks,
    pose: &'s mut Pose,
    state: &'s mut MotorState,
    report: &'s mut StepReport,
    scratch: &'s mut StepScratch,
    /// The step's input after the documented clamps.
    input: StepInput,
    /// What the ground carries the character by this step.
    carry: Carry,
    /// Whether the character stood on stable ground when the step began.
    was_grounded: bool,
    /// The velocity (m/s, world) handed from phase to phase, written to the state at the end.
    velocity: Vec3,
    /// Where the movement phase started from (the stairs phase retries from there).
    start: Pose,
    /// How the movement phase's pushback treated the ground.
    mode: PushMode,
    /// Whether the character jumped this step.
    jumped: bool,
    /// What the movement phase's pushback found.
    moved: PushbackSummary,
}

/// What the phases of one attempt report back through its context: the penetration
/// recovery left (m) and whether a phase stopped short at the region's edge.
#[derive(Default)]
struct Limits {
    recovery: Cell<Real>,
    cut_short: Cell<bool>,
}

/// The outline of one step, over the primitives gathered in `bounds` (world, m). False when
/// the step reached past `bounds` (a squeeze escape cut short at its edge, or spheres ending
/// closer to its edge than their reach): its result is not to be kept.
fn attempt(s: &mut Step<'_>, bounds: &Aabb) -> bool {
    let (mut prims, limits) = (std::mem::take(&mut s.scratch.prims), Limits::default());
    // Gather: the primitives in the region whose collider the hooks keep.
    phase!("spherewalk: gather", gather::gather(s, bounds, &mut prims));
    let ctx = context(s, &prims, bounds, &limits);
    // Up frame: turn toward the target up, yaw, and push out of what the turn swept into.
    phase!("spherewalk: up frame", frame::up_frame(&ctx, s));
    // Movement: own velocity plus the ground's carry, in substeps with pushback after each.
    phase!("spherewalk: movement", movement::movement(&ctx, s));
    // Stairs: the step offset when a grounded move was blocked (Surface mode: climb the wall).
    phase!("spherewalk: stairs", stairs::stairs(&ctx, s));
    // Ground: probe, clamp or hold an edge; the ground state and its events.
    phase!("spherewalk: ground", ground::ground(&ctx, s));
    // What the next step inherits: the velocity less the ground's, coyote time, the knock.
    carry::settle(s);
    coyote::tick(s);
    knock::wear(s);
    // The report's last measures: hits kept, deepest penetration.
    report::finish(&ctx, s);
    s.scratch.prims = prims;
    !limits.cut_short.get() && gather::reached(s.motor, s.pose, bounds)
}

/// The context the phases of an attempt read: the gathered `prims`, the region `bounds` they
/// came from, and the `limits` they report back through.
fn context<'a>(
    s: &Step<'a>,
    prims: &'a [crate::world::Primitive],
    bounds: &Aabb,
    limits: &'a Limits,
) -> StepContext<'a> {
    let settings = s.motor.settings();
    StepContext {
        hooks: s.hooks,
        recovery: settings.penetration_recovery_speed.map(|v| {
            limits.recovery.set(v * s.input.dt);
            &limits.recovery
        }),
        bounds: Some(*bounds),
        cut_short: Some(&limits.cut_short),
        fall: match settings.up_frame {
            UpFrame::Surface => None,
            _ => UnitVec3::try_new(s.input.gravity, 1e-6),
        },
        ..s.motor.context(s.world, prims)
    }
}
