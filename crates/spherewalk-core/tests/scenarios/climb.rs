//! Climb (`Mode::Climb`, `ColliderFlags::climbable`, `ClimbSettings`) and the mantle over the
//! top (`Mode::Mantle`): walking into a climbable wall holds on to it, the intent climbs it
//! with gravity off, a jump lets go, and at the top the character pulls itself up and stands.
//! In every frame: flat ground, tilted, and on a planet.

use crate::common::{DT, Frame, Runner, Scene, capsule_motor, mode_changes};
use approx::assert_abs_diff_eq;
use spherewalk_core::math::Iso;
use spherewalk_core::motor::{ClimbSettings, Mode};
use spherewalk_core::parry3d::shape::SharedShape;
use spherewalk_core::{
    ColliderDesc, ColliderId, GroundState, MotorSettings, MoveIntent, Point3, Real, UpFrame, Vec3,
};

/// Deepest a sphere may be in anything during a climb or mantle (m): the default skin (1 cm)
/// plus 1 mm.
const MOST_DEPTH: Real = 0.011;

/// A climbable block spanning `min..max` (scene frame).
fn climbable_box(scene: &mut Scene, min: [Real; 3], max: [Real; 3]) -> ColliderId {
    let half = Vec3::new(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * 0.5;
    let centre = Vec3::new(min[0], min[1], min[2]) + half;
    let desc = ColliderDesc::new(SharedShape::cuboid(half.x, half.y, half.z)).climbable();
    scene.add_desc(desc, Iso::translation(centre.x, centre.y, centre.z))
}

/// A character standing at the origin of `scene` (given a floor unless on the planet),
/// settled.
fn standing_in(mut scene: Scene, settings: MotorSettings) -> Runner {
    let frame = scene.frame;
    if frame.planet.is_none() {
        scene.add_floor(20.0);
    }
    let mut r = Runner::new(scene, capsule_motor(settings), Point3::origin());
    r.settle(30);
    assert_eq!(r.state.ground, GroundState::Grounded, "{}", frame.name);
    r
}

/// A character 1 m in front of a climbable 6 m wall (x from 1 to 3, z from -2 to 2, its top
/// walkable), settled.
fn before_wall(frame: Frame, settings: MotorSettings) -> Runner {
    let mut scene = Scene::new(frame);
    // Down to 1 m below the floor: on the planet the ground falls away from the pole.
    climbable_box(&mut scene, [1.0, -1.0, -2.0], [3.0, 6.0, 2.0]);
    standing_in(scene, settings)
}

fn is_climb(mode: Mode) -> bool {
    matches!(mode, Mode::Climb { .. })
}

fn is_mantle(mode: Mode) -> bool {
    matches!(mode, Mode::Mantle { .. })
}

/// Walks at `local` (m/s, scene frame) until the character holds on (at most 2 s); returns
/// the steps it took.
fn walk_until_climbing(r: &mut Runner, local: Vec3) -> u32 {
    for k in 1..=120 {
        r.step(local);
        if is_climb(r.state.mode) {
            return k;
        }
    }
    panic!("{}: never held on", r.scene.frame.name);
}

/// Climbs at the wall intent `local` (m/s, scene frame) for `n` steps, checking the hold each
/// step: still climbing, no deeper than the skin and 1 mm.
fn climb(r: &mut Runner, local: Vec3, n: u32) {
    for k in 0..n {
        r.step(local);
        assert!(
            is_climb(r.state.mode),
            "{} step {k}: {:?}",
            r.scene.frame.name,
            r.state.mode
        );
        assert!(
            r.penetration() <= MOST_DEPTH,
            "{} step {k}",
            r.scene.frame.name
        );
    }
}

/// Walking into the 6 m wall at 2 m/s holds on where the stack meets it (x = 0.7), climbs at
/// the climb speed (2 m/s) with gravity off, and over the top mantles and stands on it:
/// the feet on its top (y = 6), walking again, in about 3.1 s, in every frame.
#[test]
fn climbs_a_6_m_wall_and_mantles_onto_its_top_in_every_frame() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut r = before_wall(frame, MotorSettings::default());
        let into = Vec3::new(2.0, 0.0, 0.0);
        // The front of the stack (x = 0.3) reaches the wall's face at x = 1 after 0.7 m.
        let held = walk_until_climbing(&mut r, into);
        assert_abs_diff_eq!(held as Real * DT, 0.35, epsilon = 2.0 * DT);
        let Mode::Climb { normal, .. } = r.state.mode else {
            unreachable!()
        };
        // The face's normal is -x (f32 over a rotated frame: 1e-5).
        assert_abs_diff_eq!(
            r.scene.frame.vec_to_local(&normal),
            -Vec3::x(),
            epsilon = 1e-5
        );
        // Climbing: 2 m/s up the wall, gravity off, the stack against the face. (On the
        // planet the character's up leans 1.3 deg off the wall at x = 0.7, 5e-4 of the speed;
        // and the stack leans toward the wall, so when its top sphere passes the top edge the
        // press takes it 3 mm closer, 8e-3 m/s more rise on that step.)
        let (mut steps, mut was) = (0, r.local());
        while is_climb(r.state.mode) {
            r.step(into);
            steps += 1;
            assert!(r.penetration() <= MOST_DEPTH, "{name} step {steps}");
            if is_climb(r.state.mode) {
                let rise = (r.local().y - was.y) / DT;
                assert_abs_diff_eq!(rise, 2.0, epsilon = 1e-2);
                // The spheres beside the face keep within the hold's reach of it (a radius and
                // 1 mm at most, 3 cm at least: on the planet the stack leans, and as its top
                // sphere passes the edge the next is a centimetre out for a step until the
                // press takes it in).
                let nearest = r
                    .sphere_centres()
                    .iter()
                    .filter(|c| c.y < 6.0)
                    .map(|c| c.x)
                    .fold(Real::MIN, Real::max);
                assert!(
                    nearest > 0.67 && nearest < 0.701,
                    "{name} step {steps}: {nearest}"
                );
            }
            was = r.local();
            assert!(steps < 300, "{name}: never reached the top");
        }
        // It lets go for the mantle once the feet sphere's centre is over the edge (y = 6.03:
        // its contact leans up past 0.1), after 5.73 m at 2 m/s: 172 steps, give or take the
        // step that crosses.
        assert!(is_mantle(r.state.mode), "{name}: {:?}", r.state.mode);
        assert!(
            (171..=173).contains(&steps),
            "{name}: climbed {steps} steps"
        );
        let mut mantle = 0;
        while is_mantle(r.state.mode) {
            r.step(into);
            mantle += 1;
            assert!(r.penetration() <= MOST_DEPTH, "{name} mantle step {mantle}");
            assert!(mantle < 60, "{name}: the mantle never ended");
        }
        // The mantle: the feet rise 0.27 m (7 steps at 2.5 m/s), then 0.25 m onto the top
        // (6 steps), ending on the step the feet stand on its rounded edge.
        assert!(
            (12..=15).contains(&mantle),
            "{name}: mantled {mantle} steps"
        );
        assert_eq!(r.state.mode, Mode::Walk, "{name}");
        assert_eq!(r.state.ground, GroundState::Grounded, "{name}");
        // From the hold to standing on the top: 2.87 s of climb and 0.22 s of mantle (a step
        // either way where each part ends).
        let total = (steps + mantle) as Real * DT;
        assert_abs_diff_eq!(total, 3.09, epsilon = 3.0 * DT);
        // Half a second more of the walk: on the top, 1 m further (its face is flat: 1e-3 m).
        r.run(30, into);
        assert_eq!(r.state.ground, GroundState::Grounded, "{name}");
        assert_abs_diff_eq!(r.local().y, 6.0, epsilon = 1e-3);
        assert!(r.local().x > 1.9, "{name}: x = {}", r.local().x);
    }
}

