//! Buffers a step reuses from one call to the next, so no step allocates once warm.

use super::ContactBuffer;
use crate::contact::{ColliderId, Hit};
use crate::world::Primitive;

/// Working buffers of a step, reused from one step to the next so no step allocates once
/// warm. They carry nothing from one step to the next, so one scratch may serve any number
/// of characters in turn: stepping a crowd through one scratch per thread
/// ([`crate::StepReport::swap_scratch`]) keeps the buffers in cache, where one per character
/// (the one inside every [`crate::StepReport`]) is cold again at each character's turn.
#[derive(Clone, Debug, Default)]
pub struct StepScratch {
    pub(crate) ids: Vec<ColliderId>,
    pub(crate) prims: Vec<Primitive>,
    pub(crate) contacts: ContactBuffer,
    pub(crate) trial_hits: Vec<Hit>,
}

impl StepScratch {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }
}
