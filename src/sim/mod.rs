//! [`Sim`]: the hecs world, the collision world and the fixed-step clock, stepped by the
//! systems in a fixed order.

mod access;
mod dynamics;
#[cfg(feature = "rapier")]
pub mod physics;
mod snapshot;
mod tuning;

pub use access::{CharacterError, CharacterView};
pub use snapshot::{Snapshot, SnapshotError};
pub use tuning::TuneError;

use crate::components::{JumpPad, Name, Platform, PlatformMotion, Stance, Walker};
use crate::events::Event;
use crate::input::Input;
use crate::schedule::{FixedStep, ScheduleError};
use crate::systems::{self, Threads};
use hecs::{Entity, World};
use spherewalk_core::crowd::{self, Pool};
use spherewalk_core::motor::AdmitError;
use spherewalk_core::walker::{Tick, soft_filter};
use spherewalk_core::{
    ColliderDesc, ColliderId, CollisionWorld, ContactHooks, GravityError, GravityField, Motor,
    MotorSettings, MoveIntent, Pose, Real, SettingsError, SphereStack, WorldError, hooks::NoHooks,
    math::Iso, world::QueryFilter,
};
use std::collections::BTreeMap;
use std::sync::Arc;
use thiserror::Error;

pub use crate::body::CHARACTER_LAYER;

/// Most events a [`Sim`] keeps waiting to be drained; beyond it the oldest are dropped and
/// counted ([`Sim::events_dropped`]), so a game that never drains stays within bounded memory.
pub const MAX_PENDING_EVENTS: usize = 1 << 16;

/// Everything needed to spawn a character.
#[derive(Clone, Debug)]
pub struct CharacterDesc {
    /// Name used by traces (need not be unique).
    pub name: String,
    /// Standing shape (character-local).
    pub stack: SphereStack,
    /// Crouched shape, if the character can crouch.
    pub crouched: Option<SphereStack>,
    /// Motor settings (validated on spawn).
    pub settings: MotorSettings,
    /// Starting pose (world).
    pub pose: Pose,
    /// Where the intent comes from.
    pub input: Input,
    /// Whether the other characters collide with this one (a body collider on
    /// [`CHARACTER_LAYER`]).
    pub solid: bool,
    /// Whether this character walks through the other characters' bodies during its own
    /// step and meets them only in the separation pass after it (see
    /// [`crate::systems`], step 6): a soft character is pushed out of the others
    /// sideways, half each, at the end of every step, instead of being stopped by them as by
    /// a wall. In a dense crowd this is about a third of the step's cost; the price is that
    /// two soft characters may overlap by up to one step's movement of both between steps, and
    /// that nobody stands on a soft character's head. The others still collide with a soft
    /// character's body when they are not soft themselves. Default `false`.
    pub soft: bool,
}

impl CharacterDesc {
    /// A solid character named `name` with `stack` and default settings at `pose`, no input.
    pub fn new(name: impl Into<String>, stack: SphereStack, pose: Pose) -> Self {
        Self {
            name: name.into(),
            stack,
            crouched: None,
            settings: MotorSettings::default(),
            pose,
            input: Input::None,
            solid: true,
            soft: false,
        }
    }
}

/// Why something could not be added to a [`Sim`].
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SpawnError {
    /// The motor settings are out of range.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The collision world refused a collider (a body or a platform).
    #[error(transparent)]
    World(#[from] WorldError),
    /// A gravity field is out of range.
    #[error(transparent)]
    Gravity(#[from] GravityError),
    /// The starting pose holds NaN or infinity.
    #[error("character {name:?} has a non-finite starting pose")]
    NonFinitePose {
        /// The character's name.
        name: String,
    },
    /// The character would start deeper inside the scenery than it is tall: no push of the
    /// step can bring it out, and every step of it would measure every piece around it.
    #[error(
        "character {name:?} would start {depth} m inside the scenery, deeper than its {height} m \
         height"
    )]
    Buried {
        /// The character's name.
        name: String,
        /// Its deepest sphere's penetration at the starting pose (m).
        depth: Real,
        /// The stack's height (m).
        height: Real,
    },
    /// A platform's motion is out of range (non-finite numbers, period <= 0).
    #[error("platform motion is out of range: {0:?}")]
    BadMotion(PlatformMotion),
    /// A jump pad's launch velocity holds NaN or infinity (m/s).
    #[error("a jump pad's launch velocity must be finite, got {0:?}")]
    BadLaunch([Real; 3]),
}

