//! Characters as obstacles to each other: the body collider the others meet during their own
//! steps, and the separation pass that pushes overlapping characters apart after a step.
//!
//! Any host of many characters (the hecs runtime, the Bevy plugin, a game's own loop) does
//! the same three things each fixed step, each one call here:
//!
//! 1. [`crate::walker::Walker::admit`] lets a character in: a solid one's body
//!    ([`crate::walker::body_collider`], on [`crate::walker::CHARACTER_LAYER`], never
//!    walkable) goes into the world and its motor excludes it
//!    ([`crate::walker::solid_filter`]); [`move_bodies`] puts the bodies where the characters
//!    stand;
//! 2. every character takes its motor step ([`crate::walker::Walker::step`]), reading the
//!    others' bodies where they stood (so the steps are independent of each other's order and
//!    may run in parallel);
//! 3. [`separate`] takes the characters ([`crate::walker::Walker`]s) and pushes apart the
//!    solid ones that still overlap (two characters walking into each other can overlap by
//!    both their step lengths): a [`Crowd`] of their new poses finds the pairs, each
//!    character's [`Crowd::pushes`] takes it half-way out of the others in its ground plane,
//!    and [`resolve_push`] moves it and resolves it against the scenery, again among the
//!    characters it moved and those near them until nobody overlaps; then [`move_bodies`]
//!    moves the bodies to the final poses.
//!
//! The work of step 3 is spread over the host's threads through [`Pool`], which also lends
//! each thread its working buffers; [`Serial`] runs it in order, [`Threads`] on rayon's pool
//! (feature `rayon`) for a host without a pool of its own, [`Chunked`] on a host's own pool
//! (a [`Spawner`]: Bevy's compute task pool). Every pool gives the same bits.

mod chunked;
mod lent;
mod pairs;
mod separate;
mod threads;

pub use chunked::{Chunked, Job, Spawner};
pub use lent::Lent;
pub use pairs::overlapping_pairs;
pub use separate::{
    Crowd, MAX_SEPARATION_PASSES, Member, SEPARATION_SLOP, SMALL_PASS, resolve_push, separate,
};
pub use threads::Threads;

use crate::step::StepScratch;
use crate::walker::body_pose;
use crate::world::{CollisionWorld, WorldError};
use crate::{ColliderId, Pose, math::Iso};
use std::ops::Range;

/// Moves each character's body collider (`bodies`: its id and the character's pose, world)
/// to [`body_pose`], in one batch of [`CollisionWorld::set_poses`] sorted by id: step 3's
/// close, and a host's way to put the bodies where the characters stand before step 2.
/// `moves` is working space. When the world refuses the batch (an unknown id, a non-finite
/// pose), each body is moved on its own instead, so one bad body never holds the others
/// back.
///
/// # Errors
/// The first [`WorldError`] of a body the world refused (that body stays where it was; every
/// other one moved).
pub fn move_bodies<'a>(
    world: &mut CollisionWorld,
    bodies: impl IntoIterator<Item = (ColliderId, &'a Pose)>,
    moves: &mut Vec<(ColliderId, Iso)>,
) -> Result<(), WorldError> {
    moves.clear();
    moves.extend(bodies.into_iter().map(|(id, pose)| (id, body_pose(pose))));
    moves.sort_unstable_by_key(|(id, _)| *id);
    if world.set_poses(moves).is_ok() {
        return Ok(());
    }
    let mut first = Ok(());
    for (id, pose) in moves.iter() {
        if let Err(e) = world.set_pose(*id, *pose) {
            first = first.and(Err(e));
        }
    }
    first
}

/// How a crowd pass spreads its work over threads. Every method's result is the same
/// whatever the pool: the pass gives the same bits serially and on any number of threads.
pub trait Pool: Sync {
    /// Whether work runs on several threads: the pass then cuts it into chunks.
    fn is_parallel(&self) -> bool;

    /// `f` of every item, in the items' order.
    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U>;

    /// Sorts `items` (unstable: the callers never sort two equal items).
    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]);

    /// `f(scratch)` with the calling thread's working buffers for motor steps and resolves
    /// (a host keeps one per thread, hot in cache, from step to step). The result must not
    /// depend on what the buffers held before. By default a new, empty scratch.
    fn lend<R>(&self, f: impl FnOnce(&mut StepScratch) -> R) -> R {
        f(&mut StepScratch::default())
    }

    /// `f` on every item, each call lent working buffers ([`Pool::lend`]'s kind). `f` must
    /// touch only its own item (and shared reads), so the order never shows. By default
    /// [`in_order`].
    fn for_each<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut StepScratch, &mut T) + Sync + Send,
    ) {
        in_order(self, items, f);
    }

    /// `a()` and `b()`, which touch disjoint data: at the same time on two threads where the
    /// pool can, so that one runs while the other waits on work it cannot share out. By
    /// default one after the other.
    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        (a(), b())
    }
}

/// `f` on every item in order on the calling thread, all through one [`Pool::lend`] of
/// `pool`: [`Pool::for_each`]'s default, and what a pool's own `for_each` does where it
/// keeps the work on the calling thread.
pub fn in_order<T>(
    pool: &(impl Pool + ?Sized),
    items: &mut [T],
    f: impl Fn(&mut StepScratch, &mut T),
) {
    pool.lend(|scratch| items.iter_mut().for_each(|item| f(scratch, item)));
}

/// Consecutive ranges of `0..len` that one job of `pool` takes: `size` long on a parallel
/// pool, all of `0..len` at once on the calling thread.
pub(crate) fn jobs(len: usize, size: usize, pool: &impl Pool) -> Vec<Range<usize>> {
    let size = if pool.is_parallel() { size } else { usize::MAX };
    (0..len)
        .step_by(size)
        .map(|start| start..start.saturating_add(size).min(len))
        .collect()
}

/// A [`Pool`] that runs everything in order on the calling thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Pool for Serial {
    fn is_parallel(&self) -> bool {
        false
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        items.iter().map(f).collect()
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        items.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SphereStack;
    use crate::walker::body_collider;
    use crate::{Point3, UnitVec3, Vec3};

    /// The bodies end at their characters' poses whatever order they are given in; a batch
    /// naming an unknown body still moves every other one, and names the refusal.
    #[test]
    fn move_bodies_moves_every_body_or_none() {
        let stack = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        let mut world = CollisionWorld::new();
        let start = Pose::new(Point3::origin());
        let a = world.insert(body_collider(&stack, &start)).expect("a");
        let b = world.insert(body_collider(&stack, &start)).expect("b");
        let tilted = UnitVec3::new_normalize(Vec3::new(0.3, 1.0, 0.0));
        let to_a = Pose::with_up(Point3::new(3.0, 0.0, -2.0), &tilted);
        let to_b = Pose::new(Point3::new(-1.0, 4.0, 0.5));
        let mut moves = Vec::new();
        move_bodies(&mut world, [(b, &to_b), (a, &to_a)], &mut moves).expect("moved");
        let at = |world: &CollisionWorld, id| world.get(id).map(|c| c.pose);
        assert_eq!(at(&world, a), Some(body_pose(&to_a)));
        assert_eq!(at(&world, b), Some(body_pose(&to_b)));
        let gone = world.insert(body_collider(&stack, &start)).expect("c");
        world.remove(gone).expect("removed");
        let refused = move_bodies(&mut world, [(a, &start), (gone, &start)], &mut moves);
        assert!(refused.is_err());
        assert_eq!(
            at(&world, a),
            Some(body_pose(&start)),
            "an unknown body held a known one back"
        );
    }
}
