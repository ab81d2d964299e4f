//! Character-vs-character separation after the motor step, on the core's
//! [`spherewalk_core::crowd`] pass.
//!
//! During the step every character collides with the others' bodies where they stood at the
//! start of the step (so stepping in parallel gives the same result as stepping in series).
//! Two characters walking into each other can therefore end a step overlapping by up to the
//! sum of their step lengths; this pass pushes every overlapping pair apart, half each, in each
//! character's ground plane (nobody is lifted onto a head), removes the velocity into the
//! other, and re-resolves the pushed character against the static geometry. It runs again
//! among the characters it moved and those near them until nobody overlaps (at most
//! [`spherewalk_core::crowd::MAX_SEPARATION_PASSES`] passes: the core's
//! [`spherewalk_core::crowd::separate`]).

use super::Lent;
use super::gathered::Gathered;
use crate::components::Character;
use spherewalk_core::crowd::{Crowd, Member, PassPool, Pool, resolve_push, separate};
use spherewalk_core::motor::StepScratch;
use spherewalk_core::{ColliderId, CollisionWorld, MotorState, Pose, Vec3};

/// The runtime's [`Pool`]: rayon's when `parallel` is asked for and the `parallel` feature is
/// on, else the calling thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rayon {
    /// Run on rayon's pool.
    pub(crate) parallel: bool,
}

impl Pool for Rayon {
    fn is_parallel(&self) -> bool {
        self.parallel && cfg!(feature = "parallel")
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        super::filter_map_init(items, self.parallel, || (), |(), item| Some(f(item)))
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        super::sort_unstable(items, self.parallel);
    }

    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        super::join(self.parallel, a, b)
    }
}

/// The pool one part of a separation pass runs on.
type On<'a> = PassPool<'a, Rayon>;

/// The separation pass's view of one character's components.
fn member<'a>((body, character, pose, _): &'a Pushed<'_>) -> Member<'a> {
    Member {
        body: *body,
        motor: &character.motor,
        pose: **pose,
    }
}

/// One character's components for [`resolve_push`], after its body collider's id (held by
/// value: the passes look characters up by it, and read it from one stretch of memory).
type Pushed<'a> = (ColliderId, &'a Character, &'a mut Pose, &'a mut MotorState);

/// Pushes apart characters whose bodies overlap after the step (see the module docs). With
/// `parallel` (feature `parallel`) the pushes are found and applied on rayon's pool; each
/// character reads the shared world and writes only itself, so the result is identical to
/// the serial run.
///
/// Each pass finds overlapping characters among their poses directly (a sorted cell grid
/// joined with itself: over all of them in the first pass, over those the last pass moved and
/// their neighbours in the next) rather than through their body colliders, so those move only
/// once, at the end. A character whose body collider the game removed from the world takes no
/// part.
///
/// The closing body sync is the caller's ([`super::finish_gathered`], which may run beside
/// other work).
pub(crate) fn separate_gathered(
    items: &mut [Gathered<'_>],
    collision: &CollisionWorld,
    parallel: bool,
) {
    // One character overlaps nobody: skip gathering the pass's list.
    if items.len() > 1 {
        let pushed = items
            .iter_mut()
            .filter_map(|c| {
                let body = c.body.filter(|b| collision.get(b.0).is_some())?;
                Some((body.0, c.character, &mut *c.pose, &mut *c.state))
            })
            .collect();
        separate_pushed(pushed, collision, parallel);
    }
}

/// The separation passes over `items` (in any order), with the static world `shared`.
fn separate_pushed(mut items: Vec<Pushed<'_>>, shared: &CollisionWorld, parallel: bool) {
    let pool = Rayon { parallel };
    // Gathered once for every pass, in body order.
    items.sort_by_key(|(b, ..)| *b);
    let crowd_of = |items: &Vec<Pushed<'_>>, only: Option<&[ColliderId]>, on: &On<'_>| {
        // Items are in body order, and so is a later pass's list (`Crowd::around`): one walk
        // along both finds its characters.
        let members = match only {
            None => items.iter().map(member).collect(),
            Some(list) => {
                let mut wanted = list.iter().peekable();
                let mut out = Vec::with_capacity(list.len());
                for item in items {
                    while wanted.next_if(|id| **id < item.0).is_some() {}
                    if wanted.next_if_eq(&&item.0).is_some() {
                        out.push(member(item));
                    }
                }
                out
            }
        };
        Crowd::new(members, on)
    };
    let apply = |items: &mut Vec<Pushed<'_>>, pushes: &[(ColliderId, Vec3)], on: &On<'_>| {
        let mut moved = Crowd::pushed(items, |item| item.0, pushes);
        let resolve =
            |scratch: &mut Lent<StepScratch>,
             ((_, c, pose, state), push): &mut (&mut Pushed<'_>, Vec3)| {
                resolve_push(&c.motor, shared, (pose, state), push, scratch);
            };
        let lend = || Lent::take(&super::SCRATCH);
        super::for_each_init(&mut moved, on.is_parallel(), lend, resolve);
    };
    separate(&pool, items.len(), &mut items, crowd_of, apply);
}
