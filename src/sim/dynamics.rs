//! The step's one seam to the physics backend: what [`super::Sim::step`] asks of the dynamic
//! bodies, answered by rapier with feature `rapier` and by nothing without it. The step's own
//! body names these two calls and holds no `cfg`.

use hecs::World;
use spherewalk_core::backend::Geometry;
use spherewalk_core::{CollisionWorld, GravityFields, Real};

/// A sim's dynamic bodies: the rapier world and its mirrors of the scenery.
#[cfg(feature = "rapier")]
pub(crate) type Dynamics = spherewalk_rapier::Mirrored;

/// A sim's dynamic bodies: none can exist without feature `rapier` (a scene file with some is
/// refused by name), so this type has no value.
#[cfg(not(feature = "rapier"))]
pub(crate) enum Dynamics {}

/// The geometry the characters meet in a step: the scenery, with the dynamic bodies layered
/// over it when there are some.
pub(crate) enum StepGeometry<'a> {
    /// The collision world alone.
    Scenery(&'a CollisionWorld),
    /// The collision world with rapier's bodies over it.
    #[cfg(feature = "rapier")]
    Layered(spherewalk_rapier::Layered<'a>),
}

impl StepGeometry<'_> {
    /// The geometry, as the motor reads it.
    pub(crate) fn get(&self) -> &dyn Geometry {
        match self {
            Self::Scenery(world) => *world,
            #[cfg(feature = "rapier")]
            Self::Layered(layered) => layered,
        }
    }
}

/// The geometry the characters meet this step: `collision`, with the dynamic bodies layered
/// over it when there are some.
pub(crate) fn geometry<'a>(
    collision: &'a CollisionWorld,
    dynamics: Option<&'a Dynamics>,
) -> StepGeometry<'a> {
    #[cfg(feature = "rapier")]
    if let Some(d) = dynamics {
        let rapier = d.physics.geometry();
        return StepGeometry::Layered(spherewalk_rapier::Layered::new(collision, rapier));
    }
    #[cfg(not(feature = "rapier"))]
    let _ = dynamics;
    StepGeometry::Scenery(collision)
}

/// Steps the dynamic bodies `dt` seconds after the characters moved, under `fields`' gravity,
/// when there are some.
pub(crate) fn step_bodies(
    ecs: &mut World,
    dynamics: Option<&mut Dynamics>,
    collision: &CollisionWorld,
    fields: &GravityFields,
    dt: Real,
) {
    #[cfg(feature = "rapier")]
    if let Some(d) = dynamics {
        phase!("spherewalk: dynamic bodies");
        super::physics::step_physics(ecs, d, collision, fields, dt);
    }
    #[cfg(not(feature = "rapier"))]
    let _ = (ecs, dynamics, collision, fields, dt);
}
