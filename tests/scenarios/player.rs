//! Player controls that feel right: a latched jump press, a jump buffer, variable jump height
//! and facing where the character walks.

use crate::runtime::{capsule, floor_sim};
use approx::assert_abs_diff_eq;
use spherewalk::hecs::Entity;
use spherewalk::input::PlayerInput;
use spherewalk::{CharacterDesc, EventKind, Input, Point3, Pose, Real, Sim, Vec3};

const DT: Real = 1.0 / 60.0;
const G: Real = 9.81;

/// A player character standing on the floor at `at` (settled for half a second).
fn player(sim: &mut Sim, at: Point3) -> Entity {
    let mut desc = CharacterDesc::new("hero", capsule(), Pose::new(at));
    desc.input = Input::Player(PlayerInput::default());
    let e = sim.spawn_character(desc).expect("spawn");
    for _ in 0..30 {
        sim.step();
    }
    sim.drain_events();
    e
}

fn with_input(sim: &mut Sim, e: Entity, f: impl FnOnce(&mut PlayerInput)) {
    f(&mut sim.ecs.get::<&mut PlayerInput>(e).expect("player"));
}

fn jumped(sim: &mut Sim, e: Entity) -> bool {
    sim.drain_events()
        .any(|ev| ev.entity == e && ev.kind == EventKind::Jumped)
}

fn height(sim: &Sim, e: Entity) -> Real {
    sim.character(e).expect("character").pose.position.y
}

/// A tap shorter than a step (pressed and released between two steps, even over several
/// frames with no step) still jumps at the next step.
#[test]
fn a_tap_between_two_steps_still_jumps() {
    let mut sim = floor_sim();
    let e = player(&mut sim, Point3::origin());
    // 240 fps frames: the tap spans the first frame only, and a step comes two frames later.
    with_input(&mut sim, e, |i| {
        i.press_jump();
        i.jump = false;
    });
    let mut steps = 0;
    let mut saw = false;
    while steps == 0 {
        steps += sim.advance(0.25 * DT);
        saw |= jumped(&mut sim, e);
    }
    assert!(saw, "the tap was lost");
    // Without the latch the held flag alone, up again before the step, does nothing.
    for _ in 0..90 {
        sim.step();
    }
    sim.drain_events();
    with_input(&mut sim, e, |i| i.jump = false);
    sim.step();
    assert!(!jumped(&mut sim, e));
}

/// A press up to `jump_buffer` (0.1 s) before landing jumps on landing; one made 0.2 s
/// before is forgotten.
#[test]
fn a_jump_pressed_just_before_landing_jumps_on_landing() {
    // The landing step of a drop from 1 m, found by a run without presses.
    let drop = |press_at: Option<u32>| {
        let mut sim = floor_sim();
        let mut desc = CharacterDesc::new("hero", capsule(), Pose::new(Point3::new(0.0, 1.0, 0.0)));
        desc.input = Input::Player(PlayerInput::default());
        let e = sim.spawn_character(desc).expect("spawn");
        let (mut landed, mut jumped_at) = (None, None);
        for step in 0..60u32 {
            if press_at == Some(step) {
                with_input(&mut sim, e, |i| i.press_jump());
            }
            sim.step();
            for ev in sim.drain_events().filter(|ev| ev.entity == e) {
                match ev.kind {
                    EventKind::Landed => {
                        landed.get_or_insert(step);
                    }
                    EventKind::Jumped => {
                        jumped_at.get_or_insert(step);
                    }
                    _ => {}
                }
            }
        }
        (landed.expect("landed"), jumped_at)
    };
    let (land, _) = drop(None);
    // 1 m of fall: sqrt(2 h / g) = 0.45 s, 27 steps.
    assert!((26..=29).contains(&land), "landed at step {land}");
    let (_, early) = drop(Some(land - 4));
    assert_eq!(
        early,
        Some(land + 1),
        "pressed 4 steps (0.067 s) early: jumps right after landing"
    );
    let (_, too_early) = drop(Some(land - 12));
    assert_eq!(too_early, None, "pressed 12 steps (0.2 s) early: forgotten");
}

