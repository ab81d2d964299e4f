//! Characters among dynamic bodies: their kinematic bodies in the rapier world, the impulses
//! with which they push the bodies they walk into, and their weight on what they stand on.

use crate::{Layered, Physics, collider_handle};
use rapier3d::prelude::*;
use spherewalk_core::{
    GroundState, MotorState, Pose, Real, SphereStack, StepInput, StepReport, UnitVec3, Vec3,
};
use std::collections::BTreeMap;

/// How a character meets dynamic bodies (Jolt's `CharacterVirtual` mass and strength).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct BodySettings {
    /// The character's mass (kg): its weight presses on a dynamic body it stands on.
    pub mass: Real,
    /// The largest force (N) with which it pushes a dynamic body it walks into: each step's
    /// push is at most `max_strength * dt`. A body whose friction holds it against more
    /// stops the character as a wall does.
    pub max_strength: Real,
    /// Whether dynamic bodies that hit the character knock it ([`Physics::take_hits`]);
    /// `false`: it stands like a wall and they bounce off.
    pub receive_impulses: bool,
}

impl Default for BodySettings {
    /// 70 kg and 100 N (Jolt's defaults): enough to push a 5 kg crate at walking speed, far
    /// too little to slide a 500 kg one.
    fn default() -> Self {
        Self {
            mass: 70.0,
            max_strength: 100.0,
            receive_impulses: true,
        }
    }
}

/// Why [`BodySettings`] were refused.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum BodySettingsError {
    /// `mass` is not a finite number above zero (kg).
    Mass(Real),
    /// `max_strength` is not a finite number at or above zero (N).
    MaxStrength(Real),
}

impl std::fmt::Display for BodySettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Mass(m) => write!(f, "character mass must be finite and above 0 kg, got {m}"),
            Self::MaxStrength(s) => {
                write!(f, "max strength must be finite and at least 0 N, got {s}")
            }
        }
    }
}

impl std::error::Error for BodySettingsError {}

impl BodySettings {
    /// Checks the settings.
    ///
    /// # Errors
    /// [`BodySettingsError`] naming the first field out of range.
    pub fn validate(&self) -> Result<(), BodySettingsError> {
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(BodySettingsError::Mass(self.mass));
        }
        if !(self.max_strength.is_finite() && self.max_strength >= 0.0) {
            return Err(BodySettingsError::MaxStrength(self.max_strength));
        }
        Ok(())
    }
}

/// A character's kinematic body in the rapier world: what dynamic bodies collide with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharacterBody {
    /// The kinematic (position-based) rigid body.
    pub body: RigidBodyHandle,
    /// Its collider: the stack's balls as one compound.
    pub collider: ColliderHandle,
}

impl CharacterBody {
    /// The collision filter of the character's own motor on a [`crate::RapierGeometry`]:
    /// everything but this body (`Motor::with_filter`).
    pub fn filter(&self) -> spherewalk_core::world::QueryFilter {
        spherewalk_core::world::QueryFilter {
            exclude: Some(crate::collider_id(self.collider)),
            ..spherewalk_core::world::QueryFilter::default()
        }
    }
}

/// What [`Physics::push_bodies`] did in one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pushed {
    /// Dynamic bodies pushed.
    pub bodies: usize,
    /// Sum of the push impulses' magnitudes (N s).
    pub impulse: Real,
    /// Whether the character's weight pressed on a dynamic body it stands on.
    pub weighed: bool,
}

