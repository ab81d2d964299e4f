//! The separation pass: characters that overlap after their steps are pushed apart, half
//! each, in each one's ground plane (nobody is lifted onto a head), lose their velocity into
//! each other, and are resolved again against the scenery.

use super::{Pool, jobs, overlapping_pairs};
use crate::backend::Geometry;
use crate::math::project_on_plane;
use crate::phases::{Moving, PushBuffers, PushMode, StepContext, pushback};
use crate::step::{REGION_SLACK, StepScratch, stack_box};
use crate::walker::Walker;
use crate::walker::{CHARACTER_LAYER, soft_filter};
use crate::world::CollisionWorld;
use crate::world::geometry::boxes_overlap;
use crate::{ColliderId, Motor, Point3, Pose, Real, UnitVec3, Vec3};
use parry3d::bounding_volume::{Aabb, BoundingVolume};
use std::ops::Range;

/// One character as the separation pass reads it: its body collider's id (which names it
/// and orders the pass), its motor (shape and filter) and its pose after the step (world).
#[derive(Clone, Copy, Debug)]
pub struct Member<'a> {
    /// The character's body collider.
    pub body: ColliderId,
    /// Its motor: the sphere stack is its shape.
    pub motor: &'a Motor,
    /// Its pose after its step (world).
    pub pose: Pose,
}

/// How far a character may be moved by one step's separation passes before the neighbours
/// found where it stood at the first pass may miss somebody it now touches, in radii of its
/// smallest sphere: each character's box is grown by this much (its reach) when its
/// neighbours are found. Only the cost depends on it: a wider reach finds more neighbours
/// (among 10,000 dense walkers the second pass met 6 % more characters with a tenth of a
/// radius than with no reach, 15 % more with a quarter); a narrower one makes more passes
/// meet everybody (in Jolt's crowd scene, one step in 9,000 with a quarter, 8 % of the steps
/// with a tenth, 27 % with a twentieth).
const REACH_IN_RADII: Real = 0.1;

/// One character of a [`Crowd`]: its body, pose, the box of its spheres (world, m), how far
/// (m) it may move before its neighbours must be found again (see [`REACH_IN_RADII`]), and
/// where its spheres and its neighbours lie in the crowd's shared lists.
#[derive(Clone, Debug)]
struct Placed {
    body: ColliderId,
    pose: Pose,
    bounds: Aabb,
    reach: Real,
    spheres: Range<usize>,
    neighbours: Range<usize>,
}

/// The characters of one separation pass after their steps, sorted by body id, with their
/// spheres (world centre, m; radius, m) in one list and, for each, the characters whose
/// spheres' box, grown by both characters' reach, overlaps its own grown so (its neighbours,
/// in body id order) in another.
#[derive(Clone, Debug, Default)]
pub struct Crowd {
    placed: Vec<Placed>,
    spheres: Vec<(Point3, Real)>,
    neighbours: Vec<u32>,
}

/// Characters one job of a parallel pool places.
const CHUNK: usize = 256;

