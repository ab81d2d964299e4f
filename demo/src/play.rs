//! The playing state shared by the window and `--headless`: the scene, the controlled
//! character, the camera, and what to draw each frame.

use std::path::PathBuf;

use spherewalk::Real;
use spherewalk::components::Walker;
use spherewalk::hecs::Entity;
use spherewalk::input::PlayerInput;
use spherewalk::scene::Scene;

use crate::camera::OrbitCamera;
use crate::control::{self, Taken};
use crate::input::Controls;
use crate::render::SceneryShape;
use crate::render::lines::DebugLayers;
use crate::render::{Frame, View};
use crate::scenery::Scenery;

/// A scene being played.
pub struct Play {
    /// The scene and its simulation.
    pub scene: Scene,
    /// Where it was loaded from.
    pub path: PathBuf,
    /// The orbit camera.
    pub camera: OrbitCamera,
    /// The character the keys drive.
    pub controlled: Option<Entity>,
    taken: Option<(Entity, Taken)>,
    /// Which debug drawings are on.
    pub debug: DebugLayers,
    /// What is drawn besides the characters.
    scenery: Vec<Scenery>,
    /// Wall time of one fixed step (µs), smoothed over the last few frames.
    pub step_us: f32,
}

impl Play {
    /// Starts playing `scene`, controlling its first player character (or its first
    /// character when none has player input).
    pub fn new(scene: Scene, path: PathBuf) -> Self {
        let count = scene.sim.ecs.query::<&Walker>().iter().count();
        // The scene's own start, else crowds framed from further away and higher up.
        let camera = match scene.camera {
            Some(hint) => OrbitCamera::looking(hint.distance, hint.pitch, hint.yaw),
            None if count > 50 => OrbitCamera::new(16.0, 0.6),
            None => OrbitCamera::new(7.0, 0.38),
        };
        let scenery = crate::scenery::list(&scene.sim);
        let mut play = Self {
            scenery,
            scene,
            path,
            camera,
            controlled: None,
            taken: None,
            debug: DebugLayers::default(),
            step_us: 0.0,
        };
        let characters = play.characters();
        let first_player = characters
            .iter()
            .copied()
            .find(|&e| play.scene.sim.ecs.get::<&PlayerInput>(e).is_ok());
        if let Some(e) = first_player.or_else(|| characters.first().copied()) {
            play.controlled = Some(e);
            play.taken = control::take(&mut play.scene.sim.ecs, e);
        }
        play.follow(0.0);
        play
    }

    /// Plays the shipped scene `name` (tests).
    #[cfg(test)]
    pub fn shipped(name: &str) -> Self {
        let path = crate::scenes::shipped_scene(name);
        let scene = crate::scenes::load_scene(&path).expect("shipped scene loads");
        Self::new(scene, path)
    }

