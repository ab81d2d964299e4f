//! The character's collision shape: a stack of overlapping spheres along its local up axis.

use crate::math::Real;
use thiserror::Error;

/// Tolerance (m) used to accept a single-sphere capsule whose height is `2 * radius` up to rounding.
const HEIGHT_TOLERANCE: Real = 1e-4;
/// Most spheres a stack may hold: every step costs time per sphere, and a count from bad
/// input must not allocate without bound.
pub const MAX_SPHERES: usize = 64;
/// Smallest sphere radius a stack accepts (m): 1 mm. Smaller spheres would need absurd numbers
/// of substeps to move without tunnelling.
pub const MIN_RADIUS: Real = 1e-3;
/// Largest sphere radius a stack accepts (m): 1 km.
pub const MAX_RADIUS: Real = 1e3;

/// True for a radius a stack accepts: finite and in [[`MIN_RADIUS`], [`MAX_RADIUS`]] m.
fn valid_radius(radius: Real) -> bool {
    (MIN_RADIUS..=MAX_RADIUS).contains(&radius)
}
/// Deepest waist [`SphereStack::capsule_auto`] leaves between neighbouring spheres, as a
/// fraction of the radius (0.15: 4.5 cm for a 0.3 m radius): how far a thin edge can poke
/// into the stack beyond the true capsule's surface.
pub const AUTO_WAIST_FRACTION: Real = 0.15;

/// One sphere of a [`SphereStack`], in the character-local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StackSphere {
    /// Height of the sphere centre above the pose position, along local up (m).
    pub offset_local: Real,
    /// Sphere radius (m), strictly positive.
    pub radius: Real,
}

/// Why a [`SphereStack`] could not be built. Every variant carries the offending value.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// The stack has no sphere (`count == 0` or an empty list).
    #[error("a sphere stack needs at least one sphere")]
    Empty,
    /// A radius is NaN, infinite or outside [`MIN_RADIUS`]..=[`MAX_RADIUS`].
    #[error("sphere {index} has invalid radius {radius} (must be within [0.001, 1000] m)")]
    InvalidRadius {
        /// Index of the sphere, feet first.
        index: usize,
        /// The rejected radius (m).
        radius: Real,
    },
    /// An offset is NaN or infinite.
    #[error("sphere {index} has invalid offset {offset} (must be finite)")]
    InvalidOffset {
        /// Index of the sphere, feet first.
        index: usize,
        /// The rejected offset (m).
        offset: Real,
    },
    /// An upper sphere reaches below the bottom of the feet sphere (by `below`, m).
    #[error("sphere {index} reaches {below} m below the feet sphere; the feet must be lowest")]
    BelowFeet {
        /// Index of the sphere, feet first.
        index: usize,
        /// How far below the feet sphere's bottom it reaches (m).
        below: Real,
    },
    /// More spheres than [`MAX_SPHERES`].
    #[error("a sphere stack holds at most {max} spheres, not {count}", max = MAX_SPHERES)]
    TooMany {
        /// The requested number of spheres.
        count: usize,
    },
    /// Spheres are not listed feet first (offsets must strictly increase).
    #[error(
        "sphere {index} (offset {offset} m) is not above the sphere before it; list spheres feet first"
    )]
    OutOfOrder {
        /// Index of the misplaced sphere.
        index: usize,
        /// Its offset (m).
        offset: Real,
    },
    /// Two neighbouring spheres do not overlap, so the stack has a gap a thin ledge could enter.
    #[error("spheres {index} and {} leave a gap of {gap} m; neighbours must overlap", index + 1)]
    Gap {
        /// Index of the lower sphere of the pair.
        index: usize,
        /// Distance between the two surfaces along up (m).
        gap: Real,
    },
    /// A capsule height is not finite or is shorter than its diameter.
    #[error(
        "capsule height {height} m is invalid for radius {radius} m (needs finite height >= 2 * radius)"
    )]
    InvalidHeight {
        /// The rejected height (m).
        height: Real,
        /// The capsule radius (m).
        radius: Real,
    },
    /// A single-sphere capsule must be exactly as tall as its diameter.
    #[error("one sphere of radius {radius} m cannot span a height of {height} m")]
    SingleSphereHeight {
        /// The requested height (m).
        height: Real,
        /// The sphere radius (m).
        radius: Real,
    },
}

