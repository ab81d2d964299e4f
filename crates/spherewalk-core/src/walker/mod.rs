//! One walking character's life as every host runs it: the runtime's `Sim` keeps a
//! [`Walker`] as a hecs component, the Bevy plugin inside a Bevy component, a game's own loop
//! in a `Vec`; each lets it in ([`Walker::admit`]), steps it ([`Walker::step`]), separates a
//! crowd of them ([`crate::crowd::separate`]), moves, reshapes and removes it, and draws it
//! between steps through the same calls, so no host writes that logic itself. What steers it
//! ([`PlayerInput`], [`Wander`], [`Script`]) is here too, for every host alike.

use crate::contact::ColliderId;
use crate::gravity::GravityFields;
use crate::hooks::{ContactHooks, NoHooks, Surroundings};
use crate::math::{Real, Vec3};
use crate::pose::Pose;
use crate::shape::SphereStack;
use crate::state::{MotorState, MoveIntent, StepInput};
use crate::step::{AdmitError, Motor, ResizeError, StepReport, StepScratch};
use crate::world::{CollisionWorld, Geometry};

mod body;
mod stance;
mod steer;

pub use body::{CHARACTER_LAYER, body_collider, body_pose, soft_filter, solid_filter};
pub use stance::Stance;
pub use steer::{Command, PlayerInput, Script, Wander};

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

/// One walking character: its motor, its body, where its last step ended (`pose`, world) and
/// started (`previous`), its motor state and its last step's report. A host keeps it where
/// it keeps its entities and runs its whole life through it: [`Walker::admit`] lets it in,
/// [`Walker::step`] steps it, [`crate::crowd::separate`] pushes a crowd of them apart,
/// [`crate::crowd::move_bodies`] puts the bodies where they stand, [`MotorState::launch_from_pad`]
/// throws it from a jump pad, [`Walker::teleport`] and [`Walker::resize`] move and reshape it
/// with its body, [`Walker::shown_at`] says where to draw it between two steps and
/// [`Walker::leave`] takes its body out of the world; [`Walker::save`] and [`Walker::restore`]
/// take it back to an earlier step.
///
/// The fields are open for a host to read and to write between steps (a restored snapshot, a
/// new motor); a pose written here moves the body only through a call that says so.
#[derive(Clone, Debug)]
pub struct Walker {
    /// Its shape, settings and collision filter (the filter leaves its own body out).
    pub motor: Motor,
    /// Its body collider in the world (the others meet it), if it is solid.
    pub body: Option<ColliderId>,
    /// Where its last step ended (world).
    pub pose: Pose,
    /// Where its last step started (world): it is drawn between the two.
    pub previous: Pose,
    /// What carries over from one step to the next.
    pub state: MotorState,
    /// What its last step did.
    pub report: StepReport,
}

/// What of a [`Walker`] changes as it steps ([`Walker::save`]): its stack, both step poses
/// (world), its motor state and its last step's report. Its motor's settings and filter and
/// its body's id are not in it: it restores into the walker it came from, or one let in the
/// same way.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Saved {
    /// Its sphere stack (character-local): a crouch changes it.
    pub stack: SphereStack,
    /// Where its last step ended (world).
    pub pose: Pose,
    /// Where its last step started (world).
    pub previous: Pose,
    /// What carries over from one step to the next.
    pub state: MotorState,
    /// What its last step did.
    pub report: StepReport,
}

impl Walker {
    /// Lets a character of `motor` into `world` at `pose` (world), by the rules every host
    /// applies before its first step: the pose is admitted ([`Motor::admit`]), and a `solid`
    /// character's body ([`body_collider`]) is inserted and left out of its own motor's
    /// filter ([`solid_filter`]). It starts at rest, `previous` at `pose`.
    ///
    /// # Errors
    /// [`AdmitError::NonFinitePose`] and [`AdmitError::Buried`] as [`Motor::admit`],
    /// [`AdmitError::Body`] when the world refuses the body; the world is unchanged then.
    pub fn admit(
        motor: Motor,
        world: &mut CollisionWorld,
        pose: Pose,
        solid: bool,
    ) -> Result<Self, AdmitError> {
        motor.admit(world, &pose)?;
        let (motor, body) = if solid {
            let body = world.insert(body_collider(motor.stack(), &pose))?;
            let filter = solid_filter(motor.filter(), body);
            (motor.with_filter(filter), Some(body))
        } else {
            (motor, None)
        };
        Ok(Self {
            motor,
            body,
            pose,
            previous: pose,
            state: MotorState::default(),
            report: StepReport::new(),
        })
    }

