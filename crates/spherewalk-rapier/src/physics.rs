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
    /// Forces (N) and torques (N m) about the centre of mass, world frame, that this value
    /// added for the next step only (weights, gravity fields): [`Self::step`] takes them off
    /// again afterwards, leaving the game's own forces as they were.
    transient: Vec<(RigidBodyHandle, Vector<Real>, Vector<Real>)>,
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
        for (handle, force, torque) in self.transient.drain(..) {
            if let Some(body) = self.bodies.get_mut(handle) {
                body.add_force(-force, false);
                body.add_torque(-torque, false);
            }
        }
    }

    /// Adds `force` (N, world) at `point` (world, m) to a body for the next step only (see
    /// [`Self::step`]), waking it. A force on a body that is not dynamic is ignored.
    pub(crate) fn add_step_force(
        &mut self,
        handle: RigidBodyHandle,
        force: Vector<Real>,
        point: Option<Point<Real>>,
    ) {
        let Some(body) = self.bodies.get_mut(handle).filter(|b| b.is_dynamic()) else {
            return;
        };
        let torque = match point {
            Some(p) => (p - body.center_of_mass()).cross(&force),
            None => Vector::zeros(),
        };
        body.add_force(force, true);
        body.add_torque(torque, true);
        self.transient.push((handle, force, torque));
    }

    /// A copy of everything that changes as the world steps, for [`Physics::restore`]:
    /// rollback netcode saves one each frame. The sets are cloned (shapes are shared, not
    /// copied), so a save costs about what the world's bodies, contacts and BVH weigh.
    pub fn save(&self) -> PhysicsState {
        PhysicsState {
            bodies: self.bodies.clone(),
            colliders: self.colliders.clone(),
            params: self.params,
            broad_phase: self.broad_phase.clone(),
            narrow_phase: self.narrow_phase.clone(),
            islands: self.islands.clone(),
            impulse_joints: self.impulse_joints.clone(),
            multibody_joints: self.multibody_joints.clone(),
            ccd: self.ccd.clone(),
        }
    }

    /// Puts the world back as `state` saw it: stepping on from here gives the same bits as
    /// stepping on from there (on the same machine and build). The pipeline keeps only
    /// scratch space between steps, so it needs no restoring.
    pub fn restore(&mut self, state: &PhysicsState) {
        self.bodies.clone_from(&state.bodies);
        self.colliders.clone_from(&state.colliders);
        self.params = state.params;
        self.broad_phase.clone_from(&state.broad_phase);
        self.narrow_phase.clone_from(&state.narrow_phase);
        self.islands.clone_from(&state.islands);
        self.impulse_joints.clone_from(&state.impulse_joints);
        self.multibody_joints.clone_from(&state.multibody_joints);
        self.ccd.clone_from(&state.ccd);
        self.transient.clear();
    }

    /// The world as the character motor sees it (see [`RapierGeometry`]).
    pub fn geometry(&self) -> RapierGeometry<'_> {
        RapierGeometry::new(&self.bodies, &self.colliders, &self.broad_phase)
    }

    /// Pulls every awake dynamic body toward the gravity of `fields` at its centre of mass for
    /// the next step: a force of `mass * g` (N) at its centre of mass that [`Self::step`]
    /// takes off again, the same fields the characters walk under, so crates fall toward
    /// planets. Step with zero uniform gravity
    /// (`step(&Vector::zeros())`) when the fields are all the gravity there is. Bodies whose
    /// gravity scale is 0 are left alone, others are pulled by their scale times the field.
    /// Returns how many bodies were pulled.
    pub fn apply_gravity_fields(&mut self, fields: &GravityFields) -> usize {
        let mut pulls = Vec::new();
        for handle in self.islands.active_bodies() {
            let Some(body) = self.bodies.get(*handle) else {
                continue;
            };
            let scale = body.gravity_scale();
            if !body.is_dynamic() || scale == 0.0 {
                continue;
            }
            let force = fields.at(body.center_of_mass()) * (body.mass() * scale);
            if force.iter().all(|c| c.is_finite()) && force != Vector::zeros() {
                pulls.push((*handle, force));
            }
        }
        let pulled = pulls.len();
        for (handle, force) in pulls {
            self.add_step_force(handle, force, None);
        }
        pulled
    }
}

/// A saved [`Physics`] world ([`Physics::save`]): its bodies, colliders, joints, broad and
/// narrow phases, islands, CCD state and integration parameters.
///
/// With feature `serde` it serializes through rapier's own `serde-serialize`: every
/// collider's shape is written out, the fixed scenery's meshes included, so a saved world
/// weighs about what its meshes do.
#[derive(Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PhysicsState {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    params: IntegrationParameters,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    islands: IslandManager,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    ccd: CCDSolver,
}

impl PhysicsState {
    /// The saved rigid bodies (world frame; m, kg, s).
    pub fn bodies(&self) -> &RigidBodySet {
        &self.bodies
    }

    /// A 64-bit digest (FNV-1a) of every saved body's handle, pose, velocities and sleep
    /// state, bit for bit, in handle order: two worlds that moved differently differ here.
    pub fn digest(&self) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        let mut eat = |bits: u64| {
            for byte in bits.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        let mut bodies: Vec<_> = self.bodies.iter().collect();
        bodies.sort_by_key(|(h, _)| h.into_raw_parts());
        for (handle, body) in bodies {
            let (index, generation) = handle.into_raw_parts();
            eat((u64::from(index) << 32) | u64::from(generation));
            let pose = body.position();
            let numbers = pose
                .translation
                .vector
                .iter()
                .chain(pose.rotation.coords.iter())
                .chain(body.linvel().iter())
                .chain(body.angvel().iter());
            for n in numbers {
                eat(u64::from(n.to_bits()));
            }
            eat(u64::from(body.is_sleeping()));
        }
        hash
    }
}

impl std::fmt::Debug for PhysicsState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhysicsState")
            .field("bodies", &self.bodies.len())
            .field("colliders", &self.colliders.len())
            .field("digest", &format_args!("{:016x}", self.digest()))
            .finish()
    }
}