/// A jump lets go of the wall: the climb becomes a walk on that step, the velocity 4 m/s
/// away from the wall (the jump-off speed) and the jump's 3 m/s up it; with no intent the
/// character then falls back to the floor 1.5 m or more from the wall, standing.
#[test]
fn a_jump_lets_go_of_the_wall_away_from_it() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut r = before_wall(frame, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 60);
        let height = r.local().y;
        assert!(height > 1.9, "{name}: {height}");
        r.step_intent(MoveIntent {
            jump_speed: 3.0,
            ..MoveIntent::default()
        });
        assert!(
            matches!(mode_changes(&r)[..], [(Mode::Climb { .. }, Mode::Walk)]),
            "{name}"
        );
        assert!(r.report.jumped, "{name}");
        // The jump step's velocity, before gravity acts on it (f32 in a rotated frame; on the
        // planet up leans 1.3 deg off the wall, 0.1 m/s of 4).
        let v = r.local_velocity();
        assert_abs_diff_eq!(v.x, -4.0, epsilon = 0.1);
        assert_abs_diff_eq!(v.y, 3.0, epsilon = 0.1);
        let mut landed = None;
        for k in 0..180 {
            r.step(Vec3::zeros());
            assert_eq!(r.state.mode, Mode::Walk, "{name} step {k}");
            if r.state.ground == GroundState::Grounded {
                landed = Some(r.local());
                break;
            }
        }
        let landed = landed.unwrap_or_else(|| panic!("{name}: never landed"));
        // Airborne it keeps its 4 m/s away (no intent, so no air steering): ~1 s of flight.
        assert!(landed.x < -2.0, "{name}: landed at {landed}");
    }
}

