//! The settings panel (egui): the scene picker, the controlled character's state and live
//! settings, timings, debug layers and the keys.

use spherewalk::components::{Name, Walker};
use spherewalk::input::PlayerInput;
use spherewalk::{GroundState, Real, SphereStack, UpFrame};

use crate::play::Play;
use crate::scenes::SHIPPED_SCENES;

/// What the panel asks of the app (things that need more than the play state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelAction {
    /// Load the shipped scene with this index.
    LoadScene(usize),
    /// Start the scene again.
    Restart,
}

/// What the panel remembers between frames.
#[derive(Clone, Debug, Default)]
pub struct PanelState {
    /// Why the last change to the character was refused, shown until the next change.
    refused: Option<String>,
}

/// The shape and tuning of the controlled character as the panel edits them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Tuning {
    spheres: usize,
    radius: Real,
    height: Real,
    slope_limit_deg: Real,
    stair_height: Real,
    up: UpChoice,
    turn_rate_deg: Real,
    jump_speed: Real,
    speed: Real,
}

/// The up frames the panel offers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum UpChoice {
    Gravity,
    Surface,
    Fixed,
}

/// Reads the controlled character's current tuning; `None` without one.
fn read(play: &Play) -> Option<Tuning> {
    let e = play.controlled?;
    let world = &play.scene.sim.ecs;
    let walker = world.get::<&Walker>(e).ok()?;
    let stack = walker.motor.stack();
    let settings = walker.motor.settings();
    let input = world.get::<&PlayerInput>(e).ok();
    Some(Tuning {
        spheres: stack.len(),
        radius: stack.min_radius(),
        height: stack.height(),
        slope_limit_deg: settings.slope_limit.to_degrees(),
        stair_height: settings.stair_height,
        up: match settings.up_frame {
            UpFrame::Gravity => UpChoice::Gravity,
            UpFrame::Surface => UpChoice::Surface,
            UpFrame::Fixed(_) => UpChoice::Fixed,
        },
        turn_rate_deg: input.as_ref().map_or(0.0, |i| i.turn_rate.to_degrees()),
        jump_speed: input.as_ref().map_or(0.0, |i| i.jump_speed),
        speed: input.as_ref().map_or(0.0, |i| i.speed),
    })
}

/// Applies what changed from `before` to `after` to the controlled character; the reason
/// when the sim refused it.
fn apply(play: &mut Play, before: &Tuning, after: &Tuning) -> Result<(), String> {
    let Some(e) = play.controlled else {
        return Ok(());
    };
    let sim = &mut play.scene.sim;
    if (after.spheres, after.radius, after.height) != (before.spheres, before.radius, before.height)
    {
        let stack = SphereStack::capsule(after.height, after.radius, after.spheres)
            .map_err(|e| e.to_string())?;
        sim.reshape_character(e, stack).map_err(|e| e.to_string())?;
    }
    if (after.slope_limit_deg, after.stair_height, after.up)
        != (before.slope_limit_deg, before.stair_height, before.up)
    {
        let mut settings = *sim
            .ecs
            .get::<&Walker>(e)
            .map_err(|_| "not a character".to_owned())?
            .motor
            .settings();
        settings.slope_limit = after.slope_limit_deg.to_radians();
        settings.stair_height = after.stair_height;
        settings.up_frame = match after.up {
            UpChoice::Gravity => UpFrame::Gravity,
            UpChoice::Surface => UpFrame::Surface,
            // Fixed at the up the character has now.
            UpChoice::Fixed => match settings.up_frame {
                UpFrame::Fixed(v) => UpFrame::Fixed(v),
                _ => UpFrame::Fixed(
                    sim.character(e)
                        .map_or(spherewalk::Vec3::y(), |c| c.pose.up().into_inner()),
                ),
            },
        };
        sim.set_motor_settings(e, settings)
            .map_err(|e| e.to_string())?;
    }
    if let Ok(mut input) = sim.ecs.get::<&mut PlayerInput>(e) {
        input.turn_rate = after.turn_rate_deg.to_radians();
        input.jump_speed = after.jump_speed;
        input.speed = after.speed;
    }
    Ok(())
}

/// A line about the controlled character: name, stack, ground state and speed.
fn status_line(play: &Play) -> String {
    let Some(e) = play.controlled else {
        return "nobody to control".to_owned();
    };
    let world = &play.scene.sim.ecs;
    let name = world
        .get::<&Name>(e)
        .map_or("?".to_owned(), |n| n.0.clone());
    let state = world.get::<&Walker>(e).map(|w| w.state).unwrap_or_default();
    let ground = match state.ground {
        GroundState::Grounded => "grounded",
        GroundState::SteepGround => "on steep ground",
        GroundState::Touching => "touching",
        GroundState::Airborne => "airborne",
    };
    let slope = state.ground_hit.map_or(String::new(), |g| {
        format!(", slope {:.0}°", g.slope_angle.to_degrees())
    });
    format!("{name}: {ground}{slope}, {:.1} m/s", state.velocity.norm())
}

