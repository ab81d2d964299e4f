//! What the rollback tests share: the playground with N players, scripted inputs, and a
//! reference run with no network.
#![allow(dead_code)]

use std::path::Path;

use spherewalk::components::Walker;
use spherewalk::scene::SceneFile;
use spherewalk::{CharacterDesc, Point3, Pose, Sim, SphereStack};
use spherewalk_ggrs::{NetInput, RollbackSim, ggrs};

/// The shipped playground, with or without its dynamic bodies, its first `players`
/// characters (in spawn order) driven by player input.
pub fn playground(dynamics: bool, players: usize) -> RollbackSim {
    shipped("playground", dynamics, players)
}

/// The shipped scene `name` (`scenes/NAME.ron`), with or without its dynamic bodies, its
/// first `players` characters (in spawn order) driven by player input.
pub fn shipped(name: &str, dynamics: bool, players: usize) -> RollbackSim {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenes")
        .join(format!("{name}.ron"));
    let mut file = SceneFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
    if !dynamics {
        file.clear_dynamics();
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut sim: Sim = file.build(dir, &path).unwrap_or_else(|e| panic!("{e}")).sim;
    // More players than the playground's four characters: more 1.8 m characters in a row
    // on the open floor north of the stairs.
    let have = sim.ecs.query::<&Walker>().iter().count();
    for k in have..players {
        let stack = SphereStack::capsule(1.8, 0.3, 3).unwrap_or_else(|e| panic!("{e}"));
        let at = Point3::new(-6.0 + 2.0 * k as f32, 0.0, -20.0);
        sim.spawn_character(CharacterDesc::new(
            format!("extra_{k}"),
            stack,
            Pose::new(at),
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    }
    RollbackSim::with_first_characters(sim, players).unwrap_or_else(|e| panic!("{e}"))
}

/// Player `player`'s scripted input at frame `frame`: a new stick, heading and buttons every
/// 8 frames (a busy player), drawn from a hash of (player, frame / 8), jumping one time in
/// four, dashing one in sixteen.
pub fn scripted(player: usize, frame: i32) -> NetInput {
    let mut z = ((player as u64) << 32) | (frame.max(0) / 8) as u64;
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z = (z ^ (z >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    z ^= z >> 33;
    let byte = |i: u32| ((z >> (8 * i)) & 0xff) as u8;
    NetInput {
        axes: [byte(0) as i8, byte(1) as i8],
        buttons: (u8::from(byte(2) < 64) * NetInput::JUMP)
            | (u8::from(byte(3) < 32) * NetInput::CROUCH)
            | (u8::from(byte(6) < 16) * NetInput::DASH),
        reserved: 0,
        heading: (u16::from(byte(4)) << 8) | u16::from(byte(5)),
    }
}

/// The input frame `frame` runs with when every peer adds `scripted(player, f)` at its
/// frame `f` and the session delays inputs by `delay` frames.
pub fn delayed(player: usize, frame: i32, delay: i32) -> NetInput {
    if frame < delay {
        NetInput::default()
    } else {
        scripted(player, frame - delay)
    }
}

/// The checksum of the state after `frames` frames of `sim` fed `delayed(…, delay)` with no
/// network and no rollback: what every peer must reach.
pub fn reference(mut sim: RollbackSim, frames: i32, delay: i32) -> u128 {
    let players = sim.players().len();
    for frame in 0..frames {
        let inputs = (0..players)
            .map(|p| (delayed(p, frame, delay), ggrs::InputStatus::Confirmed))
            .collect();
        sim.handle(vec![ggrs::GgrsRequest::AdvanceFrame { inputs }])
            .unwrap_or_else(|e| panic!("{e}"));
    }
    sim.checksum()
}
