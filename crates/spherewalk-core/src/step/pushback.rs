//! Pushback: closest-point pushback of every sphere out of the geometry, the building block
//! every phase that moves the stack calls.

use super::StepContext;
use super::contacts::SphereAt;
use super::escape::{Slide, Touching, escape};
use super::solver::{Clip, Constraint, Traits, Wall, balance_push, clip_velocity, solve_push};
use crate::contact::Hit;
use crate::math::{Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::world::query::deepest_among;
use crate::world::{SurfacePoint, measure};

/// Below this horizontal length (of a unit normal) a contact is treated as flat and never
/// flattened into a wall.
const FLAT_EPS: Real = 0.1;

/// Most contacts one step records in [`crate::StepReport::hits`]; later ones still push but
/// are not recorded, and the report says so (`hits_truncated`).
pub const MAX_HITS: usize = 4096;

/// How contacts push the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushMode {
    /// Airborne or sliding: walkable contacts under the feet sphere lift the character along
    /// up (a landing never slides along the ground); steep contacts push along their normal
    /// but never raise the stack above where this pushback's motion started.
    Free,
    /// Walking on stable ground: walkable contacts under the feet sphere lift the character
    /// straight up (no speed lost on ramps and bumps); steep or upper-body contacts facing up
    /// push only sideways, like walls (no climbing slopes over the limit).
    Grounded,
    /// Step-offset trial: every contact facing up pushes only sideways.
    Walls,
}

/// What a pushback pass found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PushbackSummary {
    /// Iterations run.
    pub iterations: u32,
    /// Number of pushes applied.
    pub pushes: u32,
    /// The contact that removed the most velocity while acting as a wall: what blocked the
    /// move. Its collider is not walkable for another character's body, which the step
    /// offset never climbs.
    pub wall: Wall,
    /// True when the iteration budget ran out with a penetration still above the tolerance:
    /// the solve was degraded (squeezed between solids, or an impossible overlap).
    pub exhausted: bool,
    /// True when no push cleared the contacts and no straight move out of them (up, or
    /// sideways) had room: the stack was crushed, and was only balanced between them, on the
    /// side of each piece it was on.
    pub crushed: bool,
    /// With `crushed`: every contact pressing on the stack when it was found crushed (and of
    /// the pass's earlier pushes), but walkable ground (within the slope limit), was another
    /// character's body
    /// ([`crate::world::ColliderFlags::character`]). Those bodies yield after the step, so the
    /// report does not count such a squeeze as a crush.
    pub by_characters: bool,
}

/// Scratch space for [`pushback`]: reuse one across calls so no step allocates.
#[derive(Clone, Debug, Default)]
pub struct ContactBuffer {
    contacts: Vec<(usize, SurfacePoint)>,
    found: Vec<Found>,
    constraints: Vec<Constraint>,
    selected: Vec<Constraint>,
    /// The constraints that shaped this pass's earlier pushes, as constraints on a push from
    /// the current position (at most [`MAX_EARLIER`], newest last).
    earlier: Vec<Constraint>,
    /// Where the last pass ended clear of every contact (no penetration over the tolerance)
    /// and the deepest penetration (m) it measured there: [`max_penetration`] at that pose
    /// without measuring again. Cleared when a step begins and when a pass begins; set only
    /// by a pass that ends clear.
    rest: Option<(Pose, Real)>,
    /// What is left of this attempt's penetration recovery (m): how much further than
    /// undoing their own motions the passes may still push. `None`: not limited.
    recovery: Option<Real>,
    /// Set by a pass that stopped short at the edge of the region its primitives were
    /// gathered from: the step must run again over a wider one.
    reached_edge: bool,
}

impl ContactBuffer {
    /// Clears what a step may not inherit from the previous user of the buffer (another
    /// character's step): the clear-pose memo.
    pub(crate) fn begin_step(&mut self) {
        self.rest = None;
    }

