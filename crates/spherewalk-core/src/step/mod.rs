//! The motor step: movement -> pushback -> resolution, in any up frame.

mod ground;
mod movement;
mod pushback;
mod solver;
mod stairs;

use ground::steep_touch;
pub use ground::{drop_to_ground, probe_ground, surface_normal_at};
pub use movement::{move_substepped, movement_velocity};
pub use pushback::{ContactBuffer, PushMode, PushbackSummary, max_penetration, pushback};
pub use stairs::{StepUp, try_step_up};

use crate::frame::{target_up, turn_up, yaw};
use crate::math::{Point3, Real, UnitVec3, Vec3, clamp_length, is_finite_vec, project_on_plane};
use crate::pose::Pose;
use crate::report::{GroundHit, GroundState, StepReport};
use crate::settings::{MotorSettings, SettingsError, UpFrame};
use crate::shape::SphereStack;
use crate::state::{MotorState, MoveIntent, StepInput};
use crate::world::{CollisionWorld, Primitive, QueryFilter};
use parry3d::bounding_volume::Aabb;

/// Speed (m/s) along the ground's contact normal above which the feet are leaving the ground.
const SEPARATION_SPEED: Real = 1e-3;
/// A move blocked by more than this speed (m/s) tries the step offset.
const BLOCKED_SPEED: Real = 1e-3;
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
}

/// Everything the phases read during one step: the world, the motor, the primitives gathered
/// around the character for this step, and derived constants.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// The collision world.
    pub world: &'a CollisionWorld,
    /// The character's motor.
    pub motor: &'a Motor,
    /// Primitives near the character (world frame), gathered once per step.
    pub prims: &'a [Primitive],
    /// Cosine of the slope limit.
    pub cos_slope: Real,
}

impl StepContext<'_> {
    /// True when a contact with primitive `k` whose normal is `normal` (world) is walkable
    /// ground for a character whose up is `up`: the collider is walkable and the normal is
    /// within the slope limit of up.
    #[inline]
    pub fn walkable(&self, k: usize, normal: &UnitVec3, up: &UnitVec3) -> bool {
        self.prims.get(k).is_some_and(|p| p.walkable) && normal.dot(up) >= self.cos_slope
    }
}