impl Physics {
    /// Inserts the kinematic body of a character of `stack` at `pose` (world): dynamic bodies
    /// collide with it. Exclude its collider from the character's own queries
    /// (`QueryFilter::exclude` with [`crate::collider_id`]).
    pub fn insert_character(&mut self, stack: &SphereStack, pose: &Pose) -> CharacterBody {
        let body = RigidBodyBuilder::kinematic_position_based()
            .pose(body_pose(pose))
            .build();
        let body = self.bodies.insert(body);
        // Frictionless (whatever the other side's friction): a character walking over a
        // crate must not drag it along; its pushes and weight are the impulses of
        // [`Self::push_bodies`].
        let collider = ColliderBuilder::new(stack.body_shape())
            .friction(0.0)
            .friction_combine_rule(CoefficientCombineRule::Min)
            .build();
        let collider = self
            .colliders
            .insert_with_parent(collider, body, &mut self.bodies);
        CharacterBody { body, collider }
    }

    /// Takes a character's kinematic body, and its collider, out of the world.
    pub fn remove_character(&mut self, character: &CharacterBody) {
        self.bodies.remove(
            character.body,
            &mut self.islands,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            true,
        );
    }

    /// Moves a character's kinematic body to `pose` (world) over the next physics step, so
    /// rapier gives it the velocity of that move.
    pub fn move_character(&mut self, character: &CharacterBody, pose: &Pose) {
        if let Some(body) = self.bodies.get_mut(character.body) {
            body.set_next_kinematic_position(body_pose(pose));
        }
    }

    /// After a character's motor step (its `report`, of the step's `input`), applies to the
    /// dynamic bodies it touched the impulses of its pushing and of its weight:
    ///
    /// - **Pushing.** For each dynamic body its spheres were pushed out of (the hits), other
    ///   than the one it stands on: along the contacts' mean normal, the impulse that would
    ///   bring the body's velocity at the contact up to the character's wanted velocity
    ///   (m/s, world: what it tried to move at, its intent's `velocity`), at most
    ///   `max_strength * dt` (N s), at the contacts' mean point. A body moving away faster
    ///   is left alone.
    /// - **Weight.** Grounded on a dynamic body: a force of `mass * gravity` (N, the input's
    ///   `gravity` in m/s², world) at the ground point for the next physics step ([`Physics::step`] takes
    ///   it off again).
    ///
    /// Bodies asleep are woken. The input's `dt` is the step (s); a non-finite or non-positive
    /// `dt`, a non-finite wanted velocity or gravity, or settings [`BodySettings::validate`] refuses, push nothing.
    pub fn push_bodies(
        &mut self,
        report: &StepReport,
        input: &StepInput,
        settings: &BodySettings,
    ) -> Pushed {
        let (wanted, gravity, dt) = (&input.intent.velocity, &input.gravity, input.dt);
        let mut done = Pushed::default();
        let finite = |v: &Vec3| v.iter().all(|c| c.is_finite());
        if settings.validate().is_err() || !(dt.is_finite() && dt > 0.0) {
            return done;
        }
        if !(finite(wanted) && finite(gravity)) {
            return done;
        }
        let ground = report
            .ground_hit
            .filter(|_| report.ground == GroundState::Grounded)
            .and_then(|g| Some((self.dynamic_parent(handle_of(g.collider))?, g)));
        // Each dynamic body's contacts: summed normals and points, and their count, in handle
        // order (deterministic).
        let mut touched: BTreeMap<(u32, u32), (RigidBodyHandle, Vec3, Vec3, Real)> =
            BTreeMap::new();
        for hit in &report.hits {
            let Some(body) = self.dynamic_parent(handle_of(hit.collider)) else {
                continue;
            };
            if ground.is_some_and(|(g, _)| g == body) {
                continue;
            }
            let entry = touched.entry(body.into_raw_parts()).or_insert((
                body,
                Vec3::zeros(),
                Vec3::zeros(),
                0.0,
            ));
            entry.1 += hit.contact_normal.into_inner();
            entry.2 += hit.point.coords;
            entry.3 += 1.0;
        }
        let most = settings.max_strength * dt;
        for (body, normals, points, count) in touched.into_values() {
            let Some(normal) = UnitVec3::try_new(normals, 1e-6) else {
                continue;
            };
            let point = Point::from(points / count);
            let Some(rb) = self.bodies.get_mut(body) else {
                continue;
            };
            // Into the body: against the normal, which points from the body to the character.
            let into = -normal.into_inner();
            let closing = (wanted - rb.velocity_at_point(&point)).dot(&into);
            if closing <= 0.0 {
                continue;
            }
            let impulse = (rb.mass() * closing).min(most);
            if impulse > 0.0 && impulse.is_finite() {
                rb.apply_impulse_at_point(into * impulse, point, true);
                done.bodies += 1;
                done.impulse += impulse;
            }
        }
        if let Some((body, hit)) = ground {
            self.add_step_force(body, gravity * settings.mass, Some(hit.point));
            done.weighed = true;
        }
        done
    }