    /// Starts an attempt of a step: `recovery` (m) is its penetration recovery budget
    /// (`None`: not limited), and no pass has reached the region's edge yet.
    pub(crate) fn begin_attempt(&mut self, recovery: Option<Real>) {
        self.recovery = recovery;
        self.reached_edge = false;
    }

    /// Whether a pass of this attempt stopped short at the edge of the gathered region.
    pub(crate) fn reached_edge(&self) -> bool {
        self.reached_edge
    }

    /// The deepest penetration (m) the last pushback pass measured, if it ended clear of
    /// every contact exactly at `pose` (see [`max_penetration`]).
    pub(crate) fn penetration_at(&self, pose: &Pose) -> Option<Real> {
        self.rest.filter(|(p, _)| p == pose).map(|(_, d)| d)
    }
}

/// The buffers a pushback pass writes: the contact scratch (which also carries a step's
/// recovery budget and clear-pose memo) and the list each resolved contact is appended to
/// (at most [`MAX_HITS`]).
pub struct PushBuffers<'a> {
    /// Scratch reused from pass to pass.
    pub contacts: &'a mut ContactBuffer,
    /// The contacts resolved, appended in order.
    pub hits: &'a mut Vec<Hit>,
}

impl<'a> PushBuffers<'a> {
    /// Buffers over `contacts` and `hits`.
    pub fn new(contacts: &'a mut ContactBuffer, hits: &'a mut Vec<Hit>) -> Self {
        Self { contacts, hits }
    }

    /// The same buffers, borrowed again for one more call.
    pub fn reborrow(&mut self) -> PushBuffers<'_> {
        PushBuffers {
            contacts: self.contacts,
            hits: self.hits,
        }
    }
}

/// The stack a phase moves: its pose and its velocity, which a push changes together.
pub struct Moving<'a> {
    /// Where the stack is (world).
    pub pose: &'a mut Pose,
    /// Its velocity (m/s, world); a push removes the part into what it pushes out of.
    pub velocity: &'a mut Vec3,
}

impl<'a> Moving<'a> {
    /// The stack at `pose` moving at `velocity`.
    pub fn new(pose: &'a mut Pose, velocity: &'a mut Vec3) -> Self {
        Self { pose, velocity }
    }
}

/// Most earlier constraints a pass remembers.
const MAX_EARLIER: usize = 16;

/// After a push `d`, re-expresses the remembered constraints from the new position and adds
/// the ones that shaped `d`, so the next iteration's push does not undo this one: a stack
/// pushed down out of a ceiling and into the floor is then seen to be squeezed, instead of
/// bouncing between the two an iteration at a time.
fn remember(buffer: &mut ContactBuffer, d: &Vec3) {
    let ContactBuffer {
        selected, earlier, ..
    } = buffer;
    earlier.extend_from_slice(selected);
    let over = earlier.len().saturating_sub(MAX_EARLIER);
    earlier.drain(..over);
    for c in earlier.iter_mut() {
        c.dist -= d.dot(&c.dir);
    }
}

/// A sphere-primitive pair in contact, for re-measuring after a trial push.
#[derive(Clone, Copy, Debug)]
struct Found {
    sphere: usize,
    prim: usize,
}

/// How a pushback call moves and limits its pushes.
#[derive(Clone, Copy, Debug)]
struct Rules {
    mode: PushMode,
    up: UnitVec3,
    /// Highest rise (m, along up) steep contacts may push the stack to in `Free` mode.
    max_rise: Real,
    /// How far (m, along up) this pass has raised the stack so far.
    risen: Real,
    /// The displacement (m, world) that led here: where each sphere came from.
    motion: Vec3,
    /// No push clears the contacts and no straight move escapes them: the stack is balanced
    /// between them (see [`balance_push`]), and no push crosses a primitive the stack is not
    /// touching.
    crushed: bool,
}