impl Motor {
    /// Pairs a stack with settings after validating them.
    ///
    /// # Errors
    /// [`SettingsError`] when a setting is out of its documented range.
    pub fn new(stack: SphereStack, settings: MotorSettings) -> Result<Self, SettingsError> {
        settings.validate()?;
        Ok(Self {
            stack,
            settings,
            filter: QueryFilter::default(),
            cos_slope: settings.slope_limit.cos(),
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

    /// Replaces the sphere stack (e.g. crouching). The caller checks the new shape fits.
    pub fn set_stack(&mut self, stack: SphereStack) {
        self.stack = stack;
    }

    /// The validated settings.
    pub fn settings(&self) -> &MotorSettings {
        &self.settings
    }

    /// The collision filter.
    pub fn filter(&self) -> &QueryFilter {
        &self.filter
    }

    /// A context over `prims` for calling the phases directly.
    pub fn context<'a>(
        &'a self,
        world: &'a CollisionWorld,
        prims: &'a [Primitive],
    ) -> StepContext<'a> {
        StepContext {
            world,
            motor: self,
            prims,
            cos_slope: self.cos_slope,
        }
    }

    /// Advances one character by one fixed step. Pure and deterministic: the same inputs give
    /// bit-identical `pose`, `state` and `report`.
    ///
    /// It only composes the public phases:
    /// 1. **Up frame**: [`turn_up`] toward [`target_up`] at the turn rate (pivoting about the
    ///    ground contact when grounded, else the feet sphere's centre; heading carried along),
    ///    the intent's yaw, then [`pushback`] if it turned.
    /// 2. **Movement**: [`movement_velocity`], then [`move_substepped`] (substeps no longer
    ///    than `max_substep_fraction` of the smallest radius, [`pushback`] after each).
    /// 3. **Resolution**: [`try_step_up`] when a grounded move was blocked, then
    ///    [`probe_ground`] with the slope limit and the ground clamp ([`drop_to_ground`] when
    ///    the feet hang over an edge); with no ground found, a face 75 to 88 degrees from up
    ///    that the feet touch is steep ground.
    ///
    /// Bad inputs never panic: see [`StepInput`] and [`crate::InputFlags`] for the rules.
    pub fn step(
        &self,
        world: &CollisionWorld,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
    ) {
        report.reset();
        let Some(clean) = self.sanitize(pose, state, input, report) else {
            report.ground = state.ground;
            report.ground_hit = state.ground_hit;
            return;
        };
        let mut scratch = std::mem::take(&mut report.scratch);
        let reach = self.reach(state, &clean);
        let r = Vec3::repeat(reach);
        let bounds = Aabb::new(pose.position - r, pose.position + r);
        let mut prims = std::mem::take(&mut scratch.prims);
        prims.clear();
        world.gather_primitives(&bounds, &self.filter, &mut scratch.ids, &mut prims);
        let ctx = self.context(world, &prims);
        self.run_phases(&ctx, pose, state, &clean, report, &mut scratch);
        report.max_penetration = max_penetration(&ctx, pose);
        scratch.prims = prims;
        report.scratch = scratch;
    }

    fn run_phases(
        &self,
        ctx: &StepContext<'_>,
        pose: &mut Pose,
        state: &mut MotorState,
        input: &StepInput,
        report: &mut StepReport,
        scratch: &mut crate::report::Scratch,
    ) {
        let settings = &self.settings;
        let dt = input.dt;
        let was_grounded = state.ground == GroundState::Grounded;
        let target = target_up(&settings.up_frame, pose, state, &input.gravity);
        let pivot = match (was_grounded, state.ground_hit) {
            (true, Some(hit)) => hit.point,
            _ => pose.centre_at(self.stack.feet().offset_local),
        };
        report.up_turned = turn_up(pose, &pivot, &target, settings.up_turn_rate * dt);
        yaw(pose, input.intent.yaw_rate * dt);
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
            report.pushback_iterations += s.iterations;
        }
        let up = pose.up();
        let gravity = match settings.up_frame {
            UpFrame::Surface => -up.into_inner() * input.gravity.norm(),
            _ => input.gravity,
        };
        let moving = MotorState { velocity, ..*state };
        let (mut velocity, jumped) =
            movement_velocity(ctx, pose, &moving, &input.intent, &gravity, dt);
        let (capped, fast) = clamp_length(&velocity, settings.max_speed);
        velocity = capped;
        report.flags.speed_clamped |= fast;
        let start = *pose;
        let mode = if was_grounded && !jumped {
            PushMode::Grounded
        } else {
            PushMode::Free
        };
        let (substeps, moved) = move_substepped(
            ctx,
            pose,
            &mut velocity,
            dt,
            mode,
            &mut scratch.contacts,
            &mut report.hits,
        );
        report.substeps = substeps;
        report.pushback_iterations += moved.iterations;
        report.jumped = jumped;
        state.wall_normal = None;
        if mode == PushMode::Grounded && moved.blocked_speed > BLOCKED_SPEED {
            let want = project_on_plane(&input.intent.velocity, &up);
            let trial = (&mut scratch.contacts, &mut scratch.trial_hits);
            if let Some(step) = try_step_up(ctx, &start, pose, &(want * dt), dt, trial) {
                *pose = step.pose;
                report.stepped_up = step.rise;
                velocity = want;
            } else if settings.up_frame == UpFrame::Surface {
                state.wall_normal = moved.blocked_by;
            }
        }
        scratch.trial_hits.clear();
        let clamp = was_grounded && !jumped;
        let probe = if clamp {
            settings.ground_clamp_distance
        } else {
            settings.skin_width
        };
        let mut hit = probe_ground(ctx, pose, probe.max(settings.skin_width));
        if clamp && !hit.is_some_and(|h| h.stable) {
            let before = pose.position;
            let drop_scratch = (&mut scratch.contacts, &mut scratch.trial_hits);
            if let Some(found) =
                drop_to_ground(ctx, pose, settings.ground_clamp_distance, drop_scratch)
            {
                report.clamped_down = (before - pose.position).norm();
                hit = Some(found);
            }
        }
        let hit = hit.or_else(|| steep_touch(ctx, pose, settings.skin_width));
        let (ground, snapped) =
            self.settle(pose, &mut velocity, hit.as_ref(), clamp, jumped, report);
        if snapped > settings.penetration_tolerance {
            // Snapping along -up can press into a steep face beside the feet: resolve it.
            let s = pushback(
                ctx,
                pose,
                &mut velocity,
                PushMode::Grounded,
                &(-pose.up().into_inner() * snapped),
                &mut scratch.contacts,
                &mut report.hits,
            );
            report.pushback_iterations += s.iterations;
        }
        let ground = match ground {
            GroundState::Airborne if moved.pushes > 0 => GroundState::Touching,
            g => g,
        };
        report.ground = ground;
        report.ground_hit = hit;
        report.landed = !was_grounded && ground == GroundState::Grounded;
        report.left_ground = was_grounded && ground != GroundState::Grounded;
        state.velocity = velocity;
        state.ground = ground;
        state.ground_hit = hit;
    }

