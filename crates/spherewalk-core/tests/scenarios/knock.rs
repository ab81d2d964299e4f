//! Knocks (`MotorState::knock`): a velocity given from outside slides a grounded character on
//! top of its intent and wears off at `MotorSettings::knock_deceleration`; in the air it is
//! momentum. In every frame: flat ground, tilted, and on a planet.

use crate::common::{DT, Frame, Runner, Scene, capsule_motor};
use approx::assert_abs_diff_eq;
use spherewalk_core::{GroundState, MotorSettings, Point3, Real, Vec3};

/// A standing character knocked at `speed` (m/s) along scene +X, with no intent.
fn knocked(frame: Frame, speed: Real, settings: MotorSettings) -> Runner {
    let mut scene = Scene::new(frame);
    if frame.planet.is_none() {
        scene.add_floor(20.0);
    }
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::origin());
    r.settle(30);
    assert_eq!(r.state.ground, GroundState::Grounded);
    r.state.knock = r.scene.frame.vec_to_world(&Vec3::new(speed, 0.0, 0.0));
    r
}

#[test]
fn a_knock_slides_a_standing_character_and_wears_off() {
    for frame in Frame::all() {
        let mut r = knocked(frame, 2.0, MotorSettings::default());
        let start = r.scene.frame.to_local(&r.pose.position);
        r.settle(60);
        let end = r.scene.frame.to_local(&r.pose.position);
        // At 10 m/s² the 2 m/s knock lasts 12 steps of 1/60 s, its speed falling by 1/6 m/s a
        // step: 2 + 11/6 + ... + 1/6 = 13 m/s of steps, 13/60 = 0.2167 m (1 mm: the planet's
        // curve under a 0.22 m slide).
        assert_abs_diff_eq!(end.x - start.x, 13.0 / 60.0, epsilon = 1e-3);
        assert_abs_diff_eq!(end.z - start.z, 0.0, epsilon = 1e-3);
        assert_abs_diff_eq!(r.state.knock.norm(), 0.0);
        assert_eq!(r.state.ground, GroundState::Grounded);
    }
}

#[test]
fn a_knock_adds_to_walking_and_zero_deceleration_keeps_it() {
    let settings = {
        let mut v = MotorSettings::default();
        v.knock_deceleration = 0.0;
        v
    };
    let mut r = knocked(Frame::world_up(), 1.0, settings);
    let start = r.pose.position;
    // Walking 1 m/s along +Z with a lasting 1 m/s knock along +X: 1 m along each in 1 s
    // (1 mm: f32 sums over 60 steps).
    r.run(60, Vec3::new(0.0, 0.0, 1.0));
    let moved = r.pose.position - start;
    assert_abs_diff_eq!(moved.x, 1.0, epsilon = 1e-3);
    assert_abs_diff_eq!(moved.z, 1.0, epsilon = 1e-3);
    assert_abs_diff_eq!(r.state.knock.x, 1.0);
    // Jumping turns it into momentum: the knock empties into the velocity.
    r.step_with(&spherewalk_core::hooks::NoHooks, Vec3::zeros(), 4.0);
    assert_eq!(r.state.knock, Vec3::zeros());
    assert_abs_diff_eq!(r.state.velocity.x, 1.0, epsilon = 1e-6);
}

#[test]
fn an_airborne_knock_is_momentum() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    let settings = {
        let mut v = MotorSettings::default();
        v.air_acceleration = 0.0;
        v
    };
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::new(0.0, 3.0, 0.0));
    r.state.knock = Vec3::new(3.0, 0.0, 0.0);
    r.step(Vec3::zeros());
    // Folded into the velocity at once (no air steering to take it away).
    assert_eq!(r.state.knock, Vec3::zeros());
    assert_abs_diff_eq!(r.state.velocity.x, 3.0, epsilon = 1e-6);
    assert_abs_diff_eq!(r.pose.position.x, 3.0 * DT, epsilon = 1e-6);
}

#[test]
fn a_non_finite_knock_is_dropped() {
    for bad in [Real::NAN, Real::INFINITY] {
        let mut r = knocked(Frame::world_up(), 0.0, MotorSettings::default());
        let start = r.pose.position;
        r.state.knock = Vec3::new(bad, 0.0, 1.0);
        r.settle(10);
        assert_eq!(r.state.knock, Vec3::zeros());
        assert!(r.pose.is_finite());
        assert_abs_diff_eq!((r.pose.position - start).norm(), 0.0, epsilon = 1e-5);
    }
    // Settings refuse a negative or NaN deceleration.
    for bad in [-1.0, Real::NAN] {
        let s = {
            let mut v = MotorSettings::default();
            v.knock_deceleration = bad;
            v
        };
        assert!(s.validate().is_err(), "{bad}");
    }
}
