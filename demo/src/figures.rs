//! How characters are drawn: their sphere stacks coloured by who they are and how they stand,
//! a facing marker on the head, a grounding shadow under each, the controlled one seen
//! through whatever hides it, and the debug lines.

use spherewalk::components::Walker;
use spherewalk::hecs::Entity;
use spherewalk::world::WorldQueries;
use spherewalk::{GroundState, MotorState, Point3, Pose, Real, Sim, UnitVec3, Vec3, na};

use crate::render::lines::{DebugLayers, Lines};
use crate::render::{Instance, View};

/// The controlled character's colour (linear RGB): an orange nothing else in the demo uses.
pub const PLAYER_COLOUR: [f32; 3] = [1.0, 0.36, 0.03];

/// Other characters' colours (linear RGB): blues, greens, purples and greys, never orange.
const PALETTE: [[f32; 3]; 7] = [
    [0.10, 0.28, 0.90],
    [0.08, 0.62, 0.72],
    [0.48, 0.20, 0.80],
    [0.80, 0.14, 0.52],
    [0.18, 0.62, 0.18],
    [0.42, 0.78, 0.10],
    [0.72, 0.72, 0.78],
];

/// Colour a stack on ground too steep to stand on is pulled toward (linear RGB): yellow.
const STEEP_TINT: [f32; 3] = [1.0, 0.85, 0.05];
/// Colour an airborne stack is pulled toward (linear RGB): white, so it reads as lifted.
const AIRBORNE_TINT: [f32; 3] = [1.0, 1.0, 1.0];
/// How far toward its tint a steep or airborne stack is pulled (0..1).
const TINT: f32 = 0.45;

/// Spheres further from the camera than this (m) use the coarse mesh.
const FINE_SPHERE_DISTANCE: f32 = 15.0;

/// Above this many characters, debug drawing shows the controlled one only.
const DEBUG_ALL_LIMIT: usize = 24;

/// Farthest ground (m, along -up from the feet) an airborne character's shadow is cast on.
const SHADOW_REACH: Real = 12.0;
/// Darkness of a shadow at the feet (alpha), fading to 0 at [`SHADOW_REACH`].
const SHADOW_ALPHA: f32 = 0.7;
/// Lift of a shadow off the ground (m), so it is not lost in the ground's own depth.
const SHADOW_LIFT: Real = 0.02;
/// Shadows are drawn for at most this many characters (the nearest first are not sorted:
/// a crowd's first ones), to keep the per-frame ray casts of big crowds bounded.
const MAX_SHADOWS: usize = 256;

/// Everything drawn for the characters in one frame.
#[derive(Default)]
pub struct Figures {
    /// Spheres near the camera.
    pub spheres: Vec<Instance>,
    /// Spheres far from the camera.
    pub far_spheres: Vec<Instance>,
    /// Grounding shadow discs.
    pub shadows: Vec<Instance>,
    /// The controlled character's spheres, for the see-through pass.
    pub xray: Vec<Instance>,
    /// Debug lines.
    pub lines: Lines,
}

/// How a character stands, for its colour.
fn stance_tint(rgb: [f32; 3], ground: GroundState) -> [f32; 3] {
    let tint = match ground {
        GroundState::Grounded => return rgb,
        GroundState::SteepGround => STEEP_TINT,
        GroundState::Airborne | GroundState::Touching => AIRBORNE_TINT,
    };
    [0, 1, 2].map(|i| rgb[i] + (tint[i] - rgb[i]) * TINT)
}

/// The shadow under a character at `pose`: on its ground when it stands, else on whatever a
/// ray down its -up meets within [`SHADOW_REACH`], darker the nearer. `None` with nothing
/// under it.
fn shadow(sim: &Sim, pose: &Pose, state: &MotorState, radius: Real) -> Option<Instance> {
    let (point, normal, height) = match state.ground_hit {
        Some(hit)
            if matches!(
                state.ground,
                GroundState::Grounded | GroundState::SteepGround
            ) =>
        {
            (hit.point, hit.surface_normal, 0.0)
        }
        _ => {
            let filter = crate::scenery::scenery_filter();
            let down = -pose.up();
            let hit = sim
                .collision
                .cast_ray(&pose.position, &down, SHADOW_REACH, &filter)?;
            (hit.point, hit.normal, hit.distance)
        }
    };
    let fade = (1.0 - height / SHADOW_REACH).clamp(0.0, 1.0);
    // Wider and fainter the higher the character is.
    let size = radius * (2.4 + 1.2 * height / SHADOW_REACH);
    let tilt = spherewalk::math::rotation_between(&Vec3::y_axis(), &normal);
    let centre = point + normal.into_inner() * SHADOW_LIFT;
    let m = na::Matrix4::new_translation(&centre.coords)
        * tilt.to_homogeneous()
        * na::Matrix4::new_nonuniform_scaling(&Vec3::new(size, 1.0, size));
    Some(Instance::new(&m, [0.0, 0.0, 0.0, SHADOW_ALPHA * fade]))
}