/// The character's collision shape: spheres along the character's local up axis, feet first.
///
/// The pose position is the lowest point of the feet sphere: every stack is normalised so that
/// `spheres()[0].offset_local == spheres()[0].radius`. Neighbouring spheres must overlap, so the
/// union is a closed, smooth-bottomed body with no gaps for ledges to slip into.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "StackSpheres", into = "StackSpheres")
)]
pub struct SphereStack {
    spheres: SphereList,
    min_radius: Real,
    max_radius: Real,
    height: Real,
}

/// Stacks of up to this many spheres keep them inside the stack itself (a crowd's step then
/// reads a character's spheres from its own components instead of following a pointer).
const INLINE: usize = 6;

/// A stack's spheres: inline up to [`INLINE`] of them (unused places zeroed, so equal lists
/// compare equal), else on the heap.
#[derive(Clone, Debug, PartialEq)]
enum SphereList {
    Inline {
        len: u8,
        items: [StackSphere; INLINE],
    },
    Heap(Vec<StackSphere>),
}

impl SphereList {
    /// The list of `spheres`, inline when they fit.
    fn new(spheres: Vec<StackSphere>) -> Self {
        let zero = StackSphere {
            offset_local: 0.0,
            radius: 0.0,
        };
        match u8::try_from(spheres.len()) {
            Ok(len) if spheres.len() <= INLINE => {
                let mut items = [zero; INLINE];
                items[..spheres.len()].copy_from_slice(&spheres);
                Self::Inline { len, items }
            }
            _ => Self::Heap(spheres),
        }
    }
}

impl std::ops::Deref for SphereList {
    type Target = [StackSphere];

    fn deref(&self) -> &[StackSphere] {
        match self {
            Self::Inline { len, items } => &items[..usize::from(*len)],
            Self::Heap(spheres) => spheres,
        }
    }
}

/// A stack as serialized: its spheres, validated again by [`SphereStack::new`] on the way in,
/// so a hostile file cannot build a stack the constructor would refuse.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct StackSpheres(Vec<StackSphere>);

#[cfg(feature = "serde")]
impl TryFrom<StackSpheres> for SphereStack {
    type Error = ShapeError;

    fn try_from(raw: StackSpheres) -> Result<Self, ShapeError> {
        let pairs: Vec<(Real, Real)> = raw.0.iter().map(|s| (s.offset_local, s.radius)).collect();
        SphereStack::new(&pairs)
    }
}

#[cfg(feature = "serde")]
impl From<SphereStack> for StackSpheres {
    fn from(stack: SphereStack) -> Self {
        StackSpheres(stack.spheres.to_vec())
    }
}

impl SphereStack {
    /// Builds a stack from `(offset_local, radius)` pairs listed feet first (m, local up).
    ///
    /// Offsets are relative: the whole stack is shifted so the bottom of the feet sphere sits at
    /// the pose position.
    ///
    /// # Errors
    /// [`ShapeError`] when the list is empty, a value is NaN or infinite, a radius is not
    /// positive, offsets do not strictly increase, or two neighbours leave a gap.
    pub fn new(spheres: &[(Real, Real)]) -> Result<Self, ShapeError> {
        let Some(&(first_offset, first_radius)) = spheres.first() else {
            return Err(ShapeError::Empty);
        };
        if spheres.len() > MAX_SPHERES {
            return Err(ShapeError::TooMany {
                count: spheres.len(),
            });
        }
        for (index, &(offset, radius)) in spheres.iter().enumerate() {
            if !valid_radius(radius) {
                return Err(ShapeError::InvalidRadius { index, radius });
            }
            if !offset.is_finite() {
                return Err(ShapeError::InvalidOffset { index, offset });
            }
        }
        for (index, pair) in spheres.windows(2).enumerate() {
            let ((lo_off, lo_r), (hi_off, hi_r)) = (pair[0], pair[1]);
            if hi_off <= lo_off {
                return Err(ShapeError::OutOfOrder {
                    index: index + 1,
                    offset: hi_off,
                });
            }
            let gap = (hi_off - lo_off) - (lo_r + hi_r);
            if gap > 0.0 {
                return Err(ShapeError::Gap { index, gap });
            }
        }
        // The feet sphere is the lowest: an upper sphere reaching below it would stand on the
        // ground in its place, and the ground probe (which casts the feet) would never find it.
        for (index, &(offset, radius)) in spheres.iter().enumerate().skip(1) {
            let below = (first_offset - first_radius) - (offset - radius);
            if below > HEIGHT_TOLERANCE {
                return Err(ShapeError::BelowFeet { index, below });
            }
        }
        let shift = first_radius - first_offset;
        let spheres: Vec<StackSphere> = spheres
            .iter()
            .map(|&(offset, radius)| StackSphere {
                offset_local: offset + shift,
                radius,
            })
            .collect();
        let min_radius = spheres.iter().map(|s| s.radius).fold(Real::MAX, Real::min);
        let max_radius = spheres.iter().map(|s| s.radius).fold(0.0, Real::max);
        let height = spheres
            .iter()
            .map(|s| s.offset_local + s.radius)
            .fold(0.0, Real::max);
        Ok(Self {
            spheres: SphereList::new(spheres),
            min_radius,
            max_radius,
            height,
        })
    }