impl SpawnError {
    /// The error of character `name` that the core's admission refused.
    fn refused(name: &str, refused: AdmitError) -> Self {
        let name = name.to_owned();
        match refused {
            AdmitError::NonFinitePose => Self::NonFinitePose { name },
            AdmitError::Buried { depth, height } => Self::Buried {
                name,
                depth,
                height,
            },
            AdmitError::Body(e) => Self::World(e),
        }
    }
}

/// Why [`Sim::drive_platform`] refused a pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlatformError {
    /// The entity is not a platform with [`PlatformMotion::Driven`].
    #[error("the entity is not a platform with PlatformMotion::Driven")]
    NotDriven,
    /// The pose holds NaN or infinity.
    #[error("a platform pose must be finite")]
    NonFinitePose,
}

/// The runtime: a hecs world of characters, platforms and gravity fields, the collision world
/// they move through, and the fixed-step clock.
///
/// [`Sim::step`] runs one fixed step of every system in a fixed order (see
/// [`crate::systems`]); [`Sim::advance`] runs as many as a frame's time calls for.
pub struct Sim {
    /// Characters, platforms and gravity fields (components in [`crate::components`]).
    pub ecs: World,
    /// The static and kinematic geometry, including the characters' bodies.
    pub collision: CollisionWorld,
    /// Step characters on rayon's pool (feature `parallel`); results are identical either way.
    pub parallel: bool,
    clock: FixedStep,
    steps: u64,
    /// Pending events from `events_start` on; the ones before it were dropped (the oldest
    /// beyond [`MAX_PENDING_EVENTS`]) and are cut out in batches.
    events: Vec<Event>,
    events_start: usize,
    events_dropped: u64,
    names: BTreeMap<ColliderId, String>,
    hooks: Option<Arc<dyn ContactHooks + Send + Sync>>,
    /// The gravity fields, rebuilt only when the world's change.
    gravity: spherewalk_core::gravity::FieldCache,
    /// The rapier world of dynamic bodies, once [`Sim::enable_physics`] ran (feature
    /// `rapier`; always `None` without it).
    pub(crate) physics: Option<Box<dynamics::Dynamics>>,
}

impl Sim {
    /// A runtime over `collision` stepping every `dt` seconds.
    ///
    /// # Errors
    /// [`ScheduleError::BadStep`] unless `0 < dt <= 1`.
    pub fn new(collision: CollisionWorld, dt: Real) -> Result<Self, ScheduleError> {
        Ok(Self {
            ecs: World::new(),
            collision,
            parallel: cfg!(feature = "parallel"),
            clock: FixedStep::new(dt)?,
            steps: 0,
            events: Vec::new(),
            events_start: 0,
            events_dropped: 0,
            names: BTreeMap::new(),
            gravity: spherewalk_core::gravity::FieldCache::default(),
            hooks: None,
            physics: None,
        })
    }

    /// The fixed step (s).
    pub fn dt(&self) -> Real {
        self.clock.dt()
    }

    /// Fixed steps run so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated time (s): steps times the fixed step.
    pub fn time(&self) -> f64 {
        self.steps as f64 * f64::from(self.clock.dt())
    }

    /// The events not drained yet, oldest step first (within a step ordered by entity).
    /// Events accumulate over however many steps [`Sim::advance`] runs, until the game takes
    /// them with [`Sim::drain_events`]: read once per frame, each is seen exactly once at any
    /// frame rate.
    pub fn events(&self) -> &[Event] {
        &self.events[self.events_start..]
    }