    /// The gravity (m/s², world) `tick` pulls this character with: read at its gravity point
    /// ([`Motor::gravity_point`], its feet sphere's centre) unless it is the same everywhere.
    pub fn gravity(&self, tick: &Tick<'_>) -> Vec3 {
        tick.uniform
            .unwrap_or_else(|| tick.fields.at(&self.motor.gravity_point(&self.pose)))
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
        self.previous = self.pose;
        let input = StepInput::new(intent, self.gravity(tick), tick.dt);
        let around = Surroundings::new(tick.geometry).with_hooks(tick.hooks);
        if let Some(scratch) = scratch.as_deref_mut() {
            self.report.swap_scratch(scratch);
        }
        self.motor.step(
            around,
            &mut self.pose,
            &mut self.state,
            &input,
            &mut self.report,
        );
        if let Some(scratch) = scratch {
            self.report.swap_scratch(scratch);
        }
    }

    /// Where to draw it a fraction `alpha` (0..1) of a step after its last step started: its
    /// poses at the step's start and end interpolated ([`Pose::interpolate`], world).
    pub fn shown_at(&self, alpha: Real) -> Pose {
        self.previous.interpolate(&self.pose, alpha)
    }

    /// Its body, when `world` still holds it: what [`crate::crowd::separate`] pushes, and what
    /// the moves of [`Walker::teleport`] and [`Walker::resize`] take along (a body the game
    /// removed from the world stays removed).
    pub fn held_body(&self, world: &CollisionWorld) -> Option<ColliderId> {
        self.body.filter(|b| world.get(*b).is_some())
    }

    /// Puts it at `pose` (world) at once, its body with it: both step poses become `pose`, so
    /// it is drawn there, not slid there. Its motion state is kept.
    ///
    /// # Errors
    /// [`AdmitError::NonFinitePose`] for a pose holding NaN or infinity, [`AdmitError::Body`]
    /// when the world refuses the body there (a pose so far out that its box overflows);
    /// nothing moves then.
    pub fn teleport(&mut self, world: &mut CollisionWorld, pose: Pose) -> Result<(), AdmitError> {
        if !pose.is_finite() {
            return Err(AdmitError::NonFinitePose);
        }
        if let Some(body) = self.held_body(world) {
            world.set_pose(body, body_pose(&pose))?;
        }
        self.pose = pose;
        self.previous = pose;
        Ok(())
    }

    /// Replaces its sphere stack (character-local) where the new one fits at its pose
    /// ([`Motor::resize`]), its body reshaped to match. Returns the new stack's deepest
    /// penetration (m, >= 0).
    ///
    /// # Errors
    /// As [`Motor::resize`]; nothing changes then.
    pub fn resize(
        &mut self,
        world: &mut CollisionWorld,
        stack: SphereStack,
    ) -> Result<Real, ResizeError> {
        let depth = self.motor.resize(world, &self.pose, stack)?;
        self.reshape_body(world);
        Ok(depth)
    }

    /// What of it changes as it steps, for a host's snapshot ([`Walker::restore`]).
    pub fn save(&self) -> Saved {
        Saved {
            stack: self.motor.stack().clone(),
            pose: self.pose,
            previous: self.previous,
            state: self.state,
            report: self.report.clone(),
        }
    }

    /// Whether `saved` can be restored into it: its stack in scale with this walker's
    /// settings (the rule of [`Motor::new`]).
    ///
    /// # Errors
    /// [`crate::SettingsError::OutOfScale`] when it is not (an edited snapshot, or one of a
    /// walker with other settings).
    pub fn fits(&self, saved: &Saved) -> Result<(), crate::SettingsError> {
        self.motor.settings().check_scale(&saved.stack)
    }