/// Draws the panel for `play` and applies the character settings changed in it. `fps` is
/// shown when known.
pub fn show(
    ctx: &egui::Context,
    state: &mut PanelState,
    play: &mut Play,
    fps: Option<f32>,
) -> Option<PanelAction> {
    let mut action = None;
    egui::Window::new("spherewalk")
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .default_width(290.0)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(&play.scene.description).italics());
            ui.horizontal(|ui| {
                let current = SHIPPED_SCENES
                    .iter()
                    .position(|n| *n == play.scene.name)
                    .unwrap_or(usize::MAX);
                egui::ComboBox::from_id_salt("scene")
                    .selected_text(&play.scene.name)
                    .show_ui(ui, |ui| {
                        for (i, name) in SHIPPED_SCENES.iter().enumerate() {
                            if ui
                                .selectable_label(i == current, format!("{} {name}", i + 1))
                                .clicked()
                            {
                                action = Some(PanelAction::LoadScene(i));
                            }
                        }
                    });
                if ui.button("Restart (R)").clicked() {
                    action = Some(PanelAction::Restart);
                }
                if ui.button("Next (Tab)").clicked() {
                    play.switch_character();
                }
            });
            ui.label(status_line(play));
            ui.separator();
            if let Some(before) = read(play) {
                egui::CollapsingHeader::new("Character")
                    .default_open(false)
                    .show(ui, |ui| {
                        let mut after = before;
                        let min_height = 2.0 * after.radius;
                        ui.add(egui::Slider::new(&mut after.spheres, 1..=8).text("spheres"));
                        ui.add(
                            egui::Slider::new(&mut after.radius, 0.1..=1.0)
                                .text("radius (m)")
                                .fixed_decimals(2),
                        );
                        ui.add(
                            egui::Slider::new(&mut after.height, min_height..=4.0)
                                .text("height (m)")
                                .fixed_decimals(2),
                        );
                        ui.add(
                            egui::Slider::new(&mut after.slope_limit_deg, 0.0..=89.0)
                                .text("slope limit (°)")
                                .fixed_decimals(0),
                        );
                        ui.add(
                            egui::Slider::new(&mut after.stair_height, 0.0..=1.0)
                                .text("stair height (m)")
                                .fixed_decimals(2),
                        );
                        ui.horizontal(|ui| {
                            ui.label("up");
                            ui.radio_value(&mut after.up, UpChoice::Gravity, "gravity");
                            ui.radio_value(&mut after.up, UpChoice::Surface, "surface");
                            ui.radio_value(&mut after.up, UpChoice::Fixed, "fixed");
                        });
                        ui.add(
                            egui::Slider::new(&mut after.turn_rate_deg, 0.0..=1440.0)
                                .text("turn rate (°/s)")
                                .fixed_decimals(0),
                        );
                        ui.add(
                            egui::Slider::new(&mut after.jump_speed, 0.0..=20.0)
                                .text("jump speed (m/s)")
                                .fixed_decimals(1),
                        );
                        ui.add(
                            egui::Slider::new(&mut after.speed, 0.0..=15.0)
                                .text("walk speed (m/s)")
                                .fixed_decimals(1),
                        );
                        if after != before {
                            state.refused = apply(play, &before, &after).err();
                        }
                        if let Some(why) = &state.refused {
                            ui.colored_label(egui::Color32::from_rgb(255, 170, 90), why);
                        }
                    });
            }
            egui::CollapsingHeader::new("Timings")
                .default_open(true)
                .show(ui, |ui| {
                    let sim = &play.scene.sim;
                    ui.label(format!(
                        "step {:.1} µs for {} characters",
                        play.step_us,
                        play.characters().len()
                    ));
                    ui.label(format!(
                        "{}t {:.1} s, step {}",
                        fps.map_or(String::new(), |f| format!("{f:.0} fps, ")),
                        sim.time(),
                        sim.steps()
                    ));
                });
            egui::CollapsingHeader::new("Debug layers")
                .default_open(false)
                .show(ui, |ui| {
                    let layers = &mut play.debug;
                    ui.checkbox(&mut layers.on, "draw debug (F1)");
                    ui.add_enabled_ui(layers.on, |ui| {
                        ui.checkbox(&mut layers.spheres, "spheres");
                        ui.checkbox(&mut layers.ground, "ground normal");
                        ui.checkbox(&mut layers.contacts, "contacts");
                        ui.checkbox(&mut layers.velocity, "velocity");
                        ui.checkbox(&mut layers.up, "up");
                    });
                });
            egui::CollapsingHeader::new("Keys")
                .default_open(false)
                .show(ui, |ui| {
                    ui.label(
                        "WASD walk · drag to look · wheel zoom · Space jump · Shift dash · C crouch · \
                         Tab next character · F1 debug · 1-8 scenes · R restart · Esc quit · \
                         walk into a ladder or vine wall to climb (W up, S down, Space lets go)",
                    );
                });
        });
    action
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panel_edits_reach_the_controlled_character_and_refusals_are_reported() {
        let mut play = Play::shipped("playground");
        let before = read(&play).expect("a controlled character");
        assert_eq!(before.spheres, 3);
        // Five spheres of 0.25 m in a 2.0 m stack, a 30 degree limit, surface mode, 7 m/s jumps.
        let after = Tuning {
            spheres: 5,
            radius: 0.25,
            height: 2.0,
            slope_limit_deg: 30.0,
            up: UpChoice::Surface,
            jump_speed: 7.0,
            ..before
        };
        apply(&mut play, &before, &after).expect("fits in the open");
        let now = read(&play).expect("still controlled");
        assert_eq!(now.spheres, 5);
        assert!((now.height - 2.0).abs() < 1e-5 && (now.radius - 0.25).abs() < 1e-6);
        assert!((now.slope_limit_deg - 30.0).abs() < 1e-3);
        assert_eq!(now.up, UpChoice::Surface);
        assert_eq!(now.jump_speed, 7.0);
        // A stair height as tall as the stack is out of scale: refused with the reason, and
        // nothing changes.
        let bad = Tuning {
            stair_height: 2.5,
            ..now
        };
        let why = apply(&mut play, &now, &bad).expect_err("refused");
        assert!(why.contains("stair_height"), "{why}");
        let kept = read(&play).expect("still controlled");
        assert_eq!(kept.stair_height, now.stair_height);
    }
}
