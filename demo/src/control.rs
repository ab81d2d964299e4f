//! Handing a character to the player and back: its AI input (a wanderer's or a script's) is
//! taken off while the keys drive it, and given back when the player moves on (Tab).

use spherewalk::hecs::{Entity, World};
use spherewalk::input::{PlayerInput, Script, Wander};

/// AI input taken off a character while the player controls it.
pub enum Taken {
    /// A wanderer's state.
    Wander(Wander),
    /// A script and its cursor.
    Script(Script),
    /// The character had no input of its own.
    Nothing,
}

/// Puts `e` under player input. A character that has player input already is left as it is
/// (`None`); any other gets a [`PlayerInput`] in place of its AI input, which is returned to
/// give back later.
pub fn take(world: &mut World, e: Entity) -> Option<(Entity, Taken)> {
    if world.get::<&PlayerInput>(e).is_ok() {
        return None;
    }
    let taken = if let Ok(w) = world.remove_one::<Wander>(e) {
        Taken::Wander(w)
    } else if let Ok(s) = world.remove_one::<Script>(e) {
        Taken::Script(s)
    } else {
        Taken::Nothing
    };
    let mut input = PlayerInput::default();
    input.speed = 4.0;
    world.insert_one(e, input).ok().map(|()| (e, taken))
}

/// Lets go of `e`: when `taken` holds what was taken off `e`, its player input goes and its
/// AI input comes back; otherwise (a character that was a player's all along) its keys are
/// released so it stands still.
pub fn release(world: &mut World, e: Entity, taken: &mut Option<(Entity, Taken)>) {
    match taken.take() {
        Some((owner, input)) if owner == e => {
            let _ = world.remove_one::<PlayerInput>(e);
            // The entity exists (it was just controlled), so these inserts succeed.
            let _ = match input {
                Taken::Wander(w) => world.insert_one(e, w),
                Taken::Script(s) => world.insert_one(e, s),
                Taken::Nothing => Ok(()),
            };
        }
        other => {
            *taken = other;
            if let Ok(mut input) = world.get::<&mut PlayerInput>(e) {
                input.axes = [0.0, 0.0];
                input.jump = false;
                input.crouch = false;
            }
        }
    }
}