impl Rules {
    /// The rules of a pass in `mode` with the stack's `up`, after the displacement `motion`
    /// (m, world): in `Free` mode steep contacts may undo its descent along up, no more.
    fn new(mode: PushMode, up: UnitVec3, motion: &Vec3) -> Self {
        Self {
            mode,
            up,
            max_rise: (-motion.dot(&up)).max(0.0),
            risen: 0.0,
            motion: *motion,
            crushed: false,
        }
    }
}

/// Penetration recovery: how far (m) a pass may move, and has moved.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// The length of the motion that led here (m): undoing it is always allowed.
    undo: Real,
    /// The most the pass may move (m): `undo` plus what is left of the step's recovery
    /// budget (unlimited when no step set one).
    total: Real,
    /// How far the pass has moved so far (m).
    pushed: Real,
}

impl Budget {
    /// The budget of a pass after `motion` (m, world), with `recovery` (m) left to the step.
    fn new(motion: &Vec3, recovery: Option<Real>) -> Self {
        let undo = motion.norm();
        Self {
            undo,
            total: undo + recovery.unwrap_or(Real::INFINITY),
            pushed: 0.0,
        }
    }

    /// The push `d` (m, world) shortened to what is left, and whether it was shortened;
    /// spends it, and writes what is left of the step's budget back to `recovery` when the
    /// step set one (what the pass moves beyond its motion's length comes out of it).
    fn spend(&mut self, d: Vec3, recovery: &mut Option<Real>) -> (Vec3, bool) {
        let (d, capped) = within_budget(d, self.total - self.pushed);
        self.pushed += d.norm();
        if recovery.is_some() {
            *recovery = Some((self.total - self.pushed.max(self.undo)).max(0.0));
        }
        (d, capped)
    }
}

/// Rounds of "solve, re-measure every contact at the result, add what is still overlapping"
/// per iteration.
const MAX_ROUNDS: usize = 4;
/// A push is never longer than this many times the longest single contact push: the
/// linearised contacts of a curved or crossing geometry cannot throw the stack far away.
const PUSH_CAP: Real = 1.732_050_8;

