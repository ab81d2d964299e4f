//! Systems: plain functions over the hecs [`hecs::World`] and the collision world, each run
//! by [`crate::Sim::step`] in this order (its outline, `step_systems`, names them):
//!
//! 1. [`move_platforms`] — kinematic platforms move and set their colliders' velocities, which
//!    the motor step carries their riders by;
//! 2. [`script_intents`], `wander_intents_on`, [`player_intents`] — inputs write `MoveIntent`;
//! 3. [`apply_stances`] — crouch / stand up (only where the standing stack fits);
//! 4. `place_bodies` — every character's body collider moves to its pose (with more than one
//!    character);
//! 5. `step_gathered` — the motor step of every character (serial or parallel);
//! 6. `separate_gathered` — overlapping characters are pushed apart, half each;
//! 7. `finish_gathered` — the bodies move to the final poses and the step's events are read;
//! 8. [`launch_from_pads`] — characters standing on jump pads are thrown.
//!
//! The `Sim` queries the characters once a step and hands the list to steps 4 to 7 (a few
//! hundred instructions of hecs' fixed cost a query less each). It skips steps 1 to 3 and 8
//! while no entity holds their component. [`sync_bodies`] also puts every body back where its
//! character stands after a snapshot is restored.

pub(crate) use crate::lent::Lent;
use hecs::World;
use spherewalk_core::motor::StepScratch;
use std::cell::RefCell;

thread_local! {
    /// Each thread's spare working buffers for the characters' motor steps and the
    /// separation's resolves (one kind, never lent to both at once), kept between steps.
    static SCRATCH: RefCell<StepScratch> = RefCell::default();
}

mod gathered;
mod intent;
mod motor;
mod pads;
mod platforms;
mod separate;
mod stance;

pub use crate::body::{body_pose, body_shape, sync_bodies};
pub(crate) use gathered::{finish_gathered, gather, place_bodies};
pub(crate) use intent::wander_intents_on;
pub use intent::{player_intents, script_intents};
pub(crate) use motor::step_gathered;
pub use motor::{GravityCache, gravity_fields};
pub use pads::launch_from_pads;
pub use platforms::{move_platforms, velocities};
pub(crate) use separate::separate_gathered;
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
    /// How many entities hold a [`crate::components::Character`].
    pub(crate) characters: usize,
}

impl Busy {
    /// What `ecs` gives each optional system to do.
    pub(crate) fn of(ecs: &World) -> Self {
        use crate::components::{Character, JumpPad, Platform, Stance};
        use crate::input::{PlayerInput, Script, Wander};
        use std::any::TypeId;
        let wanted = [
            TypeId::of::<Platform>(),
            TypeId::of::<Script>(),
            TypeId::of::<Wander>(),
            TypeId::of::<PlayerInput>(),
            TypeId::of::<Stance>(),
            TypeId::of::<JumpPad>(),
            TypeId::of::<Character>(),
        ];
        // The last one is counted by its holders rather than noted as held.
        const CHARACTER: usize = 6;
        // Each held type is matched on its hash first (seven `u64` comparisons), and on its
        // `TypeId` only where a hash matches: comparing `TypeId`s costs several times more.
        let keys = wanted.map(type_key);
        let mut found = [false; 6];
        let mut characters = 0;
        for archetype in ecs.archetypes().filter(|a| !a.is_empty()) {
            for held in archetype.component_types() {
                let key = type_key(held);
                match keys.iter().position(|k| *k == key) {
                    Some(CHARACTER) if wanted[CHARACTER] == held => {
                        characters += archetype.len() as usize;
                    }
                    Some(i) if wanted[i] == held => found[i] = true,
                    _ => {}
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

/// The hash of a component type: what `TypeId` feeds a hasher (the standard library's hashes
/// it as one `u64` of its bits). Equal types have equal keys; unequal ones almost never do.
fn type_key(id: std::any::TypeId) -> u64 {
    use std::hash::{Hash, Hasher};
    /// Keeps what it is fed, folded into one `u64`.
    struct Fold(u64);
    impl Hasher for Fold {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(*b);
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = self.0.rotate_left(17) ^ n;
        }
    }
    let mut fold = Fold(0);
    id.hash(&mut fold);
    fold.finish()
}

/// `a()` and `b()`, side by side on rayon's pool when `parallel` is asked for and the
/// `parallel` feature is on, else one after the other. For two phases that touch disjoint
/// data, so the order never shows.
pub(crate) fn join<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "parallel")]
    if parallel {
        return rayon::join(a, b);
    }
    let _ = parallel;
    (a(), b())
}

/// `f()` on one of rayon's pool threads when `parallel` is asked for and the `parallel`
/// feature is on (the calling thread waits), else on the calling thread. Parallel work that
/// `f` starts is then split from a pool thread, which takes part in it, instead of being
/// handed over from outside the pool and waited for each time.
pub(crate) fn on_pool<R: Send>(parallel: bool, f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    if parallel {
        return rayon::scope(|_| f());
    }
    let _ = parallel;
    f()
}

/// Chunks per pool thread a parallel run cuts its items into: enough for the threads to even
/// out uneven items between them, few enough that each chunk pays its set-up once for many.
#[cfg(feature = "parallel")]
const CHUNKS_PER_THREAD: usize = 8;

/// The chunk length (items) a parallel run over `len` items cuts them into.
#[cfg(feature = "parallel")]
fn chunk_len(len: usize) -> usize {
    len.div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD)
        .max(1)
}

