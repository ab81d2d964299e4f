//! Input systems: player controls, wandering AI and scripts write [`MoveIntent`] and the
//! crouch wish in [`Stance`], from their own state (which they advance: the player's jump
//! buffer, the wanderer's random walk, the script's clock), and touch nothing of the
//! character but one: a released jump cuts the player's upward
//! [`spherewalk_core::MotorState`] velocity.

use crate::components::{Stance, Walker};
use crate::input::{Command, PlayerInput, Script, Wander};
use hecs::World;
use spherewalk_core::math::project_on_plane;
use spherewalk_core::{GroundState, MotorState, MoveIntent, Pose, Real, UnitVec3, Vec3};

/// Writes the intent of every character with [`PlayerInput`]: the stick relative to the
/// camera, projected onto the character's ground plane (so "forward" on a wall or a planet is
/// where the camera looks along that surface), facing where it walks; a latched or buffered
/// jump press; and the cut of a jump let go while rising (`dt` in s).
pub fn player_intents(ecs: &mut World, dt: Real) {
    type Player<'a> = (
        &'a mut PlayerInput,
        &'a mut Walker,
        &'a mut MoveIntent,
        Option<&'a mut Stance>,
    );
    for (input, walker, intent, stance) in ecs.query_mut::<Player<'_>>() {
        let pose = &walker.pose;
        let up = pose.up();
        let forward = ground_direction(&(input.camera * -Vec3::z()), &up)
            .or_else(|| ground_direction(&(input.camera * Vec3::y()), &up))
            .unwrap_or_else(|| pose.forward());
        let right = forward.cross(&up);
        let [x, y] = input.axes.map(|a| {
            if a.is_finite() {
                a.clamp(-1.0, 1.0)
            } else {
                0.0
            }
        });
        let mut stick = right * x + forward.into_inner() * y;
        if stick.norm() > 1.0 {
            stick.normalize_mut();
        }
        let jumped = walker.report.jumped;
        *intent = MoveIntent {
            velocity: stick * input.speed,
            jump_speed: jump_wish(input, jumped, dt),
            yaw_rate: 0.0,
            facing: UnitVec3::try_new(stick, 1e-3),
            turn_rate: input.turn_rate,
        };
        cut_jump(input, &mut walker.state, &up, jumped);
        if let Some(stance) = stance {
            stance.want_crouch = input.crouch;
        }
    }
}

/// The jump speed (m/s) to ask for this step: a press (latched, or `jump` going down) is
/// asked for until the motor jumps (`jumped`: the last step did) or `jump_buffer` runs out.
fn jump_wish(input: &mut PlayerInput, jumped: bool, dt: Real) -> Real {
    let went_down = input.jump && !input.held_before;
    input.held_before = input.jump;
    if jumped {
        input.buffered = 0.0;
        input.rising = true;
    }
    if std::mem::take(&mut input.pressed) || went_down {
        // A press always gets at least this step.
        input.buffered = input.jump_buffer.max(0.0) + dt;
    }
    if input.buffered <= 0.0 {
        return 0.0;
    }
    input.buffered -= dt;
    input.jump_speed
}

/// Variable jump height: letting go of jump while still rising from a jump keeps only
/// `jump_cut` of the upward speed (along `up`), once.
fn cut_jump(input: &mut PlayerInput, state: &mut MotorState, up: &UnitVec3, jumped: bool) {
    if !input.rising {
        return;
    }
    let v_up = state.velocity.dot(up);
    if v_up <= 0.0 || (state.ground == GroundState::Grounded && !jumped) {
        input.rising = false;
    } else if !input.jump {
        let keep = input.jump_cut.clamp(0.0, 1.0);
        state.velocity -= up.into_inner() * (v_up * (1.0 - keep));
        input.rising = false;
    }
}

/// `v` projected onto the plane normal to `up`, normalised; `None` when `v` is along `up`.
fn ground_direction(v: &Vec3, up: &UnitVec3) -> Option<UnitVec3> {
    UnitVec3::try_new(project_on_plane(v, up), 1e-3)
}

