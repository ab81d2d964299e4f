//! Parry shapes into [`Primitive`]s: the triangles of meshes and heightfields near a query
//! box (one-sided, or two back to back), the parts of compounds, and balls, cuboids and
//! capsules resolved into closed-form primitives; with the per-collider cache of resolved
//! solids ([`LocalSolids`]) that spares re-reading a compound's parts every step.

use super::faces::{Face, PlacedFaces};
use super::primitive::{Primitive, PrimitiveShape};
use super::{ColliderId, sphere_box};
use crate::math::{Iso, Point3, Real, UnitVec3, Vec3};
use parry3d::bounding_volume::Aabb;
use parry3d::shape::{Cuboid, Shape, ShapeType, Triangle};

/// Marks a [`PrimitiveShape::Solid`] that is the whole collider rather than a compound part.
pub(crate) const WHOLE: u32 = u32::MAX;

/// The collider a primitive is gathered for, with what its primitives carry of its flags.
#[derive(Clone, Copy)]
pub(crate) struct Owner {
    pub(crate) collider: ColliderId,
    pub(crate) walkable: bool,
    /// A character's body ([`super::ColliderFlags::character`]).
    pub(crate) character: bool,
    /// Climbable ([`super::ColliderFlags::climbable`]).
    pub(crate) climbable: bool,
    /// Triangles are pushed twice, once per side.
    pub(crate) two_sided: bool,
}

impl Owner {
    /// The owner `collider` with what its primitives carry of its `flags`.
    pub(crate) fn new(collider: ColliderId, flags: &super::ColliderFlags) -> Self {
        Self {
            collider,
            walkable: !flags.not_walkable,
            character: flags.character,
            climbable: flags.climbable,
            two_sided: flags.two_sided,
        }
    }

    /// Appends the solid `(shape, box)` (world) of this collider to `out`; a compound `part`
    /// only when its box overlaps `region` (world, m), the whole collider's box having passed
    /// the broadphase already.
    pub(crate) fn push_solid(
        &self,
        (shape, aabb): (PrimitiveShape, Aabb),
        part: bool,
        region: &Aabb,
        out: &mut Vec<Primitive>,
    ) {
        if part && !super::boxes_overlap_counted(&aabb, region) {
            return;
        }
        out.push(Primitive {
            collider: self.collider,
            walkable: self.walkable,
            character: self.character,
            climbable: self.climbable,
            aabb,
            shape,
        });
    }
}

/// Where the primitives of one collider go: its [`Owner`], the query box they must overlap
/// (world, m), the list they are appended to, and the collider's faces when they were placed
/// once ([`super::faces::PlacedFaces`], at the pose the shape is decomposed at).
pub(crate) struct Decompose<'a> {
    pub(crate) owner: Owner,
    pub(crate) region: &'a Aabb,
    pub(crate) out: &'a mut Vec<Primitive>,
    pub(crate) faces: Option<&'a PlacedFaces>,
}

