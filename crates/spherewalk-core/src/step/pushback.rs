//! Phase 2: closest-point pushback of every sphere out of the geometry.

use super::StepContext;
use crate::math::{Point3, Real, UnitVec3, Vec3};
use crate::pose::Pose;
use crate::report::Hit;
use crate::world::SurfacePoint;
use parry3d::bounding_volume::{Aabb, BoundingVolume};

/// Below this horizontal length (of a unit normal) a contact is treated as flat and never
/// flattened into a wall.
const FLAT_EPS: Real = 0.1;

/// How contacts push the character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushMode {
    /// Along the true contact normal (airborne, sliding, after an up-frame turn).
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
    /// Surface normal (world) of the contact that removed the most velocity while acting as a
    /// wall, if any: what blocked the move.
    pub blocked_by: Option<UnitVec3>,
    /// Velocity removed by that blocking contact (m/s, >= 0).
    pub blocked_speed: Real,
}

/// Scratch space for [`pushback`]: reuse one across calls so no step allocates.
#[derive(Clone, Debug, Default)]
pub struct ContactBuffer {
    contacts: Vec<(usize, SurfacePoint)>,
    constraints: Vec<Constraint>,
}

/// One contact as the solver sees it: the stack must move by `d` with `d . dir >= dist`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Constraint {
    /// Push direction (unit, world).
    dir: Vec3,
    /// Distance to move along `dir` (m).
    dist: Real,
    /// The contact acts as a wall (its push was flattened or faces sideways/down).
    as_wall: bool,
    /// The contact is not walkable ground (steep, upper body or a not-walkable collider).
    steep: bool,
    /// Surface normal of the contact (world).
    surface_normal: UnitVec3,
}

/// Pushes every sphere of the stack out of the primitives in `ctx` and removes from `velocity`
/// (m/s, world) the part pointing into the contacts. Appends the contacts to `hits`.
///
/// Each iteration collects every contact of every sphere (the stack moves as one body) and
/// moves by the shortest displacement that clears all of them at once (a small active-set
/// solve over at most three contacts). That is what makes corners and V-shaped corridors
/// converge in one or two iterations, and why seams never catch: across two coplanar faces
/// the shortest move is along the shared normal, and contacts an earlier push frees are never
/// pushed. Iterations repeat, re-measuring every contact, until the deepest penetration is
/// below the tolerance or the budget is spent.
pub fn pushback(
    ctx: &StepContext<'_>,
    pose: &mut Pose,
    velocity: &mut Vec3,
    mode: PushMode,
    buffer: &mut ContactBuffer,
    hits: &mut Vec<Hit>,
) -> PushbackSummary {
    let settings = &ctx.motor.settings;
    let tol = settings.penetration_tolerance;
    let up = pose.up();
    let mut summary = PushbackSummary::default();
    let ContactBuffer {
        contacts,
        constraints,
    } = buffer;
    for _ in 0..settings.max_pushback_iterations {
        summary.iterations += 1;
        constraints.clear();
        for (index, sphere) in ctx.motor.stack.spheres().iter().enumerate() {
            let r = sphere.radius;
            let centre = pose.centre_at(sphere.offset_local);
            collect_contacts(ctx, &centre, r, tol, contacts);
            for &(k, sp) in contacts.iter() {
                let prim = &ctx.prims[k];
                let depth = r - sp.distance;
                let walkable = prim.walkable && sp.contact_normal.dot(&up) >= ctx.cos_slope;
                let feet_ground = index == 0 && walkable;
                let (dir, dist, as_wall) =
                    push_direction(&sp.contact_normal, depth, &up, mode, feet_ground, r);
                let steep = as_wall || !walkable;
                constraints.push(Constraint {
                    dir,
                    dist,
                    as_wall,
                    steep,
                    surface_normal: sp.surface_normal,
                });
                hits.push(Hit {
                    collider: prim.collider,
                    sphere: index,
                    point: sp.point,
                    contact_normal: sp.contact_normal,
                    surface_normal: sp.surface_normal,
                    depth,
                });
            }
        }
        if constraints.is_empty() {
            break;
        }
        summary.pushes += constraints.len() as u32;
        pose.position += solve_push(constraints, tol);
        clip_velocity(velocity, constraints, &up, mode, &mut summary);
    }
    summary
}

