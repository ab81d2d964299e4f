//! Bad input: settings validation names each bad field, per-step inputs are clamped or ignored
//! by their documented rules and flagged, and arbitrary f32s (NaN and infinities included)
//! never panic nor leave a non-finite pose.

use crate::common::*;
use approx::assert_abs_diff_eq;
use proptest::prelude::*;
use spherewalk_core::motor::Mode;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    GroundState, Motor, MotorSettings, MotorState, MoveIntent, Point3, Pose, Quat, Real,
    SettingsError, ShapeError, SphereStack, StepInput, UpFrame, Vec3, math::Iso, motor::AdmitError,
    motor::InputFlags,
};
use std::f32::consts::FRAC_PI_2;

// ---------------------------------------------------------------------------------------------
// Settings validation
// ---------------------------------------------------------------------------------------------

type Setter = fn(&mut MotorSettings, Real);

/// Every `Real` field with a documented range, and values just outside it.
fn out_of_range_cases() -> Vec<(&'static str, Setter, Real)> {
    let slope: Setter = |s, v| s.slope_limit = v;
    let step: Setter = |s, v| s.stair_height = v;
    let depth: Setter = |s, v| s.min_stair_depth = v;
    let clamp: Setter = |s, v| s.ground_clamp_distance = v;
    let skin: Setter = |s, v| s.skin_width = v;
    let tol: Setter = |s, v| s.penetration_tolerance = v;
    let frac: Setter = |s, v| s.max_substep_fraction = v;
    let speed: Setter = |s, v| s.max_speed = v;
    let max_dt: Setter = |s, v| s.max_dt = v;
    let turn: Setter = |s, v| s.up_turn_rate = v;
    let air: Setter = |s, v| s.air_acceleration = v;
    vec![
        ("slope_limit", slope, Real::NAN),
        ("slope_limit", slope, FRAC_PI_2),
        ("slope_limit", slope, 2.0),
        ("slope_limit", slope, -0.1),
        ("slope_limit", slope, Real::INFINITY),
        ("stair_height", step, -0.1),
        ("stair_height", step, Real::NAN),
        ("stair_height", step, Real::INFINITY),
        ("min_stair_depth", depth, -0.01),
        ("ground_clamp_distance", clamp, -1.0),
        ("ground_clamp_distance", clamp, Real::NAN),
        ("skin_width", skin, 0.0),
        ("skin_width", skin, -0.01),
        ("penetration_tolerance", tol, 0.0),
        ("max_substep_fraction", frac, 0.0),
        ("max_substep_fraction", frac, 1.5),
        ("max_speed", speed, 0.0),
        ("max_speed", speed, Real::INFINITY),
        ("max_dt", max_dt, 0.0),
        ("max_dt", max_dt, Real::NAN),
        ("up_turn_rate", turn, 0.0),
        ("up_turn_rate", turn, Real::NEG_INFINITY),
        ("air_acceleration", air, -1.0),
    ]
}

#[test]
fn default_settings_are_valid() {
    assert_eq!(MotorSettings::default().validate(), Ok(()));
}

#[test]
fn each_out_of_range_field_is_named_with_its_value() {
    for (name, set, bad) in out_of_range_cases() {
        let mut settings = MotorSettings::default();
        set(&mut settings, bad);
        match settings.validate() {
            Err(SettingsError::OutOfRange {
                field,
                value,
                expected,
            }) => {
                assert_eq!(field, name, "bad {name} = {bad}");
                // Bit-compare so NaN matches NaN.
                assert_eq!(
                    value.to_bits(),
                    bad.to_bits(),
                    "{name}: carried {value}, set {bad}"
                );
                assert!(!expected.is_empty());
            }
            other => panic!("{name} = {bad}: expected OutOfRange, got {other:?}"),
        }
    }
}

#[test]
fn slope_limit_of_a_quarter_turn_is_out_of_range() {
    let settings = {
        let mut v = MotorSettings::default();
        v.slope_limit = FRAC_PI_2;
        v
    };
    let err = settings
        .validate()
        .expect_err("pi/2 is a wall, not a slope");
    assert!(
        matches!(err, SettingsError::OutOfRange { field: "slope_limit", value, .. } if value == FRAC_PI_2)
    );
    assert!(err.to_string().contains("slope_limit"), "{err}");
}

#[test]
fn range_boundaries_are_accepted() {
    let edge = {
        let mut v = MotorSettings::default();
        v.slope_limit = 0.0;
        v.stair_height = 0.0;
        v.min_stair_depth = 0.0;
        v.ground_clamp_distance = 0.0;
        v.air_acceleration = 0.0;
        v.max_substep_fraction = 1.0;
        v.max_pushback_iterations = 1;
        v
    };
    assert_eq!(edge.validate(), Ok(()));
    let steep = {
        let mut v = MotorSettings::default();
        v.slope_limit = FRAC_PI_2 - 1e-3;
        v
    };
    assert_eq!(steep.validate(), Ok(()));
    for up_frame in [
        UpFrame::Gravity,
        UpFrame::Surface,
        UpFrame::Fixed(Vec3::new(0.0, 2.0, 0.0)),
    ] {
        assert_eq!(
            {
                let mut v = MotorSettings::default();
                v.up_frame = up_frame;
                v
            }
            .validate(),
            Ok(()),
            "{up_frame:?}"
        );
    }
}