/// Holding jump rises v^2 / 2g (1.27 m at 5 m/s); letting go three steps in keeps half the
/// upward speed left and hops well under that.
#[test]
fn letting_go_early_cuts_the_jump() {
    let apex = |hold_steps: u32| {
        let mut sim = floor_sim();
        let e = player(&mut sim, Point3::origin());
        with_input(&mut sim, e, |i| {
            i.press_jump();
            i.jump = true;
        });
        let mut top: Real = 0.0;
        for step in 0..90 {
            if step == hold_steps {
                with_input(&mut sim, e, |i| i.jump = false);
            }
            sim.step();
            top = top.max(height(&sim, e));
        }
        top
    };
    let full = apex(90);
    // Semi-implicit Euler at 60 Hz falls short of v^2/2g by about v dt / 2 (4 cm).
    assert_abs_diff_eq!(full, 5.0 * 5.0 / (2.0 * G), epsilon = 0.05);
    let cut = apex(3);
    // Released after 3 steps at about 4.5 m/s, halved to 2.25 m/s: 0.24 m + 0.26 m.
    assert_abs_diff_eq!(cut, 0.5, epsilon = 0.05);
}

/// The stick turns the character toward where it walks, at `turn_rate` (12 rad/s).
#[test]
fn the_character_turns_to_face_where_it_walks() {
    let mut sim = floor_sim();
    let e = player(&mut sim, Point3::origin());
    let forward = |sim: &Sim| {
        sim.character(e)
            .expect("character")
            .pose
            .forward()
            .into_inner()
    };
    assert_abs_diff_eq!(forward(&sim), -Vec3::z(), epsilon = 1e-6);
    // Camera looking -Z, stick full right: walk +X, and turn toward it.
    with_input(&mut sim, e, |i| i.axes = [1.0, 0.0]);
    sim.step();
    // One step turns 12 rad/s * dt = 0.2 rad toward +X (1e-5 rad: f32).
    let turned = forward(&sim).angle(&-Vec3::z());
    assert_abs_diff_eq!(turned, 12.0 * DT, epsilon = 1e-5);
    assert!(forward(&sim).x > 0.0, "turned right, toward +X");
    for _ in 0..30 {
        sim.step();
    }
    // A quarter turn takes 0.13 s: after half a second it faces +X exactly.
    assert_abs_diff_eq!(forward(&sim), Vec3::x(), epsilon = 1e-5);
    let v = sim.character(e).expect("character").velocity;
    assert_abs_diff_eq!(v, Vec3::new(5.0, 0.0, 0.0), epsilon = 1e-4);
}

/// A dash press (`PlayerInput::press_dash`) is latched like a jump's: walking forward at
/// 5 m/s, the next step dashes (`ModeChanged` to a dash) at the default 12 m/s for 12 steps
/// (0.2 s: 2.4 m), and a press during the dash or its cooldown asks for nothing more.
#[test]
fn a_dash_press_dashes_once_at_the_next_step() {
    let mut sim = floor_sim();
    let e = player(&mut sim, Point3::origin());
    with_input(&mut sim, e, |i| i.axes = [0.0, 1.0]);
    for _ in 0..30 {
        sim.step();
    }
    sim.drain_events();
    let start = sim.character(e).expect("character").pose.position;
    with_input(&mut sim, e, |i| i.press_dash());
    sim.step();
    let began = sim.drain_events().any(|ev| {
        ev.entity == e
            && matches!(
                ev.kind,
                EventKind::ModeChanged {
                    to: spherewalk_core::motor::Mode::Dash { .. },
                    ..
                }
            )
    });
    assert!(began, "the press did not dash");
    for k in 1..12 {
        // Pressed again while dashing: ignored.
        with_input(&mut sim, e, |i| i.press_dash());
        sim.step();
        let mode = mode_of(&sim, e);
        assert_eq!(
            k == 11,
            mode == spherewalk_core::motor::Mode::Walk,
            "step {k}: {mode:?}"
        );
    }
    let moved = (sim.character(e).expect("character").pose.position - start).norm();
    // 12 steps at 12 m/s (f32 over 12 steps: 1e-3 m).
    assert_abs_diff_eq!(moved, 2.4, epsilon = 1e-3);
    // The press of the last step came during the dash: the cooldown starts with no dash.
    sim.step();
    let mode = mode_of(&sim, e);
    assert_eq!(mode, spherewalk_core::motor::Mode::Walk);
}

/// The mode `e` follows after its last step.
fn mode_of(sim: &Sim, e: Entity) -> spherewalk_core::motor::Mode {
    let walker = sim.ecs.get::<&spherewalk::components::Walker>(e);
    walker.expect("a character").state.mode
}