/// The shortest displacement `d` (m, world) with `d . dir >= dist` for every constraint, by an
/// active set of at most three constraints (exact for up to three independent planes).
pub(crate) fn solve_push(cs: &[Constraint], tol: Real) -> Vec3 {
    let mut active = ActiveSet::default();
    let mut d = Vec3::zeros();
    for _ in 0..2 * MAX_ACTIVE + 2 {
        let worst = cs
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.dist - d.dot(&c.dir)))
            .filter(|&(_, v)| v > 0.1 * tol)
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        let Some((j, _)) = worst else {
            break;
        };
        if active.len == MAX_ACTIVE {
            active.remove(0);
        }
        active.push(j);
        d = loop {
            match solve_active(cs, active.as_slice()) {
                Some((sol, lambdas)) => match lambdas[..active.len].iter().position(|&l| l < 0.0) {
                    Some(neg) if active.len > 1 => active.remove(neg),
                    _ => break sol,
                },
                None => {
                    // Dependent directions: restart from the newest constraint alone.
                    active = ActiveSet::default();
                    active.push(j);
                }
            }
        };
    }
    d
}

/// Maximum number of simultaneously active constraints (independent planes in 3D).
const MAX_ACTIVE: usize = 3;

/// Indices of the active constraints, without allocating.
#[derive(Clone, Copy, Default)]
struct ActiveSet {
    items: [usize; MAX_ACTIVE],
    len: usize,
}

impl ActiveSet {
    fn push(&mut self, i: usize) {
        self.items[self.len] = i;
        self.len += 1;
    }

    fn remove(&mut self, at: usize) {
        self.items.copy_within(at + 1..self.len, at);
        self.len -= 1;
    }

    fn as_slice(&self) -> &[usize] {
        &self.items[..self.len]
    }
}

/// Minimum-norm `d` with `d . dir_i = dist_i` for the active constraints, and the multipliers
/// (`d = sum lambda_i dir_i`); `None` when the directions are dependent.
fn solve_active(cs: &[Constraint], active: &[usize]) -> Option<(Vec3, [Real; MAX_ACTIVE])> {
    use crate::math::na::{Matrix2, Matrix3, Vector2, Vector3};
    let u = |i: usize| cs[active[i]].dir;
    let b = |i: usize| cs[active[i]].dist;
    let lambdas = match active.len() {
        1 => [b(0), 0.0, 0.0],
        2 => {
            let g = Matrix2::new(1.0, u(0).dot(&u(1)), u(1).dot(&u(0)), 1.0);
            if g.determinant().abs() < SINGULAR {
                return None;
            }
            let l = g.try_inverse()? * Vector2::new(b(0), b(1));
            [l.x, l.y, 0.0]
        }
        _ => {
            let g = Matrix3::from_fn(|r, c| u(r).dot(&u(c)));
            if g.determinant().abs() < SINGULAR {
                return None;
            }
            let l = g.try_inverse()? * Vector3::new(b(0), b(1), b(2));
            [l.x, l.y, l.z]
        }
    };
    let d = (0..active.len()).fold(Vec3::zeros(), |acc, i| acc + u(i) * lambdas[i]);
    Some((d, lambdas))
}

/// Gram determinant under which push directions count as dependent (about 2.5 degrees apart).
const SINGULAR: Real = 2e-3;

/// Removes from `v` the parts pointing into the constraints: each in turn, then along the
/// crease of two it still presses into, then to rest. Records the strongest wall in `summary`.
fn clip_velocity(
    v: &mut Vec3,
    cs: &[Constraint],
    up: &UnitVec3,
    mode: PushMode,
    summary: &mut PushbackSummary,
) {
    for c in cs {
        let removed = remove_velocity(v, &c.dir, up, mode, c.steep);
        if c.as_wall && removed > summary.blocked_speed {
            summary.blocked_speed = removed;
            summary.blocked_by = Some(c.surface_normal);
        }
    }
    // Walkable ground lifts rather than clips while walking, so it never presses.
    let presses =
        |c: &Constraint, v: &Vec3| (c.steep || mode != PushMode::Grounded) && v.dot(&c.dir) < -1e-6;
    let mut pressing = cs.iter().filter(|c| presses(c, v));
    if let (Some(a), Some(b)) = (pressing.next(), pressing.next()) {
        if let Some(crease) = UnitVec3::try_new(a.dir.cross(&b.dir), 1e-3) {
            *v = crease.into_inner() * v.dot(&crease);
        }
        if cs.iter().any(|c| presses(c, v)) {
            *v = Vec3::zeros();
        }
    }
}

