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
pub fn clamp_length(v: &Vec3, max: Real) -> (Vec3, bool) {
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
