//! Golden traces: the exact bits of two fixed 1000-step walks, pinned as hashes.
//!
//! [`crate::determinism`] checks that a run repeats itself within one build; these tests check
//! that the motor's output has not changed at all since the constants were last set. Any change
//! to the step (movement, pushback, ground probing, stairs, up turning), to the collision
//! queries it uses, or to the float operations behind them shows up here as a new hash.
//!
//! # When a hash changes
//!
//! A changed hash is not a failure by itself: it says the trace moved, not that it got worse.
//!
//! 1. If the change was not meant to alter behaviour (a refactor, a dependency bump), find out
//!    why it did before touching the constant.
//! 2. If it was meant to, run the whole suite (`cargo test --workspace`): the other scenario
//!    tests (stairs, slopes, walls, seams, planet, peers, ...) check behaviour with tolerances
//!    and must still pass. The coverage checks (run before the hash is compared) must still
//!    pass too, so the walk still climbs the step, jumps and meets the wall.
//! 3. Copy the hash printed in the assertion message into the constant and say in the commit
//!    message why the trace changed.
//!
//! The hash is FNV-1a 64 written out below: `std`'s `DefaultHasher` is not guaranteed to give
//! the same value across Rust versions. The constants were taken on x86_64 Linux. f32
//! arithmetic is the same everywhere, and neither the motor nor these scenes call the
//! platform's `sin`, `cos` and friends (they use `spherewalk_core::math`'s pure-Rust ones), so
//! every target must print the same hash.

use crate::common::*;
use spherewalk_core::{GroundState, MotorSettings, MoveIntent, Point3, Real, Vec3};

/// FNV-1a 64 of the flat walk ([`flat_walk_trace_is_unchanged`]).
const FLAT_WALK_HASH: u64 = 0x1a4a_f672_bbd8_8042;
/// FNV-1a 64 of the planet walk ([`planet_walk_trace_is_unchanged`]).
const PLANET_WALK_HASH: u64 = 0x8d18_a37c_e5be_798e;

/// Steps in each golden walk.
pub(crate) const STEPS: u32 = 1000;

/// FNV-1a, 64-bit (<http://www.isthe.com/chongo/tech/comp/fnv/>).
struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;

    fn new() -> Self {
        Self(Self::OFFSET_BASIS)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// Hashes the bit pattern of `v` (so -0.0 and 0.0, and NaN payloads, differ).
    fn real(&mut self, v: Real) {
        self.bytes(&v.to_bits().to_le_bytes());
    }
}

/// One leg of a scripted walk, from step `from` until the next leg starts. Speeds are in the
/// character's own frame, so the script works on any up.
#[derive(Clone, Copy)]
pub(crate) struct Leg {
    /// First step of the leg.
    from: u32,
    /// Speed along the character's forward (m/s).
    forward: Real,
    /// Speed along the character's right (m/s).
    right: Real,
    /// Turn rate about up (rad/s), positive to the left.
    yaw_rate: Real,
    /// Jump at 5 m/s on the leg's first step.
    jump: bool,
}

impl Leg {
    const fn walk(from: u32, forward: Real, right: Real, yaw_rate: Real) -> Self {
        Self {
            from,
            forward,
            right,
            yaw_rate,
            jump: false,
        }
    }

    const fn jump(self) -> Self {
        Self { jump: true, ..self }
    }
}

/// What a walk went through, so a new hash can be checked to still exercise the same things.
#[derive(Debug, Default)]
struct Coverage {
    climbed: u32,
    jumped: u32,
    landed: u32,
    steep_or_touching: u32,
    grounded_at_end: bool,
}

/// The intent (world) of step `step` of the walk `legs` for the character of `r` where it
/// stands.
pub(crate) fn intent_at(r: &Runner, legs: &[Leg], step: u32) -> MoveIntent {
    let leg = legs
        .iter()
        .rev()
        .find(|l| l.from <= step)
        .copied()
        .unwrap_or(Leg::walk(0, 0.0, 0.0, 0.0));
    let velocity =
        r.pose.forward().into_inner() * leg.forward + r.pose.right().into_inner() * leg.right;
    MoveIntent {
        velocity,
        jump_speed: if leg.jump && step == leg.from {
            5.0
        } else {
            0.0
        },
        yaw_rate: leg.yaw_rate,
        ..MoveIntent::default()
    }
}

/// Runs `legs` for [`STEPS`] steps and hashes position, orientation, velocity and ground state
/// after every step.
fn run(r: &mut Runner, legs: &[Leg]) -> (u64, Coverage) {
    let mut hash = Fnv1a::new();
    let mut coverage = Coverage::default();
    for step in 0..STEPS {
        r.step_intent(intent_at(r, legs, step));

        for v in r.state_reals() {
            hash.real(v);
        }
        hash.bytes(&[ground_byte(r.state.ground)]);

        let report = &r.report;
        coverage.climbed += u32::from(report.climbed > 0.0);
        coverage.jumped += u32::from(report.jumped);
        coverage.landed += u32::from(report.landed);
        coverage.steep_or_touching += u32::from(matches!(
            report.ground,
            GroundState::SteepGround | GroundState::Touching
        ));
    }
    coverage.grounded_at_end = r.report.is_grounded();
    (hash.0, coverage)
}

/// A fixed byte per ground state (not `as u8`, so reordering the enum keeps the hash).
fn ground_byte(ground: GroundState) -> u8 {
    match ground {
        GroundState::Grounded => 0,
        GroundState::SteepGround => 1,
        GroundState::Touching => 2,
        GroundState::Airborne => 3,
    }
}

/// Turns the character (spawned facing scene -Z) to face scene +X.
fn face_plus_x(r: &mut Runner) {
    r.pose.orientation = r.scene.frame.iso.rotation
        * spherewalk_core::math::axis_angle(&Vec3::y_axis(), -std::f32::consts::FRAC_PI_2);
}

