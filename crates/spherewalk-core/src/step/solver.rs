//! The plane solver behind pushback: bare constraints `d . dir >= dist` on a displacement
//! `d`, the shortest displacement that meets them, and the velocity clip against them.
//!
//! It knows nothing of spheres or colliders: pushback turns contacts into [`Constraint`]s,
//! each carrying the facts of its contact that the solve and the clip weigh (a wall, steep,
//! lifting, firm ground) and those the blocked-move report keeps (surface normal, walkable, a
//! character's body), and calls [`solve_push`] and [`clip_velocity`].

use crate::math::{Real, UnitVec3, Vec3};

/// Maximum number of simultaneously active constraints (independent planes in 3D).
const MAX_ACTIVE: usize = 3;
/// Gram determinant under which push directions count as dependent (about 2.5 degrees apart).
const SINGULAR: Real = 2e-3;
/// Velocity (m/s) into a constraint below which it does not press.
const PRESS_EPS: Real = 1e-6;

/// One contact as the solver sees it: the stack must move by `d` with `d . dir >= dist`;
/// velocity is clipped against it as `clip` says; `traits` say how it acts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Constraint {
    /// Push direction (unit, world).
    pub dir: Vec3,
    /// Distance to move along `dir` (m).
    pub dist: Real,
    /// How velocity pointing into the contact is removed.
    pub clip: Clip,
    /// Surface normal of the contact (world).
    pub surface_normal: UnitVec3,
    /// How the contact acts: wall, steep, lifting, firm, walkable, a character's body.
    pub traits: Traits,
}

/// How a constraint removes velocity: the part pointing against `normal`, taken away along
/// `along`. Both are the push's `dir` except for a landing (see [`Constraint`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Clip {
    /// Unit direction (world) velocity must not point against after the clip; the push's
    /// `dir` unless the push leaves a surface along another direction (a landing lifted
    /// along up leaves its velocity tangent to the ground, not merely without its up part).
    pub normal: Vec3,
    /// Unit direction (world) along which the clip removes velocity pointing against
    /// `normal`: the push's `dir`, except for a landing, where it is against the fall (see
    /// `StepContext::fall`).
    pub along: Vec3,
}

impl Clip {
    /// Velocity against unit `dir` (world) removed along it.
    pub fn straight(dir: Vec3) -> Self {
        Self {
            normal: dir,
            along: dir,
        }
    }
}

/// What a constraint's contact is, as a set of flags: a copy of a byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Traits(u8);

impl Traits {
    /// The contact acts as a wall (its push was flattened or faces sideways or down).
    pub const WALL: Self = Self(1);
    /// The contact is not walkable ground (steep, upper body or a not-walkable collider).
    pub const STEEP: Self = Self(1 << 1);
    /// The contact lifts a walking character along up and must not slow it.
    pub const LIFTS: Self = Self(1 << 2);
    /// Walkable ground under the feet: a crushed stack never gives way into it (see
    /// [`balance_push`]).
    pub const FIRM: Self = Self(1 << 3);
    /// The contact's collider may be stood on (not flagged not walkable), so the stairs phase
    /// may climb what it blocks.
    pub const WALKABLE: Self = Self(1 << 4);
    /// The contact is with a character's body
    /// ([`crate::world::ColliderFlags::character`]), which yields after the step: a squeeze
    /// by such contacts alone is no crush to report.
    pub const CHARACTER: Self = Self(1 << 5);

    /// Whether every flag of `flag` is set.
    #[inline]
    pub fn has(self, flag: Self) -> bool {
        self.0 & flag.0 == flag.0
    }

    /// These flags with those of `flag` set when `on`, cleared when not.
    #[inline]
    pub fn with(self, flag: Self, on: bool) -> Self {
        if on {
            Self(self.0 | flag.0)
        } else {
            Self(self.0 & !flag.0)
        }
    }
}

