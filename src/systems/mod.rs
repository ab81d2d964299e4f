//! Systems: plain functions over the hecs [`hecs::World`] and the collision world, each run
//! by [`crate::Sim::step`] in this order (its outline, `step_systems`, names them):
//!
//! 1. [`move_platforms`] — kinematic platforms move and set their colliders' velocities, which
//!    the motor step carries their riders by;
//! 2. [`script_intents`], `wander_intents_on`, [`player_intents`] — inputs write `MoveIntent`;
//! 3. [`apply_stances`] — crouch / stand up (only where the standing stack fits);
//! 4. `place_bodies` — every character's body collider moves to its pose (with more than one
//!    character);
//! 5. the motor step of every character (the core's [`spherewalk_core::walker::Walker::step`],
//!    serial or parallel);
//! 6. the core's [`spherewalk_core::crowd::separate`] — overlapping characters are pushed
//!    apart, half each, in each one's ground plane (nobody is lifted onto a head), lose their
//!    velocity into each other and are resolved again against the scenery, pass after pass
//!    until nobody overlaps. During the step every character collides with the others'
//!    bodies where they stood at its start (so stepping in parallel gives the same result as
//!    in series): two walking into each other can end it overlapping by both step lengths;
//! 7. `finish_gathered` — the bodies move to the final poses and the step's events are read;
//! 8. [`launch_from_pads`] — characters standing on jump pads are thrown.
//!
//! The `Sim` queries the characters once a step and hands the list to steps 4 to 7 (a few
//! hundred instructions of hecs' fixed cost a query less each). It skips steps 1 to 3 and 8
//! while no entity holds their component. [`sync_bodies`] also puts every body back where its
//! character stands after a snapshot is restored.

use hecs::World;

mod gathered;
mod gravity;
mod intent;
mod pads;
mod platforms;
mod stance;

pub use crate::body::{body_pose, sync_bodies};
pub(crate) use gathered::{finish_gathered, gather, place_bodies};
pub(crate) use gravity::cached_fields;
pub use gravity::gravity_fields;
pub(crate) use intent::wander_intents_on;
pub use intent::{player_intents, script_intents};
pub use pads::launch_from_pads;
pub use platforms::{move_platforms, velocities};
pub(crate) use spherewalk_core::crowd::Threads;
pub use stance::apply_stances;

/// Which of the step's optional systems have anything to do: whether any entity holds the
/// component each one runs over. [`crate::Sim::step`] skips the idle ones: one pass over the
/// world's archetypes (a handful in a game) costs less than a single hecs query's fixed
/// set-up, which a step would otherwise pay for every system (about 200 instructions each,
/// where one character's motor step is about 25,000).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Busy {
    /// A [`crate::components::Platform`] is there to move.
    pub(crate) platforms: bool,
    /// A [`crate::input::Script`] is there to play.
    pub(crate) scripts: bool,
    /// A [`crate::input::Wander`] is there to walk.
    pub(crate) wanders: bool,
    /// A [`crate::input::PlayerInput`] is there to read.
    pub(crate) players: bool,
    /// A [`crate::components::Stance`] is there to apply.
    pub(crate) stances: bool,
    /// A [`crate::components::JumpPad`] is there to throw from.
    pub(crate) pads: bool,
    /// How many entities hold a [`crate::components::Walker`].
    pub(crate) characters: usize,
}

