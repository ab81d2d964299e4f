//! What the crowd benches share: `scenes/crowd.ron` with another number of wanderers on a
//! planet of another size.
//!
//! There is no public API to resize a parsed scene's planet, so the benches format the numbers
//! into a RON copy of crowd.ron and parse it with `SceneFile::parse`.

use spherewalk::Real;

/// The RON text of `scenes/crowd.ron` with `count` wanderers spread over a planet of `radius`
/// (m) with `rocks` rocks, soft wanderers with `soft` (`CharacterDesc::soft`: they meet each
/// other only in the separation pass); the gravity field reaches 2.5 radii like crowd.ron's,
/// and everything else (the three stacks, speed, turn rate, seeds, the one `hero`) is
/// crowd.ron's.
pub fn crowd_text(count: u32, radius: f64, rocks: u64, soft: bool) -> String {
    let reach = 2.5 * radius;
    // The planet's radius as a RON float (radius is within f32 range and positive).
    let r = radius as Real;
    format!(
        r#"Scene(
    name: "crowd_{count}",
    description: "crowd.ron with {count} wanderers on a planet of radius {r:.3} m",
    dt: 0.016666668,
    gravity: [
        Point(centre: (0.0, 0.0, 0.0), strength: 9.81, reach: {reach:.3}),
    ],
    colliders: [
        Planet(name: "planet", radius: {r:.3}, rocks: {rocks}, rock_size: 1.5, seed: 5),
    ],
    characters: [
        Character(
            name: "hero",
            stack: Capsule(height: 1.8, radius: 0.3, spheres: 3),
            crouched: Capsule(height: 1.0, radius: 0.3, spheres: 2),
            at: (0.0, {r:.3}, 0.0),
            input: Player(speed: 5.0, jump_speed: 5.0),
        ),
    ],
    crowds: [
        Crowd(
            name: "walker",
            count: {count},
            spread: Sphere(centre: (0.0, 0.0, 0.0), radius: {r:.3}),
            stacks: [
                Capsule(height: 1.0, radius: 0.4, spheres: 2),
                Capsule(height: 1.8, radius: 0.3, spheres: 3),
                Capsule(height: 2.0, radius: 0.25, spheres: 5),
            ],
            speed: 1.5,
            max_turn_deg: 90.0,
            seed: 1,
            soft: {soft},
        ),
    ],
)
"#
    )
}
