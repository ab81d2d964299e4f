//! A small deterministic random source for the world's property tests.

use crate::math::{Iso, Quat, Real, UnitVec3, Vec3};

/// Deterministic linear congruential generator (Knuth's MMIX constants).
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as Real) / ((1u64 << 24) as Real)
    }

    /// Uniform in [lo, hi).
    pub(crate) fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in the cube [-s, s]³.
    pub(crate) fn vec(&mut self, s: Real) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }

    /// Uniform unit vector (rejection sampling in the unit ball).
    pub(crate) fn dir(&mut self) -> UnitVec3 {
        loop {
            let v = self.vec(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return UnitVec3::new_normalize(v);
            }
        }
    }

    /// Random rigid pose within `s` (m) of the origin.
    pub(crate) fn pose(&mut self, s: Real) -> Iso {
        let axis = self.dir();
        let angle = self.range(-3.1, 3.1);
        Iso::from_parts(self.vec(s).into(), Quat::from_axis_angle(&axis, angle))
    }
}
