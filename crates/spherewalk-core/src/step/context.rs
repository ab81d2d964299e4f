//! What every phase of a step reads, and only reads: the world, the motor, the primitives
//! gathered around the character, and the region they came from. What a phase reports back
//! (the penetration recovery left, a push cut short at the region's edge) goes through the
//! pushback buffer it writes anyway ([`super::ContactBuffer`]).

use super::Motor;
use crate::hooks::{ContactHooks, NoHooks};
use crate::math::{Real, UnitVec3};
use crate::world::{Geometry, Primitive};
use parry3d::bounding_volume::Aabb;

/// Everything the phases read during one step: the world, the motor, the primitives gathered
/// around the character for this step, and derived constants.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// The collision world.
    pub world: &'a dyn Geometry,
    /// The character's motor.
    pub motor: &'a Motor,
    /// Primitives near the character (world frame), gathered once per step and kept by the
    /// hooks' [`ContactHooks::validate`].
    pub prims: &'a [Primitive],
    /// Cosine of the slope limit.
    pub cos_slope: Real,
    /// The game's contact hooks.
    pub hooks: &'a dyn ContactHooks,
    /// The region (world, m) `prims` was gathered from: no phase moves the stack out of it
    /// without looking further. `None` when `prims` is all there is.
    pub bounds: Option<Aabb>,
    /// The direction this step's gravity pulls (unit, world), if any: a landing removes the
    /// velocity it falls with along it when up lags well behind it. `None` (and in `Surface`
    /// mode, where gravity pulls along -up): along up.
    pub fall: Option<UnitVec3>,
}

impl StepContext<'_> {
    /// True when a contact with primitive `k` whose normal is `normal` (world) is stable
    /// ground for a character whose up is `up`: the collider is [`Self::walkable`] and the
    /// normal is within the slope limit of up.
    #[inline]
    pub fn stable(&self, k: usize, normal: &UnitVec3, up: &UnitVec3) -> bool {
        self.walkable(k) && normal.dot(up) >= self.cos_slope
    }

    /// Whether primitive `k`'s collider may be stood on at all (its walkable flag: not
    /// [`crate::ColliderDesc::not_walkable`]), whatever the slope of a contact with it.
    #[inline]
    pub fn walkable(&self, k: usize) -> bool {
        self.prims.get(k).is_some_and(|p| p.walkable)
    }
}

impl Motor {
    /// A context over `prims` for calling the phases directly, with no hooks and no region.
    /// Penetration recovery is not limited unless a step set it in the
    /// [`ContactBuffer`](super::ContactBuffer) passed to the phases.
    pub fn context<'a>(
        &'a self,
        world: &'a dyn Geometry,
        prims: &'a [Primitive],
    ) -> StepContext<'a> {
        StepContext {
            world,
            motor: self,
            prims,
            cos_slope: self.cos_slope,
            hooks: &NoHooks,
            bounds: None,
            fall: None,
        }
    }
}
