//! `net::UdpSocket` takes a datagram only when it is exactly one GGRS message: a real
//! message captured off a GGRS session is taken; the same with a byte after it, cut short,
//! or padded past the largest datagram is refused and counted as garbage.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use spherewalk_ggrs::Rollback;
use spherewalk_ggrs::ggrs::{NonBlockingSocket, PlayerType, SessionBuilder};
use spherewalk_ggrs::net::{MAX_DATAGRAM, UdpSocket};

/// A real GGRS datagram: a session on one socket asks a raw socket (its "remote player") to
/// synchronise, and the raw socket reads what it sent.
fn captured_datagram() -> Vec<u8> {
    let raw = std::net::UdpSocket::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    raw.set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap_or_else(|e| panic!("{e}"));
    let remote: SocketAddr = raw.local_addr().unwrap_or_else(|e| panic!("{e}"));
    let socket = UdpSocket::bind("127.0.0.1:0".parse().unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut session = SessionBuilder::<Rollback>::new()
        .with_num_players(2)
        .and_then(|b| b.add_player(PlayerType::Local, 0))
        .and_then(|b| b.add_player(PlayerType::Remote(remote), 1))
        .and_then(|b| b.start_p2p_session(socket))
        .unwrap_or_else(|e| panic!("{e}"));
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut buffer = vec![0; 65536];
    loop {
        assert!(Instant::now() < deadline, "GGRS sent nothing in 5 s");
        session.poll_remote_clients();
        if let Ok((len, _)) = raw.recv_from(&mut buffer) {
            return buffer[..len].to_vec();
        }
    }
}

/// What `socket` takes of `datagram`, sent to it from a stranger's socket.
fn deliver(socket: &mut UdpSocket, datagram: &[u8]) -> usize {
    let to = socket.local_addr().unwrap_or_else(|e| panic!("{e}"));
    let sender = std::net::UdpSocket::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    sender
        .send_to(datagram, to)
        .unwrap_or_else(|e| panic!("{e}"));
    // Loopback delivers at once; a few reads cover a slow scheduler.
    let deadline = Instant::now() + Duration::from_millis(500);
    let before = socket.garbage();
    loop {
        let taken = socket.receive_all_messages().len();
        if taken > 0 || socket.garbage() > before || Instant::now() > deadline {
            return taken;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn only_a_whole_message_alone_in_its_datagram_is_taken() {
    let message = captured_datagram();
    assert!(message.len() < MAX_DATAGRAM, "{} bytes", message.len());
    let mut socket = UdpSocket::bind("127.0.0.1:0".parse().unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(deliver(&mut socket, &message), 1, "the message itself");
    assert_eq!(socket.garbage(), 0);
    let mut trailing = message.clone();
    trailing.push(0);
    assert_eq!(
        deliver(&mut socket, &trailing),
        0,
        "a byte after the message"
    );
    assert_eq!(socket.garbage(), 1);
    assert_eq!(
        deliver(&mut socket, &message[..message.len() - 1]),
        0,
        "the message cut short"
    );
    assert_eq!(socket.garbage(), 2);
    let mut long = message.clone();
    long.resize(MAX_DATAGRAM + 100, 0);
    assert_eq!(deliver(&mut socket, &long), 0, "past the largest datagram");
    assert_eq!(socket.garbage(), 3);
    // Exactly at the limit is not refused for its length (it still has bytes after the
    // message, so it is refused for those).
    let mut at_limit = message;
    at_limit.resize(MAX_DATAGRAM, 0);
    assert_eq!(deliver(&mut socket, &at_limit), 0);
    assert_eq!(socket.garbage(), 4);
}