impl Constraint {
    /// A constraint pushing `dist` metres along unit `dir`, neither a wall nor steep.
    #[cfg(test)]
    pub fn plane(dir: Vec3, dist: Real) -> Self {
        Self {
            dir,
            dist,
            clip: Clip::straight(dir),
            surface_normal: UnitVec3::new_normalize(dir),
            traits: Traits::WALKABLE,
        }
    }

    /// A push of `dist` metres straight along unit `dir` that holds the stack like a floor
    /// (an escape out of a squeeze): it stops velocity along -`dir` and is steep, so it never
    /// adds upward speed.
    pub fn support(dir: UnitVec3, dist: Real) -> Self {
        Self {
            dir: dir.into_inner(),
            dist,
            clip: Clip::straight(dir.into_inner()),
            surface_normal: dir,
            traits: Traits::STEEP,
        }
    }

    /// Whether the contact has every flag of `flag`.
    #[inline]
    pub fn is(&self, flag: Traits) -> bool {
        self.traits.has(flag)
    }

    /// How far `d` still falls short of this constraint (m; <= 0 when met).
    #[inline]
    pub fn shortfall(&self, d: &Vec3) -> Real {
        self.dist - d.dot(&self.dir)
    }
}

/// The shortest displacement `d` (m, world) with `d . dir >= dist` for every constraint, to
/// within `tol` / 10, by an active set of at most three constraints (exact for up to three
/// independent planes; dependent or opposing ones fall back to the newest).
pub(crate) fn solve_push(cs: &[Constraint], tol: Real) -> Vec3 {
    let mut active = ActiveSet::default();
    let mut d = Vec3::zeros();
    for _ in 0..2 * MAX_ACTIVE + 2 {
        let worst = cs
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c.shortfall(&d)))
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

/// Rounds of [`balance_push`].
const BALANCE_ROUNDS: usize = 16;

/// The push of a crushed stack, whose constraints no displacement meets: the firm ones
/// (ground under the feet) are met, and the others share what is left, each round moving by
/// the mean of their unmet pushes, so two opposing walls end equally deep and a wall that
/// nothing opposes is cleared (its shortfall halves or better each round). The constraints
/// are `now` and `before` together (a pass's current contacts and those it remembers);
/// deterministic: they are read in order.
pub(crate) fn balance_push(now: &[Constraint], before: &[Constraint]) -> Vec3 {
    let cs = || now.iter().chain(before);
    let mut d = Vec3::zeros();
    for _ in 0..BALANCE_ROUNDS {
        let (mut sum, mut n) = (Vec3::zeros(), 0u32);
        for c in cs().filter(|c| !c.is(Traits::FIRM)) {
            let short = c.shortfall(&d);
            if short > 0.0 {
                sum += c.dir * short;
                n += 1;
            }
        }
        if n > 0 {
            d += sum / n as Real;
        }
        for c in cs().filter(|c| c.is(Traits::FIRM)) {
            let short = c.shortfall(&d);
            if short > 0.0 {
                d += c.dir * short;
            }
        }
    }
    d
}

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

/// The wall that removed the most velocity from a move: what blocked it. Velocity clips,
/// pushback passes and substepped moves each keep the strongest one they meet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wall {
    /// Its surface normal (world), if any wall removed velocity.
    pub normal: Option<UnitVec3>,
    /// The velocity it removed (m/s, >= 0).
    pub speed: Real,
    /// Its collider may be stood on (the collider's walkable flag), so the stairs phase may
    /// climb it.
    pub walkable: bool,
}

impl Wall {
    /// Keeps `other` when it removed more velocity than this one.
    pub(crate) fn keep_stronger(&mut self, other: Wall) {
        if other.speed > self.speed {
            *self = other;
        }
    }
}

