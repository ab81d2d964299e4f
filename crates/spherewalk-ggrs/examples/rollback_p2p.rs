//! N peers (default 2) in one process, each with its own `Sim` of `scenes/playground.ron`,
//! playing over real UDP sockets on 127.0.0.1 through GGRS, with scripted random inputs.
//! Prints each peer's frames, rollbacks and re-simulated frames, and compares the peers'
//! checksums at the end.
//!
//! ```text
//! cargo run --release -p spherewalk-ggrs --example rollback_p2p -- \
//!     [--peers N] [--seconds S] [--delay MS] [--jitter MS] [--loss SHARE]
//! ```

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use spherewalk::scene::SceneFile;
use spherewalk_ggrs::ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, P2PSession, PlayerType, SessionBuilder, SessionState,
};
use spherewalk_ggrs::net::{Impaired, Impairment, UdpSocket};
use spherewalk_ggrs::{NetInput, Rollback, RollbackSim};

type Error = Box<dyn std::error::Error>;

struct Options {
    peers: usize,
    seconds: f64,
    impairment: Impairment,
}

fn options() -> Result<Options, Error> {
    let mut o = Options {
        peers: 2,
        seconds: 10.0,
        impairment: Impairment {
            delay: Duration::from_millis(40),
            jitter: Duration::from_millis(40),
            loss: 0.02,
        },
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--peers" => o.peers = value()?.parse()?,
            "--seconds" => o.seconds = value()?.parse()?,
            "--delay" => o.impairment.delay = Duration::from_millis(value()?.parse()?),
            "--jitter" => o.impairment.jitter = Duration::from_millis(value()?.parse()?),
            "--loss" => o.impairment.loss = value()?.parse()?,
            _ => return Err(format!("unknown flag {flag}").into()),
        }
    }
    if !(1..=4).contains(&o.peers) {
        return Err("--peers takes 1 to 4 (the playground's characters)".into());
    }
    if !(o.seconds.is_finite() && (0.0..=3600.0).contains(&o.seconds)) {
        return Err("--seconds takes 0 to 3600".into());
    }
    Ok(o)
}

/// The playground without its dynamic bodies, its first `players` characters driven by
/// player input.
fn playground(players: usize) -> Result<RollbackSim, Error> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/playground.ron");
    let mut file = SceneFile::read(&path)?;
    file.clear_dynamics();
    let sim = file
        .build(path.parent().unwrap_or(Path::new(".")), &path)?
        .sim;
    Ok(RollbackSim::with_first_characters(sim, players)?)
}

/// A player's input: a new random stick, heading and buttons every 10 frames.
fn scripted(player: usize, frame: i32) -> NetInput {
    let mut z = ((player as u64) << 32) | (frame.max(0) / 10) as u64;
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 29;
    let byte = |i: u32| ((z >> (8 * i)) & 0xff) as u8;
    NetInput {
        axes: [byte(0) as i8, byte(1) as i8],
        buttons: u8::from(byte(2) < 48) * NetInput::JUMP,
        reserved: 0,
        heading: u16::from(byte(3)) << 8,
    }
}

struct Peer {
    session: P2PSession<Rollback>,
    sim: RollbackSim,
    handle: usize,
    skip: u32,
    desyncs: u32,
}

fn main() -> Result<(), Error> {
    let o = options()?;
    let sockets = (0..o.peers)
        .map(|_| UdpSocket::bind("127.0.0.1:0".parse()?).map_err(Error::from))
        .collect::<Result<Vec<_>, _>>()?;
    let addrs = sockets
        .iter()
        .map(|s| s.local_addr())
        .collect::<Result<Vec<SocketAddr>, _>>()?;
    println!(
        "{} peers on {addrs:?}; one-way delay {:?} + up to {:?}, {:.0} % of packets lost",
        o.peers,
        o.impairment.delay,
        o.impairment.jitter,
        o.impairment.loss * 100.0
    );
    let mut peers = Vec::new();
    for (me, socket) in sockets.into_iter().enumerate() {
        let mut builder = SessionBuilder::<Rollback>::new()
            .with_num_players(o.peers)?
            .with_input_delay(2)
            .with_desync_detection_mode(DesyncDetection::On { interval: 10 });
        for (handle, addr) in addrs.iter().enumerate() {
            let kind = if handle == me {
                PlayerType::Local
            } else {
                PlayerType::Remote(*addr)
            };
            builder = builder.add_player(kind, handle)?;
        }
        let socket = Impaired::new(socket, o.impairment, me as u64);
        peers.push(Peer {
            session: builder.start_p2p_session(socket)?,
            sim: playground(o.peers)?,
            handle: me,
            skip: 0,
            desyncs: 0,
        });
    }
    let frames = (o.seconds * 60.0) as i32;
    let tick = Duration::from_secs_f64(1.0 / 60.0);
    let mut next = Instant::now();
    let mut last_report = Instant::now();
    while peers
        .iter()
        .any(|p| p.session.confirmed_frame() < frames + 4)
    {
        for p in &mut peers {
            p.session.poll_remote_clients();
            for event in p.session.events() {
                match event {
                    GgrsEvent::WaitRecommendation { skip_frames } => p.skip += skip_frames,
                    GgrsEvent::DesyncDetected { frame, .. } => {
                        println!("peer {}: DESYNC at frame {frame}", p.handle);
                        p.desyncs += 1;
                    }
                    GgrsEvent::Synchronized { addr } => {
                        println!("peer {}: synchronised with {addr}", p.handle);
                    }
                    GgrsEvent::Disconnected { addr } => {
                        println!("peer {}: {addr} disconnected", p.handle);
                    }
                    _ => {}
                }
            }
        }
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        next += tick;
        for p in &mut peers {
            if p.session.current_state() != SessionState::Running {
                continue;
            }
            if p.skip > 0 {
                p.skip -= 1;
                continue;
            }
            let frame = p.session.current_frame();
            p.session
                .add_local_input(p.handle, scripted(p.handle, frame))?;
            match p.session.advance_frame() {
                Ok(requests) => p.sim.handle(requests)?,
                Err(GgrsError::PredictionThreshold) => {}
                Err(e) => return Err(e.into()),
            }
        }
        if last_report.elapsed() >= Duration::from_secs(2) {
            last_report = Instant::now();
            for p in &peers {
                let c = p.sim.counters();
                println!(
                    "peer {}: frame {:>5}, confirmed {:>5}, {} rollbacks, {} frames re-simulated",
                    p.handle,
                    p.session.current_frame(),
                    p.session.confirmed_frame(),
                    c.rollbacks,
                    c.resimulated
                );
            }
        }
    }
    let sums: Vec<Option<u128>> = peers.iter().map(|p| p.sim.checksum_at(frames)).collect();
    for (p, sum) in peers.iter().zip(&sums) {
        let c = p.sim.counters();
        println!(
            "peer {}: {} frames stepped, {} rollbacks, {} frames re-simulated, {} desyncs, checksum at frame {frames}: {}",
            p.handle,
            c.advanced,
            c.rollbacks,
            c.resimulated,
            p.desyncs,
            sum.map_or("none".into(), |s| format!("{s:032x}"))
        );
    }
    if sums.windows(2).all(|w| w[0] == w[1]) && sums[0].is_some() {
        println!("all {} peers agree at frame {frames}", o.peers);
        Ok(())
    } else {
        Err("the peers disagree".into())
    }
}
