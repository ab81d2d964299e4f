//! Crouching and standing up: a walker's two stacks, what its input wants and what is in
//! effect, changed only where the new stack fits.

use super::Walker;
use crate::math::Real;
use crate::shape::SphereStack;
use crate::step::ResizeError;
use crate::world::CollisionWorld;

/// Crouching: the standing and crouched stacks (character-local), what the input wants and
/// what is in effect.
///
/// Crouching takes effect at once where the crouched stack fits; standing up waits until the
/// standing stack fits (no sphere would start inside anything), so a character under a low
/// ceiling stays crouched. [`Stance::apply`] is the one rule every host runs once a step.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stance {
    /// The stack when standing (character-local).
    pub standing: SphereStack,
    /// The stack when crouched (character-local).
    pub crouched: SphereStack,
    /// What the input asks for this step.
    pub want_crouch: bool,
    /// What is in effect.
    pub crouching: bool,
}

impl Stance {
    /// A stance that crouches `standing` to `crouched`, standing at first.
    pub fn new(standing: SphereStack, crouched: SphereStack) -> Self {
        Self {
            standing,
            crouched,
            want_crouch: false,
            crouching: false,
        }
    }

    /// Takes the stance the input wants, through [`Walker::resize`] (its body reshaped with
    /// it), where the wanted stack fits; returns whether it changed. A change refused now is
    /// tried again at the next call.
    ///
    /// # Errors
    /// As [`Walker::resize`] when the wanted stack does not fit; the stance and the walker
    /// stay as they were.
    pub fn apply(
        &mut self,
        walker: &mut Walker,
        world: &mut CollisionWorld,
    ) -> Result<bool, ResizeError> {
        if self.want_crouch == self.crouching {
            return Ok(false);
        }
        let stack = if self.want_crouch {
            &self.crouched
        } else {
            &self.standing
        };
        walker.resize(world, stack.clone())?;
        self.crouching = self.want_crouch;
        Ok(true)
    }

    /// Gives the walker a new standing stack (character-local). Standing, it is taken at once
    /// where it fits ([`Walker::resize`]; returns its deepest penetration, m, >= 0); crouching,
    /// only its scale is checked now (returns 0) and its fit when the walker stands up into it.
    ///
    /// # Errors
    /// [`ResizeError::Settings`] when it is out of scale with the walker's settings,
    /// [`ResizeError::Blocked`] when a standing walker has no room for it; nothing changes
    /// then.
    pub fn reshape(
        &mut self,
        walker: &mut Walker,
        world: &mut CollisionWorld,
        standing: SphereStack,
    ) -> Result<Real, ResizeError> {
        let depth = if self.crouching {
            walker.motor.settings().check_scale(&standing)?;
            0.0
        } else {
            walker.resize(world, standing.clone())?
        };
        self.standing = standing;
        Ok(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;
    use crate::{ColliderDesc, Motor, MotorSettings, Pose};
    use parry3d::shape::SharedShape;

    /// A walker crouched under a 1.2 m ceiling stays crouched when it wants to stand (the
    /// 1.8 m stack does not fit), and stands once it is out in the open.
    #[test]
    fn standing_up_waits_for_room() {
        let mut world = CollisionWorld::new();
        // A slab whose underside is 1.2 m above the origin.
        let ceiling =
            ColliderDesc::new(SharedShape::cuboid(2.0, 0.5, 2.0)).translation(0.0, 1.7, 0.0);
        world.insert(ceiling).expect("ceiling");
        let tall = SphereStack::capsule(1.8, 0.3, 3).expect("stack");
        let low = SphereStack::capsule(1.0, 0.3, 2).expect("stack");
        let motor = Motor::new(low.clone(), MotorSettings::default()).expect("motor");
        let under = Pose::new(Point3::origin());
        let mut walker = Walker::admit(motor, &mut world, under, true).expect("admitted");
        let mut stance = Stance::new(tall.clone(), low.clone());
        stance.crouching = true;
        stance.want_crouch = false;
        let refused = stance.apply(&mut walker, &mut world);
        assert!(
            matches!(refused, Err(ResizeError::Blocked { .. })),
            "{refused:?}"
        );
        assert!(stance.crouching);
        assert_eq!(walker.motor.stack(), &low);
        walker
            .teleport(&mut world, Pose::new(Point3::new(10.0, 0.0, 0.0)))
            .expect("moved");
        assert_eq!(stance.apply(&mut walker, &mut world), Ok(true));
        assert!(!stance.crouching);
        assert_eq!(walker.motor.stack(), &tall);
        assert_eq!(stance.apply(&mut walker, &mut world), Ok(false));
        // Crouching again, a new standing stack is only checked for scale, and taken later.
        stance.want_crouch = true;
        assert_eq!(stance.apply(&mut walker, &mut world), Ok(true));
        let taller = SphereStack::capsule(2.0, 0.3, 4).expect("stack");
        assert_eq!(
            stance.reshape(&mut walker, &mut world, taller.clone()),
            Ok(0.0)
        );
        assert_eq!(walker.motor.stack(), &low);
        assert_eq!(stance.standing, taller);
    }
}