/// Removes from `v` (m/s, world) the parts pointing into the constraints: each in turn, then
/// along the crease of two it still presses into, then to rest. Lifting constraints never
/// slow the character; steep ones never add upward speed.
pub(crate) fn clip_velocity(v: &mut Vec3, cs: &[Constraint], up: &UnitVec3) -> Wall {
    let mut clip = Wall::default();
    for c in cs {
        let removed = remove_velocity(v, c, up);
        if c.is(Traits::WALL) {
            clip.keep_stronger(Wall {
                normal: Some(c.surface_normal),
                speed: removed,
                walkable: c.is(Traits::WALKABLE),
            });
        }
    }
    let presses = |c: &Constraint, v: &Vec3| !c.is(Traits::LIFTS) && v.dot(&c.dir) < -PRESS_EPS;
    let mut pressing = cs.iter().filter(|c| presses(c, v));
    if let (Some(a), Some(b)) = (pressing.next(), pressing.next()) {
        if let Some(crease) = UnitVec3::try_new(a.dir.cross(&b.dir), 1e-3) {
            *v = crease.into_inner() * v.dot(&crease);
        }
        if cs.iter().any(|c| presses(c, v)) {
            *v = Vec3::zeros();
        }
    }
    clip
}

/// Removes from `v` the part pointing into `c` (along `c.clip.along`) and returns the speed
/// removed (m/s). A lifting
/// contact keeps the speed along the ground (the up part is re-derived next step); a steep
/// contact never adds upward speed (no climbing by pressing).
fn remove_velocity(v: &mut Vec3, c: &Constraint, up: &UnitVec3) -> Real {
    let into = v.dot(&c.clip.normal);
    let along = c.clip.along.dot(&c.clip.normal);
    if into >= 0.0 || c.is(Traits::LIFTS) || along <= 1e-3 {
        return 0.0;
    }
    let up_before = v.dot(up);
    *v -= c.clip.along * (into / along);
    if c.is(Traits::STEEP) {
        let cap = up_before.max(0.0);
        let up_after = v.dot(up);
        if up_after > cap {
            *v -= up.into_inner() * (up_after - cap);
        }
    }
    -into
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    const TOL: Real = 1e-4;

    fn unit(x: Real, y: Real, z: Real) -> Vec3 {
        Vec3::new(x, y, z).normalize()
    }

    #[test]
    fn one_plane_pushes_along_its_normal_by_its_distance() {
        let d = solve_push(&[Constraint::plane(Vec3::y(), 0.2)], TOL);
        assert_relative_eq!(d, Vec3::new(0.0, 0.2, 0.0), epsilon = 1e-6);
    }

    #[test]
    fn coplanar_seam_pushes_once_along_the_shared_normal() {
        // Two contacts of one plane (a seam between coplanar faces): the same push, not two.
        let cs = [
            Constraint::plane(Vec3::y(), 0.01),
            Constraint::plane(Vec3::y(), 0.008),
        ];
        let d = solve_push(&cs, TOL);
        assert_relative_eq!(d, Vec3::new(0.0, 0.01, 0.0), epsilon = 1e-6);
    }

    #[test]
    fn corner_of_two_walls_is_cleared_exactly() {
        let cs = [
            Constraint::plane(Vec3::x(), 0.1),
            Constraint::plane(Vec3::z(), 0.05),
        ];
        let d = solve_push(&cs, TOL);
        // Exact for independent planes (1e-6 m: f32 rounding of a 2x2 solve).
        assert_relative_eq!(d, Vec3::new(0.1, 0.0, 0.05), epsilon = 1e-6);
    }

    #[test]
    fn corner_of_three_planes_is_cleared_exactly() {
        let cs = [
            Constraint::plane(Vec3::x(), 0.1),
            Constraint::plane(Vec3::y(), 0.2),
            Constraint::plane(Vec3::z(), 0.3),
        ];
        let d = solve_push(&cs, TOL);
        assert_relative_eq!(d, Vec3::new(0.1, 0.2, 0.3), epsilon = 1e-6);
    }

    #[test]
    fn wedge_of_two_sloped_planes_pushes_up_its_bisector() {
        // A V of two 60 deg faces: the shortest exit is straight up, by dist / cos 60.
        let a = unit(60f32.to_radians().sin(), 60f32.to_radians().cos(), 0.0);
        let b = unit(-a.x, a.y, 0.0);
        let cs = [Constraint::plane(a, 0.1), Constraint::plane(b, 0.1)];
        let d = solve_push(&cs, TOL);
        assert_relative_eq!(d, Vec3::new(0.0, 0.2, 0.0), epsilon = 1e-5);
    }

    #[test]
    fn opposing_planes_never_blow_up() {
        // Squeezed between two parallel walls: no displacement meets both; the solver keeps
        // one and stays finite.
        let cs = [
            Constraint::plane(Vec3::x(), 0.1),
            Constraint::plane(-Vec3::x(), 0.1),
        ];
        let d = solve_push(&cs, TOL);
        assert!(d.norm() <= 0.1 + 1e-6, "{d:?}");
    }

    #[test]
    fn a_crushed_push_balances_opposing_walls_and_keeps_the_floor() {
        // Walls 0.3 m and 0.1 m deep: both end 0.2 m deep (1e-5 m: f32 sums).
        let walls = [
            Constraint::plane(Vec3::x(), 0.3),
            Constraint::plane(-Vec3::x(), 0.1),
        ];
        let d = balance_push(&walls, &[]);
        assert_relative_eq!(d, Vec3::new(0.1, 0.0, 0.0), epsilon = 1e-5);
        // A ceiling 0.2 m into the head over a floor 0.05 m into the feet: the floor wins,
        // the ceiling stays.
        let mut floor = Constraint::plane(Vec3::y(), 0.05);
        floor.traits = floor.traits.with(Traits::FIRM, true);
        let ceiling = Constraint::plane(-Vec3::y(), 0.2);
        let d = balance_push(&[ceiling], &[floor]);
        assert_relative_eq!(d, Vec3::new(0.0, 0.05, 0.0), epsilon = 1e-5);
        // A side wall 0.1 m deep beside the crushing pair is still cleared (to 2e-6 m after
        // 16 halvings).
        let side = Constraint::plane(Vec3::z(), 0.1);
        let d = balance_push(&[ceiling, side], &[floor]);
        assert_relative_eq!(d, Vec3::new(0.0, 0.05, 0.1), epsilon = 2e-6);
    }

    #[test]
    fn a_satisfied_plane_does_not_push() {
        let cs = [
            Constraint::plane(Vec3::x(), 0.1),
            Constraint::plane(unit(1.0, 0.0, 1.0), 0.01),
        ];
        let d = solve_push(&cs, TOL);
        assert_relative_eq!(d, Vec3::new(0.1, 0.0, 0.0), epsilon = 1e-6);
    }

    #[test]
    fn velocity_slides_along_a_wall_and_stops_in_a_corner() {
        let up = Vec3::y_axis();
        let mut v = Vec3::new(-2.0, 0.0, -1.0);
        let wall = Constraint::plane(Vec3::x(), 0.0);
        clip_velocity(&mut v, &[wall], &up);
        assert_relative_eq!(v, Vec3::new(0.0, 0.0, -1.0));
        let mut v = Vec3::new(-2.0, 0.0, -1.0);
        clip_velocity(&mut v, &[wall, Constraint::plane(Vec3::z(), 0.0)], &up);
        assert_relative_eq!(v, Vec3::zeros());
    }

    #[test]
    fn steep_contact_never_adds_upward_speed() {
        let up = Vec3::y_axis();
        let mut c = Constraint::plane(unit(-1.0, 0.3, 0.0), 0.0);
        c.traits = c.traits.with(Traits::STEEP, true);
        let mut v = Vec3::new(3.0, 0.0, 0.0);
        clip_velocity(&mut v, &[c], &up);
        assert!(v.y <= 0.0, "{v:?}");
    }
}