#[test]
fn zero_pushback_iterations_are_refused() {
    let settings = {
        let mut v = MotorSettings::default();
        v.max_pushback_iterations = 0;
        v
    };
    assert_eq!(
        settings.validate(),
        Err(SettingsError::NoPushbackIterations)
    );
}

#[test]
fn zero_or_nan_fixed_up_is_refused() {
    let zero = {
        let mut v = MotorSettings::default();
        v.up_frame = UpFrame::Fixed(Vec3::zeros());
        v
    };
    assert_eq!(
        zero.validate(),
        Err(SettingsError::InvalidFixedUp([0.0, 0.0, 0.0]))
    );
    let nan = {
        let mut v = MotorSettings::default();
        v.up_frame = UpFrame::Fixed(Vec3::new(Real::NAN, 1.0, 0.0));
        v
    };
    match nan.validate() {
        Err(SettingsError::InvalidFixedUp([x, y, z])) => {
            assert!(x.is_nan());
            assert_eq!((y, z), (1.0, 0.0));
        }
        other => panic!("expected InvalidFixedUp, got {other:?}"),
    }
    let inf = {
        let mut v = MotorSettings::default();
        v.up_frame = UpFrame::Fixed(Vec3::new(0.0, Real::INFINITY, 0.0));
        v
    };
    assert_eq!(
        inf.validate(),
        Err(SettingsError::InvalidFixedUp([0.0, Real::INFINITY, 0.0]))
    );
}

#[test]
fn the_first_bad_field_is_reported() {
    // Fields are checked in declaration order: slope_limit before skin_width.
    let settings = {
        let mut v = MotorSettings::default();
        v.slope_limit = -1.0;
        v.skin_width = 0.0;
        v
    };
    assert!(matches!(
        settings.validate(),
        Err(SettingsError::OutOfRange {
            field: "slope_limit",
            ..
        })
    ));
}