/// Pushes every sphere of the stack out of the primitives in `ctx` and removes from `velocity`
/// (m/s, world) the part pointing into the contacts. Appends the contacts to `hits`.
/// `motion` is the displacement (m, world) that led here (the substep's move; zero when
/// resolving overlaps in place): in `Free` mode a steep contact may undo its descent but
/// never lift the stack higher.
///
/// Each iteration collects every contact of every sphere (the stack moves as one body) and
/// moves by the smallest displacement that clears them: it starts from the deepest contact
/// alone, re-measures every contact exactly at the result, and adds only those still
/// overlapping (a small active-set solve over at most three planes). An edge that the main
/// push clears is never pushed, so a stack half inside a box leaves sideways, the same way for
/// any sphere count; corners and V-shaped corridors converge in one or two iterations; seams
/// never catch, because across two coplanar faces the shortest move is along the shared
/// normal. Iterations repeat until the deepest penetration is below the tolerance or the
/// budget is spent ([`PushbackSummary::exhausted`]). With a penetration recovery speed set,
/// the pass moves at most `motion`'s length plus what is left of the step's recovery budget
/// (kept in the contact buffer: a step sets it to `penetration_recovery_speed * dt` at its start; a
/// buffer no step set has none, and recovery is not limited), and spends from it what it
/// moves beyond that length: an overlap the character did not move into is left at that
/// speed.
pub fn pushback(
    ctx: &StepContext<'_>,
    stack: Moving<'_>,
    mode: PushMode,
    motion: &Vec3,
    buffers: PushBuffers<'_>,
) -> PushbackSummary {
    let Moving { pose, velocity } = stack;
    let PushBuffers {
        contacts: buffer,
        hits,
    } = buffers;
    let settings = &ctx.motor.settings;
    let tol = settings.penetration_tolerance;
    let up = pose.up();
    let mut rules = Rules::new(mode, up, motion);
    let mut budget = Budget::new(motion, buffer.recovery);
    let mut summary = PushbackSummary::default();
    buffer.earlier.clear();
    buffer.rest = None;
    for iteration in 0..settings.max_pushback_iterations {
        summary.iterations += 1;
        let deepest = gather(ctx, pose, &rules, buffer, hits);
        if buffer.constraints.is_empty() {
            // Every contact is within the tolerance, so none is behind a one-sided face and
            // the stack's motion cannot change which hold: this is the stack at rest.
            buffer.rest = Some((*pose, deepest));
            return summary;
        }
        if iteration + 1 == settings.max_pushback_iterations {
            // Contacts still above the tolerance when the last iteration starts mean the
            // budget ran out (that iteration's push is not checked again).
            summary.exhausted = buffer.constraints.iter().any(|c| c.dist > tol);
        }
        let (d, partial) = iteration_push(ctx, pose, &mut rules, buffer);
        if rules.crushed && !summary.crushed {
            // Walkable ground holds the stack up whatever the pass's mode; it never squeezes.
            let ground = |c: &Constraint| {
                c.is(Traits::WALKABLE) && c.surface_normal.dot(&rules.up) >= ctx.cos_slope
            };
            // The current contacts and the earlier pushes' (a ceiling pushed out of may be
            // one of those by now).
            summary.by_characters = buffer
                .constraints
                .iter()
                .chain(&buffer.earlier)
                .all(|c| c.is(Traits::CHARACTER) || ground(c));
        }
        summary.crushed |= rules.crushed;
        if rules.crushed && d == Vec3::zeros() {
            // Crushed and already balanced: further iterations would measure the same
            // contacts again (against a pile of deep solids, hundreds of closest points each).
            summary.exhausted = buffer.constraints.iter().any(|c| c.dist > tol);
            return summary;
        }
        let d = short_of_one_sided(ctx, pose, &rules.up, d);
        let (d, capped) = budget.spend(d, &mut buffer.recovery);
        pose.position += d;
        remember(buffer, &d);
        rules.risen += d.dot(&up);
        let clip = clip_velocity(velocity, &buffer.selected, &up);
        summary.pushes += buffer.selected.len() as u32;
        summary.wall.keep_stronger(clip);
        buffer.reached_edge |= partial && ctx.bounds.is_some();
        if capped || partial {
            // The recovery budget is spent, or the rise reached the edge of what was
            // gathered: the rest waits for the next step.
            return summary;
        }
    }
    summary
}

/// The push of an iteration, with whether it is the pass's last: the smallest that clears its
/// contacts ([`resolve`]), else (or once the stack is crushed) [`unusual_push`].
fn iteration_push(
    ctx: &StepContext<'_>,
    pose: &Pose,
    rules: &mut Rules,
    buffer: &mut ContactBuffer,
) -> (Vec3, bool) {
    let tol = ctx.motor.settings.penetration_tolerance;
    let resolved = if rules.crushed {
        None
    } else {
        resolve(ctx, pose, rules, buffer, tol)
    };
    match resolved {
        Some(d) => (d, false),
        None => unusual_push(ctx, pose, rules, buffer),
    }
}

