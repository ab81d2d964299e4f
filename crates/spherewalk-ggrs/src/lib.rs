//! Rollback netcode for spherewalk over [GGRS](https://docs.rs/ggrs) (the Rust GGPO).
//!
//! Every peer runs its own [`Sim`](spherewalk::Sim) of the same scene. GGRS predicts the
//! inputs that have not arrived yet, and when a late one differs it asks the game to load an
//! earlier state and re-simulate. That works because a `Sim` restores from a
//! [`Snapshot`](spherewalk::Snapshot) and steps on to the same bits, on every platform.
//!
//! - [`NetInput`]: one player's input for one frame as it crosses the network, six bytes
//!   (walk stick, buttons, camera heading), and how it becomes a
//!   [`PlayerInput`](spherewalk::input::PlayerInput).
//! - [`Rollback`]: the [`ggrs::Config`]: `NetInput` in, `Snapshot` as the state, socket
//!   addresses.
//! - [`RollbackSim`]: a `Sim` and its players, answering GGRS's requests
//!   ([`RollbackSim::handle`]) with `snapshot`, `restore` and `step`, with a checksum of the
//!   state ([`checksum`]) for GGRS's desync detection; it counts rollbacks and re-simulated
//!   frames.
//! - [`RollbackSim::tick`]: one tick of a P2P session (input, advance, requests), returning
//!   [`RollbackError::SessionBroken`] where GGRS would panic ([`session`] says when: a
//!   peer leaving a session of three or more under packet loss).
//! - [`net`]: a UDP socket on any address (loopback included) and a wrapper that delays and
//!   drops packets, for tests and for trying a game under a bad connection.

mod driver;
mod input;
pub mod net;
pub mod session;

pub use driver::{
    Counters, KEPT_CHECKSUMS, Rollback, RollbackError, RollbackSim, checksum, snapshot_bytes,
};
pub use ggrs;
pub use input::NetInput;
pub use session::Tick;
