//! Conversions at the edge: a pose to glam and mint and back (features `glam` and `mint`).

#![cfg(any(feature = "glam", feature = "mint"))]

use spherewalk_core::{Point3, Pose, Vec3};

/// A tilted pose off the origin: up along (1, 1, 0) / sqrt 2.
fn tilted() -> Pose {
    let up = spherewalk_core::UnitVec3::new_normalize(Vec3::new(1.0, 1.0, 0.0));
    Pose::with_up(Point3::new(3.0, -2.0, 7.5), &up)
}

#[cfg(feature = "glam")]
#[test]
fn a_pose_goes_to_glam_and_back_unchanged() {
    let pose = tilted();
    let (position, orientation) = pose.to_glam();
    assert_eq!(position, glam::Vec3::new(3.0, -2.0, 7.5));
    // glam rotates local +Y to the same up (f32 rotation arithmetic: 1e-6).
    let up = orientation * glam::Vec3::Y;
    let expected = glam::Vec3::new(1.0, 1.0, 0.0).normalize();
    assert!((up - expected).length() < 1e-6, "{up:?}");
    // And back: exactly the same numbers (a unit quaternion renormalised stays itself to
    // within one ulp).
    let back = Pose::from_glam(position, orientation);
    assert_eq!(back.position, pose.position);
    assert!(back.orientation.angle_to(&pose.orientation) < 1e-6);
    // The affine form moves a local point the same way the pose does.
    let affine: glam::Affine3A = pose.into();
    let head = affine.transform_point3(glam::Vec3::new(0.0, 1.8, 0.0));
    let ours = pose.centre_at(1.8);
    assert!((head - glam::Vec3::new(ours.x, ours.y, ours.z)).length() < 1e-5);
    // An unnormalised glam quaternion is normalised on the way in.
    let doubled = Pose::from_glam(position, orientation * 2.0);
    assert!(doubled.orientation.angle_to(&pose.orientation) < 1e-6);
}

#[cfg(feature = "mint")]
#[test]
fn a_pose_goes_to_mint_and_back_unchanged() {
    let pose = tilted();
    let (position, orientation) = pose.to_mint();
    assert_eq!([position.x, position.y, position.z], [3.0, -2.0, 7.5]);
    let back = Pose::from_mint(position, orientation);
    assert_eq!(back.position, pose.position);
    assert!(back.orientation.angle_to(&pose.orientation) < 1e-6);
    // Vectors go through nalgebra's own conversion.
    let v: mint::Vector3<f32> = Vec3::new(1.0, 2.0, 3.0).into();
    assert_eq!([v.x, v.y, v.z], [1.0, 2.0, 3.0]);
}