/// The push of an iteration whose contacts [`resolve`] could not clear (they contradict each
/// other, or undo an earlier push: the stack was put between steep faces, or geometry closed
/// on it), with whether it is the pass's last.
///
/// The way out is a straight move that clears every contact without crossing a piece
/// ([`escape`]: up, else sideways), from where the stack is or, failing that, from where the
/// balance below puts it (a stack pushed out of a lowering ceiling into the floor is first
/// lifted back onto the floor, then slides out from under the ceiling). An escape cut short at
/// the edge of the gathered region ends the pass. Without a way out the stack is crushed (for
/// the rest of the pass) and only balanced between the contacts and those of earlier
/// iterations ([`balance_push`]: the ground under the feet holds), no further than the first
/// piece it is not touching yet. Leaves the constraints that shaped the push in
/// `buffer.selected`.
#[cold]
fn unusual_push(
    ctx: &StepContext<'_>,
    pose: &Pose,
    rules: &mut Rules,
    buffer: &mut ContactBuffer,
) -> (Vec3, bool) {
    if !rules.crushed
        && let Some(out) = escape(ctx, pose, &rules.motion, &mut buffer.contacts)
    {
        buffer.selected.clear();
        buffer
            .selected
            .push(Constraint::support(out.dir, out.length));
        return (out.dir.into_inner() * out.length, out.partial);
    }
    let balance = balanced(ctx, pose, buffer);
    if !rules.crushed && balance != Vec3::zeros() {
        let shifted = Pose {
            position: pose.position + balance,
            ..*pose
        };
        if let Some(out) = escape(ctx, &shifted, &rules.motion, &mut buffer.contacts) {
            buffer
                .selected
                .push(Constraint::support(out.dir, out.length));
            let d = balance + out.dir.into_inner() * out.length;
            return (d, out.partial);
        }
    }
    rules.crushed = true;
    (balance, false)
}

/// The crushed stack's push: [`balance_push`] over the current contacts and the remembered
/// ones, no further than the first piece the stack is not touching yet. Leaves the current
/// constraints in `buffer.selected`.
fn balanced(ctx: &StepContext<'_>, pose: &Pose, buffer: &mut ContactBuffer) -> Vec3 {
    buffer.selected.clear();
    buffer.selected.extend_from_slice(&buffer.constraints);
    let d = balance_push(&buffer.selected, &buffer.earlier);
    let len = d.norm();
    let Some(dir) = UnitVec3::try_new(d, 1e-9) else {
        return Vec3::zeros();
    };
    let slide = Slide {
        dir: &dir,
        length: len,
        touching: Touching::Yields,
    };
    let free = slide.free_length(ctx, pose, &Vec3::zeros(), &mut buffer.contacts);
    dir.into_inner() * free
}

/// Shortest push (as a share of the smallest radius) that can carry a sphere centre across a
/// one-sided face it only touches: its centre is at least the radius less the tolerance in
/// front of it.
const CROSSING_PUSH: Real = 0.5;
/// How far in front of a one-sided face's plane (m) a push shortened by
/// [`short_of_one_sided`] leaves the sphere centre.
const CROSSING_MARGIN: Real = 1e-4;

/// `d` (m, world), shortened so that no sphere centre of the stack at `pose` crosses a
/// one-sided face from its front to its back: a push (between a ceiling and a mesh floor, say)
/// never carries a character through a one-sided surface it stands on from the front, where
/// the face would stop holding it. The shortened push leaves the sphere deep in the face, which
/// the next iteration sees as a contact like any other (the squeeze rules then balance it, as
/// they do against a solid floor). Pushes shorter than half the smallest radius are returned
/// as they are: only a face a sphere is already deep in (whose own contact keeps it) can be
/// crossed by those.
fn short_of_one_sided(ctx: &StepContext<'_>, pose: &Pose, up: &UnitVec3, d: Vec3) -> Vec3 {
    let len = d.norm();
    if len < CROSSING_PUSH * ctx.motor.stack.min_radius() {
        return d;
    }
    let mut keep: Real = 1.0;
    for sphere in ctx.motor.stack.spheres() {
        let centre = pose.centre_along(up, sphere.offset_local);
        let end = centre + d;
        for prim in ctx.prims {
            let crate::world::PrimitiveShape::Triangle { corners, normal } = &prim.shape else {
                continue;
            };
            let before = (centre - corners[0]).dot(normal);
            let after = (end - corners[0]).dot(normal);
            if before < 0.0 || after >= 0.0 {
                continue;
            }
            let t = before / (before - after);
            if t < keep && within_triangle(corners, normal, &(centre + d * t)) {
                keep = t;
            }
        }
    }
    if keep >= 1.0 {
        return d;
    }
    d * (keep - CROSSING_MARGIN / len).max(0.0)
}