/// Pulling away from the wall climbs down it at the climb speed; on the floor it walks
/// again, and walks off.
#[test]
fn climbing_down_to_the_floor_walks_again() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut r = before_wall(frame, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 30);
        let away = Vec3::new(-2.0, 0.0, 0.0);
        let top = r.local().y;
        let mut steps = 0;
        while is_climb(r.state.mode) {
            r.step(away);
            steps += 1;
            assert!(steps < 60, "{name}: never got down");
        }
        // 1 m down at 2 m/s: 30 steps, and the one that stands on the floor.
        assert!(
            (30..=32).contains(&steps),
            "{name}: {steps} steps down from {top}"
        );
        assert!(
            matches!(mode_changes(&r)[..], [(Mode::Climb { .. }, Mode::Walk)]),
            "{name}"
        );
        assert_eq!(r.state.ground, GroundState::Grounded, "{name}");
        r.run(30, away);
        // Walking away at 2 m/s for 0.5 s from x = 0.7 (the step that let go moved it too).
        assert_abs_diff_eq!(r.local().x, -0.3, epsilon = 0.05);
        assert_eq!(r.state.mode, Mode::Walk, "{name}");
    }
}

/// A knock throws a climber off: the climb becomes a walk on that step, the knock's 5 m/s
/// away from the wall is the velocity it flies with, and it falls to the floor.
#[test]
fn a_knock_throws_the_climber_off() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut r = before_wall(frame, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 60);
        r.state.knock = r.scene.frame.vec_to_world(&Vec3::new(-5.0, 0.0, 0.0));
        r.step(Vec3::zeros());
        assert!(
            matches!(mode_changes(&r)[..], [(Mode::Climb { .. }, Mode::Walk)]),
            "{name}"
        );
        // The knock as momentum, gravity's first step on it (on the planet up leans 1.3 deg
        // off the wall: 0.15 m/s of 5).
        let v = r.local_velocity();
        assert_abs_diff_eq!(v.x, -5.0, epsilon = 0.15);
        assert_abs_diff_eq!(r.state.knock.norm(), 0.0);
        r.run(120, Vec3::zeros());
        assert_eq!(r.state.mode, Mode::Walk, "{name}");
        assert_eq!(r.state.ground, GroundState::Grounded, "{name}");
        assert!(r.local().x < -3.0, "{name}: landed at {}", r.local());
    }
}

/// With no intent a climbing character hangs where it is: no drift in 2 s.
#[test]
fn it_hangs_still_on_the_wall_with_no_intent() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut r = before_wall(frame, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 60);
        let at = r.local();
        climb(&mut r, Vec3::zeros(), 120);
        // Held at 0.7 against the face by the press; f32 a few metres from a moved origin.
        assert_abs_diff_eq!(r.local(), at, epsilon = 1e-4);
        assert!(
            r.state.velocity.norm() < 0.01,
            "{name}: {}",
            r.state.velocity
        );
    }
}

