//! The GGRS side of a [`Sim`]: [`Rollback`] (the session's types) and [`RollbackSim`], which
//! answers the session's requests.

use std::collections::VecDeque;
use std::net::SocketAddr;

use ggrs::{GgrsRequest, InputStatus};
use spherewalk::components::Walker;
use spherewalk::hecs::Entity;
use spherewalk::input::PlayerInput;
use spherewalk::{Sim, Snapshot, SnapshotError};
use thiserror::Error;

use crate::NetInput;

/// The GGRS configuration for spherewalk: [`NetInput`] crosses the network, a [`Snapshot`] is
/// the saved state, peers are socket addresses. Missing inputs are predicted as the last one
/// received (players hold sticks and buttons).
#[derive(Debug)]
pub struct Rollback;

impl ggrs::Config for Rollback {
    type Input = NetInput;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = Snapshot;
    type Address = SocketAddr;
}

/// What a [`RollbackSim`] has done since it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Frames stepped, re-simulations included.
    pub advanced: u64,
    /// States saved.
    pub saved: u64,
    /// Rollbacks: states loaded to re-simulate from.
    pub rollbacks: u64,
    /// Frames stepped again after a rollback (each frame once per rollback it was in).
    pub resimulated: u64,
}

/// Why a GGRS request could not be answered.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RollbackError {
    /// The session asked to load a state it never saved.
    #[error("GGRS asked to load frame {0}, for which no state was saved")]
    NothingSaved(ggrs::Frame),
    /// The saved state does not fit this Sim (another scene, or characters spawned since).
    #[error("the state of frame {frame} does not restore: {source}")]
    Restore {
        /// The frame it was saved at.
        frame: ggrs::Frame,
        /// Why.
        source: SnapshotError,
    },
    /// The session's inputs are not one per player of this `RollbackSim`.
    #[error("GGRS gave inputs for {given} players; this sim has {players}")]
    PlayerCount {
        /// Inputs in the request.
        given: usize,
        /// Players of the sim.
        players: usize,
    },
    /// A player entity given to [`RollbackSim::new`] is not a character with player input.
    #[error("player {0} is not a character with player input")]
    NotAPlayer(usize),
    /// GGRS failed an internal assertion while advancing the session (see
    /// [`RollbackSim::tick`]): the session cannot go on and should be dropped.
    #[error("the GGRS session broke at frame {frame}: {reason}")]
    SessionBroken {
        /// The session's frame when it broke.
        frame: ggrs::Frame,
        /// GGRS's panic message.
        reason: String,
    },
    /// GGRS refused a call (an input for a handle that is not local, say).
    #[error(transparent)]
    Ggrs(#[from] ggrs::GgrsError),
    /// [`RollbackSim::with_first_characters`] asked for more players than the sim has
    /// characters.
    #[error("{wanted} players asked for; the sim has {have} characters")]
    TooFewCharacters {
        /// Players asked for.
        wanted: usize,
        /// Characters in the sim.
        have: usize,
    },
}

/// A [`Sim`] driven by a GGRS session: player `i` of the session (its handle) steers the
/// character `players[i]`. Each frame the game adds its local input to the session, calls
/// `advance_frame`, and hands the requests to [`RollbackSim::handle`].
pub struct RollbackSim {
    sim: Sim,
    players: Vec<Entity>,
    counters: Counters,
    /// The checksums of the last [`KEPT_CHECKSUMS`] frames saved, oldest first.
    saves: VecDeque<(ggrs::Frame, u128)>,
}

/// How many saved frames' checksums a [`RollbackSim`] remembers.
pub const KEPT_CHECKSUMS: usize = 128;

impl RollbackSim {
    /// Wraps `sim`, whose characters `players` (in the session's player order) take the
    /// session's inputs.
    ///
    /// # Errors
    /// [`RollbackError::NotAPlayer`] when one of `players` has no [`PlayerInput`] (give it one
    /// with [`Sim::set_player_input`]).
    pub fn new(sim: Sim, players: Vec<Entity>) -> Result<Self, RollbackError> {
        for (i, &e) in players.iter().enumerate() {
            if sim.ecs.get::<&PlayerInput>(e).is_err() {
                return Err(RollbackError::NotAPlayer(i));
            }
        }
        Ok(Self {
            sim,
            players,
            counters: Counters::default(),
            saves: VecDeque::with_capacity(KEPT_CHECKSUMS),
        })
    }

    /// Wraps `sim` with its first `players` characters (in spawn order) as the session's
    /// players, in that order, each given a default [`PlayerInput`] in place of its AI or
    /// script.
    ///
    /// # Errors
    /// [`RollbackError::TooFewCharacters`] when the sim has fewer characters.
    pub fn with_first_characters(mut sim: Sim, players: usize) -> Result<Self, RollbackError> {
        let mut characters: Vec<Entity> = sim
            .ecs
            .query::<(Entity, &Walker)>()
            .iter()
            .map(|(e, _)| e)
            .collect();
        if characters.len() < players {
            return Err(RollbackError::TooFewCharacters {
                wanted: players,
                have: characters.len(),
            });
        }
        characters.sort();
        characters.truncate(players);
        for (i, &e) in characters.iter().enumerate() {
            sim.set_player_input(e, PlayerInput::default())
                .map_err(|_| RollbackError::NotAPlayer(i))?;
        }
        Self::new(sim, characters)
    }