/// True when `p`, a point in the plane of the triangle `corners` (normal `normal`), lies
/// inside it or on its boundary (to f32 rounding).
fn within_triangle(
    corners: &[crate::math::Point3; 3],
    normal: &UnitVec3,
    p: &crate::math::Point3,
) -> bool {
    (0..3).all(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % 3]);
        (b - a).cross(&(p - a)).dot(normal) >= -1e-6 * (b - a).norm()
    })
}

/// `d` shortened to at most `left` (m, clamped at 0), and whether it was shortened.
fn within_budget(d: Vec3, left: Real) -> (Vec3, bool) {
    let len = d.norm();
    let left = left.max(0.0);
    if len > left {
        (d * (left / len), true)
    } else {
        (d, false)
    }
}

/// Collects every contact of every sphere at `pose` into `buffer` as constraints, and the
/// contacts into `hits`. Returns the deepest penetration (m, >= 0) measured, tolerated or not.
fn gather(
    ctx: &StepContext<'_>,
    pose: &Pose,
    rules: &Rules,
    buffer: &mut ContactBuffer,
    hits: &mut Vec<Hit>,
) -> Real {
    let tol = ctx.motor.settings.penetration_tolerance;
    let mut deepest: Real = 0.0;
    buffer.found.clear();
    buffer.constraints.clear();
    for (index, sphere) in ctx.motor.stack.spheres().iter().enumerate() {
        let centre = pose.centre_along(&rules.up, sphere.offset_local);
        let from = centre - rules.motion;
        let at = SphereAt {
            centre,
            from,
            radius: sphere.radius,
        };
        let depth = at.contacts(ctx, tol, &mut buffer.contacts);
        deepest = deepest.max(depth);
        for &(k, sp) in buffer.contacts.iter() {
            let depth = sphere.radius - sp.distance;
            let found = Found {
                sphere: index,
                prim: k,
            };
            let c = Touch { found, sp, depth }.constraint(ctx, rules, rules.risen);
            buffer.found.push(found);
            buffer.constraints.push(c);
            if hits.len() >= MAX_HITS {
                continue;
            }
            hits.push(Hit {
                collider: ctx.prims[k].collider,
                sphere: index,
                point: sp.point,
                contact_normal: sp.contact_normal,
                surface_normal: sp.surface_normal,
                depth,
            });
        }
    }
    deepest
}

/// The smallest displacement (m, world) that clears the contacts in `buffer`, leaving the
/// constraints that shaped it in `buffer.selected`; `None` when the constraints contradict
/// each other (opposing walls) and no displacement meets them.
fn resolve(
    ctx: &StepContext<'_>,
    pose: &Pose,
    rules: &Rules,
    buffer: &mut ContactBuffer,
    tol: Real,
) -> Option<Vec3> {
    let ContactBuffer {
        found,
        constraints,
        selected,
        earlier,
        ..
    } = buffer;
    selected.clear();
    let deepest = constraints
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.dist.total_cmp(&b.1.dist).then(b.0.cmp(&a.0)));
    let Some((_, first)) = deepest else {
        return Some(Vec3::zeros());
    };
    let longest = first.dist;
    selected.push(*first);
    let mut d = solve_push(selected, tol);
    if constraints.len() > 1 || !earlier.is_empty() {
        for _ in 0..MAX_ROUNDS {
            let overlapping = if constraints.len() > 1 {
                still_overlapping(ctx, pose, rules, (found, constraints), &d)
            } else {
                None
            };
            let Some(c) = overlapping.or_else(|| undone(earlier, &d, tol)) else {
                break;
            };
            selected.push(c);
            d = solve_push(selected, tol);
        }
    }
    if selected.iter().any(|c| c.shortfall(&d) > tol) {
        return None;
    }
    let cap = PUSH_CAP * longest;
    let len = d.norm();
    if len > cap {
        d *= cap / len;
    }
    Some(d)
}