    /// Applies the slope limit and the ground clamp to a probed ground hit: snaps onto stable
    /// ground that is touching (or within the clamp distance when `clamp`). Returns the
    /// resulting ground state and the distance snapped down (m).
    fn settle(
        &self,
        pose: &mut Pose,
        velocity: &mut Vec3,
        hit: Option<&GroundHit>,
        clamp: bool,
        jumped: bool,
        report: &mut StepReport,
    ) -> (GroundState, Real) {
        let Some(hit) = hit else {
            return (GroundState::Airborne, 0.0);
        };
        let skin = self.settings.skin_width;
        let leaving = jumped || (!clamp && velocity.dot(&hit.contact_normal) > SEPARATION_SPEED);
        let touching = hit.distance <= skin && !leaving;
        if !(touching || (clamp && hit.stable)) {
            return (GroundState::Airborne, 0.0);
        }
        if !hit.stable {
            return (GroundState::SteepGround, 0.0);
        }
        let snap = hit.distance.max(0.0);
        pose.position -= pose.up().into_inner() * snap;
        if snap > skin {
            report.clamped_down = snap;
        }
        let n = hit.surface_normal;
        let into = velocity.dot(&n);
        if into < 0.0 {
            *velocity -= n.into_inner() * into;
        }
        (GroundState::Grounded, snap)
    }

    /// Distance (m) around the position within which this step may touch anything.
    fn reach(&self, state: &MotorState, input: &StepInput) -> Real {
        let s = &self.settings;
        let speed = (state.velocity.norm() + input.gravity.norm() * input.dt)
            .max(input.intent.velocity.norm() + input.intent.jump_speed.max(0.0))
            .min(s.max_speed);
        self.stack.height()
            + speed * input.dt
            + s.step_height
            + s.ground_clamp_distance
            + 2.0 * s.skin_width
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
        if !(is_finite_vec(&i.velocity) && i.jump_speed.is_finite() && i.yaw_rate.is_finite()) {
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

/// Sphere centres of `stack` at `pose` (world, m), feet first.
pub fn sphere_centres<'a>(
    pose: &'a Pose,
    stack: &'a SphereStack,
) -> impl Iterator<Item = Point3> + 'a {
    stack
        .spheres()
        .iter()
        .map(|s| pose.centre_at(s.offset_local))
}