/// Sideways along a 1 m wide ladder: the intent's part along the wall moves the character
/// along it at its speed, and off the ladder's side it lets go and falls.
#[test]
fn sideways_off_a_ladder_it_lets_go_and_falls() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut scene = Scene::new(frame);
        climbable_box(&mut scene, [1.0, -1.0, -0.5], [1.1, 6.0, 0.5]);
        let mut r = standing_in(scene, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 60);
        let (start, side) = (r.local(), Vec3::new(0.0, 0.0, 1.0));
        climb(&mut r, side, 15);
        // 0.25 m along z at 1 m/s, no height lost. (On the planet the scene's z is a fixed
        // direction while up turns with the curve and leans 1.3 deg off the wall: 1 % of the
        // distance.)
        assert_abs_diff_eq!(r.local().z - start.z, 0.25, epsilon = 3e-3);
        assert_abs_diff_eq!(r.local().y, start.y, epsilon = 2e-3);
        let mut k = 0;
        while is_climb(r.state.mode) {
            r.step(side);
            k += 1;
            assert!(k < 120, "{name}: never left the ladder");
        }
        // It lets go once no sphere's centre is in front of the ladder's face (past z = 0.5),
        // on the first step past it (1 m/s: 17 mm a step).
        let z = r.min_sphere_coord(2);
        assert!(z > 0.5 && z < 0.52, "{name}: let go at z = {z}");
        r.run(10, Vec3::zeros());
        assert!(r.local_velocity().y < -1.0, "{name}: falling");
    }
}

/// A climbable ceiling 2.5 m up: a 4 m/s jump reaches it (the head's top at 1.8 m rises 0.8
/// m), the character holds on with gravity off, moves under it at the intent's speed, hangs
/// still, and past its edge lets go and falls.
#[test]
fn it_climbs_under_a_ceiling() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut scene = Scene::new(frame);
        climbable_box(&mut scene, [-5.0, 2.5, -3.0], [2.0, 3.0, 3.0]);
        let mut r = standing_in(scene, MotorSettings::default());
        r.step_intent(MoveIntent {
            jump_speed: 4.0,
            ..MoveIntent::default()
        });
        let mut k = 0;
        while !is_climb(r.state.mode) {
            r.step(Vec3::zeros());
            k += 1;
            assert!(k < 60, "{name}: never reached the ceiling");
        }
        let Mode::Climb { normal, .. } = r.state.mode else {
            unreachable!()
        };
        assert_abs_diff_eq!(
            r.scene.frame.vec_to_local(&normal),
            -Vec3::y(),
            epsilon = 1e-3
        );
        // Held, the press takes the head's top up to half a skin (5 mm) below the ceiling:
        // the feet 0.705 m below it (1e-4 m: f32 in a moved frame).
        climb(&mut r, Vec3::zeros(), 5);
        let hang = r.local();
        assert_abs_diff_eq!(hang.y, 0.695, epsilon = 1e-4);
        climb(&mut r, Vec3::new(1.0, 0.0, 0.0), 60);
        // 1 m along x in 1 s at 1 m/s, its height kept. (On the planet up turns 1.9 deg over
        // the metre, about the feet sphere in the air: the head, held to the flat ceiling,
        // swings ahead and the feet move 1 % less.)
        assert_abs_diff_eq!(r.local().x - hang.x, 1.0, epsilon = 0.015);
        assert_abs_diff_eq!(r.local().y, hang.y, epsilon = 5e-3);
        let at = r.local();
        climb(&mut r, Vec3::zeros(), 120);
        // Still (on the planet the up frame turns the last of the move's 1.9 deg: 0.2 mm).
        assert_abs_diff_eq!(r.local(), at, epsilon = 5e-4);
        k = 0;
        while is_climb(r.state.mode) {
            r.step(Vec3::new(2.0, 0.0, 0.0));
            k += 1;
            assert!(k < 120, "{name}: never left the ceiling");
        }
        // It lets go on the step the head's centre passes the edge (2 m/s: 33 mm a step).
        let x = r.sphere_centres()[2].x;
        assert!(x > 2.0 && x < 2.04, "{name}: let go at x = {x}");
        r.run(10, Vec3::zeros());
        assert!(r.local_velocity().y < -1.0, "{name}: falling");
    }
}

