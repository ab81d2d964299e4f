//! Math aliases used across the crate. All quantities are `f32` (parry3d's `f32` build).

pub use parry3d::na;

/// Scalar type: metres, seconds, radians.
pub type Real = f32;
/// A 3D vector (world frame unless the name says `local`).
pub type Vec3 = na::Vector3<Real>;
/// A 3D point (world frame unless the name says `local`).
pub type Point3 = na::Point3<Real>;
/// A unit-length 3D vector.
pub type UnitVec3 = na::Unit<Vec3>;
/// A unit quaternion (rotation).
pub type Quat = na::UnitQuaternion<Real>;
/// A rigid transform: rotation then translation.
pub type Iso = na::Isometry3<Real>;

/// Returns `v` with its component along `axis` removed (projection onto the plane normal to `axis`).
#[inline]
pub fn project_on_plane(v: &Vec3, axis: &UnitVec3) -> Vec3 {
    v - axis.into_inner() * v.dot(axis)
}

/// True when every component of `v` is finite (no NaN, no infinity).
#[inline]
pub fn is_finite_vec(v: &Vec3) -> bool {
    v.iter().all(|c| c.is_finite())
}

/// True when the translation and the rotation of `iso` are finite (no NaN, no infinity).
#[inline]
pub fn is_finite_iso(iso: &Iso) -> bool {
    is_finite_vec(&iso.translation.vector) && iso.rotation.coords.iter().all(|c| c.is_finite())
}

/// Any unit vector perpendicular to `axis` (deterministic).
pub fn any_perpendicular(axis: &UnitVec3) -> UnitVec3 {
    let a = axis.into_inner();
    let helper = if a.x.abs() < 0.6 {
        Vec3::x()
    } else {
        Vec3::y()
    };
    UnitVec3::new_normalize(a.cross(&helper))
}

/// `v` scaled down to length `max` when it is longer, and whether it was. Overflow-safe: a
/// finite vector whose length does not fit in `f32` (components near `f32::MAX`) is clamped
/// along its true direction instead of turning into infinity or NaN. `v` must be finite.
// NOTE: the quick test inlined, the rest out of line: once the modes called it too, the
// compiler stopped inlining the whole (in perf it showed as its own symbol, 3 % of the
// planet step bench).
#[inline]
pub fn clamp_length(v: &Vec3, max: Real) -> (Vec3, bool) {
    // Clearly shorter than `max` (with room for rounding far above the exact test's): kept
    // without the overflow-safe measure below, which costs divisions and a square root.
    if max >= 0.0 && v.norm_squared() <= max * max * (1.0 - 1e-4) {
        return (*v, false);
    }
    clamp_measured(v, max)
}

/// [`clamp_length`] past its quick test: the overflow-safe measure.
fn clamp_measured(v: &Vec3, max: Real) -> (Vec3, bool) {
    let scale = v.amax();
    if scale <= 0.0 || !scale.is_finite() {
        return (*v, false);
    }
    // Components of `unit` lie in [-1, 1], so its length (1 to sqrt 3) cannot overflow.
    let unit = v / scale;
    let len = unit.norm();
    if len * scale <= max {
        return (*v, false);
    }
    (unit * (max / len), true)
}

// Portable transcendental functions. `f32::sin` and friends call the platform's math library,
// whose last bits differ between platforms; these come from the pure-Rust `libm` crate, so a
// step gives the same bits on every machine. Everything the step, the runtime's systems and
// scene building compute with trigonometry goes through them; square roots are IEEE-exact
// everywhere and stay as they are.

/// Sine of `x` (rad), the same bits on every platform.
#[inline]
pub fn sin(x: Real) -> Real {
    libm::sinf(x)
}

/// Cosine of `x` (rad), the same bits on every platform.
#[inline]
pub fn cos(x: Real) -> Real {
    libm::cosf(x)
}

/// Tangent of `x` (rad), the same bits on every platform.
#[inline]
pub fn tan(x: Real) -> Real {
    libm::tanf(x)
}

