//! One tick of a P2P session for a [`RollbackSim`]: the local input, GGRS's advance and its
//! requests, with GGRS's internal assertions turned into an error that ends the session
//! instead of the game.
//!
//! # A peer that leaves a session of three or more under loss (GGRS 0.13)
//! When a peer leaves (its process killed, its link cut), each of the others notices on its
//! own, after GGRS's disconnect timeout, holding the leaver's inputs up to a different last
//! frame: one that lost fewer of the leaver's last packets holds more. GGRS reconciles them
//! by rolling every survivor back to just after the earliest of those frames (each peer's
//! view travels with its inputs). But by then a survivor that held more of the leaver's
//! inputs has confirmed frames past that point and thrown away the other players' inputs
//! for them, or has run further ahead than its prediction window, and GGRS asserts inside
//! `advance_frame`: `sync_layer.rs:238` "cannot load frame outside of prediction window", or
//! `input_queue.rs:140` "requested_frame >= self.inputs[self.tail].frame". Neither depends
//! on the game: the reproduction is four GGRS peers on 127.0.0.1, each sending through a link
//! of 60–150 ms with 5 % loss, one of them stopped dead a few seconds in (the tests
//! `a_peer_leaving_four_under_loss_crashes_nobody` and `leave_sweep` in `tests/rollback.rs`).
//! Over 20 seeds each (`leave_sweep`), a session of 4 broke for some survivor in 3 runs and
//! one of 6 in 5. A wider prediction window with each peer paced to the old one (tried) broke
//! in 2 of 20 runs of 4, but left two survivors of 6 playing on in disagreement once: the
//! inputs a survivor already discarded are the cause, and GGRS's public API cannot keep them.
//!
//! So [`RollbackSim::tick`] catches the panic and returns [`RollbackError::SessionBroken`]:
//! that peer's session ends with a clear error, its [`RollbackSim`] (and the game) go on, and
//! the survivors whose sessions did not break play on and agree with each other. A game
//! shows "connection lost" for that peer, or goes on offline from its sim. With two peers
//! there is one survivor and nothing to reconcile; three can meet it too (once in the
//! three-process test, `tests/processes.rs`, with 3 % loss); with no loss the survivors hold
//! the same last frame and play on alike.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ggrs::{GgrsError, P2PSession, PlayerHandle, SessionState};

use crate::driver::{RollbackError, RollbackSim};
use crate::{NetInput, Rollback};

/// What one [`RollbackSim::tick`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// The session advanced (and maybe rolled back and re-simulated first).
    Advanced,
    /// The peer is as far ahead of the others as GGRS's prediction window lets it: it waits
    /// for their inputs.
    Waiting,
    /// The session is not running yet (still synchronising with the peers).
    NotRunning,
}

impl RollbackSim {
    /// One tick of `session` for the local player `handle` with `input`: nothing while the
    /// session is not running; else the input is added, the session advanced, and its
    /// requests answered ([`Self::handle`]).
    ///
    /// GGRS 0.13 asserts inside `advance_frame` in some states it cannot recover from, the
    /// known one being a peer that leaves a session of three or more under packet loss (see
    /// [`crate::session`]). Such a panic is caught here and returned as
    /// [`RollbackError::SessionBroken`]: the session is unusable from then on (drop it), but
    /// the game, its `Sim` and every other session go on. The panic's message is still
    /// printed by the panic hook.
    ///
    /// # Errors
    /// [`RollbackError::SessionBroken`] as above, [`RollbackError::Ggrs`] when GGRS refuses
    /// the input or the advance (a handle that is not local, say), and the errors of
    /// [`Self::handle`].
    pub fn tick(
        &mut self,
        session: &mut P2PSession<Rollback>,
        handle: PlayerHandle,
        input: NetInput,
    ) -> Result<Tick, RollbackError> {
        if session.current_state() != SessionState::Running {
            return Ok(Tick::NotRunning);
        }
        session.add_local_input(handle, input)?;
        let frame = session.current_frame();
        let advanced = catch_unwind(AssertUnwindSafe(|| session.advance_frame()));
        match advanced {
            Ok(Ok(requests)) => self.handle(requests).map(|()| Tick::Advanced),
            Ok(Err(GgrsError::PredictionThreshold)) => Ok(Tick::Waiting),
            Ok(Err(e)) => Err(e.into()),
            Err(panic) => Err(RollbackError::SessionBroken {
                frame,
                reason: panic_message(panic.as_ref()),
            }),
        }
    }
}

/// The text of a caught panic (its `&str` or `String` payload).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}
