//! Systems: plain functions over the hecs [`hecs::World`] and the collision world, run in a
//! fixed order by [`crate::Sim::step`]:
//!
//! 1. [`move_platforms`] — kinematic platforms move and set their colliders' velocities, which
//!    the motor step carries their riders by;
//! 2. [`script_intents`], [`wander_intents`], [`player_intents`] — inputs write `MoveIntent`;
//! 3. [`apply_stances`] — crouch / stand up (only where the standing stack fits);
//! 4. [`sync_bodies`] — every character's body collider moves to its pose;
//! 5. [`step_characters`] — the motor step of every character (serial or parallel);
//! 6. [`separate_characters`] — overlapping characters are pushed apart, half each, and the
//!    bodies move to the final poses;
//! 7. the step's events are read ([`crate::events::collect_events`]);
//! 8. [`launch_from_pads`] — characters standing on jump pads are thrown.
//!
//! Steps 4 to 7 each query the world when called on their own; the `Sim` queries the
//! characters once and hands the list to all four (the same work, a few hundred instructions
//! of hecs' fixed cost a query less each).

pub(crate) use crate::lent::Lent;

mod gathered;
mod intent;
mod motor;
mod pads;
mod platforms;
mod separate;
mod stance;

pub use crate::body::{body_pose, body_shape, sync_bodies};
pub(crate) use gathered::{Gathered, gather, sync_gathered};
pub use intent::{player_intents, script_intents, wander_intents};
pub(crate) use motor::step_gathered;
pub use motor::{GravityCache, gravity_fields, step_characters};
pub use pads::launch_from_pads;
pub use platforms::{move_platforms, velocities};
pub use separate::separate_characters;
pub(crate) use separate::separate_gathered;
pub use stance::apply_stances;

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
/// the `parallel` feature is on; the output order is the input order either way. `f` borrows
/// a value made by `init` (one per chunk of items on the pool, one for a serial run), for
/// working buffers only: its result must not depend on what the value held before.
pub(crate) fn filter_map_init<T: Sync, U: Send, S>(
    items: &[T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> Option<U> + Sync + Send,
) -> Vec<U> {
    let mut parts = map_chunks(items, parallel, |chunk| {
        let mut value = init();
        chunk
            .iter()
            .filter_map(|item| f(&mut value, item))
            .collect::<Vec<U>>()
    });
    // A serial run is one chunk: its list is the answer as it stands.
    match parts.len() {
        1 => parts.pop().unwrap_or_default(),
        _ => parts.into_iter().flatten().collect(),
    }
}

/// `f` of consecutive chunks of `items`, in order, computed on rayon's pool when `parallel`
/// is asked for and the `parallel` feature is on (chunks as [`for_each_init`] cuts them), else
/// of all of them as one chunk. `f` must give the same result however the items are cut (a
/// list of what each item gives, say): the caller joins the chunks' results.
pub(crate) fn map_chunks<T: Sync, U: Send>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&[T]) -> U + Sync + Send,
) -> Vec<U> {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        return items.par_chunks(chunk_len(items.len())).map(f).collect();
    }
    let _ = parallel;
    vec![f(items)]
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