#[test]
fn motor_new_propagates_the_settings_error() {
    let stack = || SphereStack::capsule(1.8, 0.3, 3).expect("valid stack");
    for (name, set, bad) in out_of_range_cases() {
        let mut settings = MotorSettings::default();
        set(&mut settings, bad);
        match Motor::new(stack(), settings) {
            Err(SettingsError::OutOfRange { field, value, .. }) => {
                assert_eq!(field, name);
                assert_eq!(value.to_bits(), bad.to_bits());
            }
            other => panic!("{name} = {bad}: expected OutOfRange, got {other:?}"),
        }
    }
    let none = {
        let mut v = MotorSettings::default();
        v.max_pushback_iterations = 0;
        v
    };
    assert_eq!(
        Motor::new(stack(), none).err(),
        Some(SettingsError::NoPushbackIterations)
    );
    let zero_up = {
        let mut v = MotorSettings::default();
        v.up_frame = UpFrame::Fixed(Vec3::zeros());
        v
    };
    assert_eq!(
        Motor::new(stack(), zero_up).err(),
        Some(SettingsError::InvalidFixedUp([0.0; 3]))
    );
    assert!(Motor::new(stack(), MotorSettings::default()).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Per-step inputs
// ---------------------------------------------------------------------------------------------

/// A 40 m floor (top y = 0) with a wall whose face is the plane x = 1.
fn floor_and_wall() -> Scene {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    scene.add_box([1.0, 0.0, -5.0], [2.0, 3.0, 5.0]);
    scene
}

/// The standard character standing on the floor 0.1 m from the wall, settled.
fn standing() -> Runner {
    let mut r = Runner::new(
        floor_and_wall(),
        capsule_motor(MotorSettings::default()),
        Point3::new(0.6, 0.0, 0.0),
    );
    r.settle(10);
    assert!(
        r.report.is_grounded(),
        "fixture must stand: {:?}",
        r.report.ground
    );
    r
}

/// The standard character in the air, 3 m above the floor and away from the wall, at rest.
fn hovering() -> Runner {
    Runner::new(
        floor_and_wall(),
        capsule_motor(MotorSettings::default()),
        Point3::new(-4.0, 3.0, 0.0),
    )
}

/// Runs one step with raw inputs (world frame).
fn step_raw(r: &mut Runner, intent: MoveIntent, gravity: Vec3, dt: Real) {
    let input = StepInput::new(intent, gravity, dt);
    r.motor.step(
        &r.scene.world,
        &mut r.pose,
        &mut r.state,
        &input,
        &mut r.report,
    );
}

fn gravity() -> Vec3 {
    Vec3::new(0.0, -G, 0.0)
}

/// Bits of every number of a pose, so NaN and -0.0 compare exactly.
fn pose_bits(p: &Pose) -> [u32; 7] {
    let q = p.orientation.coords;
    [p.position.x, p.position.y, p.position.z, q.x, q.y, q.z, q.w].map(Real::to_bits)
}

fn velocity_bits(s: &MotorState) -> [u32; 3] {
    [s.velocity.x, s.velocity.y, s.velocity.z].map(Real::to_bits)
}

#[test]
fn invalid_dt_is_a_flagged_no_op() {
    for dt in [
        Real::NAN,
        0.0,
        -0.0,
        -DT,
        -1.0,
        Real::INFINITY,
        Real::NEG_INFINITY,
    ] {
        for mut r in [standing(), hovering()] {
            // Give the state some motion so a half-applied step would show.
            r.state.velocity = Vec3::new(0.0, -1.0, -2.0);
            let (pose, state) = (r.pose, r.state);
            step_raw(
                &mut r,
                MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
                gravity(),
                dt,
            );
            assert_eq!(
                r.report.flags,
                InputFlags {
                    dt_invalid: true,
                    ..InputFlags::default()
                },
                "dt {dt}"
            );
            assert_eq!(pose_bits(&r.pose), pose_bits(&pose), "dt {dt}: pose moved");
            assert_eq!(r.state, state, "dt {dt}: state changed");
            assert_eq!(r.report.substeps, 0);
            assert!(r.report.hits.is_empty());
            assert_eq!(r.report.ground, state.ground);
        }
    }
}

#[test]
fn dt_above_max_dt_is_clamped_to_it() {
    let mut long = standing();
    let mut clamped = standing();
    let walk = MoveIntent::walk(Vec3::new(0.0, 0.0, -2.0));
    let start = long.pose.position;
    step_raw(&mut long, walk, gravity(), 10.0);
    assert_eq!(
        long.report.flags,
        InputFlags {
            dt_clamped: true,
            ..InputFlags::default()
        }
    );
    let max_dt = long.motor.settings().max_dt;
    step_raw(&mut clamped, walk, gravity(), max_dt);
    assert!(!clamped.report.flags.any());
    // A 10 s step is exactly a max_dt step.
    assert_eq!(pose_bits(&long.pose), pose_bits(&clamped.pose));
    assert_eq!(velocity_bits(&long.state), velocity_bits(&clamped.state));
    // 2 m/s for 0.25 s along -Z on flat ground: 0.5 m. 1e-4 m covers the f32 sum of ~100
    // substep increments and the ground snap tolerance.
    assert_abs_diff_eq!(
        long.pose.position.z - start.z,
        -2.0 * max_dt,
        epsilon = 1e-4
    );
    assert_abs_diff_eq!(long.pose.position.y, 0.0, epsilon = 1e-4);
    assert!(long.report.is_grounded());
}

#[test]
fn nan_intent_velocity_stands_still() {
    let mut r = standing();
    let start = r.pose;
    step_raw(
        &mut r,
        MoveIntent::walk(Vec3::new(Real::NAN, 0.0, 1.0)),
        gravity(),
        DT,
    );
    assert_eq!(
        r.report.flags,
        InputFlags {
            intent_invalid: true,
            ..InputFlags::default()
        }
    );
    // Standing still on flat ground: only f32 noise of the ground snap may move it (1 um).
    assert_abs_diff_eq!(r.pose.position, start.position, epsilon = 1e-6);
    assert_abs_diff_eq!(r.state.velocity, Vec3::zeros(), epsilon = 1e-6);
    assert_eq!(r.pose.orientation, start.orientation);
    assert!(r.report.is_grounded());
}

#[test]
fn non_finite_jump_or_yaw_replaces_the_whole_intent() {
    let intents = [
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            jump_speed: Real::NAN,
            yaw_rate: 0.0,
            ..MoveIntent::default()
        },
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            jump_speed: Real::INFINITY,
            yaw_rate: 0.0,
            ..MoveIntent::default()
        },
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            jump_speed: 0.0,
            yaw_rate: Real::NAN,
            ..MoveIntent::default()
        },
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            jump_speed: 5.0,
            yaw_rate: Real::NEG_INFINITY,
            ..MoveIntent::default()
        },
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            facing: Some(spherewalk_core::UnitVec3::new_unchecked(Vec3::new(
                Real::NAN,
                0.0,
                1.0,
            ))),
            turn_rate: 5.0,
            ..MoveIntent::default()
        },
        MoveIntent {
            velocity: Vec3::new(0.0, 0.0, -3.0),
            facing: Some(Vec3::x_axis()),
            turn_rate: Real::INFINITY,
            ..MoveIntent::default()
        },
    ];
    for intent in intents {
        let mut r = standing();
        let start = r.pose;
        step_raw(&mut r, intent, gravity(), DT);
        assert_eq!(
            r.report.flags,
            InputFlags {
                intent_invalid: true,
                ..InputFlags::default()
            },
            "{intent:?}"
        );
        assert!(!r.report.jumped, "{intent:?}");
        // "Stand still": neither the walk nor the turn nor the jump is applied (1 um: snap noise).
        assert_abs_diff_eq!(r.pose.position, start.position, epsilon = 1e-6);
        assert_eq!(r.pose.orientation, start.orientation, "{intent:?}");
        assert!(r.report.is_grounded(), "{intent:?}");
    }
}

#[test]
fn nan_gravity_is_treated_as_zero() {
    for g in [
        Vec3::new(0.0, Real::NAN, 0.0),
        Vec3::new(Real::INFINITY, -9.81, 0.0),
    ] {
        let mut r = hovering();
        let start = r.pose;
        step_raw(&mut r, MoveIntent::default(), g, DT);
        assert_eq!(
            r.report.flags,
            InputFlags {
                gravity_invalid: true,
                ..InputFlags::default()
            }
        );
        // Zero gravity and no intent: a character at rest in the air stays exactly put.
        assert_eq!(pose_bits(&r.pose), pose_bits(&start));
        assert_eq!(r.state.velocity, Vec3::zeros());
        assert_eq!(r.report.ground, GroundState::Airborne);
    }
    // Control: with real gravity the same character falls g dt^2 in its first step (explicit
    // or semi-implicit Euler gives g dt^2 or g dt^2 / 2; it must at least move down).
    let mut r = hovering();
    step_raw(&mut r, MoveIntent::default(), gravity(), DT);
    assert!(r.pose.position.y < 3.0);
}

