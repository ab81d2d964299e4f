//! The HUD's text: the scene, the controlled character's state, the clock and the keys.

use spherewalk::Vec3;
use spherewalk::components::{Character, LastStep, Name, Stance};
use spherewalk::{MotorState, Pose};

use spherewalk::hecs::Entity;
use spherewalk::scene::Scene;

use crate::hud::Hud;

/// What the HUD reports on besides the scene itself.
pub struct Status {
    /// The character the keys drive.
    pub controlled: Option<Entity>,
    /// How many characters there are.
    pub characters: usize,
    /// Debug drawing on.
    pub debug: bool,
    /// Frames per second, when known (none: fixed time step, headless).
    pub fps: Option<f32>,
}

/// The HUD of `scene` for a target of `size` pixels: the scene, the controlled character's
/// state and the clock at the top, the keys at the bottom.
pub fn hud(scene: &Scene, status: &Status, size: (u32, u32)) -> Hud {
    // Double size where a whole line of 90 characters still fits across.
    let scale = if size.1 >= 600 && size.0 >= 1120 {
        2.0
    } else {
        1.0
    };
    let mut hud = Hud::new(size, scale);
    let sim = &scene.sim;
    let mut lines = Vec::new();
    let mut title = format!("SPHEREWALK - {}: {}", scene.name, scene.description);
    let fits = hud.columns_fitting(size.0 as f32 - 16.0).clamp(12, 90);
    if title.chars().count() > fits {
        title = title.chars().take(fits - 3).collect::<String>() + "...";
    }
    lines.push(title);
    if let Some(e) = status.controlled {
        let name = sim
            .world
            .get::<&Name>(e)
            .map(|n| n.0.clone())
            .unwrap_or_else(|_| "?".to_owned());
        let spheres = sim
            .world
            .get::<&Character>(e)
            .map(|c| c.motor.stack().len())
            .unwrap_or(0);
        let crouching = sim
            .world
            .get::<&Stance>(e)
            .map(|s| s.crouching)
            .unwrap_or(false);
        let (grounded, slope) = sim
            .world
            .get::<&LastStep>(e)
            .map(|l| {
                (
                    l.0.is_grounded(),
                    l.0.ground_hit.as_ref().map(|g| g.slope_angle.to_degrees()),
                )
            })
            .unwrap_or((false, None));
        let speed = sim
            .world
            .get::<&MotorState>(e)
            .map(|m| m.velocity.norm())
            .unwrap_or(0.0);
        let up = sim
            .world
            .get::<&Pose>(e)
            .map(|p| p.up().into_inner())
            .unwrap_or_else(|_| Vec3::y());
        lines.push(format!(
            "{name} ({spheres} SPHERES{})  {}  SLOPE {}  SPEED {speed:.2} M/S",
            if crouching { ", CROUCHING" } else { "" },
            if grounded { "GROUNDED" } else { "AIRBORNE" },
            slope.map_or("-".to_owned(), |s| format!("{s:.1} DEG")),
        ));
        lines.push(format!("UP ({:+.2} {:+.2} {:+.2})", up.x, up.y, up.z));
    }
    lines.push(format!(
        "{}  T {:.2} S  STEP {}  CHARACTERS {}{}",
        status
            .fps
            .map_or("FIXED DT 1/60".to_owned(), |f| format!("FPS {f:.0}")),
        sim.time(),
        sim.steps(),
        status.characters,
        if status.debug { "  DEBUG" } else { "" },
    ));
    // Every line is cut to the window's width rather than run off its edge.
    let cut = |l: &String| l.chars().take(fits).collect::<String>();
    let lines: Vec<String> = lines.iter().map(cut).collect();
    hud.panel(8.0, 8.0, &lines);
    let help =
        "WASD MOVE  DRAG LOOK  WHEEL ZOOM  SPACE JUMP  C CROUCH  TAB SWITCH  F1 DEBUG  1-6 SCENES";
    let y = size.1 as f32 - 8.0 - 14.0 * scale;
    hud.panel(8.0, y, &[cut(&help.to_owned())]);
    hud
}