    /// After a physics step, what the dynamic bodies that hit a character's kinematic body do
    /// to it: rapier met them with an immovable body, so each contact's impulse `J` (N s,
    /// what stopped the hitting body) is shared out as if the character had its `mass`: the
    /// character's knock ([`MotorState::knock`]) grows by `-J / (m_body + mass)` and the body
    /// is given `-J * m_body / (m_body + mass)` back (together: a perfectly inelastic hit
    /// between the two masses, momentum kept). The body the character stands on (`report`'s
    /// ground) is left out: its push is the support, not a hit. Returns the velocity added
    /// to the knock (m/s, world); zero when `settings.receive_impulses` is off or the
    /// settings are refused.
    pub fn take_hits(
        &mut self,
        character: &CharacterBody,
        report: &StepReport,
        settings: &BodySettings,
        state: &mut MotorState,
    ) -> Vec3 {
        if !settings.receive_impulses || settings.validate().is_err() {
            return Vec3::zeros();
        }
        let ground = report
            .ground_hit
            .filter(|_| report.ground == GroundState::Grounded)
            .and_then(|g| self.dynamic_parent(handle_of(g.collider)));
        let mut hits: Vec<(RigidBodyHandle, Vec3)> = Vec::new();
        for pair in self.narrow_phase.contact_pairs_with(character.collider) {
            // `total_impulse` is what the contact did to the pair's second collider.
            let (other, on_other) = if pair.collider1 == character.collider {
                (pair.collider2, pair.total_impulse())
            } else {
                (pair.collider1, -pair.total_impulse())
            };
            if let Some(body) = self.dynamic_parent(other).filter(|b| Some(*b) != ground) {
                hits.push((body, on_other));
            }
        }
        // Handle order, so the sums do not depend on the narrow phase's layout.
        hits.sort_by_key(|(b, _)| b.into_raw_parts());
        let mut knock = Vec3::zeros();
        for (body, impulse) in hits {
            let Some(rb) = self.bodies.get_mut(body) else {
                continue;
            };
            let m = rb.mass();
            let share = 1.0 / (m + settings.mass);
            if !(impulse.iter().all(|c| c.is_finite()) && share.is_finite()) {
                continue;
            }
            knock -= impulse * share;
            rb.apply_impulse(-impulse * (m * share), true);
        }
        state.knock += knock;
        knock
    }

    /// The dynamic rigid body a collider is attached to, if any.
    fn dynamic_parent(&self, collider: ColliderHandle) -> Option<RigidBodyHandle> {
        let parent = self.colliders.get(collider)?.parent()?;
        self.bodies.get(parent)?.is_dynamic().then_some(parent)
    }
}

/// The rapier collider behind a step's collider id: a [`Layered`] id, or a plain one of a
/// [`crate::RapierGeometry`].
fn handle_of(id: spherewalk_core::ColliderId) -> ColliderHandle {
    Layered::rapier_handle(id).unwrap_or_else(|| collider_handle(id))
}

/// The rigid-body pose of a character at `pose`: its feet, turned by its orientation.
fn body_pose(pose: &Pose) -> Isometry<Real> {
    Isometry::from_parts(pose.position.coords.into(), pose.orientation)
}