#[test]
fn nan_gravity_while_standing_keeps_standing() {
    let mut r = standing();
    let start = r.pose;
    step_raw(
        &mut r,
        MoveIntent::default(),
        Vec3::new(Real::NAN, Real::NAN, Real::NAN),
        DT,
    );
    assert!(r.report.flags.gravity_invalid);
    assert_abs_diff_eq!(r.pose.position, start.position, epsilon = 1e-6);
    assert!(r.report.is_grounded());
}

#[test]
fn intent_with_a_vertical_component_is_flattened_and_flagged() {
    let mut tilted = standing();
    let mut flat = standing();
    let start = tilted.pose.position;
    step_raw(
        &mut tilted,
        MoveIntent::walk(Vec3::new(0.0, 2.0, -3.0)),
        gravity(),
        DT,
    );
    step_raw(
        &mut flat,
        MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
        gravity(),
        DT,
    );
    assert_eq!(
        tilted.report.flags,
        InputFlags {
            intent_off_plane: true,
            ..InputFlags::default()
        }
    );
    assert!(!flat.report.flags.any());
    // The up component is dropped: the move equals the flat one. Both runs do the same
    // arithmetic on the ground-plane part; 1 um allows for the projection's rounding.
    assert_abs_diff_eq!(tilted.pose.position, flat.pose.position, epsilon = 1e-6);
    // 3 m/s along -Z for one 1/60 s step: 5 cm, and no lift off the floor (0.1 mm: probe and
    // substep rounding).
    assert_abs_diff_eq!(tilted.pose.position.z - start.z, -3.0 * DT, epsilon = 1e-4);
    assert_abs_diff_eq!(tilted.pose.position.y, 0.0, epsilon = 1e-4);
    assert!(tilted.report.is_grounded());
    assert!(!tilted.report.jumped);
}

#[test]
fn negligible_vertical_intent_is_not_flagged() {
    let mut r = standing();
    // 1e-5 m/s up on a 3 m/s walk: below the 1e-3 relative threshold.
    step_raw(
        &mut r,
        MoveIntent::walk(Vec3::new(0.0, 1e-5, -3.0)),
        gravity(),
        DT,
    );
    assert!(!r.report.flags.any(), "{:?}", r.report.flags);
}

#[test]
fn nan_pose_is_a_flagged_no_op() {
    let bad_position = |r: &mut Runner| r.pose.position.x = Real::NAN;
    let bad_height = |r: &mut Runner| r.pose.position.y = Real::INFINITY;
    let bad_orientation = |r: &mut Runner| {
        r.pose.orientation = Quat::new_unchecked(spherewalk_core::na::Quaternion::new(
            Real::NAN,
            0.0,
            0.0,
            0.0,
        ))
    };
    let spoilers: [fn(&mut Runner); 3] = [bad_position, bad_height, bad_orientation];
    for spoil in spoilers {
        let mut r = standing();
        spoil(&mut r);
        let (pose, state) = (r.pose, r.state);
        step_raw(
            &mut r,
            MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
            gravity(),
            DT,
        );
        assert_eq!(
            r.report.flags,
            InputFlags {
                state_invalid: true,
                ..InputFlags::default()
            }
        );
        assert_eq!(
            pose_bits(&r.pose),
            pose_bits(&pose),
            "the bad pose is left as it was"
        );
        assert_eq!(r.state, state);
        assert_eq!(r.report.substeps, 0);
    }
}

#[test]
fn nan_state_velocity_is_a_flagged_no_op() {
    let mut r = standing();
    r.state.velocity = Vec3::new(0.0, Real::NAN, 0.0);
    let (pose, velocity) = (r.pose, velocity_bits(&r.state));
    step_raw(
        &mut r,
        MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
        gravity(),
        DT,
    );
    assert_eq!(
        r.report.flags,
        InputFlags {
            state_invalid: true,
            ..InputFlags::default()
        }
    );
    assert_eq!(pose_bits(&r.pose), pose_bits(&pose));
    assert_eq!(velocity_bits(&r.state), velocity);
}

