//! What a motor step did: ground state, events, contacts and input flags.

use super::scratch::StepScratch;
use crate::contact::{ColliderId, GroundHit, GroundState, Hit};
use crate::math::{Point3, Real, UnitVec3};
use crate::state::Mode;

/// Bad per-step inputs that were clamped or ignored, each by a documented rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InputFlags {
    /// `dt` was NaN, infinite or <= 0: the step did nothing.
    pub dt_invalid: bool,
    /// `dt` exceeded `max_dt` and was clamped to it.
    pub dt_clamped: bool,
    /// The intent held NaN or infinity and was replaced by "stand still".
    pub intent_invalid: bool,
    /// The intent velocity had a component along up that was dropped.
    pub intent_off_plane: bool,
    /// Gravity held NaN or infinity and was treated as zero.
    pub gravity_invalid: bool,
    /// Gravity was longer than [`crate::motor::MAX_GRAVITY`] and was clamped to it.
    pub gravity_clamped: bool,
    /// A speed (the intent's, the jump's, the carried velocity's or the resulting one) exceeded
    /// `max_speed` and was clamped to it.
    pub speed_clamped: bool,
    /// The pose or the motor state held NaN or infinity, or its mode a direction that is not
    /// unit length or a negative length: the step did nothing. (A mode's time left beyond
    /// what its settings allow is cut to it, unflagged.)
    pub state_invalid: bool,
}

impl InputFlags {
    /// True when any input was clamped or ignored.
    pub fn any(&self) -> bool {
        self.dt_invalid
            || self.dt_clamped
            || self.intent_invalid
            || self.intent_off_plane
            || self.gravity_invalid
            || self.gravity_clamped
            || self.speed_clamped
            || self.state_invalid
    }
}

/// Everything a step did. Reuse one report per character: its buffers keep their capacity.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct StepReport {
    /// Ground state after the step.
    pub ground: GroundState,
    /// The ground probed under the feet after the step, if any.
    pub ground_hit: Option<GroundHit>,
    /// True when the character became grounded this step after not being grounded.
    pub landed: bool,
    /// True when the character stopped being grounded this step (walked off, jumped).
    pub left_ground: bool,
    /// True when the character jumped this step.
    pub jumped: bool,
    /// The movement rule the step changed from and to ([`Mode`]), when it changed one: a
    /// dash, a climb or a mantle began or ended.
    #[cfg_attr(feature = "serde", serde(default))]
    pub mode_changed: Option<(Mode, Mode)>,
    /// Height climbed onto a stair this step (m, along up); 0 when none was climbed. Was
    /// `stepped_up`.
    #[cfg_attr(feature = "serde", serde(alias = "stepped_up"))]
    pub climbed: Real,
    /// Distance snapped down onto the ground by the ground clamp (m); 0 when none.
    pub clamped_down: Real,
    /// Angle the up frame turned this step (rad).
    pub up_turned: Real,
    /// Number of movement substeps taken.
    pub substeps: u32,
    /// Pushback iterations run, summed over substeps.
    pub pushback_iterations: u32,
    /// True when a pushback pass ran out of iterations with a penetration still above the
    /// tolerance (Jolt's "max hits exceeded"): the solve was degraded, e.g. squeezed between
    /// solids. `max_penetration` says how much is left.
    pub pushback_exhausted: bool,
    /// True when geometry crushed the character this step: no push cleared its contacts and
    /// no straight move of at most its height (up, or sideways) had room, so it stayed
    /// balanced between them, on the side of each piece it was on, never pushed through one.
    /// `max_penetration` says how deep it is; what happens next is the game's call. A squeeze
    /// between other characters' bodies alone (and walkable ground) does not count:
    /// those yield after the step ([`crate::world::ColliderFlags::character`]).
    pub crushed: bool,
    /// Deepest remaining penetration of any sphere after the step (m, >= 0).
    pub max_penetration: Real,
    /// Every pushback contact of the step, in the order resolved, up to [`crate::phases::MAX_HITS`].
    pub hits: Vec<Hit>,
    /// True when the step met at least [`crate::phases::MAX_HITS`] contacts: `hits` may hold only the
    /// first ones (a character squeezed for many iterations).
    pub hits_truncated: bool,
    /// Inputs that were clamped or ignored.
    pub flags: InputFlags,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) scratch: StepScratch,
}

