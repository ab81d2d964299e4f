//! Character-vs-character separation after the motor step.
//!
//! During the step every character collides with the others' bodies where they stood at the
//! start of the step (so stepping in parallel gives the same result as stepping in series).
//! Two characters walking into each other can therefore end a step overlapping by up to the
//! sum of their step lengths; this pass pushes every overlapping pair apart, half each, in each
//! character's ground plane (nobody is lifted onto a head), removes the velocity into the
//! other, and re-resolves the pushed character against the static geometry.

use crate::body::CHARACTER_LAYER;
use crate::body::sync_bodies;
use crate::components::{Body, Character};
use hecs::World;
use spherewalk_core::backend::Geometry;
use spherewalk_core::math::project_on_plane;
use spherewalk_core::parry3d::bounding_volume::{Aabb, BoundingVolume};
use spherewalk_core::{
    ColliderId, CollisionWorld, Motor, MotorState, Point3, Pose, Real, UnitVec3, Vec3,
    phases::ContactBuffer, phases::Moving, phases::PushBuffers, phases::PushMode, phases::pushback,
    world::QueryFilter,
};
use std::ops::Range;

/// One character as the separation pass sees it: its body, pose, and where its spheres and
/// its neighbours lie in the pass's shared lists.
struct Snapshot {
    body: ColliderId,
    pose: Pose,
    spheres: Range<usize>,
    neighbours: Range<usize>,
}

/// Every character's snapshot, sorted by body id; their spheres (world centre, m; radius, m)
/// in one list; and their neighbours in another: for each character, the characters whose
/// spheres' box overlaps its own, as snapshot indices in ascending (body id) order.
struct Crowd {
    snaps: Vec<Snapshot>,
    spheres: Vec<(Point3, Real)>,
    neighbours: Vec<u32>,
}

impl Crowd {
    /// The spheres of `snap`.
    fn spheres(&self, snap: &Snapshot) -> &[(Point3, Real)] {
        &self.spheres[snap.spheres.clone()]
    }

    /// The snapshots of the neighbours of `snap`, in body id order.
    fn neighbours(&self, snap: &Snapshot) -> impl Iterator<Item = &Snapshot> {
        let list = &self.neighbours[snap.neighbours.clone()];
        list.iter().map(|&n| &self.snaps[n as usize])
    }
}

/// Working buffers one thread of the pass reuses from character to character.
#[derive(Default)]
struct Scratch {
    ids: Vec<ColliderId>,
    prims: Vec<spherewalk_core::backend::Primitive>,
    contacts: ContactBuffer,
    hits: Vec<spherewalk_core::contact::Hit>,
}

/// One character's components for [`apply_push`].
type Pushed<'a> = (&'a Body, &'a Character, &'a mut Pose, &'a mut MotorState);

/// Pushes apart characters whose bodies overlap after the step (see the module docs) and
/// moves the bodies to the final poses. With `parallel` (feature `parallel`) the pushes are
/// found and applied on rayon's pool; each character reads the shared world and writes only
/// itself, so the result is identical to the serial run.
///
/// The pass finds overlapping characters among their poses directly (one pass over all of
/// them: a sorted cell grid joined with itself) rather than through their body colliders, so
/// those move only once, at the end. A character whose body collider the game removed from
/// the world takes no part. With `parallel` the spheres, the join and the sorts also run on
/// the pool, in chunks.
pub fn separate_characters(world: &mut World, collision: &mut CollisionWorld, parallel: bool) {
    let crowd = snapshot(world, collision, parallel);
    let shared: &CollisionWorld = collision;
    let find = |(): &mut (), s: &Snapshot| Some((s.body, push_of(s, &crowd)?));
    let pushes: Vec<(ColliderId, Vec3)> =
        super::filter_map_init(&crowd.snaps, parallel, || (), find);
    if !pushes.is_empty() {
        let mut items: Vec<Pushed<'_>> = world.query_mut::<Pushed<'_>>().into_iter().collect();
        let apply = |scratch: &mut Scratch, (body, character, pose, state): &mut Pushed<'_>| {
            if let Ok(k) = pushes.binary_search_by_key(&body.0, |(id, _)| *id) {
                apply_push(&character.motor, shared, pose, state, &pushes[k].1, scratch);
            }
        };
        super::for_each_init(&mut items, parallel, Scratch::default, apply);
    }
    sync_bodies(world, collision);
}

