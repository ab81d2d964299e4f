//! The one random number generator of the runtime: SplitMix64, tiny, fast and fully
//! determined by its seed (scene generators and wandering AI both draw from it).

use serde::{Deserialize, Serialize};
use spherewalk_core::Real;

/// A SplitMix64 generator. The same seed always gives the same sequence, on every platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[0, 1)` as a [`Real`], from the top 24 bits (an `f32` mantissa exactly).
    pub(crate) fn unit_real(&mut self) -> Real {
        (self.next_u64() >> 40) as Real / (1u64 << 24) as Real
    }

    /// Uniform in `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}