    /// A capsule-like stack: `count` equal spheres of `radius` (m), from the feet sphere (bottom at
    /// 0) to the head sphere (top at `height`, m), evenly spaced.
    ///
    /// # Errors
    /// [`ShapeError`] when `count == 0`, the radius is not finite and positive, the height is not
    /// finite or below `2 * radius`, a single sphere cannot span `height`, or the spheres are too
    /// few to overlap.
    ///
    /// # Example
    /// ```
    /// use spherewalk_core::SphereStack;
    /// // A 1.8 m character of three 0.3 m spheres: centres at 0.3, 0.9 and 1.5 m.
    /// let stack = SphereStack::capsule(1.8, 0.3, 3)?;
    /// let centres: Vec<f32> = stack.spheres().iter().map(|s| s.offset_local).collect();
    /// assert_eq!(centres, [0.3, 0.9, 1.5]);
    /// assert_eq!(stack.height(), 1.8);
    /// // Two spheres of 0.3 m cannot overlap over 3 m: refused, not stretched.
    /// assert!(SphereStack::capsule(3.0, 0.3, 2).is_err());
    /// # Ok::<(), spherewalk_core::ShapeError>(())
    /// ```
    pub fn capsule(height: Real, radius: Real, count: usize) -> Result<Self, ShapeError> {
        if count == 0 {
            return Err(ShapeError::Empty);
        }
        if count > MAX_SPHERES {
            return Err(ShapeError::TooMany { count });
        }
        if !valid_radius(radius) {
            return Err(ShapeError::InvalidRadius { index: 0, radius });
        }
        if !height.is_finite() || height < 2.0 * radius - HEIGHT_TOLERANCE {
            return Err(ShapeError::InvalidHeight { height, radius });
        }
        let span = (height - 2.0 * radius).max(0.0);
        if count == 1 {
            if span > HEIGHT_TOLERANCE {
                return Err(ShapeError::SingleSphereHeight { height, radius });
            }
            return Self::new(&[(radius, radius)]);
        }
        let spacing = span / (count - 1) as Real;
        let pairs: Vec<(Real, Real)> = (0..count)
            .map(|i| (radius + spacing * i as Real, radius))
            .collect();
        if span <= 0.0 {
            // NOTE: all spheres coincide; keep one so offsets strictly increase.
            return Self::new(&pairs[..1]);
        }
        Self::new(&pairs)
    }

