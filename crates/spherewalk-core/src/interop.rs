//! Conversions at the edge, for games whose own math is glam (feature `glam`, the glam version
//! Bevy uses: 0.33) or any mint-speaking library (feature `mint`). The library itself stays
//! on nalgebra; these only copy numbers across. Units and frames are kept: metres, world frame.

#[cfg(feature = "glam")]
use crate::math::{Point3, Vec3};
#[cfg(any(feature = "glam", feature = "mint"))]
use crate::{math::Quat, pose::Pose};

/// glam 0.33 conversions (feature `glam`).
#[cfg(feature = "glam")]
pub mod glam {
    use super::*;
    pub use ::glam::{Quat as GlamQuat, Vec3 as GlamVec3};

    /// A vector (any unit, any frame) as glam's.
    pub fn vec3_to_glam(v: &Vec3) -> GlamVec3 {
        GlamVec3::new(v.x, v.y, v.z)
    }

    /// A glam vector as nalgebra's.
    pub fn vec3_from_glam(v: GlamVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }

    /// A point (m) as a glam vector from the origin.
    pub fn point_to_glam(p: &Point3) -> GlamVec3 {
        GlamVec3::new(p.x, p.y, p.z)
    }

    /// A glam vector from the origin as a point (m).
    pub fn point_from_glam(v: GlamVec3) -> Point3 {
        Point3::new(v.x, v.y, v.z)
    }

    /// A rotation as glam's quaternion.
    pub fn quat_to_glam(q: &Quat) -> GlamQuat {
        GlamQuat::from_xyzw(q.i, q.j, q.k, q.w)
    }

    /// A glam quaternion as a rotation, normalised (glam does not insist on unit length; a
    /// zero or NaN quaternion gives NaN, which [`crate::Motor::step`] refuses and flags).
    pub fn quat_from_glam(q: GlamQuat) -> Quat {
        Quat::new_normalize(crate::math::na::Quaternion::new(q.w, q.x, q.y, q.z))
    }

    impl From<Pose> for ::glam::Affine3A {
        /// The pose as glam's affine transform: character-local to world.
        fn from(pose: Pose) -> Self {
            ::glam::Affine3A::from_rotation_translation(
                quat_to_glam(&pose.orientation),
                point_to_glam(&pose.position),
            )
        }
    }

    impl Pose {
        /// The position (world, m) and orientation (character-local to world) as glam's.
        pub fn to_glam(&self) -> (GlamVec3, GlamQuat) {
            (
                point_to_glam(&self.position),
                quat_to_glam(&self.orientation),
            )
        }

        /// A pose from glam's position (world, m) and orientation (character-local to world,
        /// normalised here).
        pub fn from_glam(position: GlamVec3, orientation: GlamQuat) -> Self {
            Self {
                position: point_from_glam(position),
                orientation: quat_from_glam(orientation),
            }
        }
    }
}

/// mint conversions (feature `mint`). nalgebra's own `convert-mint` converts vectors, points
/// and quaternions with `From`/`Into`; a pose goes through its two parts.
#[cfg(feature = "mint")]
impl Pose {
    /// The position (world, m) and orientation (character-local to world) as mint's.
    pub fn to_mint(&self) -> (mint::Point3<f32>, mint::Quaternion<f32>) {
        (self.position.into(), self.orientation.into())
    }

    /// A pose from mint's position (world, m) and orientation (character-local to world,
    /// normalised here).
    pub fn from_mint(position: mint::Point3<f32>, orientation: mint::Quaternion<f32>) -> Self {
        let q: crate::math::na::Quaternion<f32> = orientation.into();
        Self {
            position: position.into(),
            orientation: Quat::new_normalize(q),
        }
    }
}