impl Crowd {
    /// The crowd of `members` (any order; two with the same body count as one body), its
    /// neighbours found by [`overlapping_pairs`] among their boxes grown by each one's reach;
    /// the work runs on `pool`.
    pub fn new(mut members: Vec<Member<'_>>, pool: &impl Pool) -> Self {
        members.sort_by_key(|m| m.body);
        let jobs = jobs(members.len(), CHUNK, pool);
        let chunks: Vec<&[Member<'_>]> = jobs.iter().map(|r| &members[r.clone()]).collect();
        let placed_chunks = pool.map(&chunks, |chunk| place(chunk));
        let mut boxes = Vec::with_capacity(members.len());
        for (chunk, (_, chunk_boxes, _)) in chunks.iter().zip(&placed_chunks) {
            let grown = chunk.iter().zip(chunk_boxes);
            boxes.extend(grown.map(|(member, b)| b.loosened(reach(member.motor))));
        }
        // The spheres are joined into one list while the pairs are found, which needs only
        // the boxes.
        let bodies = |k: u32| members[k as usize].body;
        let gather = || {
            let mut crowd = Self {
                placed: Vec::with_capacity(members.len()),
                spheres: Vec::with_capacity(placed_chunks.iter().map(|c| c.0.len()).sum()),
                neighbours: Vec::new(),
            };
            for (chunk, (spheres, bounds, lengths)) in chunks.iter().zip(&placed_chunks) {
                let mut first = crowd.spheres.len();
                for ((member, n), bounds) in chunk.iter().zip(lengths).zip(bounds) {
                    crowd.placed.push(Placed {
                        body: member.body,
                        pose: member.pose,
                        bounds: *bounds,
                        reach: reach(member.motor),
                        spheres: first..first + n,
                        neighbours: 0..0,
                    });
                    first += n;
                }
                crowd.spheres.extend_from_slice(spheres);
            }
            crowd
        };
        let (mut crowd, (neighbours, lists)) = pool.join(gather, || link(&boxes, bodies, pool));
        for (one, list) in crowd.placed.iter_mut().zip(lists) {
            one.neighbours = list;
        }
        crowd.neighbours = neighbours;
        crowd
    }
}

/// Every character's neighbours from the overlapping pairs of `boxes` (one per character, in
/// order; `body` names each by its index): one list holding both directions of every pair
/// between different bodies, and each character's stretch of it, sorted. A lone character has
/// none.
fn link(
    boxes: &[Aabb],
    body: impl Fn(u32) -> ColliderId,
    pool: &impl Pool,
) -> (Vec<u32>, Vec<Range<usize>>) {
    if boxes.len() < 2 {
        return (Vec::new(), vec![0..0; boxes.len()]);
    }
    let mut pairs = overlapping_pairs(boxes, pool);
    pairs.retain(|&(a, b)| body(a) != body(b));
    // Each character's list gets a stretch of `neighbours` as long as its pairs, filled
    // in the pairs' order, then sorted on its own (lists hold a few characters each).
    let mut ends = vec![0usize; boxes.len()];
    for &(a, b) in &pairs {
        ends[a as usize] += 1;
        ends[b as usize] += 1;
    }
    let mut at = 0;
    for end in &mut ends {
        at += *end;
        *end = at;
    }
    let mut neighbours = vec![0u32; at];
    // Filled from each stretch's end backwards, which leaves `ends` at the starts.
    for &(a, b) in &pairs {
        for (me, other) in [(a, b), (b, a)] {
            let slot = &mut ends[me as usize];
            *slot -= 1;
            neighbours[*slot] = other;
        }
    }
    let mut from = 0;
    let mut lists = Vec::with_capacity(boxes.len());
    for k in 0..boxes.len() {
        let to = ends.get(k + 1).map_or(at, |next| *next);
        neighbours[from..to].sort_unstable();
        lists.push(from..to);
        from = to;
    }
    (neighbours, lists)
}

impl Crowd {
    /// How many characters the crowd holds.
    pub fn len(&self) -> usize {
        self.placed.len()
    }

    /// Whether the crowd holds no character.
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// Every character that overlaps another by more than `slop` (m), with the displacement
    /// (m, world, in its ground plane) that takes it half-way out of each one it overlaps so,
    /// sorted by body id; the work runs on `pool`. Look one up with [`Crowd::push_of`].
    pub fn pushes(&self, pool: &impl Pool, slop: Real) -> Vec<(ColliderId, Vec3)> {
        // Most characters overlap nobody: each chunk keeps only its pushes, so joining them
        // walks the few found rather than an answer per character.
        let found = pool.map(&jobs(self.placed.len(), CHUNK, pool), |chunk| {
            let pushed = self.placed[chunk.clone()].iter();
            let pushes = pushed.filter_map(|me| Some((me.body, self.push(me, slop)?)));
            pushes.collect::<Vec<_>>()
        });
        found.concat()
    }

    /// The bodies of every character in `pushes` (from [`Crowd::pushes`]) and of all their
    /// neighbours, sorted: the only characters that can overlap anybody once the pushes are
    /// applied, for the next pass of [`separate`], as long as nobody has moved further than
    /// its reach since this crowd was built (what [`Crowd::strayed`] tells).
    pub fn around(&self, pushes: &[(ColliderId, Vec3)]) -> Vec<ColliderId> {
        // Marked by place, then read in place order, which is body order: sorted without a
        // sort (and a body placed twice, which the crowd counts as one, read once).
        let mut marked = vec![false; self.placed.len()];
        for (body, _) in pushes {
            let Ok(k) = self.placed.binary_search_by_key(body, |one| one.body) else {
                continue;
            };
            marked[k] = true;
            for &n in &self.neighbours[self.placed[k].neighbours.clone()] {
                marked[n as usize] = true;
            }
        }
        let kept = self.placed.iter().zip(&marked).filter(|(_, m)| **m);
        let mut out: Vec<ColliderId> = kept.map(|(one, _)| one.body).collect();
        out.dedup();
        out
    }