impl Busy {
    /// What `ecs` gives each optional system to do.
    pub(crate) fn of(ecs: &World) -> Self {
        use crate::components::{JumpPad, Platform, Stance, Walker};
        use crate::input::{PlayerInput, Script, Wander};
        use std::any::TypeId;
        let wanted = [
            TypeId::of::<Platform>(),
            TypeId::of::<Script>(),
            TypeId::of::<Wander>(),
            TypeId::of::<PlayerInput>(),
            TypeId::of::<Stance>(),
            TypeId::of::<JumpPad>(),
            TypeId::of::<Walker>(),
        ];
        // The last one is counted by its holders rather than noted as held.
        const CHARACTER: usize = 6;
        let mut found = [false; 6];
        let mut characters = 0;
        for archetype in ecs.archetypes().filter(|a| !a.is_empty()) {
            for held in archetype.component_types() {
                match wanted.iter().position(|w| *w == held) {
                    Some(CHARACTER) => characters += archetype.len() as usize,
                    Some(i) => found[i] = true,
                    None => {}
                }
            }
        }
        let [platforms, scripts, wanders, players, stances, pads] = found;
        Self {
            platforms,
            scripts,
            wanders,
            players,
            stances,
            pads,
            characters,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::JumpPad;
    use crate::input::{PlayerInput, Script, Wander};
    use spherewalk_core::parry3d::shape::SharedShape;
    use spherewalk_core::{ColliderDesc, CollisionWorld, Vec3};

    /// Which optional systems [`Busy::of`] finds work for, as flags in its field order.
    fn idle(b: Busy) -> [bool; 6] {
        [
            b.platforms,
            b.scripts,
            b.wanders,
            b.players,
            b.stances,
            b.pads,
        ]
    }

    /// The step skips a system only while no entity holds its component: each one is seen
    /// on its own and beside others, and a component whose last holder is gone (its
    /// archetype left empty) no longer counts.
    #[test]
    fn busy_follows_the_components_held() {
        let mut ecs = World::new();
        assert_eq!(idle(Busy::of(&ecs)), [false; 6]);
        let walker = ecs.spawn((Wander::new(1.0, 1.0, 7), PlayerInput::default()));
        assert_eq!(
            idle(Busy::of(&ecs)),
            [false, false, true, true, false, false]
        );
        let mut collision = CollisionWorld::new();
        let collider = collision
            .insert(ColliderDesc::new(SharedShape::ball(1.0)))
            .expect("a finite ball");
        let launch = Vec3::new(0.0, 5.0, 0.0);
        let pad = ecs.spawn((JumpPad { collider, launch },));
        let script = ecs.spawn((Script::new(Vec::new(), false),));
        assert_eq!(idle(Busy::of(&ecs)), [false, true, true, true, false, true]);
        for e in [walker, pad, script] {
            ecs.despawn(e).expect("spawned");
        }
        // The archetypes stay behind, empty.
        assert!(ecs.archetypes().count() > 1);
        assert_eq!(idle(Busy::of(&ecs)), [false; 6]);
    }

    /// Characters are counted in every archetype that holds them, and only there; despawned
    /// ones leave their archetypes empty and uncounted.
    #[test]
    fn busy_counts_the_characters_held() {
        let mut ecs = World::new();
        let motor = spherewalk_core::Motor::new(
            spherewalk_core::SphereStack::capsule(1.8, 0.3, 3).expect("a capsule"),
            spherewalk_core::MotorSettings::default(),
        )
        .expect("a motor");
        let character = || crate::components::Walker {
            motor: motor.clone(),
            body: None,
            pose: spherewalk_core::Pose::default(),
            previous: spherewalk_core::Pose::default(),
            state: spherewalk_core::MotorState::default(),
            report: spherewalk_core::StepReport::new(),
        };
        assert_eq!(Busy::of(&ecs).characters, 0);
        let walker = ecs.spawn((Wander::new(1.0, 1.0, 7),));
        let lone = ecs.spawn((character(),));
        let wandering = ecs.spawn((character(), Wander::new(1.0, 1.0, 3)));
        ecs.spawn((character(), Wander::new(1.0, 1.0, 5)));
        assert_eq!(Busy::of(&ecs).characters, 3);
        for e in [walker, lone, wandering] {
            ecs.despawn(e).expect("spawned");
        }
        assert_eq!(Busy::of(&ecs).characters, 1);
        ecs.clear();
        assert_eq!(Busy::of(&ecs).characters, 0);
    }
}