    /// The sim, to draw or inspect.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The players' characters, in the session's player order.
    pub fn players(&self) -> &[Entity] {
        &self.players
    }

    /// What was done so far.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The checksum of the state last saved for `frame`, while it is among the last
    /// [`KEPT_CHECKSUMS`] frames saved: once the session has confirmed the frames before it,
    /// every peer's is the same. For comparing peers, and for finding where a desync began.
    pub fn checksum_at(&self, frame: ggrs::Frame) -> Option<u128> {
        self.saves
            .iter()
            .rev()
            .find(|(f, _)| *f == frame)
            .map(|(_, sum)| *sum)
    }

    /// The checksum of the sim's current state (see [`checksum`]).
    pub fn checksum(&self) -> u128 {
        checksum(&self.sim.snapshot())
    }

    /// Answers one `advance_frame`'s requests, in order: saves with [`Sim::snapshot`] (and
    /// its [`checksum`]), loads with [`Sim::restore`], advances by writing each player's
    /// input and running one [`Sim::step`]. A disconnected player's character gets no input
    /// (it stands still).
    ///
    /// # Errors
    /// See [`RollbackError`]; the requests after a failed one are not answered.
    pub fn handle(&mut self, requests: Vec<GgrsRequest<Rollback>>) -> Result<(), RollbackError> {
        let mut loaded = false;
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let snapshot = self.sim.snapshot();
                    let sum = checksum(&snapshot);
                    cell.save(frame, Some(snapshot), Some(sum));
                    self.counters.saved += 1;
                    self.saves.retain(|(f, _)| *f != frame);
                    if self.saves.len() == KEPT_CHECKSUMS {
                        self.saves.pop_front();
                    }
                    self.saves.push_back((frame, sum));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let snapshot = cell.load().ok_or(RollbackError::NothingSaved(frame))?;
                    self.sim
                        .restore(&snapshot)
                        .map_err(|source| RollbackError::Restore { frame, source })?;
                    self.counters.rollbacks += 1;
                    loaded = true;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    self.advance(&inputs)?;
                    if loaded {
                        self.counters.resimulated += 1;
                    }
                }
            }
        }
        // The last frame after a rollback is the new one, not a re-simulation.
        if loaded {
            self.counters.resimulated = self.counters.resimulated.saturating_sub(1);
        }
        Ok(())
    }

    fn advance(&mut self, inputs: &[(NetInput, InputStatus)]) -> Result<(), RollbackError> {
        if inputs.len() != self.players.len() {
            return Err(RollbackError::PlayerCount {
                given: inputs.len(),
                players: self.players.len(),
            });
        }
        for (&entity, (input, status)) in self.players.iter().zip(inputs) {
            let input = match status {
                InputStatus::Disconnected => NetInput::default(),
                InputStatus::Confirmed | InputStatus::Predicted => *input,
            };
            if let Ok(mut player) = self.sim.ecs.get::<&mut PlayerInput>(entity) {
                input.apply(&mut player);
            }
        }
        self.sim.step();
        self.counters.advanced += 1;
        Ok(())
    }
}

/// Size of `snapshot` in bytes, encoded with bincode 1: what it costs to store or send. The
/// rapier world it may hold counts only where spherewalk's feature `rapier-serde` encodes it
/// (see [`Snapshot`]).
pub fn snapshot_bytes(snapshot: &Snapshot) -> usize {
    // Serializing plain data into a Vec cannot fail.
    bincode::serialize(snapshot).map_or(0, |b| b.len())
}

/// A 128-bit checksum of the state `snapshot` holds, for GGRS's desync detection: two
/// FNV-1a 64 hashes, with different offsets, of the bincode 1 encoding of
/// [`Snapshot::without_physics`] (the characters, platforms and clock, not the rapier world's
/// own encoding). With dynamic bodies (feature `rapier`) the bodies count through
/// [`PhysicsState::digest`](spherewalk::physics::spherewalk_rapier::PhysicsState::digest),
/// appended to those bytes. Two peers whose sims hold the same state, bit for bit, have the
/// same checksum.
pub fn checksum(snapshot: &Snapshot) -> u128 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142_u64);
    // Serializing plain data into a Vec cannot fail; an empty Vec would only weaken the
    // checksum, never panic. The bodies count through their digest, not their encoding.
    #[cfg_attr(not(feature = "rapier"), allow(unused_mut))]
    let mut bytes = bincode::serialize(&snapshot.without_physics()).unwrap_or_default();
    #[cfg(feature = "rapier")]
    if let Some(physics) = snapshot.physics() {
        bytes.extend_from_slice(&physics.digest().to_le_bytes());
    }
    for byte in bytes {
        a = (a ^ u64::from(byte)).wrapping_mul(PRIME);
        b = (b ^ u64::from(byte.rotate_left(3))).wrapping_mul(PRIME);
    }
    (u128::from(a) << 64) | u128::from(b)
}
