//! The shipped scenes and scene loading: from `scenes/` on disk natively (so an edited scene
//! reloads with R), from the copies built into the binary in a browser (no file system there).

use std::path::{Path, PathBuf};

use crate::error::DemoError;

/// Each shipped scene's name with the text of `scenes/NAME.ron`, read at build time.
macro_rules! shipped {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../../scenes/", $name, ".ron")))),*]
    };
}

/// The scenes shipped in `scenes/`, in the order of the number keys, with their text.
const SHIPPED: [(&str, &str); 8] = shipped!(
    "galaxy",
    "planet",
    "rocky",
    "walls",
    "playground",
    "platforms",
    "crowd",
    "traverse",
);

/// The names of the scenes shipped in `scenes/`, in the order of the number keys.
pub const SHIPPED_SCENES: [&str; SHIPPED.len()] = {
    let mut names = [""; SHIPPED.len()];
    let mut i = 0;
    while i < SHIPPED.len() {
        names[i] = SHIPPED[i].0;
        i += 1;
    }
    names
};

/// Path of a shipped scene: `scenes/NAME.ron` under the working directory when it exists (and
/// always in a browser), otherwise under the repository this binary was built from.
pub fn shipped_scene(name: &str) -> PathBuf {
    let local = Path::new("scenes").join(format!("{name}.ron"));
    // In a browser the name is all that is looked up (in the built-in copies).
    if cfg!(target_arch = "wasm32") || local.exists() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scenes")
        .join(format!("{name}.ron"))
}

/// Loads a scene file, naming the path in the error. In a browser the file is the copy of a
/// shipped scene built into the binary (see [`load_built_in`]).
pub fn load_scene(path: &Path) -> Result<spherewalk::scene::Scene, DemoError> {
    #[cfg(target_arch = "wasm32")]
    let loaded = load_built_in(path);
    #[cfg(not(target_arch = "wasm32"))]
    let loaded = spherewalk::scene::load(path);
    loaded.map_err(|source| DemoError::Scene {
        path: path.to_owned(),
        source: Box::new(source),
    })
}

/// Builds the shipped scene whose file `path` names (by its stem: `scenes/planet.ron` is
/// `planet`) from the text built into the binary. The shipped scenes read no OBJ files.
///
/// # Errors
/// [`SceneError::Io`](spherewalk::scene::SceneError::Io) for a name that is not shipped, else
/// as [`spherewalk::scene::SceneFile::build`].
// Natively only the tests call it (the native demo reads the files, so edits show on reload).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn load_built_in(
    path: &Path,
) -> Result<spherewalk::scene::Scene, spherewalk::scene::SceneError> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let Some((_, text)) = SHIPPED.iter().find(|(name, _)| *name == stem) else {
        return Err(spherewalk::scene::SceneError::Io {
            path: path.to_owned(),
            message: format!(
                "not one of the scenes built into this binary ({})",
                SHIPPED_SCENES.join(", ")
            ),
        });
    };
    let file = spherewalk::scene::SceneFile::parse(text, path)?;
    file.build(Path::new("scenes"), path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spherewalk::components::Walker;

    /// The browser's scenes are the files: each built-in copy builds the same scene as its file
    /// on disk (same characters, same colliders, the same poses after a second of play).
    #[test]
    fn built_in_scenes_match_their_files() {
        for name in SHIPPED_SCENES {
            let path = shipped_scene(name);
            let mut from_file = load_scene(&path).expect("the file loads");
            let mut built_in = load_built_in(&path).expect("the built-in copy builds");
            assert_eq!(from_file.name, built_in.name);
            // Every character's position, bit for bit, in spawn order.
            let positions = |s: &spherewalk::scene::Scene| -> Vec<[u32; 3]> {
                let mut query = s.sim.ecs.query::<(spherewalk::hecs::Entity, &Walker)>();
                let mut all: Vec<_> = query.iter().map(|(e, w)| (e, w.pose.position)).collect();
                all.sort_by_key(|(e, _)| *e);
                all.iter()
                    .map(|(_, p)| p.coords.map(f32::to_bits).into())
                    .collect()
            };
            assert!(!positions(&from_file).is_empty(), "{name} has characters");
            assert_eq!(positions(&from_file), positions(&built_in), "{name}");
            from_file.sim.advance(1.0);
            built_in.sim.advance(1.0);
            assert_eq!(
                positions(&from_file),
                positions(&built_in),
                "{name}: the two copies played differently"
            );
        }
        let err = load_built_in(Path::new("scenes/nowhere.ron"))
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref()
                .is_some_and(|e| e.contains("nowhere.ron") && e.contains("galaxy")),
            "{err:?}"
        );
    }

    #[test]
    fn a_missing_scene_names_its_path_once() {
        let path = Path::new("scenes/no_such_scene.ron");
        let message = match load_scene(path) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("loaded a missing file"),
        };
        assert_eq!(message.matches("no_such_scene.ron").count(), 1, "{message}");
        assert!(message.starts_with("cannot load scene: "), "{message}");
    }
}