/// Arc cosine (rad) of `x`, clamped to [-1, 1] first, the same bits on every platform.
#[inline]
pub fn acos(x: Real) -> Real {
    libm::acosf(x.clamp(-1.0, 1.0))
}

/// The angle (rad) of the point `(x, y)` from +x, in (-pi, pi], the same bits on every
/// platform.
#[inline]
pub fn atan2(y: Real, x: Real) -> Real {
    libm::atan2f(y, x)
}

/// `f64` sine (rad), the same bits on every platform (scene generators, platform clocks).
#[inline]
pub fn sin64(x: f64) -> f64 {
    libm::sin(x)
}

/// `f64` cosine (rad), the same bits on every platform.
#[inline]
pub fn cos64(x: f64) -> f64 {
    libm::cos(x)
}

/// The rotation by `angle` (rad, right-handed) about unit `axis`, built with the portable sine
/// and cosine (nalgebra's `from_axis_angle` uses the platform's).
pub fn axis_angle(axis: &UnitVec3, angle: Real) -> Quat {
    let half = 0.5 * angle;
    let q = na::Quaternion::from_parts(cos(half), axis.into_inner() * sin(half));
    Quat::new_normalize(q)
}

/// The shortest rotation taking unit `from` onto unit `to`: by algebra alone for directions
/// within a right angle of each other, with the portable [`atan2`] beyond (where `1 + cos`
/// loses its digits); for exactly opposite directions, a half turn about a deterministic
/// perpendicular.
pub fn rotation_between(from: &UnitVec3, to: &UnitVec3) -> Quat {
    let d = from.dot(to);
    let c = from.cross(to);
    if d >= 0.0 {
        return Quat::new_normalize(na::Quaternion::from_parts(1.0 + d, c));
    }
    match UnitVec3::try_new(c, 1e-20) {
        Some(axis) => axis_angle(&axis, atan2(c.norm(), d)),
        None => {
            let axis = any_perpendicular(from);
            Quat::new_unchecked(na::Quaternion::from_parts(0.0, axis.into_inner()))
        }
    }
}

/// The rotation about world X by `x`, then world Y by `y`, then world Z by `z` (rad).
pub fn euler_xyz(x: Real, y: Real, z: Real) -> Quat {
    axis_angle(&Vec3::z_axis(), z) * axis_angle(&Vec3::y_axis(), y) * axis_angle(&Vec3::x_axis(), x)
}

/// The linear (m/s) and angular (rad/s) velocities, world, that take a kinematic collider
/// from `before` to `after` (world poses) in `dt` seconds: its origin's move over `dt`, and
/// its turn as axis times angle ([`scaled_axis`]) over `dt`. Zero for a `dt` that is not
/// finite and > 0. Hosts give a moved collider these velocities so the motor carries its
/// riders by that motion.
pub fn velocities_between(before: &Iso, after: &Iso, dt: Real) -> (Vec3, Vec3) {
    if !(dt.is_finite() && dt > 0.0) {
        return (Vec3::zeros(), Vec3::zeros());
    }
    let linear = (after.translation.vector - before.translation.vector) / dt;
    let turn = after.rotation * before.rotation.inverse();
    (linear, scaled_axis(&turn) / dt)
}

/// `q`'s rotation as its axis times its angle (rad, in [0, pi]), portably; zero for no turn.
pub fn scaled_axis(q: &Quat) -> Vec3 {
    let (w, v) = (q.w, q.imag());
    // q and -q are the same rotation: take the one with w >= 0, whose angle is at most pi.
    let (w, v) = if w < 0.0 { (-w, -v) } else { (w, v) };
    let s = v.norm();
    if s <= 0.0 {
        return Vec3::zeros();
    }
    v * (2.0 * atan2(s, w) / s)
}

