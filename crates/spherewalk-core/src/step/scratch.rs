//! Buffers a step reuses from one call to the next, so no step allocates once warm.

use super::ContactBuffer;
use crate::contact::{ColliderId, Hit};
use crate::world::Primitive;

/// Buffers reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub ids: Vec<ColliderId>,
    pub prims: Vec<Primitive>,
    pub contacts: ContactBuffer,
    pub trial_hits: Vec<Hit>,
}