/// The remembered constraint (see [`remember`]) that `d` undoes the most, by more than `tol`:
/// a push back into what an earlier iteration pushed the stack out of.
fn undone(earlier: &[Constraint], d: &Vec3, tol: Real) -> Option<Constraint> {
    earlier
        .iter()
        .map(|c| (c.shortfall(d), c))
        .filter(|(short, _)| *short > tol)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| *c)
}

/// The deepest contact still overlapping after the stack moves by `d`, linearised there and
/// expressed as a constraint on the whole displacement; `None` when `d` clears them all.
/// A sphere that `d` carries past the middle of a piece (its contact now faces the other
/// way) keeps the constraint it was found with (`found` and `constraints` run in step): a
/// push leaves every piece by the side it was in contact with, never through it.
fn still_overlapping(
    ctx: &StepContext<'_>,
    pose: &Pose,
    rules: &Rules,
    (found, constraints): (&[Found], &[Constraint]),
    d: &Vec3,
) -> Option<Constraint> {
    let tol = ctx.motor.settings.penetration_tolerance;
    let spheres = ctx.motor.stack.spheres();
    let mut worst: Option<(Real, Constraint)> = None;
    for (f, original) in found.iter().zip(constraints) {
        let sphere = spheres[f.sphere];
        let start = pose.centre_along(&rules.up, sphere.offset_local);
        let centre = start + d;
        let prim = &ctx.prims[f.prim];
        let from = start - rules.motion;
        let Some(sp) = measure::held_contact(ctx.world, prim, &centre, sphere.radius, &from) else {
            continue;
        };
        let depth = sphere.radius - sp.distance;
        if depth > tol && worst.is_none_or(|(w, _)| depth > w) {
            let c = if sp.contact_normal.dot(&original.clip.normal) < 0.0 {
                *original
            } else {
                let risen = rules.risen + d.dot(&rules.up);
                let touch = Touch {
                    found: *f,
                    sp,
                    depth,
                };
                let mut c = touch.constraint(ctx, rules, risen);
                c.dist += d.dot(&c.dir);
                c
            };
            worst = Some((depth, c));
        }
    }
    worst.map(|(_, c)| c)
}

/// A contact of one sphere with one primitive: which ones, its closest point and how deep
/// (m) the sphere is in.
#[derive(Clone, Copy, Debug)]
struct Touch {
    found: Found,
    sp: SurfacePoint,
    depth: Real,
}

impl Touch {
    /// The constraint resolving this touch, given the stack has already risen `rise` metres in this
    /// pushback: the feet on stable ground lift, a contact facing sideways or down is a wall, and
    /// any other is a steep push ([`steep_push`]).
    fn constraint(&self, ctx: &StepContext<'_>, rules: &Rules, rise: Real) -> Constraint {
        let Self { found, sp, depth } = *self;
        let (index, k) = (found.sphere, found.prim);
        let up = &rules.up;
        let n = sp.contact_normal;
        let nu = n.dot(up);
        let walkable = ctx.stable(k, &n, up);
        let radius = ctx.motor.stack.spheres()[index].radius;
        let mode = rules.mode;
        let traits = Traits::default()
            .with(Traits::STEEP, !walkable)
            .with(Traits::WALKABLE, ctx.walkable(k))
            .with(
                Traits::CHARACTER,
                ctx.prims.get(k).is_some_and(|p| p.character),
            );
        let base = Constraint {
            dir: n.into_inner(),
            dist: depth,
            clip: Clip::straight(n.into_inner()),
            surface_normal: sp.surface_normal,
            traits,
        };
        if index == 0 && walkable && mode != PushMode::Walls {
            // Lift straight up by the amount that clears the contact plane. `normal` stays the
            // contact's: velocity into the ground is removed against the fall (along up, unless
            // gravity is well off up), leaving it tangent.
            return Constraint {
                dir: up.into_inner(),
                dist: (depth / nu).min(2.0 * radius),
                clip: Clip {
                    normal: n.into_inner(),
                    along: landing_clip(ctx, up, &n),
                },
                traits: traits
                    .with(Traits::LIFTS, mode == PushMode::Grounded)
                    .with(Traits::FIRM, true),
                ..base
            };
        }
        if nu <= 0.0 {
            // A contact facing sideways or down acts as a wall when walking.
            return Constraint {
                traits: traits.with(Traits::WALL, mode != PushMode::Free),
                ..base
            };
        }
        steep_push(base, rules, rise, depth, radius)
    }
}

