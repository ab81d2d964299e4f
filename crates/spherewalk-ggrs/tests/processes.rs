//! The shipped example as real players run it: one OS process per player, on 127.0.0.1 ports,
//! each sending through its own lossy, delayed link; one of them killed with SIGTERM midway
//! in the second test. `cargo test` builds the example beside the tests.
//!
//! Exit status 0: the process's peer played to the end (its checksum line names the last
//! frame); 2: its session ended with GGRS's failure after a peer left.

use std::net::UdpSocket;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The example's binary, built by `cargo test` into the target's `examples/` folder.
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("{e}"));
    // target/<profile>/deps/processes-<hash> -> target/<profile>/examples/rollback_p2p
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap_or_else(|| panic!("no target folder above {}", exe.display()));
    let bin = profile
        .join("examples")
        .join(format!("rollback_p2p{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run the tests with cargo test, which builds the examples",
        bin.display()
    );
    bin
}

/// `n` free UDP ports on 127.0.0.1 (bound and released: another program could take one in
/// between, which this test would show as a failure to bind).
fn free_ports(n: usize) -> Vec<u16> {
    let sockets: Vec<UdpSocket> = (0..n)
        .map(|_| UdpSocket::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}")))
        .collect();
    sockets
        .iter()
        .map(|s| s.local_addr().unwrap_or_else(|e| panic!("{e}")).port())
        .collect()
}

/// Starts one process per player, each playing `seconds` through 60 ms + up to 60 ms of
/// delay and 3 % loss on what it sends.
fn start(players: usize, seconds: u32) -> Vec<Child> {
    let ports = free_ports(players);
    (0..players)
        .map(|me| {
            let list: Vec<String> = ports
                .iter()
                .enumerate()
                .map(|(k, port)| {
                    if k == me {
                        "local".to_owned()
                    } else {
                        format!("127.0.0.1:{port}")
                    }
                })
                .collect();
            Command::new(example())
                .args(["--local-port", &ports[me].to_string()])
                .args(["--players", &list.join(",")])
                .args(["--seconds", &seconds.to_string()])
                .args(["--delay", "60", "--jitter", "60", "--loss", "0.03"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

/// Waits for `child` (killing it after `limit`) and returns what it printed.
fn finish(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().ok().flatten().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

/// The checksum a peer printed for the last frame, if it printed one.
fn checksum(output: &Output) -> Option<String> {
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|l| {
            l.split_once("checksum at frame ")
                .map(|(_, s)| s.to_owned())
        })
        .filter(|s| !s.ends_with("none"))
}

/// Every process's exit and checksum line, with what it printed when it failed.
fn outcomes(outputs: &[Output]) -> Vec<(bool, Option<String>)> {
    for (k, o) in outputs.iter().enumerate() {
        if !o.status.success() {
            eprintln!(
                "player {k}: {}\n{}\n{}",
                o.status,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    outputs
        .iter()
        .map(|o| (o.status.success(), checksum(o)))
        .collect()
}

#[test]
fn three_player_processes_end_at_the_same_state() {
    let children = start(3, 6);
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| finish(c, Duration::from_secs(60)))
        .collect();
    let seen = outcomes(&outputs);
    assert!(
        seen.iter().all(|(ok, sum)| *ok && sum.is_some()),
        "{seen:?}"
    );
    assert!(seen.windows(2).all(|w| w[0].1 == w[1].1), "{seen:?}");
}

#[cfg(unix)]
#[test]
fn a_player_process_stopped_with_sigterm_leaves_the_others_playing_alike() {
    let mut children = start(3, 8);
    std::thread::sleep(Duration::from_secs(4));
    let leaver = children.remove(1);
    let killed = Command::new("kill")
        .args(["-TERM", &leaver.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(killed.success());
    let _ = finish(leaver, Duration::from_secs(5));
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| finish(c, Duration::from_secs(60)))
        .collect();
    // Each of the two who stayed saw the leaver go, and either played to the end or ended
    // its session with the clear error (exit status 2: GGRS 0.13's failure after a leave,
    // caught; see spherewalk_ggrs::session); those who played to the end agree.
    let mut played = Vec::new();
    for o in &outputs {
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("disconnected"), "{text}");
        match o.status.code() {
            Some(0) => played.push(checksum(o)),
            Some(2) => assert!(text.contains("the GGRS session broke"), "{text}"),
            _ => panic!("{:?}", outcomes(&outputs)),
        }
    }
    assert!(played.iter().all(Option::is_some), "{played:?}");
    assert!(played.windows(2).all(|w| w[0] == w[1]), "{played:?}");
}
