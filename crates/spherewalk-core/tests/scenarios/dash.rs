//! Dash (`Mode::Dash`, `MoveIntent::dash`, `DashSettings`): a burst at the dash speed for
//! its duration, along the ground or level in the air with gravity held off, ended early by
//! a wall, then a cooldown. In every frame: flat ground, tilted, and on a planet.

use crate::common::{DT, Frame, Runner, Scene, capsule_motor, mode_changes};
use approx::assert_abs_diff_eq;
use spherewalk_core::motor::{DashSettings, Mode};
use spherewalk_core::{GroundState, MotorSettings, MoveIntent, Point3, Vec3};

/// A character standing at the scene's origin (on a floor, or on the planet), settled.
fn standing(frame: Frame) -> Runner {
    let mut scene = Scene::new(frame);
    if frame.planet.is_none() {
        scene.add_floor(20.0);
    }
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::origin(),
    );
    r.settle(30);
    assert_eq!(r.state.ground, GroundState::Grounded, "{}", frame.name);
    r
}

/// A step walking at `local` (m/s, scene frame), dashing when `dash`.
fn step(r: &mut Runner, local: Vec3, dash: bool) {
    let intent = MoveIntent {
        dash,
        ..MoveIntent::walk(r.scene.frame.vec_to_world(&local))
    };
    r.step_intent(intent);
}

fn is_dash(mode: Mode) -> bool {
    matches!(mode, Mode::Dash { .. })
}

/// The default dash, 12 m/s for 0.2 s, is 12 steps of 1/60 s: 2.4 m along the ground, the
/// walk's 2 m/s after it, a `ModeChanged` at each end, on the ground and clear of it all the
/// way (the skin plus 1 mm), whatever the frame.
#[test]
fn a_ground_dash_runs_its_speed_for_its_duration_in_every_frame() {
    let dash = DashSettings::default();
    let steps = (dash.duration / DT).round() as u32;
    assert_eq!(steps, 12);
    for frame in Frame::all() {
        let mut r = standing(frame);
        let start = r.scene.frame.to_local(&r.pose.position);
        let walk = Vec3::new(2.0, 0.0, 0.0);
        for k in 1..=steps {
            step(&mut r, walk, k == 1);
            assert_eq!(
                r.state.ground,
                GroundState::Grounded,
                "{} step {k}",
                frame.name
            );
            assert!(r.penetration() <= 0.01 + 1e-3, "{} step {k}", frame.name);
            // A dash begins on the first step, with its whole duration, and ends on the last.
            let changed = mode_changes(&r);
            match k {
                1 => assert!(
                    matches!(changed[..], [(Mode::Walk, Mode::Dash { left, .. })] if left == dash.duration)
                ),
                k if k == steps => {
                    assert!(matches!(changed[..], [(Mode::Dash { .. }, Mode::Walk)]))
                }
                _ => assert!(changed.is_empty(), "{} step {k}", frame.name),
            }
            assert_eq!(is_dash(r.state.mode), k < steps, "{} step {k}", frame.name);
        }
        let end = r.scene.frame.to_local(&r.pose.position);
        // 12 steps at 12 m/s: 2.4 m (1 mm flat; on the 30 m planet the scene's straight +X
        // drifts below the 2.4 m arc: 2.4 - 30 sin(0.08) = 3.2 mm, so 5 mm there).
        let tolerance = if frame.planet.is_some() { 5e-3 } else { 1e-3 };
        assert_abs_diff_eq!(end.x - start.x, 2.4, epsilon = tolerance);
        assert_abs_diff_eq!(end.z - start.z, 0.0, epsilon = 1e-3);
        // The walk resumes at its own speed, not the dash's (1 mm/s: f32 round the frame).
        let v = r.scene.frame.vec_to_local(&r.state.velocity);
        assert_abs_diff_eq!(Vec3::new(v.x, 0.0, v.z).norm(), 2.0, epsilon = 0.05);
        assert_abs_diff_eq!(r.state.dash_cooldown, dash.cooldown);
    }
}

/// In the air the dash is level: 12 steps with gravity held off keep the height the dash
/// began at, then the fall resumes from rest along up.
#[test]
fn an_air_dash_holds_its_height_then_falls() {
    for frame in Frame::all() {
        let mut scene = Scene::new(frame);
        if frame.planet.is_none() {
            scene.add_floor(20.0);
        }
        let motor = capsule_motor(MotorSettings::default());
        let mut r = Runner::new(scene, motor, Point3::new(0.0, 3.0, 0.0));
        let start = r.scene.frame.to_local(&r.pose.position);
        for k in 1..=12 {
            step(&mut r, Vec3::zeros(), k == 1);
            assert_eq!(
                r.state.ground,
                GroundState::Airborne,
                "{} step {k}",
                frame.name
            );
        }
        let end = r.scene.frame.to_local(&r.pose.position);
        // No intent: along the character's forward, scene -Z. Flat frames keep the height to
        // 0.1 mm (f32); on the planet each 0.2 m step leaves along the tangent and rises
        // 0.6 mm off the 33 m sphere, and the scene's -Z leaves it too: within 3 cm.
        let (height, tolerance) = match frame.planet {
            Some(_) => (r.altitude() - 3.0, 3e-2),
            None => (end.y - start.y, 1e-4),
        };
        assert_abs_diff_eq!(height, 0.0, epsilon = tolerance);
        assert_abs_diff_eq!(start.z - end.z, 2.4, epsilon = tolerance);
        assert_eq!(r.state.mode, Mode::Walk, "{}", frame.name);
        // The velocity left is the dash's less its part in the ground plane (no intent): the
        // fall starts from rest.
        let left = r.state.velocity.norm();
        assert!(left < 1e-3, "{}: {left} m/s left", frame.name);
        step(&mut r, Vec3::zeros(), false);
        let fall = r.scene.frame.vec_to_local(&r.state.velocity);
        assert!(fall.y < -0.1, "{}: falls again ({fall:?})", frame.name);
    }
}

