//! Surface up-mode: walking from a floor onto a wall and onto the ceiling.

use crate::common::*;
use spherewalk_core::{MotorSettings, MoveIntent, Point3, Quat, Real, UpFrame, Vec3};

/// A room slice: floor top y = 0, a wall whose face is x = 4, a ceiling whose face is y = 4.
fn room(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_box([-10.0, -1.0, -3.0], [5.0, 0.0, 3.0]);
    scene.add_box([4.0, -1.0, -3.0], [5.0, 5.0, 3.0]);
    scene.add_box([-10.0, 4.0, -3.0], [5.0, 5.0, 3.0]);
    scene
}

#[test]
fn surface_mode_walks_from_floor_to_wall_to_ceiling() {
    for frame in Frame::all() {
        let settings = {
            let mut v = MotorSettings::default();
            v.up_frame = UpFrame::Surface;
            v
        };
        let mut r = Runner::new(
            room(frame),
            capsule_motor(settings),
            Point3::new(0.0, 0.0, 0.0),
        );
        // Face scene +X (forward is local -Z; a -90 degree yaw turns it to +X).
        r.pose.orientation = frame.iso.rotation
            * Quat::from_axis_angle(&Vec3::y_axis(), -std::f32::consts::FRAC_PI_2);
        r.settle(5);
        let speed: Real = 3.0;
        let (mut on_wall, mut on_ceiling) = (None, None);
        for step in 0..300u32 {
            r.step_intent(MoveIntent::walk(r.pose.forward().into_inner() * speed));
            let up = r.local_up();
            if on_wall.is_none() && up.x < -0.999 && r.report.is_grounded() {
                on_wall = Some(step);
            }
            if on_ceiling.is_none() && up.y < -0.999 && r.report.is_grounded() {
                on_ceiling = Some(step);
            }
            assert!(
                r.report.max_penetration < 1e-3,
                "{}: step {step}: {}",
                frame.name,
                r.report.max_penetration
            );
        }
        let on_wall = on_wall.unwrap_or_else(|| panic!("{}: never stood on the wall", frame.name));
        let on_ceiling =
            on_ceiling.unwrap_or_else(|| panic!("{}: never stood on the ceiling", frame.name));
        assert!(on_wall < on_ceiling, "{}", frame.name);
        // Ends walking along the ceiling, away from the wall, upside down and grounded on it:
        // the feet centre one radius below the ceiling face (1 mm).
        let c = r.feet_centre();
        assert!(
            (c.y - 3.7).abs() < 1e-3,
            "{}: feet centre at y = {}",
            frame.name,
            c.y
        );
        assert!(r.local_up().y < -0.999, "{}", frame.name);
        assert!(
            r.local_velocity().x < -0.9 * speed,
            "{}: velocity {:?}",
            frame.name,
            r.local_velocity()
        );
    }
}

/// A tunnel slice 4 m wide and 3 m tall: floor top y = 0, a wall whose face is x = 4 (the far
/// end), a ceiling whose face is y = 3.
fn tunnel(frame: Frame) -> Scene {
    let mut scene = Scene::new(frame);
    scene.add_box([-10.0, -1.0, -3.0], [5.0, 0.0, 3.0]);
    scene.add_box([4.0, -1.0, -3.0], [5.0, 4.0, 3.0]);
    scene.add_box([-10.0, 3.0, -3.0], [5.0, 4.0, 3.0]);
    scene
}

/// Walks a `Surface` character (`spheres` spheres, `height` by `radius` m) at `speed` m/s
/// with `up_turn_rate` `rate`, from `start` (scene) facing `facing` with up `up`, for at most
/// `steps`; returns the first step it stood (grounded) with its up within 2.6 degrees of
/// `goal` (scene), if any, and the deepest penetration on the way.
#[allow(clippy::too_many_arguments)]
fn walk_into_corner(
    frame: Frame,
    (spheres, height, radius): (usize, Real, Real),
    (speed, rate): (Real, Real),
    start: Point3,
    up: Vec3,
    facing: Vec3,
    goal: Vec3,
    steps: u32,
) -> (Option<u32>, Real) {
    let mut settings = MotorSettings::default();
    settings.up_frame = UpFrame::Surface;
    settings.up_turn_rate = rate;
    let stack = spherewalk_core::SphereStack::capsule(height, radius, spheres).expect("stack");
    let motor = spherewalk_core::Motor::new(stack, settings).expect("motor");
    let mut r = Runner::new(tunnel(frame), motor, start);
    let up = frame.vec_to_world(&up);
    r.pose = spherewalk_core::Pose::with_up(
        r.pose.position,
        &spherewalk_core::UnitVec3::new_normalize(up),
    );
    let face = frame.vec_to_world(&facing);
    let mut deepest: Real = 0.0;
    for step in 0..steps {
        // Walk along `facing` projected on the character's ground plane.
        r.step_intent(MoveIntent::walk(face * speed));
        deepest = deepest.max(r.report.max_penetration);
        if r.report.is_grounded() && r.local_up().dot(&goal) > 0.999 {
            return (Some(step), deepest);
        }
    }
    (None, deepest)
}

/// Issue 28: concave corners at walking speed. Walking at 0.5 to 1.5 m/s into the tunnel's
/// end wall used to stall at its foot for every `up_turn_rate` from 6 to 16 rad/s: the up
/// tipped one step's turn toward the wall, turning about the floor contact rolled the feet
/// away from it, the next move was no longer blocked, and up fell back to the floor's normal,
/// for ever. Turning to climb a wall now pivots about the feet sphere's centre, so the feet
/// stay in the corner. Every speed and rate gets onto the wall, a 1.8 m capsule and a 0.5 m
/// two-sphere spider alike, and back down from the wall onto the floor (the riser's foot).
#[test]
fn concave_corners_are_climbed_at_any_walking_speed() {
    let shapes = [(3, 1.8, 0.3), (2, 0.5, 0.15)];
    for frame in [Frame::world_up(), Frame::rotated()] {
        for shape in shapes {
            for speed in [0.5, 1.0, 1.5] {
                for rate in [6.0, 8.0, 12.0, 16.0] {
                    let what = format!("{}: {shape:?} at {speed} m/s, {rate} rad/s", frame.name);
                    // Floor to wall: from 2 m before the wall, facing it; time to walk there
                    // and a second to turn.
                    let steps = ((2.0 / speed + 2.0) * 60.0) as u32;
                    let (on_wall, deepest) = walk_into_corner(
                        frame,
                        shape,
                        (speed, rate),
                        Point3::new(2.0, 0.0, 0.0),
                        Vec3::y(),
                        Vec3::x(),
                        -Vec3::x(),
                        steps,
                    );
                    assert!(on_wall.is_some(), "{what}: never stood on the wall");
                    // 1 mm: pushback's tolerance, with room for the corner's two contacts.
                    assert!(deepest < 1e-3, "{what}: {deepest} m deep");
                    // Wall to floor: standing on the wall 1.5 m up, walking down it.
                    let (on_floor, deepest) = walk_into_corner(
                        frame,
                        shape,
                        (speed, rate),
                        Point3::new(4.0, 1.5, 0.0),
                        -Vec3::x(),
                        -Vec3::y(),
                        Vec3::y(),
                        ((1.5 / speed + 2.0) * 60.0) as u32,
                    );
                    assert!(on_floor.is_some(), "{what}: never stood on the floor again");
                    assert!(deepest < 1e-3, "{what}: {deepest} m deep coming down");
                }
            }
        }
    }
}