/// One wanderer's components, as [`wander_intents_on`] reads and writes them.
type Wandering<'a> = (&'a mut Wander, &'a Walker, &'a mut MoveIntent);

/// Wanderers one job of rayon's pool takes.
#[cfg(feature = "parallel")]
const WANDER_BATCH: u32 = 512;

/// Writes the intent of every wandering character: forward at its speed, turning at a rate
/// redrawn every 1 to 3 s, and turning at full rate for a second after bumping a wall. In
/// batches on rayon's pool when `parallel` is asked for and the `parallel` feature is on.
/// Each wanderer reads and writes only its own components (its random sequence included),
/// so the result is the same either way.
pub(crate) fn wander_intents_on(ecs: &mut World, dt: Real, parallel: bool) {
    let query = ecs.query_mut::<Wandering<'_>>();
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        let batches: Vec<_> = query.into_iter_batched(WANDER_BATCH).collect();
        batches
            .into_par_iter()
            .for_each(|batch| batch.for_each(|one| wander(one, dt)));
        return;
    }
    let _ = parallel;
    query.into_iter().for_each(|one| wander(one, dt));
}

/// The intent of one wanderer for a step of `dt` (s).
fn wander((wander, walker, intent): Wandering<'_>, dt: Real) {
    let bumped = walker.report.hits.iter().any(|h| h.sphere > 0);
    wander.timer -= dt;
    if bumped && wander.timer < 0.5 {
        wander.turn_rate = wander.max_turn_rate;
        wander.timer = 1.0;
    } else if wander.timer <= 0.0 {
        wander.turn_rate = (2.0 * wander.next_unit() - 1.0) * wander.max_turn_rate;
        wander.timer = 1.0 + 2.0 * wander.next_unit();
    }
    *intent = MoveIntent {
        velocity: walker.pose.forward().into_inner() * wander.speed,
        yaw_rate: wander.turn_rate,
        ..MoveIntent::default()
    };
}

/// Writes the intent of every scripted character from its current command, then advances the
/// script by `dt` seconds.
pub fn script_intents(ecs: &mut World, dt: Real) {
    for (script, walker, intent, stance) in
        ecs.query_mut::<(&mut Script, &Walker, &mut MoveIntent, Option<&mut Stance>)>()
    {
        let command = script.current().copied();
        let pose = &walker.pose;
        *intent = command.map_or_else(MoveIntent::default, |c| command_intent(&c, pose));
        if let Some(stance) = stance {
            stance.want_crouch = matches!(
                command,
                Some(Command::Crouch { .. } | Command::Walk { crouch: true, .. })
            );
        }
        advance_script(script, dt);
    }
}

/// The intent a command gives a character at `pose`.
fn command_intent(command: &Command, pose: &Pose) -> MoveIntent {
    match *command {
        Command::Walk { forward, right, .. } => MoveIntent::walk(
            pose.forward().into_inner() * forward + pose.right().into_inner() * right,
        ),
        Command::Turn { degrees, seconds } => MoveIntent {
            yaw_rate: if seconds > 0.0 {
                degrees.to_radians() / seconds
            } else {
                0.0
            },
            ..MoveIntent::default()
        },
        Command::Jump { speed } => MoveIntent {
            jump_speed: speed,
            ..MoveIntent::default()
        },
        Command::Wait { .. } | Command::Crouch { .. } => MoveIntent::default(),
    }
}

/// Moves the script's clock on by `dt`, going to the next command when the current one is
/// done (a jump is done after one step), and back to the first when looping.
fn advance_script(script: &mut Script, dt: Real) {
    let Some(command) = script.current().copied() else {
        return;
    };
    script.elapsed += dt;
    // Half a step of slack so an N-step command never runs N + 1 steps from f32 rounding.
    if script.elapsed + 0.5 * dt >= command.seconds().max(0.0) || !command.seconds().is_finite() {
        script.index += 1;
        script.elapsed = 0.0;
        if script.looping && script.index >= script.commands.len() {
            script.index = 0;
        }
    }
}
