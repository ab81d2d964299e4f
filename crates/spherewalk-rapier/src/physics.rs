//! A rapier world in one value: its sets and the pipeline state that steps them.

use crate::RapierGeometry;
use rapier3d::prelude::*;
use spherewalk_core::GravityFields;

/// A whole rapier world: bodies, colliders, joints, and what rapier keeps between steps (its
/// broad phase, narrow phase, islands and CCD solver). A game that already holds these can
/// use [`RapierGeometry::new`] on its own; this bundles them for the usual case.
#[derive(Default)]
pub struct Physics {
    /// The rigid bodies (world frame; m, kg, s).
    pub bodies: RigidBodySet,
    /// The colliders, attached to bodies or standing alone.
    pub colliders: ColliderSet,
    /// Step length and solver settings; `params.dt` is the step (s), 1/60 by default.
    pub params: IntegrationParameters,
    /// rapier's broad phase: the BVH the characters' queries read.
    pub broad_phase: BroadPhaseBvh,
    /// rapier's narrow phase (contact pairs).
    pub narrow_phase: NarrowPhase,
    /// Sleeping and awake islands of bodies.
    pub islands: IslandManager,
    /// Impulse-based joints.
    pub impulse_joints: ImpulseJointSet,
    /// Reduced-coordinate joints.
    pub multibody_joints: MultibodyJointSet,
    /// Continuous collision detection state.
    pub ccd: CCDSolver,
    pipeline: PhysicsPipeline,
}

impl Physics {
    /// An empty world stepping at 60 Hz.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances the bodies by one step of `params.dt` seconds under the uniform `gravity`
    /// (m/s², world). Afterwards the broad phase holds every enabled collider at its new
    /// pose, which is what [`Self::geometry`] answers from.
    pub fn step(&mut self, gravity: &Vector<Real>) {
        self.pipeline.step(
            gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    /// The world as the character motor sees it (see [`RapierGeometry`]).
    pub fn geometry(&self) -> RapierGeometry<'_> {
        RapierGeometry::new(&self.bodies, &self.colliders, &self.broad_phase)
    }

    /// Pulls every awake dynamic body toward the gravity of `fields` at its centre of mass for
    /// one step of `dt` seconds: an impulse of `mass * g * dt` (N s), the same fields the
    /// characters walk under, so crates fall toward planets. Step with zero uniform gravity
    /// (`step(&Vector::zeros())`) when the fields are all the gravity there is. Bodies whose
    /// gravity scale is 0 are left alone, others are pulled by their scale times the field.
    /// A non-finite or non-positive `dt` pulls nothing. Returns how many bodies were pulled.
    pub fn apply_gravity_fields(&mut self, fields: &GravityFields, dt: Real) -> usize {
        if !(dt.is_finite() && dt > 0.0) {
            return 0;
        }
        let mut pulled = 0;
        for handle in self.islands.active_bodies() {
            let Some(body) = self.bodies.get_mut(*handle) else {
                continue;
            };
            let scale = body.gravity_scale();
            if !body.is_dynamic() || scale == 0.0 {
                continue;
            }
            let g = fields.at(body.center_of_mass());
            let impulse = g * (body.mass() * scale * dt);
            if impulse.iter().all(|c| c.is_finite()) && impulse != Vector::zeros() {
                body.apply_impulse(impulse, false);
                pulled += 1;
            }
        }
        pulled
    }
}