/// Runs `f` on every item, on rayon's pool when `parallel` is asked for and the `parallel`
/// feature is on, else in order, lending it a value made by `init`: one per chunk of items on
/// the pool, one for the whole serial run. `f` must touch only its own item (and shared
/// reads), and use the value for working buffers only (the same result whatever it held
/// before), so both ways give identical results.
pub(crate) fn for_each_init<T: Send, S>(
    items: &mut [T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &mut T) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        let chunk = chunk_len(items.len());
        items.par_chunks_mut(chunk).for_each(|chunk| {
            let mut value = init();
            chunk.iter_mut().for_each(|item| f(&mut value, item));
        });
        return;
    }
    let _ = parallel;
    let mut value = init();
    items.iter_mut().for_each(|item| f(&mut value, item));
}

/// `items.filter_map(f)` in order, computed on rayon's pool when `parallel` is asked for and
/// the `parallel` feature is on (chunks as [`for_each_init`] cuts them, their lists joined in
/// order); the output order is the input order either way. `f` borrows a value made by
/// `init` (one per chunk of items on the pool, one for a serial run), for working buffers
/// only: its result must not depend on what the value held before.
pub(crate) fn filter_map_init<T: Sync, U: Send, S>(
    items: &[T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> Option<U> + Sync + Send,
) -> Vec<U> {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        let parts: Vec<Vec<U>> = items
            .par_chunks(chunk_len(items.len()))
            .map(|chunk| {
                let mut value = init();
                chunk
                    .iter()
                    .filter_map(|item| f(&mut value, item))
                    .collect()
            })
            .collect();
        return parts.into_iter().flatten().collect();
    }
    let _ = parallel;
    let mut value = init();
    items
        .iter()
        .filter_map(|item| f(&mut value, item))
        .collect()
}

/// Sorts `items`, on rayon's pool when `parallel` is asked for and the `parallel` feature is
/// on. Unstable: equal items may end in either order, so both ways give the same result only
/// where no two items are equal (the callers sort items with distinct indices).
pub(crate) fn sort_unstable<T: Ord + Send>(items: &mut [T], parallel: bool) {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::slice::ParallelSliceMut;
        items.par_sort_unstable();
        return;
    }
    let _ = parallel;
    items.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::JumpPad;
    use crate::input::{PlayerInput, Script, Wander};
    use spherewalk_core::parry3d::shape::SharedShape;
    use spherewalk_core::{ColliderDesc, CollisionWorld, Vec3};

    /// The step skips a system only while no entity holds its component: each one is seen
    /// on its own and beside others, and a component whose last holder is gone (its
    /// archetype left empty) no longer counts.
    #[test]
    fn busy_follows_the_components_held() {
        let mut ecs = World::new();
        let idle = |b: Busy| {
            [
                b.platforms,
                b.scripts,
                b.wanders,
                b.players,
                b.stances,
                b.pads,
            ]
        };
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
        // Characters are counted in every archetype that holds them, and only there.
        let motor = spherewalk_core::Motor::new(
            spherewalk_core::SphereStack::capsule(1.8, 0.3, 3).expect("a capsule"),
            spherewalk_core::MotorSettings::default(),
        )
        .expect("a motor");
        let character = || crate::components::Character {
            motor: motor.clone(),
        };
        assert_eq!(Busy::of(&ecs).characters, 0);
        let lone = ecs.spawn((character(),));
        let wandering = ecs.spawn((character(), Wander::new(1.0, 1.0, 3)));
        ecs.spawn((character(), Wander::new(1.0, 1.0, 5)));
        assert_eq!(Busy::of(&ecs).characters, 3);
        for e in [walker, pad, script, lone, wandering] {
            ecs.despawn(e).expect("spawned");
        }
        assert_eq!(Busy::of(&ecs).characters, 1);
        ecs.clear();
        // The archetypes stay behind, empty.
        assert!(ecs.archetypes().count() > 1);
        assert_eq!(idle(Busy::of(&ecs)), [false; 6]);
        assert_eq!(Busy::of(&ecs).characters, 0);
    }
}