/// Every character's snapshot after the step, sorted by body id, with its neighbours (found
/// on rayon's pool when `parallel` is asked for).
fn snapshot(world: &World, collision: &CollisionWorld, parallel: bool) -> Crowd {
    let mut query = world.query::<(&Body, &Character, &Pose)>();
    let mut found: Vec<(ColliderId, &Character, Pose)> = query
        .iter()
        .filter(|(b, _, _)| collision.get(b.0).is_some())
        .map(|(b, c, p)| (b.0, c, *p))
        .collect();
    found.sort_by_key(|(id, _, _)| *id);
    // Each chunk's spheres and boxes on the pool, then joined in order.
    let size = if parallel { CHUNK } else { usize::MAX };
    let chunks: Vec<&[(ColliderId, &Character, Pose)]> = found.chunks(size).collect();
    let placed = super::filter_map_init(&chunks, parallel, || (), |(), chunk| Some(place(chunk)));
    let mut snaps = Vec::with_capacity(found.len());
    let mut spheres = Vec::new();
    let mut boxes = Vec::with_capacity(found.len());
    for (chunk, (chunk_spheres, chunk_boxes, lengths)) in chunks.iter().zip(placed) {
        let mut first = spheres.len();
        for ((body, _, pose), n) in chunk.iter().zip(lengths) {
            snaps.push(Snapshot {
                body: *body,
                pose: *pose,
                spheres: first..first + n,
                neighbours: 0..0,
            });
            first += n;
        }
        spheres.extend(chunk_spheres);
        boxes.extend(chunk_boxes);
    }
    // Both directions of every overlapping pair, sorted, make each one's neighbour list.
    let overlapping = super::pairs::overlapping_pairs(&boxes, parallel);
    // Two characters sharing one body (a copied component) are one body to the world.
    let apart = overlapping
        .into_iter()
        .filter(|&(a, b)| snaps[a as usize].body != snaps[b as usize].body);
    let mut pairs: Vec<(u32, u32)> = apart.flat_map(|(a, b)| [(a, b), (b, a)]).collect();
    super::sort_unstable(&mut pairs, parallel);
    let mut at = 0;
    for (k, snap) in (0u32..).zip(&mut snaps) {
        let from = at;
        while pairs.get(at).is_some_and(|(a, _)| *a == k) {
            at += 1;
        }
        snap.neighbours = from..at;
    }
    Crowd {
        snaps,
        spheres,
        neighbours: pairs.into_iter().map(|(_, b)| b).collect(),
    }
}

/// Characters one job of the pool places (a serial pass places them all at once).
const CHUNK: usize = 256;

/// What [`place`] gives for a chunk of characters.
type Placed = (Vec<(Point3, Real)>, Vec<Aabb>, Vec<usize>);

/// The spheres (world centre, m; radius, m) of every character of `chunk` (body, character,
/// pose) in one list, the bounding box (world, m) of each one's spheres, and how many spheres
/// each has.
fn place(chunk: &[(ColliderId, &Character, Pose)]) -> Placed {
    let mut spheres = Vec::new();
    let mut boxes = Vec::with_capacity(chunk.len());
    let mut lengths = Vec::with_capacity(chunk.len());
    for (_, character, pose) in chunk {
        let stack = character.motor.stack();
        let first = spheres.len();
        let radii = stack.spheres().iter().map(|s| s.radius);
        spheres.extend(pose.sphere_centres(stack).zip(radii));
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

/// The displacement (m, world, in the character's ground plane) that takes `me` half-way out
/// of every character it overlaps; `None` when it overlaps nobody.
fn push_of(me: &Snapshot, crowd: &Crowd) -> Option<Vec3> {
    let mine = crowd.spheres(me);
    let up = me.pose.up();
    let mut push = Vec3::zeros();
    for other in crowd.neighbours(me) {
        let theirs = crowd.spheres(other);
        if let Some((depth, dir)) = deepest_overlap((me, mine), (other, theirs), &up) {
            push += dir.into_inner() * (0.5 * depth);
        }
    }
    (push != Vec3::zeros()).then_some(push)
}

/// The deepest sphere-pair overlap (m) between two characters and the direction (unit, in
/// `up`'s plane) pushing `a` away from `b`.
fn deepest_overlap(
    (a, a_spheres): (&Snapshot, &[(Point3, Real)]),
    (b, b_spheres): (&Snapshot, &[(Point3, Real)]),
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

/// Moves a character by `push`, removes its velocity into the push, and resolves it against
/// the geometry (not the other characters, which the push just cleared). `scratch` is working
/// space.
fn apply_push(
    motor: &Motor,
    collision: &CollisionWorld,
    pose: &mut Pose,
    state: &mut MotorState,
    push: &Vec3,
    scratch: &mut Scratch,
) {
    pose.position += push;
    if let Some(dir) = UnitVec3::try_new(*push, 1e-9) {
        let into = state.velocity.dot(&dir);
        if into < 0.0 {
            state.velocity -= dir.into_inner() * into;
        }
    }
    let own = motor.filter();
    let filter = QueryFilter {
        mask: own.mask & !CHARACTER_LAYER,
        exclude: own.exclude,
    };
    let reach = Vec3::repeat(motor.stack().height() + push.norm());
    let bounds = Aabb::new(pose.position - reach, pose.position + reach);
    let Scratch {
        ids,
        prims,
        contacts,
        hits,
    } = scratch;
    prims.clear();
    collision.gather_primitives(&bounds, &filter, ids, prims);
    let ctx = motor.context(collision, prims);
    let mut velocity = state.velocity;
    hits.clear();
    let stack = Moving::new(pose, &mut velocity);
    let buffers = PushBuffers::new(contacts, hits);
    pushback(&ctx, stack, PushMode::Grounded, &Vec3::zeros(), buffers);
    state.velocity = velocity;
}