/// The constraint of a contact facing up that the stack does not stand on (a steep face, or
/// a sphere above the feet), from its plain push `base`, `depth` (m) deep for a sphere of
/// `radius` (m), the stack having risen `rise` (m): sideways while walking, and while airborne
/// or sliding up by as much of the descent as is left to undo, sideways for the rest.
fn steep_push(
    base: Constraint,
    rules: &Rules,
    rise: Real,
    depth: Real,
    radius: Real,
) -> Constraint {
    let (up, mode) = (&rules.up, rules.mode);
    let nu = base.clip.normal.dot(up);
    let side = base.clip.normal - up.into_inner() * nu;
    let len = side.norm();
    if len <= FLAT_EPS {
        return base;
    }
    // How far up this push may take the stack: none while walking (a wall), the descent
    // still to undo when airborne or sliding.
    let allowed = match mode {
        PushMode::Free => (rules.max_rise - rise).max(0.0),
        _ => 0.0,
    };
    let lift = (depth * nu).min(allowed);
    if mode == PushMode::Free && lift >= depth * nu {
        return base;
    }
    // Sideways by what the allowed lift leaves of the penetration.
    let across = ((depth - lift * nu) / len).min(2.0 * radius);
    let push = side / len * across + up.into_inner() * lift;
    let dist = push.norm();
    let dir = push / dist.max(Real::MIN_POSITIVE);
    Constraint {
        dir,
        dist,
        clip: Clip::straight(dir),
        traits: base
            .traits
            .with(Traits::WALL, mode != PushMode::Free)
            .with(Traits::STEEP, true),
        ..base
    }
}

/// Cosine of the widest angle (about 2.6 degrees) between up and the way up against gravity
/// at which a landing still removes velocity along up.
const FALL_ALONG_UP: Real = 0.999;

/// The direction a landing on a contact of normal `n` removes velocity along (unit, world):
/// up, the character's own "vertical", so the speed it had across up is kept along the ground
/// (a landing never slides down a ramp); but against the fall when gravity is well off up (it
/// turns toward gravity at a bounded rate), so speed gained falling sideways is not turned
/// into speed along the ground (1e6 m/s² sideways launched a character up a wall at
/// 370 m/s); and along `n` itself when the fall does not press into the contact.
fn landing_clip(ctx: &StepContext<'_>, up: &UnitVec3, n: &UnitVec3) -> Vec3 {
    let Some(fall) = ctx.fall else {
        return up.into_inner();
    };
    let against = -fall.into_inner();
    if against.dot(up) >= FALL_ALONG_UP {
        up.into_inner()
    } else if against.dot(n) > 1e-3 {
        against
    } else {
        n.into_inner()
    }
}

/// Deepest penetration (m, >= 0) of any sphere of the stack at `pose` into the step's
/// primitives, the stack at rest (see [`crate::backend::Primitive::holds`]).
pub fn max_penetration(ctx: &StepContext<'_>, pose: &Pose) -> Real {
    deepest_among(ctx.world, ctx.prims, pose, &ctx.motor.stack)
}
