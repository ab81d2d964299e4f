//! Input systems: player controls, wandering AI and scripts write [`MoveIntent`] and the
//! crouch wish in [`Stance`], each through the core's rules for it
//! ([`PlayerInput::steer`], [`Wander::steer`], [`Script::steer`]).

use crate::components::{Stance, Walker};
use crate::input::{PlayerInput, Script, Wander};
use hecs::World;
use spherewalk_core::{MoveIntent, Real};

/// Writes the intent of every character with [`PlayerInput`] for a step of `dt` seconds
/// ([`PlayerInput::steer`]: camera-relative walking on any surface, buffered jumps, variable
/// jump height) and its crouch wish.
pub fn player_intents(ecs: &mut World, dt: Real) {
    type Player<'a> = (
        &'a mut PlayerInput,
        &'a mut Walker,
        &'a mut MoveIntent,
        Option<&'a mut Stance>,
    );
    for (input, walker, intent, stance) in ecs.query_mut::<Player<'_>>() {
        *intent = input.steer(walker, dt);
        if let Some(stance) = stance {
            stance.want_crouch = input.crouch;
        }
    }
}

/// One wanderer's components, as [`wander_intents_on`] reads and writes them.
type Wandering<'a> = (&'a mut Wander, &'a Walker, &'a mut MoveIntent);

/// Wanderers one job of rayon's pool takes.
#[cfg(feature = "parallel")]
const WANDER_BATCH: u32 = 512;

/// Writes the intent of every wandering character ([`Wander::steer`]), in batches on rayon's
/// pool when `parallel` is asked for and the `parallel` feature is on. Each wanderer reads
/// and writes only its own components (its random sequence included), so the result is the
/// same either way.
pub(crate) fn wander_intents_on(ecs: &mut World, dt: Real, parallel: bool) {
    let query = ecs.query_mut::<Wandering<'_>>();
    let wander = |(wander, walker, intent): Wandering<'_>| *intent = wander.steer(walker, dt);
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        let batches: Vec<_> = query.into_iter_batched(WANDER_BATCH).collect();
        batches
            .into_par_iter()
            .for_each(|batch| batch.for_each(wander));
        return;
    }
    let _ = parallel;
    query.into_iter().for_each(wander);
}

/// Writes the intent of every scripted character from its current command and its crouch
/// wish, then advances the script by `dt` seconds ([`Script::steer`]).
pub fn script_intents(ecs: &mut World, dt: Real) {
    for (script, walker, intent, stance) in
        ecs.query_mut::<(&mut Script, &Walker, &mut MoveIntent, Option<&mut Stance>)>()
    {
        if let Some(stance) = stance {
            stance.want_crouch = script.wants_crouch();
        }
        *intent = script.steer(&walker.pose, dt);
    }
}