impl Decompose<'_> {
    /// Appends the primitives of `shape` at `pose` (world) overlapping the region: part `part`
    /// of the collider (`WHOLE` for the collider's own shape).
    pub(crate) fn shape(&mut self, shape: &dyn Shape, pose: &Iso, part: u32) {
        // One virtual call picks the kind; most shapes (balls, boxes, character bodies' balls)
        // take the last arm without any further downcast.
        match shape.shape_type() {
            ShapeType::TriMesh => {
                if let Some(mesh) = shape.as_trimesh() {
                    let local_aabb = self.region.transform_by(&pose.inverse());
                    // The same leaves in the same order as parry's `intersect_aabb`, whose
                    // test of each node (`Aabb::intersects`) is a chain of early exits: the
                    // six comparisons and-ed together walk Jolt's terrain 1-2 % quicker.
                    for i in mesh
                        .bvh()
                        .leaves(|node| super::boxes_overlap(&node.aabb(), &local_aabb))
                    {
                        match self.faces {
                            Some(faces) => self.placed(faces, i),
                            None => self.triangle(&mesh.triangle(i), pose, false),
                        }
                    }
                }
            }
            ShapeType::HeightField => {
                if let Some(field) = shape.as_heightfield() {
                    let local_aabb = self.region.transform_by(&pose.inverse());
                    field.map_elements_in_local_aabb(&local_aabb, &mut |i, tri| match self.faces {
                        Some(faces) => self.placed(faces, i),
                        None => self.triangle(tri, pose, Face::flipped_in_field(tri)),
                    });
                }
            }
            ShapeType::Compound => {
                // NOTE: parry forbids compounds inside compounds; nothing deeper to visit.
                let Some(compound) = shape.as_compound().filter(|_| part == WHOLE) else {
                    return;
                };
                for (i, (sub_pose, sub)) in compound.shapes().iter().enumerate() {
                    self.shape(&*sub.0, &(pose * sub_pose), i as u32);
                }
            }
            _ => {
                let resolved = resolve_solid(shape, pose, part);
                self.owner
                    .push_solid(resolved, part != WHOLE, self.region, self.out);
            }
        }
    }

    /// Appends the triangle `tri` of a mesh at `pose` (world), its front reversed when `flip`.
    /// Degenerate triangles are skipped.
    #[inline]
    fn triangle(&mut self, tri: &Triangle, pose: &Iso, flip: bool) {
        if let Some(face) = Face::of(tri, pose, flip) {
            self.face(&face);
        }
    }

    /// Appends the placed face of triangle `id`, unless it was degenerate.
    #[inline]
    fn placed(&mut self, faces: &PlacedFaces, id: u32) {
        if let Some(face) = faces.get(id) {
            self.face(face);
        }
    }

    /// Appends `face`; twice, back to back, for a two-sided collider.
    #[inline]
    fn face(&mut self, face: &Face) {
        let Face { corners, normal } = *face;
        let [a, b, c] = corners;
        // The corners' box, as parry's `Aabb::from_points` makes it (the same minima and
        // maxima) without its iterator.
        let aabb = Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c));
        let sides: &[UnitVec3] = if self.owner.two_sided {
            &[normal, -normal]
        } else {
            &[normal]
        };
        // A two-sided face is two one-sided faces back to back: each holds what comes from
        // its own front.
        for &normal in sides {
            self.out.push(Primitive {
                collider: self.owner.collider,
                walkable: self.owner.walkable,
                character: self.owner.character,
                climbable: self.owner.climbable,
                aabb,
                shape: PrimitiveShape::Triangle { corners, normal },
            });
        }
    }
}

/// The primitive shape of a solid `shape` at `pose` (world) and its bounding box (world, m):
/// balls, cuboids and capsules in closed form, anything else as part `part` of its collider.
fn resolve_solid(shape: &dyn Shape, pose: &Iso, part: u32) -> (PrimitiveShape, Aabb) {
    match SolidKind::of(shape) {
        Some(kind) => kind.at(pose),
        None => {
            let aabb = shape.compute_aabb(pose);
            (PrimitiveShape::Solid { part, pose: *pose }, aabb)
        }
    }
}

/// A ball, cuboid or capsule, with its sizes (m) and axis (local): what a primitive of that
/// kind needs besides its pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SolidKind {
    Ball { radius: Real },
    Cuboid { half: Vec3 },
    Capsule { a: Point3, b: Point3, radius: Real },
}

impl SolidKind {
    /// The kind of `shape`, if it is one of the closed-form ones.
    fn of(shape: &dyn Shape) -> Option<Self> {
        match shape.shape_type() {
            ShapeType::Ball => shape.as_ball().map(|b| Self::Ball { radius: b.radius }),
            ShapeType::Cuboid => shape.as_cuboid().map(|c| Self::Cuboid {
                half: c.half_extents,
            }),
            ShapeType::Capsule => shape.as_capsule().map(|c| Self::Capsule {
                a: c.segment.a,
                b: c.segment.b,
                radius: c.radius,
            }),
            _ => None,
        }
    }

    /// A ball of `radius` (m) centred at `centre` (world, m) and its bounding box.
    fn ball_at(centre: Point3, radius: Real) -> (PrimitiveShape, Aabb) {
        (
            PrimitiveShape::Ball { centre, radius },
            sphere_box(&centre, radius),
        )
    }