    /// Takes every pending event, oldest first, leaving none.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, Event> {
        let dropped = std::mem::take(&mut self.events_start);
        self.events.drain(..dropped);
        self.events.drain(..)
    }

    /// Events dropped because more than [`MAX_PENDING_EVENTS`] were waiting (the oldest go
    /// first). Zero for a game that drains every frame.
    pub fn events_dropped(&self) -> u64 {
        self.events_dropped
    }

    /// Gives every character's motor step the game's contact hooks (one-way platforms, ghost
    /// walls, conveyor belts: see [`ContactHooks`]); `None` takes them away. They must be
    /// deterministic for the steps to stay so, and they are not part of a [`Snapshot`].
    pub fn set_hooks(&mut self, hooks: Option<Arc<dyn ContactHooks + Send + Sync>>) {
        self.hooks = hooks;
    }

    /// Names a collider (traces report the ground stood on by this name). Scene loading
    /// names every collider after its item.
    pub fn set_collider_name(&mut self, id: ColliderId, name: impl Into<String>) {
        self.names.insert(id, name.into());
    }

    /// The name given to a collider, if any. Characters' bodies are named after the
    /// character.
    pub fn collider_name(&self, id: ColliderId) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    /// The collider a platform entity moves; `None` for an entity that is not a platform.
    pub fn platform_collider(&self, entity: Entity) -> Option<ColliderId> {
        let mut q = self.ecs.query_one::<&Platform>(entity);
        q.get().ok().map(|p| p.collider)
    }

    /// Adds a gravity field entity.
    ///
    /// # Errors
    /// [`SpawnError::Gravity`] when the field is out of range.
    pub fn add_gravity(&mut self, field: GravityField) -> Result<Entity, SpawnError> {
        field.validate()?;
        Ok(self.ecs.spawn((field,)))
    }

    /// Adds a jump pad: inserts its static collider, and from the next step on every character
    /// that ends a step stably grounded on it leaves with velocity `launch` (m/s, world).
    ///
    /// # Errors
    /// [`SpawnError::BadLaunch`] for a non-finite `launch`, [`SpawnError::World`] when the
    /// collider is refused.
    pub fn add_jump_pad(
        &mut self,
        desc: ColliderDesc,
        launch: spherewalk_core::Vec3,
    ) -> Result<Entity, SpawnError> {
        if !launch.iter().all(|c| c.is_finite()) {
            return Err(SpawnError::BadLaunch(launch.into()));
        }
        let collider = self.collision.insert(desc)?;
        Ok(self.ecs.spawn((JumpPad { collider, launch },)))
    }

    /// The collider of a jump pad entity; `None` for any other entity.
    pub fn jump_pad_collider(&self, pad: Entity) -> Option<ColliderId> {
        self.ecs.get::<&JumpPad>(pad).ok().map(|p| p.collider)
    }

    /// Adds a kinematic platform: inserts its collider and moves it by `motion` each step.
    ///
    /// # Errors
    /// [`SpawnError::World`] when the collider is refused, [`SpawnError::BadMotion`] for a
    /// motion with non-finite numbers or a period <= 0.
    pub fn add_platform(
        &mut self,
        desc: ColliderDesc,
        motion: PlatformMotion,
    ) -> Result<Entity, SpawnError> {
        if motion.check().is_err() {
            return Err(SpawnError::BadMotion(motion));
        }
        let start = desc.pose;
        let collider = self.collision.insert(desc)?;
        Ok(self.ecs.spawn((Platform::new(collider, motion, start),)))
    }

    /// Asks the driven platform `entity` (added with [`PlatformMotion::Driven`]) to be at `pose`
    /// (world) after the next step; later calls before that step replace the pose, and steps
    /// with no new pose leave the platform where it is. Drive it before each [`Sim::step`]
    /// for smooth motion (with [`Sim::advance`], a frame that runs several steps moves it in
    /// the first). The step moves it there and sets its collider's velocities
    /// to that motion over the step, so the characters standing on it are carried along (and
    /// keep its velocity when they leave it).
    ///
    /// # Errors
    /// [`PlatformError::NotDriven`] for an entity that is not a driven platform,
    /// [`PlatformError::NonFinitePose`] for a pose holding NaN or infinity.
    pub fn drive_platform(&mut self, entity: Entity, pose: Iso) -> Result<(), PlatformError> {
        if !spherewalk_core::math::is_finite_iso(&pose) {
            return Err(PlatformError::NonFinitePose);
        }
        match self.ecs.get::<&mut Platform>(entity) {
            Ok(mut p) if p.motion == PlatformMotion::Driven => {
                p.target = Some(pose);
                Ok(())
            }
            _ => Err(PlatformError::NotDriven),
        }
    }

    /// Spawns a character: validates its settings, inserts its body collider (when solid) and
    /// adds its components.
    ///
    /// # Errors
    /// [`SpawnError::Settings`] for bad settings (or settings out of scale with the standing or
    /// the crouched stack), [`SpawnError::NonFinitePose`] for a bad pose,
    /// [`SpawnError::Buried`] for a stack starting deeper in the scenery than it is tall (the
    /// core's [`Motor::admit`] rules), [`SpawnError::World`] when the body collider is refused.
    pub fn spawn_character(&mut self, desc: CharacterDesc) -> Result<Entity, SpawnError> {
        let mut motor = Motor::new(desc.stack.clone(), desc.settings)?;
        if desc.soft {
            motor = motor.with_filter(soft_filter(&QueryFilter::default()));
        }
        if let Some(crouched) = &desc.crouched {
            // The same rule the stance system's resizes meet later.
            desc.settings.check_scale(crouched)?;
        }
        let walker = Walker::admit(motor, &mut self.collision, desc.pose, desc.solid)
            .map_err(|refused| SpawnError::refused(&desc.name, refused))?;
        if let Some(body) = walker.body {
            self.names.insert(body, desc.name.clone());
        }
        let (pose, solid) = (desc.pose, walker.body.is_some());
        let entity = self.ecs.spawn(character_builder(walker, desc).build());
        #[cfg(feature = "rapier")]
        if solid {
            self.add_physics_body(entity, &pose);
        }
        #[cfg(not(feature = "rapier"))]
        let _ = (pose, solid);
        Ok(entity)
    }

    /// Removes a character or a platform with everything it put in the collision world (a
    /// character's body collider, a platform's collider) and the names given to those; any
    /// other entity (a gravity field) just goes. Entity and collider ids are generational: the
    /// stale ones are refused from then on, never taken for a later entity or collider.
    ///
    /// # Errors
    /// [`hecs::NoSuchEntity`] when `entity` is not (or no longer) in the world.
    pub fn despawn(&mut self, entity: Entity) -> Result<(), hecs::NoSuchEntity> {
        if let Ok(walker) = self.ecs.get::<&Walker>(entity) {
            walker.leave(&mut self.collision);
            if let Some(body) = walker.body {
                self.names.remove(&body);
            }
        }
        let platform = self.ecs.get::<&Platform>(entity).ok().map(|p| p.collider);
        #[cfg(feature = "rapier")]
        let physics_body = self
            .ecs
            .get::<&physics::PhysicsBody>(entity)
            .ok()
            .map(|b| *b);
        self.ecs.despawn(entity)?;
        #[cfg(feature = "rapier")]
        self.remove_physics_body(physics_body);
        if let Some(id) = platform {
            // NOTE: the runtime inserted it; a game that removed it itself already did the
            // work.
            if let Err(e) = self.collision.remove(id) {
                log::debug!("despawn: collider {id:?} already gone: {e}");
            }
            self.names.remove(&id);
        }
        Ok(())
    }

    /// Runs one fixed step of every system, in order (see [`crate::systems`]), and appends the
    /// step's events to the pending ones ([`Sim::events`]).
    pub fn step(&mut self) {
        phase!("spherewalk: Sim::step");
        // Which optional systems have work: none of them adds or removes a component.
        let busy = systems::Busy::of(&self.ecs);
        // A parallel step of a big crowd runs on a pool thread, which then takes part in each
        // parallel phase itself, rather than handing every phase to the pool and sleeping
        // until it is done. Below a small pass's size only the motor steps use the pool (one
        // hand-over either way), and running the rest on a pool thread cost 5 % in scene A's
        // crowd of 100.
        let spread = self.spread(busy.characters);
        spread.all.run(|| self.step_systems(busy, spread));
    }

    /// How a step of `count` characters spreads over threads, decided here once a step:
    /// with [`Sim::parallel`] their motor steps and separation go to rayon's pool, and, from
    /// [`crowd::SMALL_PASS`] characters up, the rest of the work too (below that, handing it
    /// round costs more than it saves).
    fn spread(&self, count: usize) -> Spread {
        let all = self.parallel && count >= crowd::SMALL_PASS;
        Spread {
            characters: Threads {
                parallel: self.parallel,
            },
            all: Threads { parallel: all },
        }
    }

    /// [`Sim::step`]'s systems in order, given which optional ones have work and how the
    /// step spreads over threads ([`Sim::spread`]).
    fn step_systems(&mut self, busy: systems::Busy, spread: Spread) {
        let dt = self.clock.dt();
        self.move_and_steer(busy, spread.all.parallel, dt);
        // The gravity fields, once for the characters' steps and the bodies'.
        let fields = systems::cached_fields(&mut self.gravity, &mut self.ecs);
        // Every character's components, gathered once for the phases that run over them all.
        let mut characters = systems::gather(&mut self.ecs);
        systems::place_bodies(&characters, &mut self.collision);
        let hooks = hooks_of(self.hooks.as_deref());
        let geometry = dynamics::geometry(&self.collision, self.physics.as_deref());
        let tick = Tick::new(geometry.get(), fields, dt).with_hooks(hooks);
        {
            phase!("spherewalk: characters");
            // Each in a thread's scratch, hot in cache; a lone character in its report's own
            // buffers, as hot, with none swapped in or out (2 % of its step).
            match &mut characters[..] {
                [lone] => lone.walker.step(&tick, *lone.intent, None),
                all => spread.characters.for_each(all, |scratch, c| {
                    c.walker.step(&tick, *c.intent, Some(scratch));
                }),
            }
        }
        let walkers = characters.iter_mut().map(|c| &mut *c.walker);
        crowd::separate(&spread.characters, &self.collision, walkers);
        let events = (self.steps, &mut self.events);
        systems::finish_gathered(&characters, &mut self.collision, events, spread.all);
        drop(characters);
        if busy.pads {
            phase!("spherewalk: pads");
            systems::launch_from_pads(&mut self.ecs);
        }
        let dynamic = self.physics.as_deref_mut();
        dynamics::step_bodies(&mut self.ecs, dynamic, &self.collision, fields, dt);
        self.trim_events();
        self.steps += 1;
    }

    /// The step's opening systems, those with work (`busy`): platforms move, inputs write the
    /// characters' intents (wanderers' on the pool when `pooled`), stances change.
    fn move_and_steer(&mut self, busy: systems::Busy, pooled: bool, dt: Real) {
        phase!("spherewalk: platforms, inputs, stances");
        if busy.platforms {
            systems::move_platforms(&mut self.ecs, &mut self.collision, dt);
        }
        if busy.scripts {
            systems::script_intents(&mut self.ecs, dt);
        }
        if busy.wanders {
            systems::wander_intents_on(&mut self.ecs, dt, pooled);
        }
        if busy.players {
            systems::player_intents(&mut self.ecs, dt);
        }
        if busy.stances {
            systems::apply_stances(&mut self.ecs, &mut self.collision);
        }
    }

    /// Drops the oldest pending events beyond [`MAX_PENDING_EVENTS`], counting them.
    fn trim_events(&mut self) {
        let pending = self.events.len() - self.events_start;
        if pending > MAX_PENDING_EVENTS {
            let excess = pending - MAX_PENDING_EVENTS;
            self.events_start += excess;
            self.events_dropped += excess as u64;
            // The dropped ones are cut out once there are as many as are kept: each event is
            // moved at most once. (Cutting a few out every step moved all 65,536 kept ones
            // each time: a step of one character in a sim that was never drained went from 3
            // to 5-9 us.)
            if self.events_start >= MAX_PENDING_EVENTS {
                self.events.drain(..self.events_start);
                self.events_start = 0;
            }
        }
    }

    /// Adds a frame's time (s) to the clock and runs the fixed steps now due (at most
    /// [`FixedStep::max_steps_per_frame`]); returns how many ran.
    ///
    /// # Example
    /// A game loop: frames of uneven length run whole 1/60 s steps, the remainder carried on,
    /// and characters are drawn between their last two steps.
    /// ```
    /// use spherewalk::parry3d::shape::SharedShape;
    /// use spherewalk::{CharacterDesc, ColliderDesc, CollisionWorld, GravityField, Point3, Pose};
    /// use spherewalk::{Sim, SphereStack, Vec3};
    /// let mut world = CollisionWorld::new();
    /// world.insert(ColliderDesc::new(SharedShape::cuboid(10.0, 0.5, 10.0)).translation(0.0, -0.5, 0.0))?;
    /// let mut sim = Sim::new(world, 1.0 / 60.0)?;
    /// sim.add_gravity(GravityField::uniform(Vec3::new(0.0, -9.81, 0.0)))?;
    /// let stack = SphereStack::capsule(1.8, 0.3, 3)?;
    /// let hero = sim.spawn_character(CharacterDesc::new("hero", stack, Pose::new(Point3::origin())))?;
    /// let mut steps = 0;
    /// for frame_time in [0.010, 0.025, 0.016, 0.033] {
    ///     steps += sim.advance(frame_time);
    ///     let _draw_at = sim.render_pose(hero).expect("a character");
    /// }
    /// // 0.084 s of frames: five whole steps, 0.0007 s carried to the next frame.
    /// assert_eq!(steps, 5);
    /// assert_eq!(sim.steps(), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn advance(&mut self, frame_dt: Real) -> u32 {
        let due = self.clock.advance(frame_dt);
        for _ in 0..due {
            self.step();
        }
        due
    }

    /// Where render time lies between the last two steps (0..1), for [`Sim::render_pose`].
    pub fn alpha(&self) -> Real {
        self.clock.alpha()
    }

    /// The pose to draw `entity` at: interpolated between its previous and current pose by
    /// [`Sim::alpha`]. `None` for an entity that is not a character.
    pub fn render_pose(&self, entity: Entity) -> Option<Pose> {
        let walker = self.ecs.get::<&Walker>(entity).ok()?;
        Some(walker.shown_at(self.alpha()))
    }
}

/// How a step spreads its work over rayon's pool (see [`Sim::spread`]).
#[derive(Clone, Copy, Debug)]
struct Spread {
    /// Where the characters' motor steps and separation run.
    characters: Threads,
    /// Where the whole step runs (a pool thread when pooled), and the inputs and the
    /// closing phase.
    all: Threads,
}

/// The components of a character of `desc` admitted as `walker`.
fn character_builder(walker: Walker, desc: CharacterDesc) -> hecs::EntityBuilder {
    let mut builder = hecs::EntityBuilder::new();
    builder.add_bundle((walker, MoveIntent::default(), Name(desc.name)));
    if let Some(crouched) = desc.crouched {
        builder.add(Stance::new(desc.stack, crouched));
    }
    match desc.input {
        Input::None => &mut builder,
        Input::Player(p) => builder.add(p),
        Input::Wander(w) => builder.add(w),
        Input::Script(s) => builder.add(s),
    };
    builder
}

/// The game's contact hooks, or none.
fn hooks_of(hooks: Option<&(dyn ContactHooks + Send + Sync)>) -> &(dyn ContactHooks + Sync) {
    match hooks {
        Some(h) => h,
        None => &NoHooks,
    }
}
