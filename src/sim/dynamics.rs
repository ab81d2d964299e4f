//! The step's one seam to the physics backend: what [`super::Sim::step`] asks of the dynamic
//! bodies, answered by rapier with feature `rapier` and by nothing without it. The step's own
//! body names these two calls and holds no `cfg`.

use hecs::World;
use spherewalk_core::backend::Geometry;
use spherewalk_core::{CollisionWorld, GravityFields, Real};

/// A sim's dynamic bodies: the rapier world and its mirrors of the scenery.
#[cfg(feature = "rapier")]
pub(crate) type Dynamics = super::physics::SimPhysics;

/// A sim's dynamic bodies: none can exist without feature `rapier` (a scene file with some is
/// refused by name), so this type has no value.
#[cfg(not(feature = "rapier"))]
pub(crate) enum Dynamics {}

/// `step(geometry)` with the geometry the characters meet this step: `collision`, with the
/// dynamic bodies layered over it when there are some.
pub(crate) fn with_geometry<R>(
    collision: &CollisionWorld,
    dynamics: Option<&Dynamics>,
    step: impl FnOnce(&dyn Geometry) -> R,
) -> R {
    #[cfg(feature = "rapier")]
    if let Some(d) = dynamics {
        return step(&spherewalk_rapier::Layered::new(
            collision,
            d.physics.geometry(),
        ));
    }
    #[cfg(not(feature = "rapier"))]
    let _ = dynamics;
    step(collision)
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
