//! The motor: a character's validated shape and settings, what every step of it reads.

use crate::math::{Point3, Real};
use crate::pose::Pose;
use crate::settings::{MotorSettings, SettingsError};
use crate::shape::SphereStack;
use crate::world::QueryFilter;

/// A character's validated shape and settings: what [`Motor::step`] needs besides the world and
/// the per-step state.
#[derive(Clone, Debug, PartialEq)]
pub struct Motor {
    pub(super) stack: SphereStack,
    pub(super) settings: MotorSettings,
    pub(super) filter: QueryFilter,
    /// Cosine of the slope limit, computed once.
    pub(super) cos_slope: Real,
    /// Sine of the slope limit (the stairs phase's least forward move), computed once.
    pub(super) sin_slope: Real,
}

impl Motor {
    /// Pairs a stack with settings after validating them.
    ///
    /// # Errors
    /// [`SettingsError`] when a setting is out of its documented range, or out of scale with
    /// the stack: a `skin_width` over half the smallest radius (never grounded), a
    /// `penetration_tolerance` over a tenth of it (overlaps left alone, sinking through
    /// floors), a `stair_height` at or over the stack's height (a character climbing more than
    /// itself).
    pub fn new(stack: SphereStack, settings: MotorSettings) -> Result<Self, SettingsError> {
        settings.validate()?;
        settings.check_scale(&stack)?;
        Ok(Self {
            stack,
            settings,
            filter: QueryFilter::default(),
            cos_slope: crate::math::cos(settings.slope_limit),
            sin_slope: crate::math::sin(settings.slope_limit),
        })
    }

    /// Uses `filter` to choose which colliders the character collides with.
    pub fn with_filter(mut self, filter: QueryFilter) -> Self {
        self.filter = filter;
        self
    }

    /// The sphere stack (character-local).
    pub fn stack(&self) -> &SphereStack {
        &self.stack
    }

    /// Where a character of this motor at `pose` reads gravity (world, m): its feet sphere's
    /// centre. Gravity is read where the character stands, not at mid-stack: on a
    /// surface-gravity world the pull under the feet is the one that keeps them on a face,
    /// and round a sharp edge the middle of a tall stack is already over the next face while
    /// the feet are not. Every host reads its fields here.
    pub fn gravity_point(&self, pose: &Pose) -> Point3 {
        pose.centre_at(self.stack.feet().offset_local)
    }

    /// The validated settings.
    pub fn settings(&self) -> &MotorSettings {
        &self.settings
    }

    /// The collision filter.
    pub fn filter(&self) -> &QueryFilter {
        &self.filter
    }

    /// The least forward move (m) that lands the round feet on a tread they were stopped at:
    /// `radius * (1 - sin(slope_limit)) + skin_width`, the feet's contact with the edge then
    /// leaning back within the slope limit.
    pub(crate) fn least_forward(&self) -> Real {
        self.stack.feet().radius * (1.0 - self.sin_slope) + self.settings.skin_width
    }
}
