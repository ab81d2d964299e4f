//! Kinematic platforms in the runtime: moved by a motion or by game code each step, they set
//! their colliders' velocities, and the motor carries the characters standing on them.

use crate::runtime::{capsule, floor_sim};
use approx::assert_abs_diff_eq;
use spherewalk::components::PlatformMotion;
use spherewalk::components::Walker;
use spherewalk::hecs::Entity;
use spherewalk::input::{Command, Script};
use spherewalk::parry3d::shape::SharedShape;
use spherewalk::{
    CharacterDesc, ColliderDesc, EventKind, GroundState, Input, MotorSettings, Point3, Pose, Quat,
    Real, Sim, UpFrame, Vec3, math::Iso,
};

const DT: Real = 1.0 / 60.0;

fn pose_of(sim: &Sim, e: Entity) -> Pose {
    sim.ecs.get::<&Walker>(e).expect("character").pose
}

fn ground_of(sim: &Sim, e: Entity) -> GroundState {
    sim.ecs.get::<&Walker>(e).expect("character").state.ground
}

/// A driven box platform of half extents `half` at `at`.
fn driven(sim: &mut Sim, half: [Real; 3], at: Iso) -> Entity {
    let desc = ColliderDesc::new(SharedShape::cuboid(half[0], half[1], half[2])).pose(at);
    sim.add_platform(desc, PlatformMotion::Driven)
        .expect("platform")
}

fn rider(sim: &mut Sim, at: Point3, settings: MotorSettings, input: Input) -> Entity {
    let mut desc = CharacterDesc::new("rider", capsule(), Pose::new(at));
    desc.settings = settings;
    desc.input = input;
    sim.spawn_character(desc).expect("spawn")
}

/// A seesaw (6 m x 2 m, top at y = 1.1) that game code tilts about its centre from level to
/// 15 degrees over 1 s, then holds. A `Gravity` rider stays upright and where it stood on the
/// board; a `Surface` rider tilts with the board. Both stay grounded on it throughout.
#[test]
fn a_seesaw_tilted_by_game_code_tilts_a_surface_rider_and_carries_an_upright_one() {
    for up_frame in [UpFrame::Gravity, UpFrame::Surface] {
        let mut sim = floor_sim();
        let centre = Vec3::new(0.0, 1.0, 0.0);
        let board = driven(&mut sim, [3.0, 0.1, 1.0], Iso::translation(0.0, 1.0, 0.0));
        let settings = {
            let mut v = MotorSettings::default();
            v.up_frame = up_frame;
            v
        };
        // On the rising end, 1.5 m from the pivot.
        let e = rider(&mut sim, Point3::new(1.5, 1.1, 0.0), settings, Input::None);
        for _ in 0..10 {
            sim.step();
        }
        let tilt_at = |step: u32| 15f32.to_radians() * (step as Real / 60.0).min(1.0);
        for step in 1..=120 {
            let rot = Quat::from_axis_angle(&Vec3::z_axis(), tilt_at(step));
            sim.drive_platform(board, Iso::from_parts(centre.into(), rot))
                .expect("driven");
            sim.step();
            let pose = pose_of(&sim, e);
            assert_eq!(
                ground_of(&sim, e),
                GroundState::Grounded,
                "{up_frame:?} step {step}"
            );
            // Where it stands in the board's frame: still 1.5 m out on its top (2 cm: the
            // carry follows the arc exactly; the clamp settles the feet on the top face).
            let local: Vec3 = rot.inverse() * (pose.position.coords - centre);
            assert_abs_diff_eq!(local, Vec3::new(1.5, 0.1, 0.0), epsilon = 0.02);
            if up_frame == UpFrame::Gravity {
                // Upright: gravity decides up, the board's tilt does not (1e-5: f32).
                assert_abs_diff_eq!(pose.up().into_inner(), Vec3::y(), epsilon = 1e-5);
            }
        }
        if up_frame == UpFrame::Surface {
            // A second after the tilt stopped, up is the board's normal (1e-3 rad: the turn
            // converges at 8 rad/s).
            let normal = Quat::from_axis_angle(&Vec3::z_axis(), tilt_at(120)) * Vec3::y();
            let angle = pose_of(&sim, e).up().angle(&normal);
            assert!(angle < 1e-3, "up is {angle} rad off the board's normal");
        }
    }
}