    /// A capsule of `height` and `radius` (m) with the fewest equal spheres whose waists are
    /// at most [`AUTO_WAIST_FRACTION`] of the radius deep ([`Self::worst_waist`]): 2 for a
    /// squat 1.0 m × 0.4 m character, 5 for a 1.8 m × 0.3 m one, 6 for Jolt's 1.95 m × 0.3 m
    /// capsule.
    ///
    /// # Errors
    /// As [`Self::capsule`]: a radius that is not finite and positive, or a height that is not
    /// finite or below `2 * radius`; [`ShapeError::TooMany`] when even [`MAX_SPHERES`]
    /// spheres leave a deeper waist (a height over about 68 radii).
    pub fn capsule_auto(height: Real, radius: Real) -> Result<Self, ShapeError> {
        if !valid_radius(radius) {
            return Err(ShapeError::InvalidRadius { index: 0, radius });
        }
        if !height.is_finite() || height < 2.0 * radius - HEIGHT_TOLERANCE {
            return Err(ShapeError::InvalidHeight { height, radius });
        }
        let span = (height - 2.0 * radius).max(0.0);
        if span <= HEIGHT_TOLERANCE {
            return Self::capsule(height, radius, 1);
        }
        // A waist of depth d between equal spheres spaced s apart: d = r - sqrt(r² - s²/4).
        let inner = radius * (1.0 - AUTO_WAIST_FRACTION);
        let spacing = 2.0 * (radius * radius - inner * inner).sqrt();
        let gaps = (span / spacing).ceil();
        if !(gaps.is_finite() && gaps < MAX_SPHERES as Real) {
            return Err(ShapeError::TooMany {
                count: if gaps.is_finite() {
                    gaps as usize + 1
                } else {
                    usize::MAX
                },
            });
        }
        Self::capsule(height, radius, gaps as usize + 1)
    }

    /// The deepest waist of the stack (m): over each pair of neighbours, how far the circle
    /// where their surfaces meet lies inside the smooth hull tangent to both (a cylinder for
    /// equal radii, a cone otherwise). A thin edge can poke this far into the stack beyond
    /// what a capsule would allow. 0 for a single sphere.
    pub fn worst_waist(&self) -> Real {
        self.spheres
            .windows(2)
            .map(|pair| waist(&pair[0], &pair[1]))
            .fold(0.0, Real::max)
    }

    /// The spheres, feet first, in the character-local frame.
    pub fn spheres(&self) -> &[StackSphere] {
        &self.spheres
    }

    /// The stack as one parry shape in the character-local frame: a compound of its balls
    /// (the body other characters and physics bodies collide with).
    pub fn body_shape(&self) -> parry3d::shape::SharedShape {
        use parry3d::shape::SharedShape;
        let parts = self
            .spheres
            .iter()
            .map(|s| {
                let at = crate::math::Iso::translation(0.0, s.offset_local, 0.0);
                (at, SharedShape::ball(s.radius))
            })
            .collect();
        SharedShape::compound(parts)
    }

    /// Number of spheres.
    pub fn len(&self) -> usize {
        self.spheres.len()
    }

    /// Always false: a valid stack has at least one sphere.
    pub fn is_empty(&self) -> bool {
        self.spheres.is_empty()
    }

    /// The feet sphere (lowest, index 0).
    pub fn feet(&self) -> StackSphere {
        self.spheres[0]
    }

    /// Smallest radius of the stack (m); substeps are sized from it.
    pub fn min_radius(&self) -> Real {
        self.min_radius
    }

    /// Largest radius of the stack (m).
    pub fn max_radius(&self) -> Real {
        self.max_radius
    }

    /// Total height from the pose position to the top of the highest sphere (m).
    pub fn height(&self) -> Real {
        self.height
    }
}

/// Depth (m) of the waist between two overlapping spheres `lo` and `hi` (see
/// [`SphereStack::worst_waist`]), in the plane through the axis: the circles meet at height
/// `x` above `lo`'s centre and distance `a` from the axis; the hull line tangent to both
/// circles has the unit normal `(cos phi, sin phi)` with `sin phi = (r1 - r2) / s`.
fn waist(lo: &StackSphere, hi: &StackSphere) -> Real {
    let s = hi.offset_local - lo.offset_local;
    let (r1, r2) = (lo.radius, hi.radius);
    if s <= 0.0 || s <= (r1 - r2).abs() {
        // One sphere holds the other: no waist.
        return 0.0;
    }
    let x = (s * s + r1 * r1 - r2 * r2) / (2.0 * s);
    let a = (r1 * r1 - x * x).max(0.0).sqrt();
    let sin = (r1 - r2) / s;
    let cos = (1.0 - sin * sin).max(0.0).sqrt();
    (r1 - (a * cos + x * sin)).max(0.0)
}