    /// The primitive shape of this solid at `pose` (world) and its bounding box (world, m).
    fn at(&self, pose: &Iso) -> (PrimitiveShape, Aabb) {
        match *self {
            Self::Ball { radius } => Self::ball_at(Point3::from(pose.translation.vector), radius),
            Self::Cuboid { half } => {
                let aabb = Cuboid::new(half).aabb(pose);
                (PrimitiveShape::Cuboid { pose: *pose, half }, aabb)
            }
            Self::Capsule { a, b, radius } => {
                let (a, b) = (pose * a, pose * b);
                let r = Vec3::repeat(radius);
                let aabb = Aabb::new(a.inf(&b) - r, a.sup(&b) + r);
                (PrimitiveShape::Capsule { a, b, radius }, aabb)
            }
        }
    }
}

/// Balls a compound of balls may have for [`LocalSolids::Balls`] to keep them inline.
const INLINE_BALLS: usize = 6;

/// A collider's shape resolved once, when it is set, into closed-form solids in the
/// collider's own frame: gathering it then reads one short array instead of following the
/// shape's pointers (a crowd's compound bodies are gathered by every neighbour, every step).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LocalSolids {
    /// A compound of at most [`INLINE_BALLS`] balls (a character's body), kept inside the
    /// collider: each ball's centre (collider frame, m) and radius (m), unused places zeroed.
    Balls {
        len: u8,
        balls: [(Point3, Real); INLINE_BALLS],
    },
    /// Any other mix: each solid's pose in the collider's frame (`None` for the whole shape)
    /// and kind.
    Mixed(Vec<(Option<Iso>, SolidKind)>),
}

impl LocalSolids {
    /// The solids of `shape`: itself, or every part of a compound with its part pose; `None`
    /// unless all of them are balls, cuboids or capsules.
    pub(crate) fn of(shape: &dyn Shape) -> Option<Self> {
        let Some(compound) = shape.as_compound() else {
            return SolidKind::of(shape).map(|kind| Self::Mixed(vec![(None, kind)]));
        };
        let parts = compound.shapes().iter();
        let solids = parts.map(|(pose, part)| Some((Some(*pose), SolidKind::of(&*part.0)?)));
        let solids = solids.collect::<Option<Vec<_>>>()?;
        let mut balls = [(Point3::origin(), 0.0); INLINE_BALLS];
        for (k, (pose, kind)) in solids.iter().enumerate() {
            match (balls.get_mut(k), pose, kind) {
                (Some(ball), Some(pose), SolidKind::Ball { radius }) => {
                    *ball = (Point3::from(pose.translation.vector), *radius);
                }
                _ => return Some(Self::Mixed(solids)),
            }
        }
        match u8::try_from(solids.len()) {
            Ok(len) => Some(Self::Balls { len, balls }),
            Err(_) => Some(Self::Mixed(solids)),
        }
    }

    /// Appends the solids of the collider `owner` at `pose` (world) whose boxes overlap `aabb`
    /// (world, m) to `out`.
    pub(crate) fn push(&self, owner: Owner, pose: &Iso, aabb: &Aabb, out: &mut Vec<Primitive>) {
        match self {
            Self::Balls { len, balls } => {
                for (centre, radius) in &balls[..usize::from(*len)] {
                    // A ball needs only its centre placed, not the whole part pose composed
                    // (the same bits as the composed pose's translation).
                    let resolved = SolidKind::ball_at(pose * centre, *radius);
                    owner.push_solid(resolved, true, aabb, out);
                }
            }
            Self::Mixed(solids) => {
                for (local, kind) in solids {
                    let resolved = match (local, kind) {
                        (Some(local), SolidKind::Ball { radius }) => SolidKind::ball_at(
                            pose * Point3::from(local.translation.vector),
                            *radius,
                        ),
                        (Some(local), _) => kind.at(&(pose * local)),
                        (None, _) => kind.at(pose),
                    };
                    owner.push_solid(resolved, local.is_some(), aabb, out);
                }
            }
        }
    }
}