/// A mode from a hostile snapshot (a NaN or non-unit direction, a negative or NaN length)
/// makes the step a flagged no-op that leaves the character where it was; a time left beyond
/// what the settings allow is cut to it: a dash to its duration, a mantle to 10 s.
#[test]
fn a_hostile_mode_is_refused_or_cut_to_its_range() {
    let unit = spherewalk_core::UnitVec3::new_unchecked;
    let wall = spherewalk_core::ColliderId::new(1, 0);
    let bad = [
        Mode::Dash {
            direction: unit(Vec3::new(Real::NAN, 0.0, 0.0)),
            left: 0.1,
        },
        Mode::Dash {
            direction: unit(Vec3::new(1.0, 0.0, 0.0)),
            left: Real::INFINITY,
        },
        Mode::Climb {
            normal: unit(Vec3::new(3.0, 0.0, 0.0)),
            collider: wall,
            gap: 0.0,
        },
        Mode::Climb {
            normal: unit(Vec3::new(-1.0, 0.0, 0.0)),
            collider: wall,
            gap: Real::NAN,
        },
        Mode::Mantle {
            direction: unit(Vec3::new(0.0, 0.0, 1.0)),
            rise: -1.0,
            left: 0.5,
        },
        Mode::Mantle {
            direction: unit(Vec3::new(0.0, 0.0, 1.0)),
            rise: 0.2,
            left: Real::NAN,
        },
    ];
    for mode in bad {
        let mut r = standing();
        r.state.mode = mode;
        let (pose, state) = (pose_bits(&r.pose), velocity_bits(&r.state));
        step_raw(
            &mut r,
            MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
            gravity(),
            DT,
        );
        assert!(r.report.flags.state_invalid, "{mode:?}");
        assert_eq!(pose_bits(&r.pose), pose, "{mode:?}");
        assert_eq!(velocity_bits(&r.state), state, "{mode:?}");
    }
    // A dash with a year left runs the default 0.2 s (12 steps) and no more.
    let mut r = standing();
    r.state.mode = Mode::Dash {
        direction: unit(Vec3::new(0.0, 0.0, -1.0)),
        left: 3.0e7,
    };
    let mut steps = 0;
    while matches!(r.state.mode, Mode::Dash { .. }) {
        step_raw(
            &mut r,
            MoveIntent::walk(Vec3::new(0.0, 0.0, -3.0)),
            gravity(),
            DT,
        );
        steps += 1;
        assert!(steps <= 12, "the dash ran past its duration");
    }
    assert_eq!(steps, 12);
    // A mantle with a year left gives up within 10 s (600 steps) where it cannot stand.
    let mut r = hovering();
    r.state.mode = Mode::Mantle {
        direction: unit(Vec3::new(0.0, 0.0, 1.0)),
        rise: 0.0,
        left: 3.0e7,
    };
    let mut steps = 0;
    while matches!(r.state.mode, Mode::Mantle { .. }) {
        step_raw(&mut r, MoveIntent::default(), gravity(), DT);
        steps += 1;
        assert!(steps <= 600, "the mantle ran past 10 s");
    }
    assert!(steps >= 590, "{steps}");
}