/// SplitMix64: a tiny, fast random number generator fully determined by its seed. The same
/// seed gives the same sequence on every platform, so wanderers and generated scenes replay
/// bit for bit. Not for cryptography.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[0, 1)` as a [`Real`], from the top 24 bits (an `f32` mantissa exactly).
    pub fn unit_real(&mut self) -> Real {
        (self.next_u64() >> 40) as Real / (1u64 << 24) as Real
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    // The portable functions agree with the platform's to within f32 rounding (a few ulps);
    // 1e-6 is about 8 ulps of 1.

    #[test]
    fn portable_rotations_match_nalgebra_s() {
        let axis = UnitVec3::new_normalize(Vec3::new(0.3, -0.8, 0.5));
        for angle in [-3.0, -0.7, 0.0, 0.25, 1.5, 3.1] {
            let ours = axis_angle(&axis, angle);
            let theirs = Quat::from_axis_angle(&axis, angle);
            assert!(ours.angle_to(&theirs) < 1e-3, "{angle}");
            assert_relative_eq!(ours.coords, theirs.coords, epsilon = 1e-6);
            // Back to axis times angle (|angle| <= pi keeps the sign with the axis).
            assert_relative_eq!(
                scaled_axis(&ours),
                axis.into_inner() * angle,
                epsilon = 1e-5
            );
        }
        let ours = euler_xyz(0.3, -0.2, 0.5);
        let theirs = Quat::from_euler_angles(0.3, -0.2, 0.5);
        assert_relative_eq!(ours.coords, theirs.coords, epsilon = 1e-6);
    }

    /// Short vectors come back untouched and unflagged (the quick test), long ones at exactly
    /// `max` along their own direction; at exactly `max` and one ulp either side the quick
    /// test and the exact one agree; components near `f32::MAX` clamp without overflowing.
    /// Tolerance 1e-5 relative: one division and one square root of rounding.
    #[test]
    fn clamp_length_keeps_short_vectors_and_shortens_long_ones() {
        let max = 5.0;
        let short = Vec3::new(3.0, 0.0, 3.9);
        assert_eq!(clamp_length(&short, max), (short, false));
        let long = Vec3::new(30.0, -40.0, 0.0);
        let (clamped, hit) = clamp_length(&long, max);
        assert!(hit);
        assert_relative_eq!(clamped, Vec3::new(3.0, -4.0, 0.0), max_relative = 1e-5);
        for len in [max, max.next_down(), max.next_up()] {
            let v = Vec3::new(0.0, len, 0.0);
            let (out, hit) = clamp_length(&v, max);
            assert_eq!(hit, len > max, "length {len}");
            assert!(out.norm() <= max, "length {len}");
        }
        let huge = Vec3::new(Real::MAX, Real::MAX, 0.0);
        let (out, hit) = clamp_length(&huge, max);
        assert!(hit);
        assert_relative_eq!(
            out,
            Vec3::new(1.0, 1.0, 0.0) * (max / 2f32.sqrt()),
            max_relative = 1e-5
        );
    }

    #[test]
    fn rotation_between_takes_one_direction_onto_the_other() {
        let from = Vec3::y_axis();
        for to in [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.2, 0.9, -0.4),
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(1e-4, -1.0, 0.0),
        ] {
            let to = UnitVec3::new_normalize(to);
            let q = rotation_between(&from, &to);
            assert_relative_eq!(q * from.into_inner(), to.into_inner(), epsilon = 1e-5);
        }
        assert_eq!(rotation_between(&from, &from), Quat::identity());
    }

    #[test]
    fn portable_trig_is_within_rounding_of_the_platform_s() {
        for k in -40..=40 {
            let x = k as Real * 0.1;
            assert_relative_eq!(sin(x), x.sin(), epsilon = 1e-6);
            assert_relative_eq!(cos(x), x.cos(), epsilon = 1e-6);
            assert_relative_eq!(atan2(x, 1.5), x.atan2(1.5), epsilon = 1e-6);
            let c = (k as Real / 40.0).clamp(-1.0, 1.0);
            assert_relative_eq!(acos(c), c.acos(), epsilon = 1e-6);
        }
        assert_relative_eq!(tan(0.7), 0.7f32.tan(), epsilon = 1e-6);
        assert_eq!(acos(1.5), 0.0, "clamped to 1 first");
    }
}
