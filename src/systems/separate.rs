//! Character-vs-character separation after the motor step.
//!
//! During the step every character collides with the others' bodies where they stood at the
//! start of the step (so stepping in parallel gives the same result as stepping in series).
//! Two characters walking into each other can therefore end a step overlapping by up to the
//! sum of their step lengths; this pass pushes every overlapping pair apart, half each, in each
//! character's ground plane (nobody is lifted onto a head), removes the velocity into the
//! other, and re-resolves the pushed character against the static geometry.

use crate::body::sync_bodies;
use crate::components::{Body, Character};
use crate::sim::CHARACTER_LAYER;
use hecs::World;
use spherewalk_core::math::project_on_plane;
use spherewalk_core::parry3d::bounding_volume::{Aabb, BoundingVolume};
use spherewalk_core::{
    ColliderId, CollisionWorld, ContactBuffer, Motor, MotorState, Point3, Pose, PushMode,
    QueryFilter, Real, UnitVec3, Vec3, pushback,
};

/// One character as the separation pass sees it.
struct Snapshot {
    body: ColliderId,
    pose: Pose,
    spheres: Vec<(Point3, Real)>,
}

/// One character's components for [`apply_push`].
type Pushed<'a> = (&'a Body, &'a Character, &'a mut Pose, &'a mut MotorState);

/// Pushes apart characters whose bodies overlap after the step (see the module docs) and
/// moves the bodies to the final poses. With `parallel` (feature `parallel`) the pushes are
/// found and applied on rayon's pool; each character reads the shared world and writes only
/// itself, so the result is identical to the serial run.
pub fn separate_characters(world: &mut World, collision: &mut CollisionWorld, parallel: bool) {
    sync_bodies(world, collision);
    let mut snaps: Vec<Snapshot> = world
        .query::<(&Body, &Character, &Pose)>()
        .iter()
        .map(|(body, c, pose)| Snapshot {
            body: body.0,
            pose: *pose,
            spheres: pose
                .sphere_centres(c.motor.stack())
                .zip(c.motor.stack().spheres().iter().map(|s| s.radius))
                .collect(),
        })
        .collect();
    snaps.sort_by_key(|s| s.body);
    let shared: &CollisionWorld = collision;
    let find = |s: &Snapshot| Some((s.body, push_of(s, &snaps, shared)?));
    let pushes: Vec<(ColliderId, Vec3)> = super::filter_map(&snaps, parallel, find);
    if pushes.is_empty() {
        return;
    }
    let mut items: Vec<Pushed<'_>> = world.query_mut::<Pushed<'_>>().into_iter().collect();
    let apply = |(body, character, pose, state): &mut Pushed<'_>| {
        if let Ok(k) = pushes.binary_search_by_key(&body.0, |(id, _)| *id) {
            apply_push(&character.motor, shared, pose, state, &pushes[k].1);
        }
    };
    super::for_each(&mut items, parallel, apply);
    drop(items);
    sync_bodies(world, collision);
}

/// The displacement (m, world, in the character's ground plane) that takes `me` half-way out
/// of every character it overlaps; `None` when it overlaps nobody.
fn push_of(me: &Snapshot, all: &[Snapshot], collision: &CollisionWorld) -> Option<Vec3> {
    let bounds = me
        .spheres
        .iter()
        .map(|(c, r)| Aabb::new(c - Vec3::repeat(*r), c + Vec3::repeat(*r)))
        .reduce(|a, b| a.merged(&b))?;
    let filter = QueryFilter {
        mask: CHARACTER_LAYER,
        exclude: Some(me.body),
    };
    let mut ids = Vec::new();
    collision.overlap_aabb(&bounds, &filter, &mut ids);
    let up = me.pose.up();
    let mut push = Vec3::zeros();
    for id in ids {
        let Ok(k) = all.binary_search_by_key(&id, |s| s.body) else {
            continue;
        };
        if let Some((depth, dir)) = deepest_overlap(me, &all[k], &up) {
            push += dir.into_inner() * (0.5 * depth);
        }
    }
    (push != Vec3::zeros()).then_some(push)
}

/// The deepest sphere-pair overlap (m) between two characters and the direction (unit, in
/// `up`'s plane) pushing `a` away from `b`.
fn deepest_overlap(a: &Snapshot, b: &Snapshot, up: &UnitVec3) -> Option<(Real, UnitVec3)> {
    let mut best: Option<(Real, UnitVec3)> = None;
    for (ca, ra) in &a.spheres {
        for (cb, rb) in &b.spheres {
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
/// the geometry (not the other characters, which the push just cleared).
fn apply_push(
    motor: &Motor,
    collision: &CollisionWorld,
    pose: &mut Pose,
    state: &mut MotorState,
    push: &Vec3,
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
    let (mut ids, mut prims) = (Vec::new(), Vec::new());
    collision.gather_primitives(&bounds, &filter, &mut ids, &mut prims);
    let ctx = motor.context(collision, &prims);
    let mut velocity = state.velocity;
    let mut hits = Vec::new();
    pushback(
        &ctx,
        pose,
        &mut velocity,
        PushMode::Grounded,
        &Vec3::zeros(),
        &mut ContactBuffer::default(),
        &mut hits,
    );
    state.velocity = velocity;
}