/// A lift rising at 10 m/s for 1 s carries its rider up 10 m, grounded on its top every step.
#[test]
fn a_lift_at_10_m_s_carries_its_rider_without_losing_it() {
    let mut sim = floor_sim();
    let lift = driven(&mut sim, [1.0, 0.2, 1.0], Iso::translation(0.0, -0.2, 3.0));
    let e = rider(
        &mut sim,
        Point3::new(0.0, 0.0, 3.0),
        MotorSettings::default(),
        Input::None,
    );
    sim.step();
    for step in 1..=60 {
        let top = 10.0 * step as Real * DT;
        sim.drive_platform(lift, Iso::translation(0.0, top - 0.2, 3.0))
            .expect("driven");
        sim.step();
        assert_eq!(ground_of(&sim, e), GroundState::Grounded, "step {step}");
        // Feet on the lift's top (1e-3 m: f32 at 10 m and the probe's tolerance).
        assert_abs_diff_eq!(pose_of(&sim, e).position.y, top, epsilon = 1e-3);
    }
}

/// A wall moved by game code at 5 m/s into an idle character pushes it along the floor ahead
/// of it, never letting it through.
#[test]
fn a_wall_at_5_m_s_pushes_an_idle_character_without_tunnelling() {
    let mut sim = floor_sim();
    // A 0.2 m thick wall, its front face starting at x = -1.
    let wall = driven(&mut sim, [0.1, 1.0, 2.0], Iso::translation(-1.1, 1.0, 0.0));
    let e = rider(
        &mut sim,
        Point3::origin(),
        MotorSettings::default(),
        Input::None,
    );
    sim.step();
    let mut front: Real = -1.0;
    for step in 1..=90 {
        front += 5.0 * DT;
        sim.drive_platform(wall, Iso::translation(front - 0.1, 1.0, 0.0))
            .expect("driven");
        sim.step();
        let x = pose_of(&sim, e).position.x;
        // The stack's axis is never nearer the front face than one radius (1 mm: pushback
        // tolerance), i.e. never inside or behind the wall.
        assert!(
            x >= front + 0.3 - 1e-3,
            "step {step}: axis {x}, wall front {front}"
        );
    }
    // Pressed against the face at the end, not thrown ahead (1 cm: one step of 5 m/s is 8 cm).
    assert_abs_diff_eq!(pose_of(&sim, e).position.x, front + 0.3, epsilon = 0.01);
}

/// A rider jumps off a ferry gliding at 3 m/s, and the ferry stops under it: in flight the
/// rider keeps the ferry's 3 m/s and lands on the floor beyond it, as far as that speed times
/// the flight predicts. With `keep_ground_velocity` off, it lands where it jumped.
#[test]
fn a_jump_off_a_moving_ferry_lands_where_the_inherited_speed_predicts() {
    for keep in [true, false] {
        let mut sim = floor_sim();
        let ferry = driven(&mut sim, [1.5, 0.25, 1.5], Iso::translation(0.0, 0.25, 0.0));
        let settings = {
            let mut v = MotorSettings::default();
            v.keep_ground_velocity = keep;
            v
        };
        let script = Script::new(
            vec![Command::Wait { seconds: 1.0 }, Command::Jump { speed: 4.0 }],
            false,
        );
        let e = rider(
            &mut sim,
            Point3::new(0.0, 0.5, 0.0),
            settings,
            Input::Script(script),
        );
        let mut x: Real = 0.0;
        let (mut jumped, mut landed) = (None, None);
        for step in 0..150 {
            if jumped.is_none() {
                x += 3.0 * DT;
                sim.drive_platform(ferry, Iso::translation(x, 0.25, 0.0))
                    .expect("driven");
            }
            sim.step();
            let at = pose_of(&sim, e).position;
            let kinds: Vec<EventKind> = sim
                .drain_events()
                .filter(|ev| ev.entity == e)
                .map(|ev| ev.kind)
                .collect();
            for kind in kinds {
                match kind {
                    EventKind::Jumped => jumped = Some((step, at)),
                    EventKind::Landed if jumped.is_some() => {
                        landed.get_or_insert((step, at));
                    }
                    _ => {}
                }
            }
        }
        let (j_step, j_at) = jumped.expect("jumped");
        let (l_step, l_at) = landed.expect("landed");
        let flight = (l_step - j_step) as Real * DT;
        let speed = (l_at.x - j_at.x) / flight;
        if keep {
            // Off the ferry's far end and onto the floor, at the ferry's speed in flight
            // (0.05 m/s: the landing step's partial move, over a flight of about 0.9 s).
            assert!(
                l_at.y.abs() < 1e-3,
                "landed on the floor, not the ferry: {l_at:?}"
            );
            assert_abs_diff_eq!(speed, 3.0, epsilon = 0.05);
        } else {
            // Straight up and down, back on the ferry where it stopped (1 mm).
            assert_abs_diff_eq!(l_at.x, j_at.x, epsilon = 1e-3);
        }
    }
}