    /// Whether a character of `later` (a crowd of some of the same characters, built since)
    /// stands further from where this crowd placed it than its reach along some axis (or one
    /// this crowd lacks is in it): then this crowd's neighbours may miss a pair that overlaps
    /// now, and [`Crowd::around`] no longer holds.
    pub fn strayed(&self, later: &Crowd) -> bool {
        // Both are sorted by body: one walk along this crowd finds each of `later`'s.
        let mut mine = self.placed.iter().peekable();
        later.placed.iter().any(|now| {
            while mine.next_if(|was| was.body < now.body).is_some() {}
            match mine.peek() {
                Some(was) if was.body == now.body => {
                    let moved = now.pose.position - was.pose.position;
                    // A NaN move strays too.
                    moved.iter().any(|v| v.is_nan() || v.abs() > was.reach)
                }
                _ => true,
            }
        })
    }

    /// The push of the character with body `body` in `pushes` (from [`Crowd::pushes`]).
    pub fn push_of(pushes: &[(ColliderId, Vec3)], body: ColliderId) -> Option<Vec3> {
        let k = pushes.binary_search_by_key(&body, |(id, _)| *id).ok()?;
        Some(pushes[k].1)
    }

    /// Each of `items` whose body (`body_of`) has a push in `pushes` (from
    /// [`Crowd::pushes`]), with that push, in order. `items` must be sorted by body id: each
    /// push looks its character up in what is left after the last one found, so a pass that
    /// pushed a few of a big crowd costs a few searches, not a walk over everybody.
    pub fn pushed<'a, T>(
        items: &'a mut [T],
        body_of: impl Fn(&T) -> ColliderId,
        pushes: &[(ColliderId, Vec3)],
    ) -> Vec<(&'a mut T, Vec3)> {
        let mut out = Vec::with_capacity(pushes.len());
        let mut rest = items;
        for &(body, push) in pushes {
            let Ok(k) = rest.binary_search_by_key(&body, &body_of) else {
                continue;
            };
            let Some((item, tail)) = std::mem::take(&mut rest)[k..].split_first_mut() else {
                break;
            };
            out.push((item, push));
            rest = tail;
        }
        out
    }

    /// The spheres of `one`.
    fn spheres(&self, one: &Placed) -> &[(Point3, Real)] {
        &self.spheres[one.spheres.clone()]
    }

    /// The displacement that takes `me` half-way out of every neighbour it overlaps by more
    /// than `slop` (m); `None` when it overlaps nobody so.
    fn push(&self, me: &Placed, slop: Real) -> Option<Vec3> {
        let mine = self.spheres(me);
        let up = me.pose.up();
        let mut push = Vec3::zeros();
        let list = &self.neighbours[me.neighbours.clone()];
        for other in list.iter().map(|&n| &self.placed[n as usize]) {
            // A neighbour within reach whose spheres' box misses its own cannot overlap it.
            if !boxes_overlap(&me.bounds, &other.bounds) {
                continue;
            }
            let theirs = self.spheres(other);
            match deepest_overlap((me, mine), (other, theirs), &up) {
                Some((depth, dir)) if depth > slop => push += dir.into_inner() * (0.5 * depth),
                _ => {}
            }
        }
        (push != Vec3::zeros()).then_some(push)
    }
}

/// Characters below which a pass of [`separate`] runs on the calling thread whatever the host's
/// pool (the result is the same either way).
pub const SMALL_PASS: usize = 512;

/// The most passes [`separate`] runs in one step. Each pass after the first meets only the
/// characters pushed by the one before and their neighbours (everybody within their reach
/// where the first pass found them).
pub const MAX_SEPARATION_PASSES: usize = 8;

