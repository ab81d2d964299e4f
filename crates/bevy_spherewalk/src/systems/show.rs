//! The show phase: the characters' transforms, status and messages written after a step,
//! and their transforms drawn between steps on the frames in between.

use super::spawn_order;
use crate::components::{CharacterStatus, Walking};
use crate::messages::{CharacterEvent, CharacterMessage};
use crate::resources::CharacterWorld;
use bevy::prelude::{Entity, Fixed, MessageWriter, Query, Res, Time, Transform};
use spherewalk_core::interop::glam::vec3_to_glam;

/// Puts back, before the frame's fixed steps, the pose every admitted character's last step
/// ended at into its transform where the plugin's interpolation showed it in between: game
/// logic in the fixed schedule reads where the characters are, with or without
/// interpolation. A transform the game wrote since is left alone: it is a teleport, which
/// the next fixed step takes.
pub(crate) fn show_step_ends(mut characters: Query<(&mut Walking, &mut Transform)>) {
    for (mut walking, mut transform) in &mut characters {
        let shown = (transform.translation, transform.rotation);
        let Some(end) = walking.walker.as_ref().map(|w| w.pose.to_glam()) else {
            continue;
        };
        if shown == walking.shown && shown != end {
            transform.translation = end.0;
            transform.rotation = end.1;
            walking.shown = end;
        }
    }
}

/// Shows every admitted character between the poses its last step started and ended at (the
/// core's [`Walker::shown_at`]), as far as the fixed clock has run into the next step
/// (`Time<Fixed>`'s overstep): smooth at any frame rate, one step behind the simulation. A
/// transform the game wrote that no fixed step has taken yet (a teleport on a frame with no
/// fixed step) is left for the next one.
pub(crate) fn interpolate_characters(
    time: Res<Time<Fixed>>,
    mut characters: Query<(&mut Walking, &mut Transform)>,
) {
    let a = time.overstep_fraction().clamp(0.0, 1.0);
    for (mut walking, mut transform) in &mut characters {
        let Some(walker) = &walking.walker else {
            continue;
        };
        if (transform.translation, transform.rotation) != walking.shown {
            continue;
        }
        let shown = walker.shown_at(a).to_glam();
        transform.translation = shown.0;
        transform.rotation = shown.1;
        walking.shown = shown;
    }
}

/// Writes every admitted character's transform and status, and its step's messages in
/// spawn order.
pub(crate) fn write_back(
    cw: Res<CharacterWorld>,
    mut characters: Query<(Entity, &mut Walking, &mut Transform, &mut CharacterStatus)>,
    mut messages: MessageWriter<CharacterMessage>,
) {
    let mut written: Vec<(Entity, CharacterEvent)> = Vec::new();
    for (entity, mut walking, mut transform, mut status) in &mut characters {
        let Some((position, rotation)) = walking.walker.as_ref().map(|w| w.pose.to_glam()) else {
            continue;
        };
        transform.translation = position;
        transform.rotation = rotation;
        walking.shown = (position, rotation);
        let Some(walker) = &walking.walker else {
            continue;
        };
        let ground = walker.state.ground_hit;
        *status = CharacterStatus {
            ground: walker.state.ground,
            ground_normal: ground.map(|g| vec3_to_glam(&g.surface_normal)),
            standing_on: ground.and_then(|g| cw.entity_of(g.collider)),
            velocity: vec3_to_glam(&walker.state.velocity),
            up: vec3_to_glam(&walker.pose.up()),
        };
        // Most steps have no event: those are passed over without making the list.
        if walker.report.has_events() {
            let events = walker.report.events();
            let events =
                events.filter_map(|e| CharacterEvent::from_core(&e, |id| cw.entity_of(id)));
            written.extend(events.map(|event| (entity, event)));
        }
    }
    // Stable: each character's events keep their order.
    written.sort_by_key(|(entity, _)| spawn_order(*entity));
    messages.write_batch(
        written
            .into_iter()
            .map(|(character, event)| CharacterMessage { character, event }),
    );
}