/// Something that happened to a character during a step, read from its report
/// ([`StepReport::events`]): what a game turns into sounds, animations or damage.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepEvent {
    /// Became stably grounded after not being so.
    Landed,
    /// Stopped being stably grounded (walked off, jumped, slid onto steep ground).
    LeftGround,
    /// Jumped this step.
    Jumped,
    /// The movement rule changed ([`StepReport::mode_changed`]): a dash, a climb or a mantle
    /// began or ended.
    ModeChanged {
        /// The rule before the step.
        from: Mode,
        /// The rule after it.
        to: Mode,
    },
    /// Climbed a stair by `height` (m, along up).
    ClimbedStair {
        /// Height climbed (m).
        height: Real,
    },
    /// Geometry closed on the character and left it no way out this step (see
    /// [`StepReport::crushed`]): it stayed between the pieces, on its side of each, `depth`
    /// metres into the deepest. Sent every step it lasts; what it means (a death, damage, a
    /// nudge) is the game's call.
    Crushed {
        /// Deepest penetration of any sphere after the step (m).
        depth: Real,
    },
    /// Touched a collider other than the ground it stands on (its first contact of the step
    /// with that collider).
    Hit {
        /// The collider touched.
        collider: ColliderId,
        /// Contact point on the collider (world, m).
        point: Point3,
        /// Contact normal, from the collider toward the character (world).
        normal: UnitVec3,
    },
}

impl StepReport {
    /// A fresh report.
    pub fn new() -> Self {
        Self::default()
    }