/// Fills `out` with every primitive the sphere penetrates by more than `tol`, with its closest
/// point, deepest first (ties by index, so the order is deterministic).
fn collect_contacts(
    ctx: &StepContext<'_>,
    centre: &Point3,
    radius: Real,
    tol: Real,
    out: &mut Vec<(usize, SurfacePoint)>,
) {
    out.clear();
    let r = Vec3::repeat(radius);
    let bounds = Aabb::new(centre - r, centre + r);
    for (k, prim) in ctx.prims.iter().enumerate() {
        if !prim.aabb.intersects(&bounds) {
            continue;
        }
        if let Some(sp) = ctx.world.primitive_closest(prim, centre, radius)
            && radius - sp.distance > tol
        {
            out.push((k, sp));
        }
    }
    out.sort_by(|a, b| a.1.distance.total_cmp(&b.1.distance).then(a.0.cmp(&b.0)));
}

/// Direction (unit, world), distance (m) and wall-ness of the push resolving `depth` along a
/// contact of normal `n`.
fn push_direction(
    n: &UnitVec3,
    depth: Real,
    up: &UnitVec3,
    mode: PushMode,
    walkable_feet: bool,
    radius: Real,
) -> (Vec3, Real, bool) {
    let nu = n.dot(up);
    let as_ground = mode == PushMode::Grounded && walkable_feet;
    if as_ground {
        // Lift straight up by the amount that clears the contact plane.
        return (up.into_inner(), (depth / nu).min(2.0 * radius), false);
    }
    if mode != PushMode::Free && nu > 0.0 {
        let side = n.into_inner() - up.into_inner() * nu;
        let len = side.norm();
        if len > FLAT_EPS {
            return (side / len, (depth / len).min(2.0 * radius), true);
        }
    }
    // A contact facing sideways or down acts as a wall too when walking.
    (n.into_inner(), depth, mode != PushMode::Free && nu <= 0.0)
}

/// Removes from `v` the part pointing into a contact pushing along `dir`, and returns the speed
/// removed (m/s). Walking on walkable ground keeps the speed along the ground (the up part is
/// re-derived); a non-walkable contact never adds upward speed (no climbing by pressing).
fn remove_velocity(v: &mut Vec3, dir: &Vec3, up: &UnitVec3, mode: PushMode, steep: bool) -> Real {
    let into = v.dot(dir);
    if into >= 0.0 {
        return 0.0;
    }
    let up_before = v.dot(up);
    if mode == PushMode::Grounded && !steep {
        // Lifted straight up: walking continues along the surface, horizontal speed intact.
        return 0.0;
    }
    *v -= dir * into;
    if steep {
        let cap = up_before.max(0.0);
        let up_after = v.dot(up);
        if up_after > cap {
            *v -= up.into_inner() * (up_after - cap);
        }
    }
    -into
}

/// Deepest penetration (m, >= 0) of any sphere of the stack at `pose` into the primitives.
pub fn max_penetration(ctx: &StepContext<'_>, pose: &Pose) -> Real {
    let mut deepest: Real = 0.0;
    for sphere in ctx.motor.stack.spheres() {
        let centre = pose.centre_at(sphere.offset_local);
        let r = Vec3::repeat(sphere.radius);
        let bounds = Aabb::new(centre - r, centre + r);
        for prim in ctx.prims {
            if !prim.aabb.intersects(&bounds) {
                continue;
            }
            if let Some(sp) = ctx.world.primitive_closest(prim, &centre, sphere.radius) {
                deepest = deepest.max(sphere.radius - sp.distance);
            }
        }
    }
    deepest
}
