//! The plugin, its system sets and the character world it keeps.

use crate::messages::CharacterMessage;
use crate::resources::{CharacterWorld, DefaultGravity};
use crate::systems;
use bevy::app::{
    App, FixedPostUpdate, FixedPreUpdate, FixedUpdate, Plugin, RunFixedMainLoop,
    RunFixedMainLoopSystems,
};
use bevy::ecs::schedule::{InternedScheduleLabel, IntoScheduleConfigs, ScheduleLabel, SystemSet};

/// The plugin's system sets, in the order they run in its schedule. Put the game's input
/// systems `.before(SpherewalkSystems::Sync)` and what reads the characters' transforms,
/// status or messages `.after(SpherewalkSystems::WriteBack)`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpherewalkSystems {
    /// Mirrors colliders and gravity fields into the character world; admits new or changed
    /// characters (validating them) and takes teleports: one system. No command flush follows
    /// it before [`Self::Step`] (its commands only mark refusals, applied at the schedule's
    /// end): a game system with commands the step must see goes before this set, not in it.
    Sync,
    /// Steps every character once (in parallel where Bevy's task pool has threads; the
    /// result is the same bit for bit), pushes apart those that overlap, and throws those
    /// standing on jump pads: one system.
    Step,
    /// Writes the characters' transforms and status, and their messages.
    WriteBack,
}

/// Drives spherewalk characters in a Bevy app: [`crate::Character`]s walk among
/// [`crate::Collider`]s under [`crate::GravityField`]s, one motor step per run of the
/// plugin's schedule.
///
/// # Example
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_spherewalk::prelude::*;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SpherewalkPlugin::default()));
/// // One fixed step (1/64 s) per update, whatever the wall clock says.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.world_mut().spawn((
///     Collider::new(SharedShape::cuboid(10.0, 0.5, 10.0)),
///     Transform::from_xyz(0.0, -0.5, 0.0),
/// ));
/// let stack = SphereStack::capsule(1.8, 0.3, 3).expect("a valid stack");
/// let hero = app
///     .world_mut()
///     .spawn((Character::new(stack), Transform::from_xyz(0.0, 0.5, 0.0)))
///     .id();
/// for _ in 0..60 {
///     app.update();
/// }
/// // Dropped 0.5 m onto the floor's top (y = 0) and standing on it.
/// let status = app.world().get::<CharacterStatus>(hero).expect("a character");
/// assert_eq!(status.ground, GroundState::Grounded);
/// let feet = app.world().get::<Transform>(hero).expect("placed").translation;
/// assert!(feet.y.abs() < 1e-3, "{feet}");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SpherewalkPlugin {
    schedule: InternedScheduleLabel,
    interpolate: bool,
    /// Runs after avian's physics step (feature `avian`).
    after_avian: bool,
}

impl SpherewalkPlugin {
    /// The plugin, stepping the characters in `schedule` (once per run: a fixed-step schedule
    /// such as `FixedUpdate` gives frame-rate independent walking). In the fixed schedules
    /// (`FixedPreUpdate`, `FixedUpdate`, `FixedPostUpdate`) the characters' transforms are
    /// interpolated between fixed steps (see [`Self::interpolated`]).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        let schedule = schedule.intern();
        let fixed = [
            FixedPreUpdate.intern(),
            FixedUpdate.intern(),
            FixedPostUpdate.intern(),
        ];
        Self {
            schedule,
            interpolate: fixed.contains(&schedule),
            after_avian: false,
        }
    }

    /// The plugin for a game with avian3d physics (feature `avian`): it steps the characters
    /// in `FixedPostUpdate` after avian's step (`PhysicsSystems::Writeback`), so they meet
    /// avian's kinematic bodies where avian just moved them and ride them without lag.
    /// avian's static and kinematic colliders are mirrored into the characters' world either
    /// way (see [`crate::FromAvian`]).
    #[cfg(feature = "avian")]
    pub fn after_avian() -> Self {
        Self {
            after_avian: true,
            ..Self::new(FixedPostUpdate)
        }
    }

    /// Whether each frame shows the characters between the poses of the last fixed step, as
    /// far as the fixed clock has run into the next one (`true`: smooth at any frame rate,
    /// one fixed step behind; the default in `FixedUpdate`), or at the pose the last step
    /// ended at (`false`). Either way game logic in the fixed schedule reads the pose the
    /// last step ended at (the plugin puts it back before the frame's fixed steps), and a
    /// transform the game writes in `Update` is a teleport the next fixed step takes, on
    /// whichever frame that step runs. Only meaningful in a fixed schedule.
    pub fn interpolated(self, interpolate: bool) -> Self {
        Self {
            interpolate,
            ..self
        }
    }
}

impl Default for SpherewalkPlugin {
    /// The plugin in `FixedUpdate`, as a physics plugin runs.
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl Plugin for SpherewalkPlugin {
    fn build(&self, app: &mut App) {
        use SpherewalkSystems::{Step, Sync, WriteBack};
        app.init_resource::<CharacterWorld>()
            .init_resource::<DefaultGravity>()
            .add_message::<CharacterMessage>()
            .configure_sets(
                self.schedule,
                // The sync's only commands mark refusals ([`crate::CharacterRefused`]), which
                // the step never reads: they wait for the schedule's end rather than cost a
                // flush of the world between the sync and the step.
                (Sync, Step, WriteBack).chain_ignore_deferred(),
            )
            .add_systems(
                self.schedule,
                (
                    systems::sync.in_set(Sync),
                    systems::step_characters.in_set(Step),
                    systems::write_back.in_set(WriteBack),
                ),
            );
        #[cfg(feature = "avian")]
        {
            app.init_resource::<crate::avian::AvianShapes>()
                .add_systems(
                    self.schedule,
                    crate::avian::mirror_avian_colliders
                        .before(systems::sync)
                        .in_set(Sync),
                );
            if self.after_avian {
                use avian3d::prelude::PhysicsSystems;
                app.configure_sets(self.schedule, Sync.after(PhysicsSystems::Writeback));
            }
        }
        #[cfg(not(feature = "avian"))]
        let _ = self.after_avian;
        if self.interpolate {
            app.add_systems(
                RunFixedMainLoop,
                (
                    systems::show_step_ends.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
                    systems::interpolate_characters
                        .in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
                ),
            );
        }
    }
}