    /// Puts it back as `saved` found it: stepping on from here gives the same bits as from
    /// there. A saved stack that differs from the motor's is taken without asking whether it
    /// fits ([`Motor::set_stack`]), the body reshaped and put at the saved pose; a body whose
    /// stack is unchanged is left where it is, for the host to move with the others (one
    /// batch: [`crate::crowd::move_bodies`]).
    ///
    /// # Errors
    /// As [`Walker::fits`]; nothing changes then.
    pub fn restore(
        &mut self,
        world: &mut CollisionWorld,
        saved: &Saved,
    ) -> Result<(), crate::SettingsError> {
        self.fits(saved)?;
        self.pose = saved.pose;
        self.previous = saved.previous;
        self.state = saved.state;
        self.report.clone_from(&saved.report);
        if self.motor.stack() != &saved.stack {
            self.motor.set_stack(saved.stack.clone())?;
            self.reshape_body(world);
        }
        Ok(())
    }

    /// Its body, if the world holds it, given the motor's stack and put at its pose.
    fn reshape_body(&self, world: &mut CollisionWorld) {
        if let Some(body) = self.held_body(world) {
            let shape = self.motor.stack().body_shape();
            // NOTE: the world holds the body and the pose is finite: neither call can fail.
            let _ = world.set_shape(body, shape);
            let _ = world.set_pose(body, body_pose(&self.pose));
        }
    }