/// A conveyor belt through the runtime's contact hooks: a standing character rides it at the
/// belt's 2 m/s, and stops on the still floor past its end (the belt's speed was the ground's,
/// not its own: only leaving the ground into the air keeps it).
#[test]
fn a_conveyor_belt_carries_its_rider_through_the_sims_hooks() {
    use spherewalk::{ColliderId, ContactHooks, UnitVec3};
    use std::sync::Arc;
    struct Belt(ColliderId);
    impl ContactHooks for Belt {
        fn surface_velocity(&self, collider: ColliderId, _: &Point3, _: &UnitVec3) -> Vec3 {
            if collider == self.0 {
                Vec3::new(2.0, 0.0, 0.0)
            } else {
                Vec3::zeros()
            }
        }
    }
    let mut sim = floor_sim();
    // A 4 m belt, 0.1 m high, from x = -1 to x = 3.
    let belt = sim
        .collision
        .insert(ColliderDesc::new(SharedShape::cuboid(2.0, 0.05, 1.0)).translation(1.0, 0.05, 0.0))
        .expect("belt");
    sim.set_hooks(Some(Arc::new(Belt(belt))));
    let e = rider(
        &mut sim,
        Point3::new(0.0, 0.1, 0.0),
        MotorSettings::default(),
        Input::None,
    );
    for _ in 0..10 {
        sim.step();
    }
    let x0 = pose_of(&sim, e).position.x;
    for _ in 0..60 {
        sim.step();
    }
    // 2 m/s for 1 s (1e-3 m: f32 over 60 steps).
    assert_abs_diff_eq!(pose_of(&sim, e).position.x - x0, 2.0, epsilon = 1e-3);
    for _ in 0..60 {
        sim.step();
    }
    // Carried off the belt's end (x = 3) until the feet sphere's contact left it, then still.
    let view = sim.character(e).expect("character");
    let x = view.pose.position.x;
    assert!((3.0..3.4).contains(&x), "stopped at x = {x}");
    assert_eq!(view.ground, spherewalk::GroundState::Grounded);
    assert_abs_diff_eq!(view.velocity.norm(), 0.0, epsilon = 1e-6);
}

/// Issue "hostile input", the squeezes, in the runtime: a 20 m wide driven slab that game code
/// lowers at 1 m/s onto a standing character, its underside from 2.5 m to 1.2 m above the
/// floor. The character stays on the floor where it stood, and from the step the underside
/// passes its 1.8 m head every step sends `Crushed` with the depth: 0.6 m at the end.
#[test]
fn a_platform_lowered_onto_a_character_sends_crushed_events() {
    let mut sim = floor_sim();
    let half = 0.5;
    let slab = driven(
        &mut sim,
        [10.0, half, 10.0],
        Iso::translation(0.0, 2.5 + half, 0.0),
    );
    let e = rider(
        &mut sim,
        Point3::new(0.5, 0.0, 0.0),
        MotorSettings::default(),
        Input::None,
    );
    for _ in 0..10 {
        sim.step();
    }
    sim.drain_events().for_each(drop);
    let mut depths = Vec::new();
    for step in 1..=120 {
        let bottom = (2.5 - step as Real * DT).max(1.2);
        sim.drive_platform(slab, Iso::translation(0.0, bottom + half, 0.0))
            .expect("driven");
        sim.step();
        let crushed: Vec<Real> = sim
            .drain_events()
            .filter_map(|ev| match ev.kind {
                EventKind::Crushed { depth } if ev.entity == e => Some(depth),
                _ => None,
            })
            .collect();
        assert!(crushed.len() <= 1, "step {step}: {crushed:?}");
        depths.push((bottom, crushed.first().copied()));
    }
    // 1 cm either side of the head's 1.8 m: the step the underside crosses it.
    for (bottom, depth) in &depths {
        if *bottom > 1.81 {
            assert_eq!(*depth, None, "underside at {bottom}");
        } else if *bottom < 1.79 {
            // The head (centre 1.5 m, radius 0.3 m) is 1.8 - bottom deep; 1 cm: the skin.
            let depth = depth.unwrap_or_else(|| panic!("no event at {bottom}"));
            assert_abs_diff_eq!(depth, 1.8 - bottom, epsilon = 0.01);
        }
    }
    let at = pose_of(&sim, e).position;
    // Where it stood, feet on the floor (1 cm: the skin and the ground snap).
    assert_abs_diff_eq!(at, Point3::new(0.5, 0.0, 0.0), epsilon = 0.01);
}
