//! Systems: plain functions over the hecs [`hecs::World`] and the collision world, run in a
//! fixed order by [`crate::Sim::step`]:
//!
//! 1. [`move_platforms`] — kinematic platforms move and set their colliders' velocities, which
//!    the motor step carries their riders by;
//! 2. [`script_intents`], [`wander_intents`], [`player_intents`] — inputs write `MoveIntent`;
//! 3. [`apply_stances`] — crouch / stand up (only where the standing stack fits);
//! 4. [`sync_bodies`] — every character's body collider moves to its pose;
//! 5. [`step_characters`] — the motor step of every character (serial or parallel);
//! 6. [`separate_characters`] — overlapping characters are pushed apart, half each;
//! 7. [`launch_from_pads`] — characters standing on jump pads are thrown.

use std::cell::RefCell;
use std::mem::take;
use std::ops::{Deref, DerefMut};
use std::thread::LocalKey;

mod intent;
mod motor;
mod pads;
mod platforms;
mod separate;
mod stance;

pub use crate::body::{body_pose, body_shape, sync_bodies};
pub use intent::{player_intents, script_intents, wander_intents};
pub use motor::{gravity_fields, step_characters};
pub use pads::launch_from_pads;
pub use platforms::{move_platforms, velocities};
pub use separate::separate_characters;
pub use stance::apply_stances;

/// Runs `f` on every item, on rayon's pool when `parallel` is asked for and the `parallel`
/// feature is on, else in order, lending it a value made by `init`: one per job on the pool,
/// one for the whole serial run. `f` must touch only its own item (and shared reads), and use
/// the value for working buffers only (the same result whatever it held before), so both
/// ways give identical results.
pub(crate) fn for_each_init<T: Send, S>(
    items: &mut [T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &mut T) + Sync + Send,
) {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        items.par_iter_mut().for_each_init(init, f);
        return;
    }
    let _ = parallel;
    let mut value = init();
    items.iter_mut().for_each(|item| f(&mut value, item));
}

/// `items.filter_map(f)` in order, computed on rayon's pool when `parallel` is asked for and
/// the `parallel` feature is on; the output order is the input order either way. `f` borrows
/// a value made by `init` (one per job on the pool, one for a serial run), for working
/// buffers only: its result must not depend on what the value held before.
pub(crate) fn filter_map_init<T: Sync, U: Send, S>(
    items: &[T],
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> Option<U> + Sync + Send,
) -> Vec<U> {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        return items
            .par_iter()
            .map_init(init, |s, item| f(s, item))
            .flatten()
            .collect();
    }
    let _ = parallel;
    let mut value = init();
    items
        .iter()
        .filter_map(|item| f(&mut value, item))
        .collect()
}

/// A working buffer a system borrows from the spare one its thread keeps in `home` for as
/// long as it lives, and gives back when dropped: a system's buffers keep their capacity from
/// one step to the next instead of growing anew each step, on the calling thread and on every
/// rayon worker alike. Two lent at once on one thread (none of the systems nests them) only
/// means the second starts empty.
pub(crate) struct Lent<S: Default + 'static> {
    value: S,
    home: &'static LocalKey<RefCell<S>>,
}

impl<S: Default + 'static> Lent<S> {
    /// Takes this thread's spare buffer from `home` (an empty one when it is out).
    pub(crate) fn take(home: &'static LocalKey<RefCell<S>>) -> Self {
        let value = home.with(|spare| spare.try_borrow_mut().map(|mut s| take(&mut *s)));
        Self {
            value: value.unwrap_or_default(),
            home,
        }
    }
}

impl<S: Default + 'static> Deref for Lent<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.value
    }
}

impl<S: Default + 'static> DerefMut for Lent<S> {
    fn deref_mut(&mut self) -> &mut S {
        &mut self.value
    }
}

impl<S: Default + 'static> Drop for Lent<S> {
    fn drop(&mut self) {
        let value = take(&mut self.value);
        // NOTE: a thread being torn down has no spare left to fill; the buffer just goes.
        let _ = self.home.try_with(|spare| {
            if let Ok(mut s) = spare.try_borrow_mut() {
                *s = value;
            }
        });
    }
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