/// A ladder on a lift: the climbable box rises at 1 m/s and the character holding on with no
/// intent rises with it, at its speed.
#[test]
fn a_ladder_on_a_lift_carries_the_climber() {
    for frame in Frame::all() {
        let name = frame.name;
        let mut scene = Scene::new(frame);
        let ladder = climbable_box(&mut scene, [1.0, -1.0, -0.5], [1.1, 6.0, 0.5]);
        let mut r = standing_in(scene, MotorSettings::default());
        walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
        climb(&mut r, Vec3::new(2.0, 0.0, 0.0), 30);
        let start = r.local();
        let mut lift: Real = 0.0;
        for k in 0..60 {
            lift += DT;
            let pose = r.scene.frame.iso * Iso::translation(1.05, 2.5 + lift, 0.0);
            r.scene
                .world
                .move_kinematic(ladder, pose, DT)
                .expect("ladder");
            r.step(Vec3::zeros());
            assert!(is_climb(r.state.mode), "{name} step {k}");
            assert!(r.penetration() <= MOST_DEPTH, "{name} step {k}");
        }
        // 1 m in 1 s with the lift (f32 over 60 steps: 2e-3 m).
        assert_abs_diff_eq!(r.local().y - start.y, 1.0, epsilon = 2e-3);
        assert_abs_diff_eq!(r.local().x, start.x, epsilon = 2e-3);
    }
}

/// In `Surface` mode, walking into a climbable wall climbs it (the mode) instead of walking
/// up it: the character's up stays the floor's while it climbs, and it mantles onto the top.
#[test]
fn in_surface_mode_a_climbable_wall_is_climbed_not_walked() {
    let mut settings = MotorSettings::default();
    settings.up_frame = UpFrame::Surface;
    let frame = Frame::world_up();
    let mut r = before_wall(frame, settings);
    walk_until_climbing(&mut r, Vec3::new(2.0, 0.0, 0.0));
    for k in 0..150 {
        r.step(Vec3::new(2.0, 0.0, 0.0));
        assert!(is_climb(r.state.mode), "step {k}");
        // Up stays +Y (f32: 1e-5).
        assert_abs_diff_eq!(r.local_up(), Vec3::y(), epsilon = 1e-5);
    }
    r.run(60, Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(r.state.mode, Mode::Walk);
    assert_abs_diff_eq!(r.local().y, 6.0, epsilon = 1e-3);
}

/// A wall not flagged climbable is only a wall: walking into it holds nothing.
#[test]
fn a_wall_not_flagged_climbable_is_not_climbed() {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_box([1.0, -1.0, -2.0], [3.0, 6.0, 2.0]);
    let mut r = standing_in(scene, MotorSettings::default());
    for _ in 0..60 {
        r.step(Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(r.state.mode, Mode::Walk);
    }
    assert_abs_diff_eq!(r.local().y, 0.0, epsilon = 1e-4);
}

/// A settings field's name and a way to put it out of range.
type Spoil = (&'static str, fn(&mut ClimbSettings));

/// Climb settings out of range are refused by name.
#[test]
fn climb_settings_out_of_range_are_refused_by_name() {
    let cases: [Spoil; 5] = [
        ("climb.speed", |c| c.speed = 0.0),
        ("climb.speed", |c| c.speed = Real::NAN),
        ("climb.jump_off_speed", |c| c.jump_off_speed = -1.0),
        ("climb.mantle_speed", |c| c.mantle_speed = -2.0),
        ("climb.mantle_speed", |c| c.mantle_speed = Real::INFINITY),
    ];
    for (field, spoil) in cases {
        let mut settings = MotorSettings::default();
        spoil(&mut settings.climb);
        let err = settings.validate().expect_err(field);
        assert!(err.to_string().contains(field), "{field}: {err}");
    }
}