/// Overlap (m) the passes after the first leave alone: 0.1 mm, a hundredth of the default
/// skin width. Smaller leftovers are f32 rounding of the pushes, which would keep every pass
/// busy for nothing.
pub const SEPARATION_SLOP: Real = 1e-4;

/// Where one part of a [`separate`] pass runs: on the calling thread when it has fewer than
/// [`SMALL_PASS`] characters, which are quicker there than handed round, else on the host's
/// pool; either way with the host's working buffers ([`Pool::lend`]).
#[derive(Clone, Copy, Debug)]
struct PassPool<'a, P> {
    /// The host's pool.
    pool: &'a P,
    /// Whether the work goes to it (else it stays on the calling thread).
    shared: bool,
}

impl<'a, P: Pool> PassPool<'a, P> {
    /// The pool for work over `count` characters: `pool` from [`SMALL_PASS`] up, else the
    /// calling thread.
    fn for_count(pool: &'a P, count: usize) -> Self {
        Self {
            pool,
            shared: count >= SMALL_PASS,
        }
    }
}

impl<P: Pool> Pool for PassPool<'_, P> {
    fn is_parallel(&self) -> bool {
        self.shared && self.pool.is_parallel()
    }

    fn map<T: Sync, U: Send + 'static>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> U + Sync + Send,
    ) -> Vec<U> {
        if self.shared {
            self.pool.map(items, f)
        } else {
            super::Serial.map(items, f)
        }
    }

    fn sort_unstable<T: Ord + Send>(&self, items: &mut [T]) {
        if self.shared {
            self.pool.sort_unstable(items);
        } else {
            items.sort_unstable();
        }
    }

    fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        if self.shared {
            self.pool.join(a, b)
        } else {
            (a(), b())
        }
    }

    fn lend<R>(&self, f: impl FnOnce(&mut StepScratch) -> R) -> R {
        self.pool.lend(f)
    }

    fn for_each<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut StepScratch, &mut T) + Sync + Send,
    ) {
        if self.shared {
            self.pool.for_each(items, f);
        } else {
            super::in_order(self.pool, items, f);
        }
    }
}

/// A character taking part in the separation, with its body (held by value: the passes look
/// characters up by it, and read it from one stretch of memory).
type Solid<'w> = (ColliderId, &'w mut Walker);

/// `walker` with its body when it takes part in the separation: it has a body, and `world`
/// still holds it ([`Walker::held_body`]: a body the game removed takes no part).
fn solid<'w>(walker: &'w mut Walker, world: &CollisionWorld) -> Option<Solid<'w>> {
    let body = walker.held_body(world)?;
    Some((body, walker))
}

/// The separation of one step among `walkers` (any order) in `world`, on `pool`: passes of
/// [`Crowd::pushes`], each applied with [`resolve_push`], until nobody overlaps (the first
/// pass: at all; the later ones: by more than [`SEPARATION_SLOP`]) or
/// [`MAX_SEPARATION_PASSES`] ran. Only solid characters take part: those whose body `world`
/// holds. One pass pushes each overlapping pair half-way apart each; it leaves overlaps where
/// a character is pushed by several others at once or the scenery holds one side back, which
/// the next passes take out. A push can also move a character into one it did not touch: each
/// pass after the first meets the characters the last one pushed and their neighbours as found
/// in the first pass, each character's box grown by its reach (a tenth of its smallest
/// radius), so every pair a push can bring together is met while nobody moved further than
/// that; when somebody did ([`Crowd::strayed`]), the pass meets everybody again and finds
/// their neighbours anew. Each part runs on `pool` or on the calling thread by its size
/// ([`SMALL_PASS`]); the bits are the same either way. The bodies are not moved: that is the
/// caller's ([`super::move_bodies`]). Returns how many passes pushed somebody.
pub fn separate<'w>(
    pool: &impl Pool,
    world: &CollisionWorld,
    walkers: impl IntoIterator<Item = &'w mut Walker>,
) -> usize {
    let walkers = walkers.into_iter();
    // Fewer than two cannot overlap: a lone character's step makes no list.
    if walkers.size_hint().1.is_some_and(|most| most < 2) {
        return 0;
    }
    let mut solid: Vec<Solid<'w>> = walkers.filter_map(|w| solid(w, world)).collect();
    if solid.len() < 2 {
        return 0;
    }
    // Sorted once for every pass, in body order.
    solid.sort_by_key(|(body, _)| *body);
    let characters = solid.len();
    // The last crowd of everybody, whose neighbours (found within each one's reach) name the
    // next pass's characters.
    let mut everybody: Option<Crowd> = None;
    let mut only: Option<Vec<ColliderId>> = None;
    for pass in 0..MAX_SEPARATION_PASSES {
        let mut on = PassPool::for_count(pool, only.as_ref().map_or(characters, Vec::len));
        let mut crowd = crowd_of(&solid, only.as_deref(), &on);
        if let Some(all) = &everybody
            && all.strayed(&crowd)
        {
            // Pushed, or resolved against the scenery, further than its reach: everybody's
            // neighbours are found again where they stand now.
            on = PassPool::for_count(pool, characters);
            crowd = crowd_of(&solid, None, &on);
            everybody = None;
        }
        let slop = if pass == 0 { 0.0 } else { SEPARATION_SLOP };
        let pushes = crowd.pushes(&on, slop);
        if pushes.is_empty() {
            return pass;
        }
        let all = everybody.get_or_insert(crowd);
        // The next pass's characters are found while this one's pushes are applied: both
        // read the crowds as they were built, and only the pushes move anybody.
        let pushing = PassPool::for_count(pool, pushes.len());
        let apply = || apply_pushes(&mut solid, world, &pushes, &pushing);
        let (_, around) = on.join(apply, || all.around(&pushes));
        only = Some(around);
    }
    MAX_SEPARATION_PASSES
}

