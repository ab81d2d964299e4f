//! Rollback play of `scenes/playground.ron` over GGRS with scripted random inputs, in one of
//! two ways:
//! - one process per player, as real players run it: `--local-port` and `--players`;
//! - N peers in this process (default 2), each with its own `Sim`, over real UDP sockets on
//!   127.0.0.1.
//!
//! Each peer prints its frames, rollbacks and re-simulated frames, and at the end its
//! checksum at the last frame, which every peer that stayed must share. Exit status: 0 when
//! the peers here agree there, 2 when a session ended early with GGRS's failure after a
//! peer left (`spherewalk_ggrs::session` explains it), 1 for any other error.
//!
//! ```text
//! # three terminals, one player each (the place of `local` in the list is this player's):
//! rollback_p2p --local-port 7000 --players local,127.0.0.1:7001,127.0.0.1:7002
//! rollback_p2p --local-port 7001 --players 127.0.0.1:7000,local,127.0.0.1:7002
//! rollback_p2p --local-port 7002 --players 127.0.0.1:7000,127.0.0.1:7001,local
//! # or every peer in one process:
//! rollback_p2p [--peers N]
//! # either way: [--seconds S] [--delay MS] [--jitter MS] [--loss SHARE] (what this process
//! # sends suffers that delay, jitter and loss)
//! ```

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use spherewalk::scene::SceneFile;
use spherewalk_ggrs::ggrs::{DesyncDetection, GgrsEvent, P2PSession, PlayerType, SessionBuilder};
use spherewalk_ggrs::net::{Impaired, Impairment, UdpSocket};
use spherewalk_ggrs::{NetInput, Rollback, RollbackError, RollbackSim};

type Error = Box<dyn std::error::Error>;

const USAGE: &str = "\
rollback_p2p: rollback play of the playground over GGRS, scripted inputs

One process per player:
  rollback_p2p --local-port PORT --players LIST [options]
    LIST: every player in the session's order, comma-separated: `local` for this
    process's player, IP:PORT for the others (2 to 4 players)
All players in this process:
  rollback_p2p [--peers N] [options]        (N: 1 to 4, default 2)
Options:
  --seconds S      play S seconds of frames (default 10)
  --delay MS       least one-way delay added to what is sent (default 40)
  --jitter MS      most extra delay, drawn per packet (default 40)
  --loss SHARE     share of sent packets dropped, 0 to 1 (default 0.02)
  --help           this text";

/// Who plays where: every player in this process, or one player and the others' addresses.
enum Players {
    /// `--peers N`: N players in this process.
    InProcess(usize),
    /// `--local-port` and `--players`: this process's port, and every player in order,
    /// `None` for this process's.
    OnePerProcess(u16, Vec<Option<SocketAddr>>),
}

struct Options {
    players: Players,
    seconds: f64,
    impairment: Impairment,
}

/// The options from the command line; `Ok(None)` for `--help`.
fn options() -> Result<Option<Options>, Error> {
    let mut o = Options {
        players: Players::InProcess(2),
        seconds: 10.0,
        impairment: Impairment {
            delay: Duration::from_millis(40),
            jitter: Duration::from_millis(40),
            loss: 0.02,
        },
    };
    let (mut port, mut list) = (None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--peers" => o.players = Players::InProcess(value()?.parse()?),
            "--local-port" => port = Some(value()?.parse::<u16>()?),
            "--players" => list = Some(value()?),
            "--seconds" => o.seconds = value()?.parse()?,
            "--delay" => o.impairment.delay = Duration::from_millis(value()?.parse()?),
            "--jitter" => o.impairment.jitter = Duration::from_millis(value()?.parse()?),
            "--loss" => o.impairment.loss = value()?.parse()?,
            _ => return Err(format!("unknown flag {flag} (see --help)").into()),
        }
    }
    match (port, list) {
        (Some(port), Some(list)) => o.players = Players::OnePerProcess(port, player_list(&list)?),
        (None, None) => {}
        _ => return Err("--local-port and --players go together (see --help)".into()),
    }
    let count = match &o.players {
        Players::InProcess(n) => *n,
        Players::OnePerProcess(_, list) => list.len(),
    };
    if !(1..=4).contains(&count) {
        return Err("1 to 4 players (the playground's characters)".into());
    }
    if !(o.seconds.is_finite() && (0.0..=3600.0).contains(&o.seconds)) {
        return Err("--seconds takes 0 to 3600".into());
    }
    Ok(Some(o))
}