/// The flat walk, world +Y up: a floor with a 0.25 m box step (x 3..6), a 20 degree ramp
/// (x 9..14.6) that ends in a 2 m drop, and a wall whose face is x = 17.
pub(crate) fn flat_walk() -> Runner {
    let mut scene = Scene::new(Frame::world_up());
    scene.add_floor(30.0);
    scene.add_box([3.0, -0.5, -2.0], [6.0, 0.25, 2.0]);
    scene.add_ramp(20.0, 6.0, 9.0);
    scene.add_box([17.0, 0.0, -8.0], [17.5, 3.0, 8.0]);
    let mut r = Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 0.5, 0.0),
    );
    face_plus_x(&mut r);
    r
}

/// Settle, walk +X over the step, up the ramp and off its end into the wall, slide along the
/// wall, jump while turning round, then walk back at an angle and finish on a wide curve.
pub(crate) const FLAT_LEGS: [Leg; 7] = [
    Leg::walk(0, 0.0, 0.0, 0.0),
    Leg::walk(30, 4.0, 0.0, 0.0),
    Leg::walk(300, 3.0, 3.0, 0.0),
    Leg::walk(420, 2.0, 0.0, std::f32::consts::PI).jump(),
    Leg::walk(480, 5.0, 1.5, 0.0),
    Leg::walk(680, 4.0, 0.0, 0.8).jump(),
    Leg::walk(900, 3.0, 0.0, -0.5),
];

/// The planet walk: at the pole of the 30 m test planet (point gravity, the planet tilted and
/// off the origin), a 0.8 m deep box stands about 0.2 m proud of the curved ground near the
/// start (scene x 4..4.8).
pub(crate) fn planet_walk() -> Runner {
    let mut scene = Scene::new(Frame::planet());
    scene.add_box([4.0, -1.0, -3.5], [4.8, -0.15, -0.5]);
    Runner::new(
        scene,
        capsule_motor(MotorSettings::default()),
        Point3::new(0.0, 0.5, 0.0),
    )
}

/// Settle, turn right while walking until facing the box, climb it and drop off its far side,
/// jump, curve left over the planet, then curve right with a second jump.
pub(crate) const PLANET_LEGS: [Leg; 6] = [
    Leg::walk(0, 0.0, 0.0, 0.0),
    Leg::walk(20, 3.0, 0.0, -1.5),
    Leg::walk(80, 4.0, 0.0, 0.0),
    Leg::walk(300, 4.0, 0.0, 0.0).jump(),
    Leg::walk(400, 5.0, 1.0, 0.4),
    Leg::walk(800, 5.0, 0.0, -0.4).jump(),
];

/// Checks a walk's hash against the pinned one, printing the new hash for an intended change.
fn assert_hash(name: &str, hash: u64, pinned: u64, coverage: &Coverage) {
    assert_eq!(
        hash, pinned,
        "{name}: the {STEPS}-step trace changed: it now hashes to {hash:#018x} (pinned \
         {pinned:#018x}). If the change is intended, read the doc of \
         crates/spherewalk-core/tests/scenarios/golden.rs, then set the constant to \
         {hash:#018x}. Coverage: {coverage:?}"
    );
}

/// A 3-sphere capsule walks a scripted path at 2 to 5 m/s in the world +Y frame over a floor, a
/// box step, a ramp with a drop at its end and a wall, with two jumps and turns; the bits of
/// its pose, velocity and ground state after each of 1000 steps hash to [`FLAT_WALK_HASH`].
///
/// If the hash changes on purpose, see the module doc: rerun, check the other scenario tests
/// still pass, and update the constant (printed in the failure message) with a reason in the
/// commit message.
#[test]
fn flat_walk_trace_is_unchanged() {
    let (hash, c) = run(&mut flat_walk(), &FLAT_LEGS);
    // The walk still exercises what it is meant to: the step, both jumps, the wall.
    assert!(c.climbed > 0, "never stepped up: {c:?}, hash {hash:#018x}");
    assert_eq!(c.jumped, 2, "{c:?}, hash {hash:#018x}");
    assert!(c.landed >= 2, "{c:?}, hash {hash:#018x}");
    assert!(
        c.steep_or_touching > 0,
        "never met the wall: {c:?}, hash {hash:#018x}"
    );
    assert!(c.grounded_at_end, "{c:?}, hash {hash:#018x}");
    assert_hash("flat walk", hash, FLAT_WALK_HASH, &c);
}

/// The same capsule on the 30 m test planet with point gravity: it turns, climbs a box, jumps
/// twice and walks some 70 m over the curve while its up follows gravity; the trace hashes to
/// [`PLANET_WALK_HASH`].
///
/// If the hash changes on purpose, see the module doc: rerun, check the other scenario tests
/// still pass, and update the constant (printed in the failure message) with a reason in the
/// commit message.
#[test]
fn planet_walk_trace_is_unchanged() {
    let (hash, c) = run(&mut planet_walk(), &PLANET_LEGS);
    assert!(c.climbed > 0, "never stepped up: {c:?}, hash {hash:#018x}");
    assert_eq!(c.jumped, 2, "{c:?}, hash {hash:#018x}");
    assert!(c.grounded_at_end, "{c:?}, hash {hash:#018x}");
    assert_hash("planet walk", hash, PLANET_WALK_HASH, &c);
}

/// The inline hasher is FNV-1a 64: the published test vectors.
#[test]
fn fnv1a_matches_the_reference_vectors() {
    let hash = |bytes: &[u8]| {
        let mut h = Fnv1a::new();
        h.bytes(bytes);
        h.0
    };
    assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
}