/// The [`Crowd`] of `solid` (sorted by body) at their current poses, on `pool`: all of them
/// for `None`, else those whose body is in `only` (sorted).
fn crowd_of(solid: &[Solid<'_>], only: Option<&[ColliderId]>, pool: &impl Pool) -> Crowd {
    fn member<'a>((body, w): &'a Solid<'_>) -> Member<'a> {
        Member {
            body: *body,
            motor: &w.motor,
            pose: w.pose,
        }
    }
    let members = match only {
        None => solid.iter().map(member).collect(),
        Some(list) => {
            // Both lists are in body order: one walk along both finds the characters.
            let mut wanted = list.iter().peekable();
            let mut out = Vec::with_capacity(list.len());
            for item in solid {
                while wanted.next_if(|id| **id < item.0).is_some() {}
                if wanted.next_if_eq(&&item.0).is_some() {
                    out.push(member(item));
                }
            }
            out
        }
    };
    Crowd::new(members, pool)
}

/// Moves each of `solid` (sorted by body) that has a push in `pushes` by it, with
/// [`resolve_push`] against `world`, on `pool`.
fn apply_pushes(
    solid: &mut [Solid<'_>],
    world: &CollisionWorld,
    pushes: &[(ColliderId, Vec3)],
    pool: &impl Pool,
) {
    let mut moved = Crowd::pushed(solid, |(body, _)| *body, pushes);
    pool.for_each(&mut moved, |scratch, ((_, w), push)| {
        resolve_push(w, world, push, scratch);
    });
}

/// How far (m) the character of `motor` may move before its neighbours must be found again:
/// [`REACH_IN_RADII`] of its smallest sphere.
fn reach(motor: &Motor) -> Real {
    REACH_IN_RADII * motor.stack().min_radius()
}

/// What [`place`] gives for a chunk of members: their spheres in one list, the box of each
/// one's spheres, and how many spheres each has.
type Spheres = (Vec<(Point3, Real)>, Vec<Aabb>, Vec<usize>);

/// The spheres (world centre, m; radius, m) of every member of `chunk`, the bounding box
/// (world, m) of each one's spheres, and how many spheres each has.
fn place(chunk: &[Member<'_>]) -> Spheres {
    let count = chunk.iter().map(|m| m.motor.stack().spheres().len()).sum();
    let mut spheres = Vec::with_capacity(count);
    let mut boxes = Vec::with_capacity(chunk.len());
    let mut lengths = Vec::with_capacity(chunk.len());
    for member in chunk {
        let stack = member.motor.stack();
        let first = spheres.len();
        let radii = stack.spheres().iter().map(|s| s.radius);
        spheres.extend(member.pose.sphere_centres(stack).zip(radii));
        boxes.push(bounds(&spheres[first..]));
        lengths.push(spheres.len() - first);
    }
    (spheres, boxes, lengths)
}

/// The bounding box (world, m) of `spheres`; an empty box (overlapping nothing) for none.
fn bounds(spheres: &[(Point3, Real)]) -> Aabb {
    spheres
        .iter()
        .map(|(c, r)| Aabb::new(c - Vec3::repeat(*r), c + Vec3::repeat(*r)))
        .reduce(|a, b| a.merged(&b))
        .unwrap_or_else(Aabb::new_invalid)
}

/// The deepest sphere-pair overlap (m) between two characters and the direction (unit, in
/// `up`'s plane) pushing `a` away from `b`.
fn deepest_overlap(
    (a, a_spheres): (&Placed, &[(Point3, Real)]),
    (b, b_spheres): (&Placed, &[(Point3, Real)]),
    up: &UnitVec3,
) -> Option<(Real, UnitVec3)> {
    let mut best: Option<(Real, UnitVec3)> = None;
    for (ca, ra) in a_spheres {
        for (cb, rb) in b_spheres {
            let apart = ca - cb;
            let depth = ra + rb - apart.norm();
            if depth <= 0.0 || best.is_some_and(|(d, _)| d >= depth) {
                continue;
            }
            // Straight above or below each other: push along the line between the feet.
            let dir = UnitVec3::try_new(project_on_plane(&apart, up), 1e-6).or_else(|| {
                UnitVec3::try_new(
                    project_on_plane(&(a.pose.position - b.pose.position), up),
                    1e-6,
                )
            });
            if let Some(dir) = dir {
                best = Some((depth, dir));
            }
        }
    }
    best
}

/// Moves `walker` by `push` (m, world; from [`Crowd::pushes`]), removes its velocity into
/// the push, and resolves it against `world` without the other characters' bodies (which the
/// push just cleared). `scratch` is working space: the step's own kind, so a host may keep
/// one per thread for both.
///
/// The resolve first looks only at what lies around the pushed stack, as far as a pushback
/// out of what the push moved it into can take it (the push's length, twice the skin width
/// and some slack); when it reached past that, it runs again over a cube reaching the stack's
/// height around it, as the step falls back on its wide region.
pub fn resolve_push(
    walker: &mut Walker,
    world: &dyn Geometry,
    push: &Vec3,
    scratch: &mut StepScratch,
) {
    walker.pose.position += push;
    let state = &mut walker.state;
    if let Some(dir) = UnitVec3::try_new(*push, 1e-9) {
        let into = state.velocity.dot(&dir);
        if into < 0.0 {
            state.velocity -= dir.into_inner() * into;
        }
    }
    let motor = &walker.motor;
    let skin = motor.settings().skin_width;
    let start = (walker.pose, walker.state.velocity);
    let tight = stack_box(motor, &walker.pose, push.norm() + 2.0 * skin + REGION_SLACK);
    if resolve_within(walker, world, &tight, true, scratch) {
        return;
    }
    (walker.pose, walker.state.velocity) = start;
    let reach = Vec3::repeat(walker.motor.stack().height() + push.norm());
    let at = walker.pose.position;
    let wide = Aabb::new(at - reach, at + reach);
    resolve_within(walker, world, &wide, false, scratch);
}

/// One resolve of [`resolve_push`]: the pushback of `walker`'s stack out of the primitives
/// of `world` within `region` (world, m), leaving every character's body out, the pushback
/// bounded to the region when `bounded`. False when a bounded resolve reached past the
/// region: a pushback cut short at its edge, or the stack ending within the skin width of
/// it; the result is then not to be kept.
fn resolve_within(
    walker: &mut Walker,
    world: &dyn Geometry,
    region: &Aabb,
    bounded: bool,
    scratch: &mut StepScratch,
) -> bool {
    let StepScratch {
        ids,
        prims,
        contacts,
        trial_hits: hits,
    } = scratch;
    let Walker {
        motor, pose, state, ..
    } = walker;
    let filter = soft_filter(motor.filter());
    debug_assert_eq!(filter.mask & CHARACTER_LAYER, 0);
    prims.clear();
    world.gather_primitives(region, &filter, ids, prims);
    contacts.begin_attempt(None);
    let ctx = StepContext {
        bounds: bounded.then_some(*region),
        ..motor.context(world, prims)
    };
    let mut velocity = state.velocity;
    hits.clear();
    let stack = Moving::new(pose, &mut velocity);
    let buffers = PushBuffers::new(contacts, hits);
    pushback(&ctx, stack, PushMode::Grounded, &Vec3::zeros(), buffers);
    state.velocity = velocity;
    let skin = motor.settings().skin_width;
    !bounded || (!contacts.reached_edge() && region.contains(&stack_box(motor, pose, skin)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::Serial;

    /// A motor of a 1.8 m capsule stack of three 0.3 m spheres, default settings.
    fn capsule_motor() -> Motor {
        Motor::new(
            crate::SphereStack::capsule(1.8, 0.3, 3).expect("a capsule"),
            crate::MotorSettings::default(),
        )
        .expect("a motor")
    }

    /// `Crowd::pushed` pairs exactly the items with a push, in order, skipping pushes of
    /// bodies no item has and items without a push, at either end of either list.
    #[test]
    fn pushed_pairs_each_item_with_its_own_push() {
        let id = |i: u32| ColliderId::new(i, 0);
        let mut items: Vec<(ColliderId, u32)> = [1, 2, 3, 5, 8].map(|i| (id(i), i * 10)).to_vec();
        let push = |x: Real| Vec3::new(x, 0.0, 0.0);
        let pushes = [
            (id(0), push(9.0)),
            (id(2), push(1.0)),
            (id(4), push(9.0)),
            (id(8), push(2.0)),
            (id(9), push(9.0)),
        ];
        let found: Vec<(u32, Vec3)> = Crowd::pushed(&mut items, |item| item.0, &pushes)
            .into_iter()
            .map(|(item, p)| (item.1, p))
            .collect();
        assert_eq!(found, vec![(20, push(1.0)), (80, push(2.0))]);
        // The items found are the caller's own, to move.
        for (item, p) in Crowd::pushed(&mut items, |item| item.0, &pushes) {
            item.1 += p.x as u32;
        }
        assert_eq!(
            items.iter().map(|i| i.1).collect::<Vec<_>>(),
            [10, 21, 30, 50, 82]
        );
        assert!(Crowd::pushed(&mut items, |item| item.0, &[]).is_empty());
    }

    /// The deepest overlap (m) between two of `row`'s characters (single spheres of radius
    /// `r` on the x axis).
    fn worst_in_row(row: &[(ColliderId, Pose)], r: Real) -> Real {
        let mut worst: Real = 0.0;
        for (i, (_, a)) in row.iter().enumerate() {
            for (_, b) in &row[i + 1..] {
                worst = worst.max(2.0 * r - (a.position - b.position).norm());
            }
        }
        worst
    }

    /// A push can move a character into one it did not touch: in a row of three 0.6 m wide
    /// characters, the first pass pushes the middle one into the third, whose box was clear of
    /// its own when the pass found its neighbours. The next passes must meet that pair too.
    /// At x = 0, 0.56 and 1.17 m the middle one moves 20 mm, within its reach (30 mm: a tenth
    /// of its radius), toward the third 10 mm away: the neighbours found within reach name it.
    /// At x = 0, 0.5 and 1.12 m it moves 50 mm, past its reach, toward the third 20 mm away:
    /// that pass meets everybody. After the eight passes (each halving what is left, worked
    /// by hand) the rows overlap by 0.078 and 0.234 mm at most, where passes among the pushed
    /// and their neighbours of before the push left 10 and 30 mm.
    #[test]
    fn a_push_into_a_character_it_did_not_touch_is_taken_out() {
        let r = 0.3;
        let motor = Motor::new(
            crate::SphereStack::new(&[(r, r)]).expect("one sphere"),
            crate::MotorSettings::default(),
        )
        .expect("a motor");
        // (the row, its deepest overlap after, where its ends end; m)
        let rows = [
            ([0.0, 0.56, 1.17], 0.000_078, [-0.023_28, 1.176_64]),
            ([0.0, 0.5, 1.12], 0.000_234, [-0.059_84, 1.139_92]),
        ];
        for (xs, worst, ends) in rows {
            // An empty world but for the three bodies: the resolves meet nothing.
            let mut world = CollisionWorld::new();
            let mut walkers: Vec<Walker> = xs
                .iter()
                .map(|&x| {
                    let pose = Pose::new(Point3::new(x, 0.0, 0.0));
                    Walker::admit(motor.clone(), &mut world, pose, true).expect("admitted")
                })
                .collect();
            let passes = separate(&Serial, &world, walkers.iter_mut());
            assert_eq!(passes, MAX_SEPARATION_PASSES);
            let row: Vec<(ColliderId, Pose)> = walkers
                .iter()
                .map(|w| (w.body.expect("solid"), w.pose))
                .collect();
            // 0.01 mm for the f32 rounding of the pushes.
            approx::assert_abs_diff_eq!(worst_in_row(&row, r), worst, epsilon = 1e-5);
            approx::assert_abs_diff_eq!(row[0].1.position.x, ends[0], epsilon = 1e-5);
            approx::assert_abs_diff_eq!(row[2].1.position.x, ends[1], epsilon = 1e-5);
        }
    }

    /// `Crowd::strayed` tells when somebody of a later crowd stands further from where the
    /// first placed it than its reach (a tenth of its 0.3 m radius: 30 mm) along some axis,
    /// is new to it, or stands at NaN; moving up to the reach, or not at all, is not straying.
    #[test]
    fn strayed_is_a_move_past_the_reach() {
        let motor = capsule_motor();
        let crowd = |at: &[(u32, Point3)]| {
            let members = at
                .iter()
                .map(|&(body, p)| Member {
                    body: ColliderId::new(body, 0),
                    motor: &motor,
                    pose: Pose::new(p),
                })
                .collect();
            Crowd::new(members, &Serial)
        };
        let first = crowd(&[(1, Point3::origin()), (4, Point3::new(5.0, 0.0, 0.0))]);
        let moved = |by: Vec3| crowd(&[(4, Point3::new(5.0, 0.0, 0.0) + by)]);
        assert!(!first.strayed(&moved(Vec3::zeros())));
        // 29 mm along each axis at once: within 30 mm along every one.
        assert!(!first.strayed(&moved(Vec3::repeat(0.029))));
        assert!(first.strayed(&moved(Vec3::new(0.0, 0.0, -0.031))));
        assert!(first.strayed(&moved(Vec3::new(Real::NAN, 0.0, 0.0))));
        assert!(first.strayed(&crowd(&[(2, Point3::origin())])));
        assert!(!first.strayed(&crowd(&[])));
    }

    /// `Crowd::around` gives, sorted and once each, the pushed characters and everyone
    /// whose box overlaps theirs: a row of three, a pair and a loner, members handed in any
    /// order.
    #[test]
    fn around_is_the_pushed_and_their_neighbours() {
        let motor = capsule_motor();
        // Bodies 1, 2, 3 in a row 0.5 m apart (0.6 m wide: each touches the next), 5 alone,
        // 7 and 9 a pair; handed in shuffled order.
        let at = [(9, 10.4), (3, 1.0), (5, 3.0), (1, 0.0), (7, 10.0), (2, 0.5)];
        let members = at
            .iter()
            .map(|&(body, x)| Member {
                body: ColliderId::new(body, 0),
                motor: &motor,
                pose: Pose::new(Point3::new(x, 0.0, 0.0)),
            })
            .collect();
        let crowd = Crowd::new(members, &Serial);
        let pushes = crowd.pushes(&Serial, 0.0);
        let ids = |list: &[u32]| {
            list.iter()
                .map(|&i| ColliderId::new(i, 0))
                .collect::<Vec<_>>()
        };
        // 2, pushed equally from both sides, does not move.
        let pushed: Vec<ColliderId> = pushes.iter().map(|(b, _)| *b).collect();
        assert_eq!(pushed, ids(&[1, 3, 7, 9]));
        assert_eq!(crowd.around(&pushes), ids(&[1, 2, 3, 7, 9]));
        // One push at a time: itself and its neighbours only.
        let one = |k: usize| crowd.around(&pushes[k..=k]);
        assert_eq!(one(0), ids(&[1, 2]));
        assert_eq!(one(1), ids(&[2, 3]));
        assert_eq!(one(2), ids(&[7, 9]));
        // A push for a body the crowd lacks names nobody.
        let stranger = [(ColliderId::new(4, 0), Vec3::x())];
        assert!(crowd.around(&stranger).is_empty());
    }
}