/// `local,IP:PORT,...` as the players in order, `None` for the local one (exactly one).
fn player_list(list: &str) -> Result<Vec<Option<SocketAddr>>, Error> {
    let players = list
        .split(',')
        .map(|p| match p.trim() {
            "local" => Ok(None),
            addr => addr
                .parse()
                .map(Some)
                .map_err(|e| format!("{addr:?} is not IP:PORT or `local`: {e}")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if players.iter().filter(|p| p.is_none()).count() != 1 {
        return Err("--players names `local` exactly once".into());
    }
    Ok(players)
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
    /// Why its session ended early, if it did.
    broken: Option<RollbackError>,
    /// Its checksum at the last frame, read when it first had that frame confirmed (later
    /// saves push it out of the sim's kept checksums).
    sum: Option<u128>,
}

/// A peer playing `players` (`None`: this peer, whose handle is its place) on `socket`.
fn peer(players: &[Option<SocketAddr>], socket: UdpSocket, o: &Options) -> Result<Peer, Error> {
    let me = players
        .iter()
        .position(Option::is_none)
        .ok_or("no local player")?;
    let mut builder = SessionBuilder::<Rollback>::new()
        .with_num_players(players.len())?
        .with_input_delay(2)
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 });
    for (handle, addr) in players.iter().enumerate() {
        let kind = addr.map_or(PlayerType::Local, PlayerType::Remote);
        builder = builder.add_player(kind, handle)?;
    }
    let socket = Impaired::new(
        socket,
        o.impairment,
        me as u64 + u64::from(std::process::id()),
    );
    Ok(Peer {
        session: builder.start_p2p_session(socket)?,
        sim: playground(players.len())?,
        handle: me,
        skip: 0,
        desyncs: 0,
        broken: None,
        sum: None,
    })
}

impl Peer {
    /// Polls the network and prints the session's events.
    fn poll(&mut self) {
        self.session.poll_remote_clients();
        for event in self.session.events() {
            match event {
                GgrsEvent::WaitRecommendation { skip_frames } => self.skip += skip_frames,
                GgrsEvent::DesyncDetected { frame, .. } => {
                    println!("peer {}: DESYNC at frame {frame}", self.handle);
                    self.desyncs += 1;
                }
                GgrsEvent::Synchronized { addr } => {
                    println!("peer {}: synchronised with {addr}", self.handle);
                }
                GgrsEvent::Disconnected { addr } => {
                    println!("peer {}: {addr} disconnected", self.handle);
                }
                _ => {}
            }
        }
    }

    /// One 60 Hz tick (skipped when GGRS says this peer runs ahead); a broken session is
    /// kept as the reason and never ticked again.
    fn tick(&mut self) -> Result<(), Error> {
        if self.broken.is_some() {
            return Ok(());
        }
        if self.skip > 0 {
            self.skip -= 1;
            return Ok(());
        }
        let input = scripted(self.handle, self.session.current_frame());
        match self.sim.tick(&mut self.session, self.handle, input) {
            Ok(_) => Ok(()),
            Err(e @ RollbackError::SessionBroken { .. }) => {
                println!("peer {}: {e}", self.handle);
                self.broken = Some(e);
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Done: played past `frames` (confirmed; its checksum there is kept), or its session
    /// broke.
    fn done(&mut self, frames: i32) -> bool {
        if self.sum.is_none() && self.session.confirmed_frame() >= frames + 4 {
            self.sum = self.sim.checksum_at(frames);
        }
        self.broken.is_some() || self.sum.is_some()
    }

    fn report(&self) {
        let c = self.sim.counters();
        println!(
            "peer {}: frame {:>5}, confirmed {:>5}, {} rollbacks, {} frames re-simulated",
            self.handle,
            self.session.current_frame(),
            self.session.confirmed_frame(),
            c.rollbacks,
            c.resimulated
        );
    }
}

/// Runs `peers` at 60 Hz until every one is done and `linger` has passed since: a process
/// playing one player keeps sending its inputs a while, so the others confirm its last frames.
fn play(peers: &mut [Peer], frames: i32, linger: Duration) -> Result<(), Error> {
    let tick = Duration::from_secs_f64(1.0 / 60.0);
    let (mut next, mut last_report) = (Instant::now(), Instant::now());
    let mut finished: Option<Instant> = None;
    while finished.is_none_or(|at| at.elapsed() < linger) {
        for p in peers.iter_mut() {
            p.poll();
        }
        // Every peer is asked (no short cut), so each keeps its checksum when it is done.
        let done: Vec<bool> = peers.iter_mut().map(|p| p.done(frames)).collect();
        let done = done.iter().all(|d| *d);
        if finished.is_none() && done {
            finished = Some(Instant::now());
        }
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        next += tick;
        for p in peers.iter_mut() {
            p.tick()?;
        }
        if last_report.elapsed() >= Duration::from_secs(2) {
            last_report = Instant::now();
            peers.iter().for_each(Peer::report);
        }
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    let Some(o) = options()? else {
        println!("{USAGE}");
        return Ok(());
    };
    let frames = (o.seconds * 60.0) as i32;
    let mut peers = match &o.players {
        Players::InProcess(n) => {
            let sockets = (0..*n)
                .map(|_| UdpSocket::bind("127.0.0.1:0".parse()?).map_err(Error::from))
                .collect::<Result<Vec<_>, _>>()?;
            let addrs = sockets
                .iter()
                .map(|s| s.local_addr())
                .collect::<Result<Vec<SocketAddr>, _>>()?;
            println!("{n} peers on {addrs:?}");
            let mut peers = Vec::new();
            for (me, socket) in sockets.into_iter().enumerate() {
                let mut players: Vec<Option<SocketAddr>> =
                    addrs.iter().copied().map(Some).collect();
                players[me] = None;
                peers.push(peer(&players, socket, &o)?);
            }
            peers
        }
        Players::OnePerProcess(port, players) => {
            let socket = UdpSocket::bind(SocketAddr::from(([0, 0, 0, 0], *port)))?;
            println!(
                "player {:?} of {players:?} on port {port}",
                players.iter().position(Option::is_none)
            );
            vec![peer(players, socket, &o)?]
        }
    };
    println!(
        "one-way delay {:?} + up to {:?}, {:.0} % of packets lost",
        o.impairment.delay,
        o.impairment.jitter,
        o.impairment.loss * 100.0
    );
    let linger = match o.players {
        Players::InProcess(_) => Duration::ZERO,
        Players::OnePerProcess(..) => Duration::from_secs(2),
    };
    play(&mut peers, frames, linger)?;
    let kept: Vec<&Peer> = peers.iter().filter(|p| p.broken.is_none()).collect();
    for p in &peers {
        let c = p.sim.counters();
        let sum = p.sum;
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
    if let Some(p) = peers.iter().find(|p| p.broken.is_some()) {
        // Exit status 2: the session ended with GGRS's failure, caught (see
        // spherewalk_ggrs::session); 1 is any other error.
        eprintln!("peer {}: the session ended early", p.handle);
        std::process::exit(2);
    }
    let sums: Vec<Option<u128>> = kept.iter().map(|p| p.sum).collect();
    if sums.windows(2).all(|w| w[0] == w[1]) && sums.first().is_some_and(Option::is_some) {
        println!("all {} peers here agree at frame {frames}", kept.len());
        Ok(())
    } else {
        Err("the peers disagree".into())
    }
}