    /// Takes its body (if the world still holds it) out of `world`: the host is done with it.
    pub fn leave(&self, world: &mut CollisionWorld) {
        if let Some(body) = self.held_body(world) {
            // NOTE: held, so removed.
            let _ = world.remove(body);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, UnitVec3};
    use crate::{ColliderDesc, MotorSettings};
    use parry3d::shape::SharedShape;

    fn motor() -> Motor {
        let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        Motor::new(stack, MotorSettings::default()).expect("motor")
    }

    /// A world with a 6 m boulder round (10, 0, 0).
    fn boulder_world() -> CollisionWorld {
        let mut world = CollisionWorld::new();
        let boulder = ColliderDesc::new(SharedShape::ball(3.0)).translation(10.0, 0.0, 0.0);
        world.insert(boulder).expect("boulder");
        world
    }

    /// A solid character's body goes into the world at its pose and out of its own filter;
    /// a soft one gets none; a buried or non-finite start is refused and leaves the world as
    /// it was.
    #[test]
    fn admit_inserts_a_solid_body_and_refuses_a_bad_start_untouched() {
        let mut world = boulder_world();
        let at = Pose::new(Point3::new(0.0, 0.0, 0.0));
        let solid = Walker::admit(motor(), &mut world, at, true).expect("admitted");
        let body = solid.body.expect("a solid character has a body");
        assert_eq!(world.get(body).map(|c| c.pose), Some(body_pose(&at)));
        assert_eq!(solid.motor.filter().exclude, Some(body));
        assert_eq!((solid.pose, solid.previous), (at, at));
        assert_eq!(world.len(), 2);
        let soft = Walker::admit(motor(), &mut world, at, false).expect("admitted");
        assert_eq!(soft.body, None);
        // 0.9 m under the boulder's centre: 2.1 m deep, deeper than the 1.8 m stack.
        let inside = Pose::new(Point3::new(10.0, -0.9, 0.0));
        let buried = Walker::admit(motor(), &mut world, inside, true);
        assert!(
            matches!(buried, Err(AdmitError::Buried { .. })),
            "{buried:?}"
        );
        let nan = Pose::new(Point3::new(Real::NAN, 0.0, 0.0));
        let refused = Walker::admit(motor(), &mut world, nan, true);
        assert_eq!(refused.err(), Some(AdmitError::NonFinitePose));
        assert_eq!(world.len(), 2, "a refused character left a body behind");
    }

    /// A teleport puts both step poses and the body at the new pose and keeps the motion; a
    /// non-finite pose moves nothing; a character whose body the game removed still moves.
    #[test]
    fn teleport_moves_the_body_along_and_refuses_nan() {
        let mut world = boulder_world();
        let start = Pose::new(Point3::new(0.0, 0.0, 0.0));
        let mut walker = Walker::admit(motor(), &mut world, start, true).expect("admitted");
        walker.state.velocity = Vec3::new(1.5, 0.0, 0.0);
        let tilted = UnitVec3::new_normalize(Vec3::new(0.3, 1.0, 0.0));
        let to = Pose::with_up(Point3::new(3.0, 2.0, -4.0), &tilted);
        walker.teleport(&mut world, to).expect("teleported");
        let body = walker.body.expect("body");
        assert_eq!((walker.pose, walker.previous), (to, to));
        assert_eq!(world.get(body).map(|c| c.pose), Some(body_pose(&to)));
        assert_eq!(walker.state.velocity, Vec3::new(1.5, 0.0, 0.0));
        let nan = Pose::new(Point3::new(0.0, Real::NAN, 0.0));
        assert_eq!(
            walker.teleport(&mut world, nan),
            Err(AdmitError::NonFinitePose)
        );
        assert_eq!(walker.pose, to);
        assert_eq!(world.get(body).map(|c| c.pose), Some(body_pose(&to)));
        world.remove(body).expect("the game removes the body");
        walker.teleport(&mut world, start).expect("teleported");
        assert_eq!(walker.pose, start);
        assert_eq!(walker.held_body(&world), None);
    }

    /// A resize that fits reshapes the body (a 1.0 m crouch: its box tops out at 1.0 m, not
    /// 1.8); one that does not fit under the boulder changes nothing; leaving removes the body.
    #[test]
    fn resize_reshapes_the_body_and_leave_removes_it() {
        let mut world = boulder_world();
        // Feet 4.2 m under the boulder's centre, 1.2 m under its bottom: room for 1.2 m.
        let under = Pose::new(Point3::new(10.0, -4.2, 0.0));
        let mut walker = Walker::admit(
            {
                let stack = SphereStack::capsule(1.0, 0.3, 2).expect("stack");
                Motor::new(stack, MotorSettings::default()).expect("motor")
            },
            &mut world,
            under,
            true,
        )
        .expect("admitted");
        let body = walker.body.expect("body");
        let top = |world: &CollisionWorld| world.get(body).map(|c| c.aabb.maxs.y);
        // 1 um: the box of a compound of balls is exact up to f32 rounding.
        approx::assert_abs_diff_eq!(top(&world).expect("held"), -3.2, epsilon = 1e-4);
        let tall = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        assert!(matches!(
            walker.resize(&mut world, tall.clone()),
            Err(ResizeError::Blocked { .. })
        ));
        approx::assert_abs_diff_eq!(top(&world).expect("held"), -3.2, epsilon = 1e-4);
        walker
            .teleport(&mut world, Pose::new(Point3::origin()))
            .expect("moved");
        let depth = walker.resize(&mut world, tall).expect("fits in the open");
        assert_eq!(depth, 0.0);
        approx::assert_abs_diff_eq!(top(&world).expect("held"), 1.8, epsilon = 1e-4);
        walker.leave(&mut world);
        assert_eq!(world.len(), 1, "only the boulder is left");
    }

    /// A restored walker replays the steps after its save bit for bit (a walk off the
    /// boulder's flank); a saved stack out of scale with its settings is refused untouched.
    #[test]
    fn restore_replays_the_steps_after_save() {
        let mut world = boulder_world();
        let floor =
            ColliderDesc::new(SharedShape::cuboid(50.0, 0.5, 50.0)).translation(0.0, -0.5, 0.0);
        world.insert(floor).expect("floor");
        let mut fields = GravityFields::new();
        fields
            .add(crate::GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))
            .expect("field");
        let start = Pose::new(Point3::new(0.0, 0.5, 0.0));
        let mut walker = Walker::admit(motor(), &mut world, start, true).expect("admitted");
        let walk = MoveIntent {
            velocity: Vec3::new(4.0, 0.0, 0.0),
            ..MoveIntent::default()
        };
        let run = |walker: &mut Walker, world: &CollisionWorld| {
            let tick = Tick::new(world, &fields, 1.0 / 60.0);
            (0..60)
                .map(|_| {
                    walker.step(&tick, walk, None);
                    walker.pose
                })
                .collect::<Vec<_>>()
        };
        run(&mut walker, &world);
        let saved = walker.save();
        let first = run(&mut walker, &world);
        assert_ne!(first.last(), Some(&saved.pose), "the walker stood still");
        walker.restore(&mut world, &saved).expect("fits");
        assert_eq!(run(&mut walker, &world), first);
        let mut edited = walker.save();
        edited.stack = SphereStack::capsule(0.2, 0.1, 1).expect("stack");
        let before = walker.pose;
        assert!(walker.restore(&mut world, &edited).is_err());
        assert_eq!(walker.pose, before);
    }
}
