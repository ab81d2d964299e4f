//! Sockets for GGRS sessions: [`UdpSocket`], non-blocking UDP on any address (127.0.0.1
//! included, which GGRS's own socket, bound to 0.0.0.0, does not offer), and [`Impaired`],
//! which delays and drops another socket's outgoing packets as a bad connection would.

use std::collections::BinaryHeap;
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bincode::Options;
use ggrs::{Message, NonBlockingSocket};

/// The largest datagram accepted (bytes); GGRS's messages stay far below it. A longer one is
/// refused as garbage whole, even when its first bytes would decode.
pub const MAX_DATAGRAM: usize = 4096;

/// How a datagram is decoded: bincode 1's encoding of GGRS's messages (fixed-width integers,
/// as `bincode::serialize` writes them), with nothing left over after the message and no
/// allocation past the datagram's own size.
fn wire() -> impl bincode::Options {
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .reject_trailing_bytes()
        .with_limit(MAX_DATAGRAM as u64)
}

/// A non-blocking UDP socket speaking GGRS's messages (bincode 1, as GGRS's own socket).
/// A datagram is taken only when it is exactly one message: garbage, another program's
/// traffic, a message with bytes after it, and a datagram longer than [`MAX_DATAGRAM`] are
/// dropped and counted ([`UdpSocket::garbage`]).
#[derive(Debug)]
pub struct UdpSocket {
    socket: std::net::UdpSocket,
    buffer: Vec<u8>,
    garbage: u64,
}

impl UdpSocket {
    /// Binds `addr` (port 0: any free port; [`UdpSocket::local_addr`] tells which).
    ///
    /// # Errors
    /// When the address cannot be bound or the socket made non-blocking.
    pub fn bind(addr: SocketAddr) -> std::io::Result<Self> {
        let socket = std::net::UdpSocket::bind(addr)?;
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            // One byte more than the largest accepted, so a longer datagram shows (the
            // operating system cuts it to the buffer).
            buffer: vec![0; MAX_DATAGRAM + 1],
            garbage: 0,
        })
    }

    /// The address this socket is bound to, for the other peers.
    ///
    /// # Errors
    /// When the operating system cannot tell.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Datagrams received so far that were not GGRS messages.
    pub fn garbage(&self) -> u64 {
        self.garbage
    }
}

impl NonBlockingSocket<SocketAddr> for UdpSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        // A message that cannot be encoded or sent is lost, as UDP may lose it anyway; GGRS
        // sends again what matters.
        if let Ok(bytes) = bincode::serialize(msg) {
            let _ = self.socket.send_to(&bytes, addr);
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut received = Vec::new();
        loop {
            match self.socket.recv_from(&mut self.buffer) {
                Ok((len, from)) => {
                    let decoded = (len <= MAX_DATAGRAM)
                        .then(|| wire().deserialize::<Message>(&self.buffer[..len]).ok())
                        .flatten();
                    match decoded {
                        Some(msg) => received.push((from, msg)),
                        None => self.garbage += 1,
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // A peer that went away (ICMP port unreachable, reported on some systems):
                // nothing to read from it; read on.
                Err(e) if e.kind() == ErrorKind::ConnectionReset => continue,
                Err(_) => break,
            }
        }
        received
    }
}

/// How a connection misbehaves: each packet is delayed by `delay` plus up to `jitter` more,
/// and `loss` of them (a share in [0, 1]) never arrive. Delays are drawn per packet, so
/// packets also arrive out of order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impairment {
    /// Least one-way delay.
    pub delay: Duration,
    /// Most extra delay on top of `delay`, drawn evenly.
    pub jitter: Duration,
    /// Share of packets dropped, in [0, 1].
    pub loss: f64,
}

impl Impairment {
    /// A perfect connection.
    pub const NONE: Self = Self {
        delay: Duration::ZERO,
        jitter: Duration::ZERO,
        loss: 0.0,
    };
}

/// A packet waiting for its delivery time.
struct Delayed {
    due: Instant,
    order: u64,
    to: SocketAddr,
    msg: Message,
}

impl PartialEq for Delayed {
    fn eq(&self, other: &Self) -> bool {
        (self.due, self.order) == (other.due, other.order)
    }
}
impl Eq for Delayed {}
impl PartialOrd for Delayed {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Delayed {
    /// Reversed: the max-heap pops the earliest packet first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.due, other.order).cmp(&(self.due, self.order))
    }
}

/// Wraps a socket so its outgoing packets suffer an [`Impairment`]: each is dropped, or held
/// back until its delay has passed and then sent by a later call (GGRS calls the socket many
/// times a frame). The draws come from a seeded generator, so a run's pattern of delays and
/// losses depends only on the seed and the order of sends.
pub struct Impaired<S> {
    inner: S,
    impairment: Impairment,
    queue: BinaryHeap<Delayed>,
    rng: u64,
    sent: u64,
    dropped: u64,
}

impl<S: NonBlockingSocket<SocketAddr>> Impaired<S> {
    /// `inner` with `impairment` on what it sends; `seed` picks the delays and losses. The
    /// loss share is clamped to [0, 1] (NaN: none lost).
    pub fn new(inner: S, mut impairment: Impairment, seed: u64) -> Self {
        impairment.loss = if impairment.loss.is_nan() {
            0.0
        } else {
            impairment.loss.clamp(0.0, 1.0)
        };
        Self {
            inner,
            impairment,
            queue: BinaryHeap::new(),
            rng: seed ^ 0x9e37_79b9_7f4a_7c15,
            sent: 0,
            dropped: 0,
        }
    }

    /// The socket underneath.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Packets handed to this socket so far, and how many of them it dropped.
    pub fn sent_and_dropped(&self) -> (u64, u64) {
        (self.sent, self.dropped)
    }

    /// A uniform draw in [0, 1) (splitmix64).
    fn draw(&mut self) -> f64 {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Sends every held packet whose time has come. The session does so on each of its
    /// calls; a program whose session has stopped (a peer that left) calls it to let what
    /// was already sent arrive, as packets on the wire do.
    pub fn flush(&mut self) {
        let now = Instant::now();
        while self.queue.peek().is_some_and(|p| p.due <= now) {
            if let Some(p) = self.queue.pop() {
                self.inner.send_to(&p.msg, &p.to);
            }
        }
    }
}

impl<S: NonBlockingSocket<SocketAddr>> NonBlockingSocket<SocketAddr> for Impaired<S> {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        self.sent += 1;
        if self.draw() < self.impairment.loss {
            self.dropped += 1;
        } else {
            let extra = self.impairment.jitter.mul_f64(self.draw());
            self.queue.push(Delayed {
                due: Instant::now() + self.impairment.delay + extra,
                order: self.sent,
                to: *addr,
                msg: msg.clone(),
            });
        }
        self.flush();
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.flush();
        self.inner.receive_all_messages()
    }
}
