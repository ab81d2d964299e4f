//! Changing a character's stack in place: `Motor::resize` takes a new stack only where it fits
//! and its settings stay in scale; otherwise the old stack stays, untouched.

use crate::common::*;
use approx::assert_abs_diff_eq;
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    MotorSettings, Point3, SettingsError, SphereStack, Vec3, math::Iso, motor::ResizeError,
};

/// One-sided walls (mesh quads 3 m tall, 10 m long along Z) at x = -0.4 facing +X and at
/// x = +0.4 facing -X: a corridor 0.8 m wide on a floor.
fn mesh_corridor() -> Scene {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    for (x, facing_plus_x) in [(-0.4, true), (0.4, false)] {
        let v = vec![
            Point3::new(x, 0.0, -5.0),
            Point3::new(x, 3.0, -5.0),
            Point3::new(x, 0.0, 5.0),
            Point3::new(x, 3.0, 5.0),
        ];
        // Counter-clockwise seen from +X: (0, 1, 2) and (1, 3, 2).
        let mut tris = vec![[0, 1, 2], [1, 3, 2]];
        if !facing_plus_x {
            tris.iter_mut().for_each(|t| t.swap(1, 2));
        }
        let mesh = SharedShape::trimesh(v, tris).expect("wall mesh");
        scene.add(mesh, Iso::identity());
    }
    scene
}

/// The trap: a stack grown to 1 m wide in a 0.8 m corridor of one-sided mesh walls
/// was pushed out through a wall within 8 steps. `resize` refuses it (0.1 m deep into each
/// wall), keeps the 0.6 m stack, and the character stays in the corridor.
#[test]
fn regression_growing_in_a_mesh_corridor_is_refused() {
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(mesh_corridor(), motor, Point3::origin());
    run.settle(5);
    let wide = SphereStack::capsule(1.8, 0.5, 3).expect("stack");
    let refused = run
        .motor
        .resize(&run.scene.world, &run.pose, wide)
        .expect_err("does not fit");
    // 0.5 m radius, 0.4 m to each wall; 1e-5 m: f32 closest points.
    let ResizeError::Blocked { depth } = refused else {
        panic!("{refused:?}");
    };
    assert_abs_diff_eq!(depth, 0.1, epsilon = 1e-5);
    assert_abs_diff_eq!(run.motor.stack().max_radius(), 0.3);
    run.run(30, Vec3::zeros());
    assert_abs_diff_eq!(run.local().x, 0.0, epsilon = 1e-4);
    // A 0.7 m stack fits the 0.8 m corridor: taken, and the character stays put.
    let fits = SphereStack::capsule(1.8, 0.35, 3).expect("stack");
    let depth = run
        .motor
        .resize(&run.scene.world, &run.pose, fits)
        .expect("fits");
    assert_eq!(depth, 0.0);
    assert_abs_diff_eq!(run.motor.stack().max_radius(), 0.35);
    run.run(30, Vec3::zeros());
    assert_abs_diff_eq!(run.local().x, 0.0, epsilon = 1e-4);
    assert!(run.report.max_penetration < 1e-3);
}

/// Standing up from 1.0 m to 1.8 m under a ceiling 1.2 m up: before, the grown head was pushed
/// down and the feet 0.7 m into the floor. `resize` refuses (the head would be 0.6 m deep),
/// while crouching further, to 0.8 m, is taken.
#[test]
fn regression_standing_up_under_a_low_ceiling_is_refused() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(20.0);
    scene.add_box([-10.0, 1.2, -10.0], [10.0, 2.2, 10.0]);
    let low = SphereStack::capsule(1.0, 0.3, 2).expect("stack");
    let motor = spherewalk_core::Motor::new(low, MotorSettings::default()).expect("motor");
    let mut run = Runner::new(scene, motor, Point3::origin());
    run.settle(5);
    let tall = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
    let refused = run.motor.resize(&run.scene.world, &run.pose, tall);
    let Err(ResizeError::Blocked { depth }) = refused else {
        panic!("{refused:?}");
    };
    // The head sphere's top at 1.8 m, the ceiling at 1.2 m; 1e-4 m: the skin left under the
    // feet and f32 rounding.
    assert_abs_diff_eq!(depth, 0.6, epsilon = 1e-4);
    assert_abs_diff_eq!(run.motor.stack().height(), 1.0, epsilon = 1e-6);
    run.run(30, Vec3::zeros());
    assert!(run.local().y > -1e-3, "{:?}", run.local());
    let lower = SphereStack::capsule(0.8, 0.3, 2).expect("stack");
    run.motor
        .resize(&run.scene.world, &run.pose, lower)
        .expect("fits");
    assert_abs_diff_eq!(run.motor.stack().height(), 0.8, epsilon = 1e-6);
}

/// A stack the settings are out of scale with is refused like `Motor::new` refuses it: a
/// 0.3 m stack with the default 0.35 m step height. `set_stack` (no world) applies the same
/// rule.
#[test]
fn resizing_to_a_stack_below_the_step_height_is_refused() {
    let motor = capsule_motor(MotorSettings::default());
    let mut run = Runner::new(mesh_corridor(), motor, Point3::origin());
    let tiny = SphereStack::capsule(0.3, 0.15, 1).expect("stack");
    let refused = run.motor.resize(&run.scene.world, &run.pose, tiny.clone());
    let expected = SettingsError::OutOfScale {
        field: "stair_height",
        value: 0.35,
        most: 0.3,
    };
    assert_eq!(refused, Err(ResizeError::Settings(expected.clone())));
    assert_eq!(run.motor.set_stack(tiny), Err(expected));
    assert_abs_diff_eq!(run.motor.stack().height(), 1.8, epsilon = 1e-6);
}