/// Draws every character of `all` (in spawn order), `controlled` in the player's colour and
/// also see-through; the `debug` layers that are on.
pub fn draw(
    sim: &Sim,
    all: &[Entity],
    controlled: Option<Entity>,
    view: &View,
    debug: &DebugLayers,
) -> Figures {
    let mut out = Figures::default();
    let debug_all = all.len() <= DEBUG_ALL_LIMIT;
    for (n, &e) in all.iter().enumerate() {
        let Some(pose) = sim.render_pose(e) else {
            continue;
        };
        let Ok(walker) = sim.ecs.get::<&Walker>(e) else {
            continue;
        };
        let state = walker.state;
        let is_player = Some(e) == controlled;
        let base = if is_player {
            PLAYER_COLOUR
        } else {
            PALETTE[n % PALETTE.len()]
        };
        let rgb = stance_tint(base, state.ground);
        let stack = walker.motor.stack().spheres();
        for (i, s) in stack.iter().enumerate() {
            // Alternate shades so each sphere of the stack is visible.
            let k = if i % 2 == 0 { 1.0 } else { 0.72 };
            let c = pose.centre_at(s.offset_local);
            let instance =
                Instance::sphere(&c, s.radius, [rgb[0] * k, rgb[1] * k, rgb[2] * k, 0.0]);
            if (c - view.eye).norm() < FINE_SPHERE_DISTANCE {
                out.spheres.push(instance);
            } else {
                out.far_spheres.push(instance);
            }
            if is_player {
                out.xray.push(Instance::sphere(
                    &c,
                    s.radius,
                    [base[0], base[1], base[2], 0.0],
                ));
            }
        }
        if let Some(head) = stack.last() {
            out.spheres
                .push(facing_marker(&pose, head.offset_local, head.radius));
        }
        if out.shadows.len() < MAX_SHADOWS
            && let Some(first) = stack.first()
            && let Some(s) = shadow(sim, &pose, &state, first.radius)
        {
            out.shadows.push(s);
        }
        if debug.on && (debug_all || is_player) {
            out.lines.character(&pose, &walker, debug);
        }
    }
    out
}

/// A small dark sphere on the front of the head sphere (centre `offset` along up, `radius`):
/// which way the character faces, even for a stack of equal spheres.
fn facing_marker(pose: &Pose, offset: Real, radius: Real) -> Instance {
    let head: Point3 = pose.centre_at(offset);
    let forward: UnitVec3 = pose.forward();
    let centre = head + forward.into_inner() * (radius * 0.8);
    Instance::sphere(&centre, radius * 0.35, [0.05, 0.05, 0.06, 0.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standing_character_casts_a_dark_shadow_and_a_falling_one_a_fainter_one_on_its_ground() {
        let path = crate::scenes::shipped_scene("playground");
        let mut scene = crate::scenes::load_scene(&path).expect("playground loads");
        for _ in 0..30 {
            scene.sim.step();
        }
        let mut drawn = 0;
        let entities: Vec<Entity> = scene
            .sim
            .ecs
            .query::<(Entity, &Walker)>()
            .iter()
            .map(|(e, _)| e)
            .collect();
        for e in entities {
            let (pose, state) = {
                let walker = scene.sim.ecs.get::<&Walker>(e).expect("a character");
                (walker.pose, walker.state)
            };
            let Some(s) = shadow(&scene.sim, &pose, &state, 0.3) else {
                continue;
            };
            drawn += 1;
            // On the ground under the feet (the disc's centre, lifted 2 cm): within 3 cm of
            // the feet along up for a standing character.
            let centre = Point3::new(s.model[3][0], s.model[3][1], s.model[3][2]);
            if state.ground == GroundState::Grounded {
                assert!(
                    (centre - pose.position).norm() < 0.35,
                    "{centre:?} {pose:?}"
                );
                approx::assert_abs_diff_eq!(s.colour[3], SHADOW_ALPHA, epsilon = 1e-6);
            }
        }
        assert!(drawn >= 3, "{drawn} shadows");
        // A character 6 m above a floor: half as dark, on the floor under it.
        let pose = Pose::new(Point3::new(0.0, 6.0, 3.0));
        let state = MotorState::default();
        let s = shadow(&scene.sim, &pose, &state, 0.3).expect("the floor is under it");
        approx::assert_abs_diff_eq!(s.model[3][1], SHADOW_LIFT, epsilon = 1e-4);
        approx::assert_abs_diff_eq!(s.colour[3], SHADOW_ALPHA * 0.5, epsilon = 1e-3);
    }

    #[test]
    fn steep_and_airborne_stacks_are_tinted_and_grounded_ones_keep_their_colour() {
        let c = [0.1, 0.2, 0.9];
        assert_eq!(stance_tint(c, GroundState::Grounded), c);
        let steep = stance_tint(c, GroundState::SteepGround);
        assert!(steep[0] > 0.5 && steep[1] > 0.45, "{steep:?}");
        let air = stance_tint(c, GroundState::Airborne);
        assert!(air.iter().all(|v| *v > 0.5), "{air:?}");
    }
}