/// A wall 1 m ahead ends a dash at it, well before its 12 steps, with the character clear
/// of the wall (the skin plus 1 mm) and the cooldown begun; with `stop_at_walls` off the
/// dash slides along a slanted wall to its end.
#[test]
fn a_wall_ends_a_dash_unless_told_to_slide() {
    for frame in Frame::all() {
        let mut r = standing(frame);
        // The capsule's radius is 0.3: its front is 0.7 m from the wall.
        r.scene.add_box([1.0, 0.0, -5.0], [2.0, 3.0, 5.0]);
        let mut dashed = 0;
        for k in 1..=12 {
            step(&mut r, Vec3::new(1.0, 0.0, 0.0), k == 1);
            assert!(r.penetration() <= 0.01 + 1e-3, "{} step {k}", frame.name);
            if is_dash(r.state.mode) {
                dashed = k;
            }
        }
        // 0.7 m at 0.2 m a step: the wall is met on the fourth step, and the dash ends there.
        assert_eq!(dashed, 3, "{}", frame.name);
        assert!(r.scene.frame.to_local(&r.pose.position).x < 0.7 + 1e-3);
        let cooled = DashSettings::default().cooldown - 8.0 * DT;
        assert_abs_diff_eq!(r.state.dash_cooldown, cooled, epsilon = 1e-5);
    }
    let mut settings = MotorSettings::default();
    settings.dash.stop_at_walls = false;
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    scene.add_box([1.0, 0.0, -5.0], [2.0, 3.0, 5.0]);
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::origin());
    r.settle(30);
    // Along +X and -Z at 45 degrees: the wall takes the +X half and the dash slides on.
    let mut dashed = 0;
    for k in 1..=12 {
        step(&mut r, Vec3::new(1.0, 0.0, -1.0), k == 1);
        dashed += u32::from(is_dash(r.state.mode));
    }
    assert_eq!(dashed, 11);
    assert!(
        r.pose.position.z < -1.3,
        "slid along the wall: {}",
        r.pose.position
    );
}

/// Asked for every step, a dash comes back once its 0.5 s cooldown (30 steps) has passed.
#[test]
fn the_cooldown_spaces_dashes() {
    let mut r = standing(Frame::world_up());
    let mut began = Vec::new();
    for k in 1..=60 {
        step(&mut r, Vec3::new(1.0, 0.0, 0.0), true);
        if mode_changes(&r).iter().any(|(_, to)| is_dash(*to)) {
            began.push(k);
        }
    }
    // 12 steps of dash, 30 of cooldown: the next begins on step 43.
    assert_eq!(began, vec![1, 43]);
}

/// Settings out of range are refused by name: a dash of no speed, a NaN or zero duration, a
/// negative cooldown.
#[test]
fn dash_settings_out_of_range_are_refused_by_name() {
    let with = |dash: DashSettings| {
        let mut settings = MotorSettings::default();
        settings.dash = dash;
        settings
    };
    let cases = [
        (
            "dash.speed",
            DashSettings {
                speed: f32::INFINITY,
                ..DashSettings::default()
            },
        ),
        (
            "dash.speed",
            DashSettings {
                speed: 0.0,
                ..DashSettings::default()
            },
        ),
        (
            "dash.duration",
            DashSettings {
                duration: f32::NAN,
                ..DashSettings::default()
            },
        ),
        (
            "dash.duration",
            DashSettings {
                duration: 0.0,
                ..DashSettings::default()
            },
        ),
        (
            "dash.cooldown",
            DashSettings {
                cooldown: -1.0,
                ..DashSettings::default()
            },
        ),
    ];
    for (field, dash) in cases {
        match with(dash).validate() {
            Err(spherewalk_core::SettingsError::OutOfRange { field: f, .. }) => {
                assert_eq!(f, field)
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    assert!(with(DashSettings::default()).validate().is_ok());
}

/// A dash faster than `max_speed` runs at `max_speed` for its whole duration: the cap is not
/// a wall (12 steps at 5 m/s: 1.0 m, 1 mm for f32 sums).
#[test]
fn a_dash_capped_by_max_speed_runs_its_whole_duration() {
    let mut settings = MotorSettings::default();
    settings.max_speed = 5.0;
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::origin());
    r.settle(30);
    let start = r.pose.position;
    let mut dashed = 0;
    for k in 1..=12 {
        step(&mut r, Vec3::new(1.0, 0.0, 0.0), k == 1);
        dashed += u32::from(is_dash(r.state.mode));
    }
    assert_eq!(dashed, 11, "ends on its 12th step");
    assert_abs_diff_eq!(r.pose.position.x - start.x, 1.0, epsilon = 1e-3);
}
