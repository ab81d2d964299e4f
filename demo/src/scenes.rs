//! The shipped scenes and scene loading.

use std::path::{Path, PathBuf};

use crate::error::DemoError;

/// The scenes shipped in `scenes/`, in the order of the number keys.
pub const SHIPPED_SCENES: [&str; 7] = [
    "galaxy",
    "planet",
    "rocky",
    "walls",
    "playground",
    "platforms",
    "crowd",
];

/// Path of a shipped scene: `scenes/NAME.ron` under the working directory when it exists,
/// otherwise under the repository this binary was built from.
pub fn shipped_scene(name: &str) -> PathBuf {
    let local = Path::new("scenes").join(format!("{name}.ron"));
    if local.exists() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scenes")
        .join(format!("{name}.ron"))
}

/// Loads a scene file, naming the path in the error.
pub fn load_scene(path: &Path) -> Result<spherewalk::scene::Scene, DemoError> {
    spherewalk::scene::load(path).map_err(|source| DemoError::Scene {
        path: path.to_owned(),
        source: Box::new(source),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
