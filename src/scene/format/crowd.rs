//! Crowd items: many wandering characters spread over a grid or a sphere.

use super::character::{SettingsDesc, StackDesc, UpDesc, default_turn_deg, speed};
use super::*;

/// Where a crowd stands, as written.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum Spread {
    /// Evenly over a sphere's surface (a Fibonacci lattice), up pointing outward.
    Sphere {
        /// Centre (m, world).
        centre: Xyz,
        /// Radius of the feet (m): the planet's radius plus a little.
        radius: Real,
    },
    /// A grid of rows along +X and +Z from `origin`, up +Y.
    Grid {
        /// The first character's feet (m, world).
        origin: Xyz,
        /// Distance between neighbours (m).
        spacing: Real,
        /// Characters per row.
        columns: u32,
    },
}

/// A crowd as written: `count` wanderers named `name0`, `name1` ..., cycling through `stacks`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Crowd")]
pub(crate) struct CrowdDescRon {
    name: String,
    count: u32,
    spread: Spread,
    stacks: Vec<StackDesc>,
    #[serde(default)]
    settings: SettingsDesc,
    #[serde(default)]
    up_frame: UpDesc,
    speed: Real,
    #[serde(default = "default_turn_deg")]
    max_turn_deg: Real,
    #[serde(default)]
    seed: u64,
    #[serde(default = "yes")]
    solid: bool,
    #[serde(default)]
    soft: bool,
}

/// A validated crowd of wanderers.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "CrowdDescRon")]
pub(crate) struct CrowdItem {
    /// Name prefix; character `i` is named `{name}{i}`.
    pub name: String,
    /// Number of characters.
    pub count: u32,
    /// Where they stand.
    pub spread: Spread,
    /// Shapes, cycled through.
    pub stacks: Vec<SphereStack>,
    /// Motor settings, validated, with the up frame.
    pub settings: MotorSettings,
    /// Walking speed (m/s).
    pub speed: Real,
    /// Largest turn rate (rad/s).
    pub max_turn_rate: Real,
    /// Seed; each character's wander sequence is derived from it and its index.
    pub seed: u64,
    /// Whether characters collide with each other.
    pub solid: bool,
    /// Whether they meet the other characters only in the separation pass
    /// ([`crate::CharacterDesc::soft`]).
    pub soft: bool,
}

impl TryFrom<CrowdDescRon> for CrowdItem {
    type Error = String;

    fn try_from(d: CrowdDescRon) -> Result<Self, String> {
        let err = |e: String| fail("crowd", &d.name, e);
        if !(1..=MAX_CROWD).contains(&d.count) {
            return Err(err(format!(
                "`count` = {} is outside 1..={MAX_CROWD}",
                d.count
            )));
        }
        match d.spread {
            Spread::Sphere { centre, radius } => {
                vec3("centre", centre).map_err(err)?;
                length("radius", radius).map_err(err)?;
            }
            Spread::Grid {
                origin,
                spacing,
                columns,
            } => {
                vec3("origin", origin).map_err(err)?;
                length("spacing", spacing).map_err(err)?;
                if columns == 0 {
                    return Err(err("`columns` must be at least 1".into()));
                }
            }
        }
        if d.stacks.is_empty() {
            return Err(err("`stacks` is empty".into()));
        }
        let mut stacks = Vec::with_capacity(d.stacks.len());
        for s in &d.stacks {
            stacks.push(s.stack().map_err(err)?);
        }
        Ok(Self {
            count: d.count,
            spread: d.spread,
            stacks,
            settings: d.settings.settings(d.up_frame.into()).map_err(err)?,
            speed: speed("speed", d.speed).map_err(err)?,
            max_turn_rate: speed("max_turn_deg", d.max_turn_deg)
                .map_err(err)?
                .to_radians(),
            seed: d.seed,
            solid: d.solid,
            soft: d.soft,
            name: d.name,
        })
    }
}
