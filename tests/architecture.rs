//! ARCHITECTURE.md is checked against the tree, so the map cannot go stale: every path it
//! names exists, its crate graph and crate table name every workspace member, and its outline
//! block is the step's outline as `Step::attempt` in `crates/spherewalk-core/src/step/mod.rs`
//! runs it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository root (this package's manifest folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text of `rel` (a path from the repository root).
fn read(rel: &str) -> String {
    let path = root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The map.
fn map() -> String {
    read("ARCHITECTURE.md")
}

/// The fenced blocks of `text` whose opening fence starts with "```" + `info`, in order.
fn blocks(text: &str, info: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match current.as_mut() {
            Some(block) if line.trim_start().starts_with("```") => {
                out.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None if line.trim_start().starts_with(&format!("```{info}")) => {
                current = Some(String::new());
            }
            None => {}
        }
    }
    out
}

/// The first fenced block of `text` whose fence starts with "```" + `info` (`what` names it
/// in a failure).
fn first_block(text: &str, info: &str, what: &str) -> String {
    blocks(text, info)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no {what}"))
}

/// `text` without its fenced blocks (a block's lines are code, not paths the map names).
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The spans of `text` between backticks.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Whether a backticked span is a path: file-name characters only, and a folder (a `/` in
/// it) or a file of a kind the tree holds.
fn is_path(span: &str) -> bool {
    const KINDS: [&str; 8] = [".rs", ".md", ".toml", ".py", ".sh", ".ron", ".obj", ".txt"];
    let plain = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c));
    plain && !span.is_empty() && (span.contains('/') || KINDS.iter().any(|k| span.ends_with(k)))
}

/// The local targets of the map's Markdown links (`[text](target)`), anchors dropped.
fn link_targets(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|t| t.split('#').next().unwrap_or(t))
        .filter(|t| !t.is_empty() && !t.contains("://"))
        .collect()
}

/// Every path the map names in its prose (backticked or linked), each found from the
/// repository root or from a folder the map names (a bare `gather.rs` in the table of
/// `step/`'s files is found in `crates/spherewalk-core/src/step/`, which the map names).
/// Returns the paths found nowhere.
fn missing_paths(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut named: Vec<&str> = backticked(&text)
        .into_iter()
        .filter(|s| is_path(s))
        .collect();
    named.extend(link_targets(&text));
    let root = root();
    let mut folders: BTreeSet<PathBuf> = BTreeSet::from([root.clone()]);
    let mut left: Vec<&str> = named.clone();
    // Folders found so far can place further bare names: repeat until nothing new is found.
    loop {
        let before = left.len();
        left.retain(|p| {
            let hit = folders.iter().map(|f| f.join(p)).find(|f| f.exists());
            if let Some(found) = &hit {
                let folder = if found.is_dir() {
                    found.clone()
                } else {
                    found
                        .parent()
                        .map_or_else(|| root.clone(), Path::to_path_buf)
                };
                folders.insert(folder);
            }
            hit.is_none()
        });
        if left.len() == before {
            break;
        }
    }
    left.into_iter().map(str::to_owned).collect()
}

/// The package names of the workspace: the root package and each member of the root
/// manifest's `members` list, read from their manifests.
fn workspace_members() -> Vec<String> {
    let manifest = read("Cargo.toml");
    let list = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the root manifest lists its members");
    let mut dirs = vec![".".to_owned()];
    dirs.extend(
        list.split(',')
            .map(|d| d.trim().trim_matches('"').to_owned()),
    );
    dirs.iter()
        .filter(|d| !d.is_empty())
        .map(|d| package_name(&read(&format!("{d}/Cargo.toml")), d))
        .collect()
}

/// The `name` of a manifest's `[package]` table (`dir` names the manifest in a failure).
fn package_name(manifest: &str, dir: &str) -> String {
    let package = manifest
        .split("[package]")
        .nth(1)
        .unwrap_or_else(|| panic!("{dir}/Cargo.toml has no [package]"));
    package
        .lines()
        .find_map(|l| l.trim().strip_prefix("name = "))
        .map(|n| n.trim_matches('"').to_owned())
        .unwrap_or_else(|| panic!("{dir}/Cargo.toml has no package name"))
}

/// The lines of a Rust block that are code: trailing `//` comments and blank lines dropped,
/// whitespace runs made single spaces.
fn code_lines(block: &str) -> Vec<String> {
    block
        .lines()
        .map(|l| l.split("//").next().unwrap_or(l))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The body of the function (or method) `name` in `source`: the lines after its signature up
/// to the closing brace indented as its `fn` line is.
fn function_body(source: &str, name: &str) -> String {
    let start = source
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no fn {name}"));
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = source[line_start..start]
        .chars()
        .take_while(|c| *c == ' ')
        .collect();
    let after = &source[start..];
    let open = after.find("{\n").expect("a body");
    let close = after
        .find(&format!("\n{indent}}}\n"))
        .expect("a closing brace");
    after[open + 2..close].to_owned()
}

/// Every path ARCHITECTURE.md names exists.
#[test]
fn every_path_the_map_names_exists() {
    let missing = missing_paths(&map());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

/// The check above sees a path that is not there, and a bare file name in a folder the map
/// does not name.
#[test]
fn a_missing_path_is_seen() {
    let text = "The `src/sim/` folder, `crates/spherewalk-core/src/step/mod.rs`, `gather.rs`, \
                `src/nowhere.rs`, `elsewhere.rs` and [docs](docs/no_such_page.md); \
                `spherewalk::Sim` and `wasm32` are not paths.";
    assert_eq!(
        missing_paths(text),
        ["src/nowhere.rs", "elsewhere.rs", "docs/no_such_page.md"]
    );
}

/// The crate graph (the map's `text` block) and the crate table name every workspace member.
#[test]
fn the_crate_graph_and_table_name_every_workspace_member() {
    let text = map();
    let graph = first_block(&text, "text", "crate graph");
    let names: BTreeSet<&str> = graph
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .collect();
    let members = workspace_members();
    assert!(members.len() >= 7, "members read: {members:?}");
    for member in &members {
        assert!(
            names.contains(member.as_str()),
            "the crate graph lacks {member}"
        );
        let row = format!("| `{member}` |");
        assert!(text.contains(&row), "the crate table lacks {member}");
    }
}

/// The map's outline block is the outline `attempt` runs: each of its code lines, in order,
/// is a line of `attempt`'s body.
#[test]
fn the_outline_block_is_the_code_outline() {
    let text = map();
    let outline = first_block(&text, "rust", "outline block");
    let body = function_body(&read("crates/spherewalk-core/src/step/mod.rs"), "attempt");
    let code = code_lines(&body);
    let mut at = 0;
    for line in code_lines(&outline) {
        let found = code[at..].iter().position(|c| *c == line);
        let Some(k) = found else {
            panic!("ARCHITECTURE.md's outline line `{line}` is not in attempt's body, in order");
        };
        at += k + 1;
    }
}
