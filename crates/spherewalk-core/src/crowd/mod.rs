//! Characters as obstacles to each other: the body collider the others meet during their own
//! steps, and the separation pass that pushes overlapping characters apart after a step.
//!
//! Any host of many characters (the hecs runtime, the Bevy plugin, a game's own loop) does
//! the same three things each fixed step:
//!
//! 1. every solid character's body ([`body_collider`], on [`CHARACTER_LAYER`], never
//!    walkable) stands where the character stood at the start of the step, and each
//!    character's motor excludes its own body ([`solid_filter`]);
//! 2. every character takes its motor step, reading the others' bodies where they stood (so
//!    the steps are independent of each other's order and may run in parallel);
//! 3. a [`Crowd`] of the characters' new poses finds the pairs that still overlap (two
//!    characters walking into each other can overlap by both their step lengths), each
//!    character's [`Crowd::pushes`] half-way out of the others in its ground plane, and
//!    [`resolve_push`] moves it and resolves it against the scenery; [`separate`] repeats
//!    this among the characters it moved and their neighbours until nobody overlaps; then the
//!    bodies move to the final poses.
//!
//! The work of step 3 may be spread over a thread pool through [`Pool`]; [`Serial`] runs it
//! in order. Every pool gives the same bits.

mod pairs;
mod separate;

pub use pairs::overlapping_pairs;
pub use separate::{
    Crowd, MAX_SEPARATION_PASSES, Member, PassPool, SEPARATION_SLOP, SMALL_PASS, SeparationScratch,
    resolve_push, separate,
};

use crate::{ColliderDesc, ColliderId, Pose, SphereStack, math::Iso, world::QueryFilter};

/// Layer bit of characters' body colliders: a [`QueryFilter`] whose mask lacks it ignores
/// characters.
pub const CHARACTER_LAYER: u32 = 1 << 31;

/// The world pose of the body collider of a character at `pose`: the character's own frame
/// (its feet at the origin, its up along local +Y).
pub fn body_pose(pose: &Pose) -> Iso {
    pose.iso()
}

/// The body collider of a character of `stack` at `pose` (world): the compound of its spheres
/// ([`SphereStack::body_shape`]), on [`CHARACTER_LAYER`] only, not walkable (nobody stands on
/// a head), filed in the world's cell grid (bodies move every step), flagged as a character's
/// body (it yields: [`crate::world::ColliderFlags::character`]).
pub fn body_collider(stack: &SphereStack, pose: &Pose) -> ColliderDesc {
    ColliderDesc::new(stack.body_shape())
        .pose(body_pose(pose))
        .layers(CHARACTER_LAYER)
        .not_walkable()
        .on_grid()
        .character_body()
}

/// The filter of a solid character's motor whose own filter is `own`: the same layers, its
/// own body (`body`) left out.
pub fn solid_filter(own: &QueryFilter, body: ColliderId) -> QueryFilter {
    QueryFilter {
        mask: own.mask,
        exclude: Some(body),
    }
}

/// The filter of a soft character's motor whose own filter is `own`: it walks through the
/// other characters' bodies and meets them only in the separation pass.
pub fn soft_filter(own: &QueryFilter) -> QueryFilter {
    QueryFilter {
        mask: own.mask & !CHARACTER_LAYER,
        exclude: own.exclude,
    }
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