    /// The step's events, in this order: landed, left ground, jumped, climbed a stair,
    /// crushed, then a hit for the first contact with each collider other than the ground,
    /// in contact order.
    pub fn events(&self) -> impl Iterator<Item = StepEvent> + '_ {
        let ground = self.ground_collider();
        let hits = self.hits.iter().enumerate().filter(move |(k, hit)| {
            let seen = self.hits[..*k].iter().any(|h| h.collider == hit.collider);
            Some(hit.collider) != ground && !seen
        });
        let flagged = self
            .flags()
            .into_iter()
            .filter_map(|(on, event)| on.then_some(event));
        flagged.chain(hits.map(|(_, hit)| StepEvent::Hit {
            collider: hit.collider,
            point: hit.point,
            normal: hit.contact_normal,
        }))
    }

    /// Whether the step had any event ([`Self::events`] yields one), without making them: most
    /// steps of a character walking about have none.
    pub fn has_events(&self) -> bool {
        let ground = self.ground_collider();
        self.flags().iter().any(|(on, _)| *on)
            || self.hits.iter().any(|hit| Some(hit.collider) != ground)
    }

    /// The step's flag events, each with whether it happened, in [`Self::events`]' order.
    fn flags(&self) -> [(bool, StepEvent); 6] {
        let (from, to) = self.mode_changed.unwrap_or_default();
        [
            (self.landed, StepEvent::Landed),
            (self.left_ground, StepEvent::LeftGround),
            (self.jumped, StepEvent::Jumped),
            (
                self.mode_changed.is_some(),
                StepEvent::ModeChanged { from, to },
            ),
            (
                self.climbed > 0.0,
                StepEvent::ClimbedStair {
                    height: self.climbed,
                },
            ),
            (
                self.crushed,
                StepEvent::Crushed {
                    depth: self.max_penetration,
                },
            ),
        ]
    }

    /// The collider stood on at the end of the step, whose contacts are not hits.
    fn ground_collider(&self) -> Option<ColliderId> {
        self.ground_hit.map(|g| g.collider)
    }

    /// Exchanges the step's working buffers kept in this report with `scratch`. A crowd keeps
    /// one [`StepScratch`] per thread and swaps it in before each character's step and back
    /// out after: the buffers stay hot in cache, and the reports stay small. No step result
    /// depends on what the buffers held.
    pub fn swap_scratch(&mut self, scratch: &mut StepScratch) {
        std::mem::swap(&mut self.scratch, scratch);
    }

    pub(crate) fn reset(&mut self) {
        // Field by field, so the buffers (`hits` and the scratch, a few hundred bytes of
        // vector headers) stay where they are; naming every field makes a new one a compile
        // error here until it is reset too.
        let Self {
            ground,
            ground_hit,
            landed,
            left_ground,
            jumped,
            mode_changed,
            climbed,
            clamped_down,
            up_turned,
            substeps,
            pushback_iterations,
            pushback_exhausted,
            crushed,
            max_penetration,
            hits,
            hits_truncated,
            flags,
            scratch: _,
        } = self;
        *ground = GroundState::default();
        *ground_hit = None;
        (*landed, *left_ground, *jumped) = (false, false, false);
        *mode_changed = None;
        (*climbed, *clamped_down, *up_turned) = (0.0, 0.0, 0.0);
        (*substeps, *pushback_iterations) = (0, 0);
        (*pushback_exhausted, *crushed, *hits_truncated) = (false, false, false);
        *max_penetration = 0.0;
        hits.clear();
        *flags = InputFlags::default();
    }

    /// Adds a pushback pass's iterations and exhausted flag to the report.
    pub(crate) fn note_pushback(&mut self, pass: &crate::step::PushbackSummary) {
        self.pushback_iterations += pass.iterations;
        self.pushback_exhausted |= pass.exhausted;
        self.crushed |= pass.crushed && !pass.by_characters;
    }

    /// True when the character is stably grounded after the step.
    pub fn is_grounded(&self) -> bool {
        self.ground == GroundState::Grounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    /// `has_events` says exactly whether `events` yields anything: every combination of the
    /// five flags, with no hit, hits on the ground only, and hits on the ground and elsewhere
    /// (repeated), standing on a collider or on nothing.
    #[test]
    fn has_events_agrees_with_events() {
        let up = UnitVec3::new_normalize(Vec3::new(0.0, 1.0, 0.0));
        let (floor, wall) = (ColliderId::new(0, 0), ColliderId::new(3, 1));
        let hit = |collider| Hit {
            collider,
            sphere: 0,
            point: Point3::origin(),
            contact_normal: up,
            surface_normal: up,
            depth: 0.0,
        };
        let ground = GroundHit {
            collider: floor,
            point: Point3::origin(),
            contact_normal: up,
            surface_normal: up,
            slope_angle: 0.0,
            stable: true,
            distance: 0.0,
        };
        let hit_lists = [
            vec![],
            vec![hit(floor), hit(floor)],
            vec![hit(floor), hit(wall), hit(wall)],
        ];
        let mut with_events = 0;
        for bits in 0..32u32 {
            for hits in &hit_lists {
                for ground_hit in [None, Some(ground)] {
                    let report = StepReport {
                        landed: bits & 1 != 0,
                        left_ground: bits & 2 != 0,
                        jumped: bits & 4 != 0,
                        climbed: if bits & 8 != 0 { 0.2 } else { 0.0 },
                        crushed: bits & 16 != 0,
                        hits: hits.clone(),
                        ground_hit,
                        ..StepReport::default()
                    };
                    let any = report.events().next().is_some();
                    assert_eq!(report.has_events(), any, "{bits} {hits:?} {ground_hit:?}");
                    with_events += usize::from(any);
                }
            }
        }
        // Only no flag, and no hit or the floor's hits while standing on the floor, is quiet.
        assert_eq!(with_events, 32 * 3 * 2 - 3);
    }
}