    /// The scenery's shapes and colours, for [`crate::render::Renderer::set_scenery`].
    pub fn scenery_shapes(&self) -> Vec<SceneryShape<'_>> {
        self.scenery
            .iter()
            .map(|s| SceneryShape {
                shape: s.shape.as_ref(),
                colour: s.colour,
                checker: s.checker,
            })
            .collect()
    }

    /// Every character entity, in spawn order.
    pub fn characters(&self) -> Vec<Entity> {
        let mut v: Vec<Entity> = self
            .scene
            .sim
            .ecs
            .query::<(Entity, &Walker)>()
            .iter()
            .map(|(e, _)| e)
            .collect();
        v.sort_by_key(|e| e.id());
        v
    }

    /// Hands control to the next character (Tab).
    pub fn switch_character(&mut self) {
        let all = self.characters();
        if all.is_empty() {
            return;
        }
        let next = match self.controlled {
            Some(c) => {
                let i = all.iter().position(|&e| e == c).map_or(0, |i| i + 1);
                all[i % all.len()]
            }
            None => all[0],
        };
        if let Some(c) = self.controlled {
            control::release(&mut self.scene.sim.ecs, c, &mut self.taken);
        }
        self.controlled = Some(next);
        self.taken = control::take(&mut self.scene.sim.ecs, next).or(self.taken.take());
    }

    fn follow(&mut self, dt: Real) {
        let Some(e) = self.controlled else { return };
        let Some(pose) = self.scene.sim.render_pose(e) else {
            return;
        };
        let height = self
            .scene
            .sim
            .ecs
            .get::<&Walker>(e)
            .map(|w| w.motor.stack().height() * 0.85)
            .unwrap_or(1.5);
        self.camera.follow(&pose, height, dt);
        self.camera.collide(&self.scene.sim.collision, dt);
    }

    /// One frame of `dt` seconds: mouse to camera, keys to the controlled character's
    /// [`PlayerInput`], the sim advanced, the camera moved after the character. Returns
    /// the number of fixed steps run.
    pub fn tick(&mut self, dt: Real, controls: &mut Controls) -> u32 {
        let (dx, dy) = controls.take_look();
        self.camera.orbit(dx, dy);
        self.camera.zoom(controls.take_zoom());
        if let Some(e) = self.controlled
            && let Ok(mut input) = self.scene.sim.ecs.get::<&mut PlayerInput>(e)
        {
            input.axes = controls.axes();
            if std::mem::take(&mut controls.jump_pressed) {
                input.press_jump();
            }
            if std::mem::take(&mut controls.dash_pressed) {
                input.press_dash();
            }
            input.jump = controls.jump();
            input.crouch = controls.crouch();
            input.camera = self.camera.orientation();
        }
        let start = web_time::Instant::now();
        let steps = self.scene.sim.advance(dt);
        if steps > 0 {
            let us = start.elapsed().as_secs_f32() * 1e6 / steps as f32;
            self.step_us += (us - self.step_us) * 0.1;
        }
        self.follow(dt);
        steps
    }

    /// The controlled character's position (metres, world frame) and whether it stands on
    /// ground (the browser page shows these to its tests).
    pub fn probe(&self) -> Option<(spherewalk::Point3, bool)> {
        let e = self.controlled?;
        let ecs = &self.scene.sim.ecs;
        let walker = ecs.get::<&Walker>(e).ok()?;
        let (position, state) = (walker.pose.position, walker.state);
        Some((position, state.ground == spherewalk::GroundState::Grounded))
    }

    /// The camera view and everything to draw for a target of `size` pixels.
    pub fn frame(&self, size: (u32, u32)) -> (View, Frame) {
        let view = self.camera.view(size.0 as f32 / size.1.max(1) as f32);
        let sim = &self.scene.sim;
        let all = self.characters();
        let figures = crate::figures::draw(sim, &all, self.controlled, &view, &self.debug);
        (
            view,
            Frame {
                scenery: crate::scenery::poses(sim, &self.scenery),
                spheres: figures.spheres,
                far_spheres: figures.far_spheres,
                shadows: figures.shadows,
                xray: figures.xray,
                lines: figures.lines.vertices,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::{MAX_PITCH, MIN_PITCH};
    use spherewalk::Vec3;
    use spherewalk::components::Name;
    use spherewalk::input::Wander;
    use spherewalk::world::WorldQueries;
    use winit::event::ElementState;
    use winit::keyboard::KeyCode;

    fn play(name: &str) -> Play {
        Play::shipped(name)
    }

    fn position(play: &Play) -> spherewalk::Point3 {
        play.probe().expect("a controlled character with a pose").0
    }

    /// Nearest scenery to `eye` (m, signed: negative inside a solid or behind a one-sided
    /// face), ignoring the characters' bodies; `None` when nothing is within 1 m.
    fn clearance(play: &Play, eye: &spherewalk::Point3) -> Option<Real> {
        let filter = crate::scenery::scenery_filter();
        let world = &play.scene.sim.collision;
        world
            .closest_point(eye, 1.0, &filter)
            .map(|(_, p)| p.distance)
    }

    #[test]
    fn orbiting_never_puts_the_eye_inside_the_scenery() {
        for name in crate::scenes::SHIPPED_SCENES {
            let mut play = play(name);
            let mut controls = Controls::default();
            // Let everyone land and move a little first.
            for _ in 0..30 {
                play.tick(1.0 / 60.0, &mut controls);
            }
            let mut nearest = Real::INFINITY;
            // At the default distance and zoomed right out (the cast must stop at walls).
            for distance in [play.camera.distance, 60.0] {
                play.camera.distance = distance;
                // Every 15 degrees of yaw, every 0.1 rad of pitch from the lowest to the
                // highest (the pixel steps of `orbit`: 0.005 rad a pixel).
                for _ in 0..24 {
                    play.camera.orbit(std::f32::consts::TAU / 24.0 / 0.005, 0.0);
                    play.camera.orbit(0.0, -1000.0);
                    for _ in 0..20 {
                        play.camera.orbit(0.0, 20.0);
                        // A long dt lets a pulled-in eye ease all the way back out.
                        play.follow(10.0);
                        let eye = play.camera.eye();
                        if let Some(d) = clearance(&play, &eye) {
                            nearest = nearest.min(d);
                            // The near plane's corners reach 0.08 m from the eye.
                            assert!(
                                d > 0.08,
                                "{name}: eye {eye:?} is {d} m from the scenery (pitch {}, \
                                 distance {distance})",
                                play.camera.pitch
                            );
                        }
                    }
                }
            }
            assert!(
                nearest.is_finite() || name == "galaxy",
                "{name}: never near scenery"
            );
        }
    }

    #[test]
    fn a_scene_can_name_its_starting_camera() {
        let play = play("planet");
        let hint = play.scene.camera.expect("planet.ron names a camera");
        // The scene's pitch, within the camera's limits.
        assert_eq!(play.camera.pitch, hint.pitch.clamp(MIN_PITCH, MAX_PITCH));
        assert_eq!(play.camera.distance, hint.distance);
    }

    #[test]
    fn w_walks_away_from_the_camera() {
        let mut play = play("playground");
        let mut controls = Controls::default();
        // Turn the camera a quarter turn first: W must follow the camera, not the world.
        controls.button(winit::event::MouseButton::Left, ElementState::Pressed);
        controls.cursor(0.0, 0.0);
        controls.cursor(314.0, 0.0);
        play.tick(1.0 / 60.0, &mut controls);
        let forward = play.camera.orientation() * -Vec3::z();
        let start = position(&play);
        controls.key(KeyCode::KeyW, ElementState::Pressed, false);
        for _ in 0..60 {
            play.tick(1.0 / 60.0, &mut controls);
        }
        let moved = position(&play) - start;
        let along = moved.dot(&forward);
        assert!(along > 2.0, "moved {moved:?}, forward {forward:?}");
        assert!(along > 0.8 * moved.norm());
    }

    #[test]
    fn tab_cycles_and_gives_ai_input_back() {
        let mut play = play("planet");
        let wanderers = |p: &Play| p.scene.sim.ecs.query::<&Wander>().iter().count();
        let players = |p: &Play| p.scene.sim.ecs.query::<&PlayerInput>().iter().count();
        let before = (wanderers(&play), players(&play));
        let first = play.controlled;
        let n = play.characters().len();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..n {
            play.switch_character();
            seen.insert(play.controlled);
            // The controlled character always has player input; at most one was taken over.
            let e = play.controlled.expect("controlled");
            assert!(play.scene.sim.ecs.get::<&PlayerInput>(e).is_ok());
            assert!(players(&play) <= before.1 + 1);
            let mut controls = Controls::default();
            play.tick(1.0 / 60.0, &mut controls);
        }
        assert_eq!(seen.len(), n);
        assert_eq!(play.controlled, first);
        assert_eq!((wanderers(&play), players(&play)), before);
    }

    /// Issue 8, defect 9: in scenes/walls.ron, hold D 2 s (the hero walks to the east wall
    /// and up it), release, then hold D 2.5 s (up to the ceiling beside the beam). A
    /// character in Surface mode never hangs: it re-attaches to a face (grounded) or falls
    /// within 0.5 s. At 20 and 12 frames per second (the camera turns in bigger steps) it used
    /// to stay wedged at speed 0 for good in the corner of wall, ceiling and beam.
    #[test]
    fn surface_mode_never_hangs_in_the_wall_ceiling_beam_corner() {
        for fps in [60.0, 30.0, 20.0, 12.0] {
            let mut play = play("walls");
            let e = play.controlled.expect("controlled");
            let name = play.scene.sim.ecs.get::<&Name>(e).map(|n| n.0.clone());
            assert_eq!(name.as_deref(), Ok("hero"));
            let mut controls = Controls::default();
            // Seconds spent not grounded and slower than 0.5 m/s (neither attached nor
            // falling), in a row, and the longest such stretch.
            let (mut hanging, mut longest): (Real, Real) = (0.0, 0.0);
            let mut hold = |play: &mut Play, controls: &mut Controls, secs: Real| {
                for _ in 0..(secs * fps).round() as u32 {
                    let steps = play.tick(1.0 / fps, controls);
                    let state = play.scene.sim.ecs.get::<&Walker>(e).expect("hero").state;
                    let hangs = state.ground != spherewalk::GroundState::Grounded
                        && state.velocity.norm() < 0.5;
                    hanging = if hangs {
                        hanging + steps as Real * play.scene.sim.dt()
                    } else {
                        0.0
                    };
                    longest = longest.max(hanging);
                }
            };
            controls.key(KeyCode::KeyD, ElementState::Pressed, false);
            hold(&mut play, &mut controls, 2.0);
            controls.key(KeyCode::KeyD, ElementState::Released, false);
            hold(&mut play, &mut controls, 0.5);
            controls.key(KeyCode::KeyD, ElementState::Pressed, false);
            hold(&mut play, &mut controls, 2.5);
            controls.key(KeyCode::KeyD, ElementState::Released, false);
            hold(&mut play, &mut controls, 20.0);
            // 0.5 s is the bound; a frame is at most 5 fixed steps of 1/60 s here.
            assert!(longest <= 0.5, "{fps} fps: hung {longest} s");
            let state = play.scene.sim.ecs.get::<&Walker>(e).expect("hero").state;
            assert_eq!(state.ground, spherewalk::GroundState::Grounded, "{fps} fps");
        }
    }
}