#[test]
fn excessive_speed_is_clamped_to_max_speed() {
    let mut r = standing();
    let start = r.pose.position;
    step_raw(
        &mut r,
        MoveIntent::walk(Vec3::new(-1e6, 0.0, 0.0)),
        gravity(),
        DT,
    );
    assert!(r.report.flags.speed_clamped, "{:?}", r.report.flags);
    let max_speed = r.motor.settings().max_speed;
    // At most max_speed * dt along the floor (500 m/s * 1/60 s = 8.33 m); 1e-3 m: substep sums.
    assert!(
        r.state.velocity.norm() <= max_speed * (1.0 + 1e-5),
        "{}",
        r.state.velocity.norm()
    );
    assert_abs_diff_eq!(r.pose.position.x - start.x, -max_speed * DT, epsilon = 1e-3);
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// Any f32, weighted toward the values that break arithmetic: NaN, infinities, extremes, zero.
fn wild() -> impl Strategy<Value = Real> {
    prop_oneof![
        4 => -50.0f32..50.0,
        3 => proptest::num::f32::ANY,
        1 => Just(Real::NAN),
        1 => Just(Real::INFINITY),
        1 => Just(Real::NEG_INFINITY),
        1 => Just(0.0f32),
        1 => Just(Real::MAX),
        1 => Just(Real::MIN),
        1 => Just(Real::MIN_POSITIVE),
        1 => Just(1e30f32),
    ]
}

fn wild_vec() -> impl Strategy<Value = Vec3> {
    (wild(), wild(), wild()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn assert_sane(r: &Runner, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(r.pose.is_finite(), "{what}: pose {:?}", r.pose);
    prop_assert!(
        r.state.velocity.iter().all(|c| c.is_finite()),
        "{what}: velocity {:?}",
        r.state.velocity
    );
    // The orientation stays a rotation (unit quaternion; 1e-3 allows drift from many turns).
    let norm = r.pose.orientation.coords.norm();
    prop_assert!((norm - 1.0).abs() < 1e-3, "{what}: |q| = {norm}");
    Ok(())
}

proptest! {
    // A fixed seed keeps CI reproducible; set PROPTEST_RNG_SEED to explore other cases locally.
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_5a1c),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Arbitrary intent, jump, yaw rate, gravity and dt never panic and leave the pose and the
    /// velocity finite, for a character standing on a floor beside a wall; and a normal step
    /// afterwards still works.
    #[test]
    fn arbitrary_inputs_never_panic_or_poison_the_pose(
        velocity in wild_vec(),
        jump_speed in wild(),
        yaw_rate in wild(),
        gravity in wild_vec(),
        dt in wild(),
    ) {
        let mut r = standing();
        // The facing is any vector passed off as a unit one (NaN, huge, zero), and the turn
        // rate as wild as the yaw rate.
        let intent = MoveIntent {
            velocity,
            jump_speed,
            yaw_rate,
            facing: Some(spherewalk_core::UnitVec3::new_unchecked(gravity)),
            turn_rate: yaw_rate,
            // Wild steps dash too, whenever the wild jump is positive.
            dash: jump_speed > 0.0,
        };
        for k in 0..3 {
            step_raw(&mut r, intent, gravity, dt);
            assert_sane(&r, &format!("wild step {k}"))?;
        }
        for k in 0..3 {
            r.step(Vec3::new(0.0, 0.0, -1.0));
            assert_sane(&r, &format!("normal step {k}"))?;
        }
    }

    /// From any start clear of a box obstacle (on the floor beside it, in the air, or on top
    /// of it), walking in any direction, no sphere is left inside anything after a step.
    #[test]
    fn no_penetration_after_a_step_near_a_box(
        x in -2.5f32..2.5,
        y in 0.0f32..1.6,
        z in -2.5f32..2.5,
        vx in -8.0f32..8.0,
        vz in -8.0f32..8.0,
        dt in 0.002f32..0.25,
    ) {
        let mut scene = Scene::new(Frame::world_up());
        scene.add_floor(20.0);
        // A 2 m x 1.2 m x 2 m box centred on the origin.
        scene.add_box([-1.0, 0.0, -1.0], [1.0, 1.2, 1.0]);
        let mut r = Runner::new(scene, capsule_motor(MotorSettings::default()), Point3::new(x, y, z));
        prop_assume!(r.penetration() == 0.0, "start must be valid (clear of the box)");
        for k in 0..5 {
            let input = StepInput::new(MoveIntent::walk(Vec3::new(vx, 0.0, vz)), gravity(), dt);
            r.motor.step(&r.scene.world, &mut r.pose, &mut r.state, &input, &mut r.report);
            // 1 mm: the pushback tolerance is 0.1 mm; anything near 1 mm is a visible sink.
            prop_assert!(r.report.max_penetration < 1e-3, "step {k}: reported {}", r.report.max_penetration);
            prop_assert!(r.penetration() < 1e-3, "step {k}: measured {}", r.penetration());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the properties above (literal inputs)
// ---------------------------------------------------------------------------------------------

/// Runs `f` on another thread and fails if it does not finish within `secs` seconds, so a
/// step that never returns fails the test instead of hanging the suite.
fn within_seconds<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(value) => value,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!("did not finish within {secs} s"),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the step panicked"),
    }
}

/// Runs three raw steps from the standing fixture and checks the pose and velocity stay finite
/// and the speed stays within `max_speed` (plus 1e-3 relative: f32 rescaling).
fn three_raw_steps_stay_sane(intent: MoveIntent, gravity: Vec3, dt: Real) {
    within_seconds(10, move || {
        let mut r = standing();
        let max_speed = r.motor.settings().max_speed;
        for k in 0..3 {
            step_raw(&mut r, intent, gravity, dt);
            assert!(r.pose.is_finite(), "step {k}: pose {:?}", r.pose);
            let v = r.state.velocity;
            assert!(v.iter().all(|c| c.is_finite()), "step {k}: velocity {v:?}");
            assert!(
                v.norm() <= max_speed * 1.001,
                "step {k}: speed {}",
                v.norm()
            );
            assert!(
                r.report.flags.speed_clamped,
                "step {k}: {:?}",
                r.report.flags
            );
        }
    });
}

#[test]
fn regression_max_intent_with_1e30_gravity_gave_a_nan_pose() {
    // Shrunk by proptest: |intent| overflowed f32 to infinity and its projection became NaN.
    let intent = MoveIntent {
        velocity: Vec3::new(Real::MAX, 0.0, Real::MAX),
        jump_speed: 0.0,
        yaw_rate: 0.0,
        ..MoveIntent::default()
    };
    three_raw_steps_stay_sane(intent, Vec3::new(0.0, 0.0, 1e30), 39.546646);
}

#[test]
fn regression_max_intent_sideways_gravity_gave_a_nan_pose() {
    // Shrunk by proptest: gravity along +Z turns up toward -Z while the intent overflows.
    let intent = MoveIntent {
        velocity: Vec3::new(0.0, Real::MAX, Real::MAX),
        jump_speed: 0.0,
        yaw_rate: 0.0,
        ..MoveIntent::default()
    };
    three_raw_steps_stay_sane(intent, Vec3::new(0.0, 0.0, 16.184223), 17.13362);
}

#[test]
fn huge_gravity_is_clamped_and_flagged() {
    let mut r = hovering();
    // dt = 1/600 s: MAX_GRAVITY dt = 166.7 m/s, under max_speed, so the gravity clamp is what
    // binds, and the fall (0.28 m) stays clear of the floor 3 m below.
    let dt = 1.0 / 600.0;
    step_raw(
        &mut r,
        MoveIntent::default(),
        Vec3::new(0.0, -1e30, 0.0),
        dt,
    );
    assert_eq!(
        r.report.flags,
        InputFlags {
            gravity_clamped: true,
            ..InputFlags::default()
        }
    );
    // 1e-3 m/s: f32 rescaling of a 1e30 vector and one multiply by dt.
    assert_abs_diff_eq!(
        r.state.velocity.y,
        -spherewalk_core::motor::MAX_GRAVITY * dt,
        epsilon = 1e-3
    );
    assert!(r.pose.is_finite());
}

/// Issue 27: gravity of 1e6 m/s² sideways (+x), toward a wall whose face is the plane
/// x = 11: a 1 m box, a 0.1 m slab, or a one-sided triangle wall, 5 m tall. The pull is
/// clamped to MAX_GRAVITY and the speed to max_speed. Standing 0.5-1 m from the wall, the
/// character's up was still turning toward the new gravity when it hit the wall, and the
/// landing removed its 500 m/s along that lagging up: 375 m/s were kept along the wall, up
/// and over it (its centre reached x = 952). A landing now removes velocity against the fall
/// when up lags well behind gravity: the character lands on the wall and stands on it.
#[test]
fn huge_sideways_gravity_never_drives_through_or_over_a_wall() {
    let one_sided = SharedShape::trimesh(
        vec![
            Point3::new(11.0, 0.0, -5.0),
            Point3::new(11.0, 0.0, 5.0),
            Point3::new(11.0, 5.0, 5.0),
            Point3::new(11.0, 5.0, -5.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .expect("wall");
    for kind in ["box", "slab", "one-sided"] {
        for start in [0.0, 10.0, 10.5] {
            for spheres in [3, 5] {
                let mut scene = Scene::new(Frame::world_up());
                scene.add_floor(50.0);
                match kind {
                    "box" => drop(scene.add_box([11.0, 0.0, -5.0], [12.0, 5.0, 5.0])),
                    "slab" => drop(scene.add_box([11.0, 0.0, -5.0], [11.1, 5.0, 5.0])),
                    _ => drop(scene.add(one_sided.clone(), Iso::identity())),
                }
                let stack = SphereStack::capsule(1.8, 0.3, spheres).expect("stack");
                let motor = Motor::new(stack, MotorSettings::default()).expect("motor");
                let mut r = Runner::new(scene, motor, Point3::new(start, 0.0, 0.0));
                r.settle(5);
                let what = format!("{kind}, from x = {start}, {spheres} spheres");
                for step in 0..120 {
                    step_raw(&mut r, MoveIntent::default(), Vec3::new(1e6, -G, 0.0), DT);
                    assert!(r.pose.is_finite(), "{what}, step {step}");
                    // No sphere's surface passes the face at x = 11 by more than the skin.
                    let front = r.max_sphere_coord(0) + 0.3;
                    assert!(
                        front <= 11.0 + 0.011,
                        "{what}, step {step}: reached x = {front}"
                    );
                    assert!(r.pose.position.y < 5.0, "{what}, step {step}: up the wall");
                }
                // Standing on the wall, up turned to face the pull (1e-3: the turn converges
                // to f32 rounding of the clamped gravity's direction).
                assert!(r.report.is_grounded(), "{what}: {:?}", r.report.ground);
                assert!(r.pose.up().x < -1.0 + 1e-3, "{what}: up {:?}", r.pose.up());
                assert_abs_diff_eq!(r.pose.position.x, 11.0, epsilon = 0.011);
            }
        }
    }
}

/// Issue "hostile input": `max_substep_fraction: 1e-30` made one step take 4.3 billion
/// substeps. The fraction now lives in [0.01, 1].
#[test]
fn regression_max_substep_fraction_1e_30_hung_the_step() {
    let settings = {
        let mut v = MotorSettings::default();
        v.max_substep_fraction = 1e-30;
        v
    };
    let err = Motor::new(SphereStack::capsule(1.8, 0.3, 3).expect("stack"), settings)
        .expect_err("refused");
    assert!(matches!(
        err,
        SettingsError::OutOfRange {
            field: "max_substep_fraction",
            ..
        }
    ));
}

/// A sphere of radius 1e-30 did the same; radii now live in [1 mm, 1 km].
#[test]
fn regression_radius_1e_30_hung_the_step() {
    for radius in [1e-30, 5e-4, 2e3] {
        assert!(
            matches!(
                SphereStack::new(&[(radius, radius)]),
                Err(ShapeError::InvalidRadius { .. })
            ),
            "{radius}"
        );
        assert!(SphereStack::capsule(4000.0, radius, 2).is_err(), "{radius}");
    }
    assert!(
        SphereStack::new(&[(1e-3, 1e-3)]).is_ok(),
        "1 mm is the least"
    );
}

/// `max_dt: 1e30` with dt 1e30 did the same; `max_dt` now lives in (0, 1] s.
#[test]
fn regression_max_dt_1e30_hung_the_step() {
    let settings = {
        let mut v = MotorSettings::default();
        v.max_dt = 1e30;
        v
    };
    assert!(Motor::new(SphereStack::capsule(1.8, 0.3, 3).expect("stack"), settings).is_err());
}

/// `max_pushback_iterations: 4_000_000_000` was accepted, and a character between walls
/// 0.4 m apart appended every contact of every iteration to `report.hits` (1.8 GB in 7.5 s).
/// Iterations now stop at 64 and a step records at most `MAX_HITS` contacts.
#[test]
fn regression_4e9_pushback_iterations_ate_memory() {
    let settings = {
        let mut v = MotorSettings::default();
        v.max_pushback_iterations = 4_000_000_000;
        v
    };
    assert_eq!(
        Motor::new(SphereStack::capsule(1.8, 0.3, 3).expect("stack"), settings)
            .expect_err("refused"),
        SettingsError::TooManyPushbackIterations(4_000_000_000)
    );
    // The most iterations, squeezed between walls 0.4 m apart, at the highest speed.
    let settings = {
        let mut v = MotorSettings::default();
        v.max_pushback_iterations = spherewalk_core::motor::MAX_PUSHBACK_ITERATIONS;
        v.max_substep_fraction = 0.01;
        v
    };
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    scene.add_box([-2.0, 0.0, -2.0], [-0.2, 3.0, 2.0]);
    scene.add_box([0.2, 0.0, -2.0], [2.0, 3.0, 2.0]);
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::origin());
    let mut most = 0;
    for _ in 0..20 {
        r.step(Vec3::new(0.0, 0.0, 500.0));
        most = most.max(r.report.hits.len());
        assert!(r.report.hits.capacity() <= 2 * spherewalk_core::phases::MAX_HITS);
    }
    assert!(most <= spherewalk_core::phases::MAX_HITS, "{most} hits");
    assert!(r.pose.is_finite());
}

/// The substep cap: the longest move validated settings allow (500 m/s for 1 s with 1 mm
/// spheres at fraction 0.01 would be 5e7 substeps) takes at most `MAX_SUBSTEPS`.
#[test]
fn the_substep_count_is_capped() {
    let stack = SphereStack::capsule(0.01, 1e-3, 6).expect("1 mm spheres");
    // Skin and step height in scale with a 1 cm character.
    let settings = {
        let mut v = MotorSettings::default();
        v.max_substep_fraction = 0.01;
        v.max_dt = 1.0;
        v.skin_width = 1e-4;
        v.stair_height = 0.002;
        v
    };
    let motor = Motor::new(stack, settings).expect("valid");
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(1000.0);
    let mut r = Runner::new(scene, motor, Point3::origin());
    r.dt = 1.0;
    r.settle(2);
    r.step(Vec3::new(500.0, 0.0, 0.0));
    assert_eq!(r.report.substeps, spherewalk_core::phases::MAX_SUBSTEPS);
    assert!(r.pose.is_finite());
}

/// Issue "hostile input": settings accepted but useless with the stack they go with. A skin
/// of 1e30 m meant never grounded; a 3 m step height let a 1.8 m character climb 2.37 m in
/// one step. Both are now out of scale for the stack.
#[test]
fn regression_skin_width_1e30_and_step_height_3_m_are_out_of_scale() {
    let stack = || SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    for (settings, field) in [
        (
            {
                let mut v = MotorSettings::default();
                v.skin_width = 1e30;
                v
            },
            "skin_width",
        ),
        (
            {
                let mut v = MotorSettings::default();
                v.stair_height = 3.0;
                v
            },
            "stair_height",
        ),
        // Found by the settings property test: a tolerance of 1e30 m left every overlap
        // alone, and the character sank through the floor. At most a tenth of the smallest
        // radius (0.03 m here).
        (
            {
                let mut v = MotorSettings::default();
                v.penetration_tolerance = 0.031;
                v
            },
            "penetration_tolerance",
        ),
    ] {
        match Motor::new(stack(), settings) {
            Err(SettingsError::OutOfScale { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: expected OutOfScale, got {:?}", other.err()),
        }
    }
    // The largest that fit: a skin of half the radius, a tolerance of a tenth of it, a step
    // just under the height.
    let fits = {
        let mut v = MotorSettings::default();
        v.skin_width = 0.15;
        v.penetration_tolerance = 0.03;
        v.stair_height = 1.79;
        v
    };
    assert!(Motor::new(stack(), fits).is_ok());
}

/// Issue "hostile input": a stack whose upper sphere reached below its feet sphere was
/// accepted, then never grounded (the probe casts the feet). The feet must be lowest.
#[test]
fn regression_an_upper_sphere_below_the_feet_is_refused() {
    // A 0.1 m feet sphere under a 0.5 m one centred 0.2 m higher: it reaches 0.2 m lower.
    match SphereStack::new(&[(0.1, 0.1), (0.3, 0.5)]) {
        Err(ShapeError::BelowFeet { index, below }) => {
            assert_eq!(index, 1);
            // 0 - (0.3 - 0.5) = 0.2 m (1e-6: f32).
            assert_abs_diff_eq!(below, 0.2, epsilon = 1e-6);
        }
        other => panic!("expected BelowFeet, got {other:?}"),
    }
    // Touching the same floor line is fine.
    assert!(SphereStack::new(&[(0.1, 0.1), (0.3, 0.3)]).is_ok());
}

/// `Motor::admit`, the admission rule both hosts apply before a character's first step, in
/// every test frame: a NaN pose is refused; a stack inside a 6 m boulder is refused as buried,
/// with its head sphere's depth (2.5 m to the boulder's bottom face plus its 0.3 m radius); a
/// stack 0.1 m into the floor is admitted with that depth, left to the step's pushback.
#[test]
fn admission_refuses_a_nan_pose_and_a_buried_stack_and_admits_a_shallow_overlap() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        scene.add_floor(20.0);
        scene.add_box([2.0, 0.0, -3.0], [8.0, 6.0, 3.0]);
        let motor = capsule_motor(MotorSettings::default());
        let at = |local: Point3| Pose {
            position: frame.to_world(&local),
            orientation: frame.iso.rotation,
        };
        let nan = Pose::new(Point3::new(Real::NAN, 0.0, 0.0));
        assert_eq!(
            motor.admit(&scene.world, &nan),
            Err(AdmitError::NonFinitePose)
        );
        let inside = motor.admit(&scene.world, &at(Point3::new(5.0, 1.0, 0.0)));
        let Err(AdmitError::Buried { depth, height }) = inside else {
            panic!("{frame:?}: {inside:?}");
        };
        // f32 rounding of closest points 100 m out in the rotated frames: 1e-4 m.
        assert_abs_diff_eq!(depth, 2.8, epsilon = 1e-4);
        assert_abs_diff_eq!(height, 1.8, epsilon = 1e-6);
        let sunk = motor.admit(&scene.world, &at(Point3::new(-3.0, -0.1, 0.0)));
        let depth = sunk.unwrap_or_else(|e| panic!("{frame:?}: {e}"));
        assert_abs_diff_eq!(depth, 0.1, epsilon = 1e-4);
    }
}
