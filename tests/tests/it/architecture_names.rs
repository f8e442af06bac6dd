//! Every file and folder `ARCHITECTURE.md` names exists, so the map cannot drift from the code
//! unnoticed when files move.
//!
//! A name is a code span (outside fenced blocks) without spaces that contains `/` or ends in
//! `/`, `.rs`, `.pest`, `.toml`, `.md` or `.py`. The document names most files as a reader
//! of its section takes them, relative to the crate the section is about, so a name is looked
//! for
//!
//! - relative to the repository root (`tests/tests/it/derive_twins.rs`, `avdl-parser/`);
//! - beside a path the section has named before it (`logical_time.rs` after
//!   `runtime/src/__private/macros.rs`, `to_json.rs` after the folder `avro_json/`);
//! - relative to a crate the section has named before it, by package (`avdl2rs-schema`) or by a
//!   path inside it (`schema/` in a heading, `schema/src/lib.rs`): in the crate's folder, in
//!   its `src/`, or, for a bare name (`json.rs`), as the only file or folder of that name
//!   anywhere in the crate.
//!
//! A section ends at the next heading. `*` and a `<placeholder>` are wildcards, and such a
//! name needs at least one match.

use std::path::{Path, PathBuf};

use avdl2rs_tests::workspace_root;

/// The endings that make a code span a file name.
const FILE_ENDINGS: [&str; 5] = [".rs", ".pest", ".toml", ".md", ".py"];

#[test]
fn every_path_architecture_md_names_exists() {
    let root = workspace_root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let check = check_names(&text, &root);
    assert!(
        check.checked > 0,
        "no file names found in ARCHITECTURE.md: the checker no longer reads it"
    );
    assert!(
        check.unresolved.is_empty(),
        "ARCHITECTURE.md names paths that exist nowhere it could mean (the module docs of \
         tests/tests/it/architecture_names.rs say where a name is looked for):\n{}",
        check.unresolved.join("\n")
    );
}

#[test]
fn names_resolve_within_their_section_only() {
    let doc = "## One\n\
               `avdl-parser` scans in `lexical.rs`, see `schema/src/lib.rs` and `parse.rs`.\n\
               ```text\n\
               `not/a/name.rs`\n\
               ```\n\
               Then `gone.rs`, `schema/src/gone.rs` and `<crate>/tests/it/main.rs`.\n\
               ## Two\n\
               `lexical.rs` again, `runtime/tests/it/logical_*.rs`, and `README.md/`.\n";
    let check = check_names(doc, &workspace_root());
    assert_eq!(check.checked, 9);
    assert_eq!(
        check.unresolved,
        [
            "line 6: `gone.rs`",
            "line 6: `schema/src/gone.rs`",
            "line 8: `lexical.rs`",
            "line 8: `README.md/`"
        ]
    );
}

/// What checking a document found: how many names it checked, and each one that resolves
/// nowhere, with its line.
struct Check {
    checked: usize,
    unresolved: Vec<String>,
}

/// Checks the names of the markdown `text` against the repository at `root`.
fn check_names(text: &str, root: &Path) -> Check {
    let crates = crate_folders(root);
    let mut check = Check {
        checked: 0,
        unresolved: Vec::new(),
    };
    let mut section = Section::default();
    let mut in_fence = false;
    for (index, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.starts_with('#') {
            section = Section::default();
        }
        if line.matches('`').count() % 2 == 1 {
            check.unresolved.push(format!(
                "line {}: a code span crosses the line's end, and names are read line by line",
                index + 1
            ));
        }
        for span in code_spans(line) {
            if let Some((_, folder)) = crates.iter().find(|(package, _)| package == span) {
                section.crates.push(folder.clone());
            } else if is_name(span) {
                check.checked += 1;
                match section.resolve(span, root) {
                    Some(found) => section.named(&found, &crates),
                    None => check
                        .unresolved
                        .push(format!("line {}: `{span}`", index + 1)),
                }
            }
        }
    }
    check
}

/// What a section has named so far, against which its later names resolve.
#[derive(Default)]
struct Section {
    /// The folders of the crates it named, in order.
    crates: Vec<PathBuf>,
    /// The folders it named, and those holding the files it named, in order.
    folders: Vec<PathBuf>,
}

impl Section {
    /// Where `name` is, from the root or from what the section named before, as described in
    /// the module docs; after the root, what was named last is tried first, as a reader would.
    /// A name ending in `/` is a folder.
    fn resolve(&self, name: &str, root: &Path) -> Option<PathBuf> {
        let bases = std::iter::once(root.to_path_buf())
            .chain(self.folders.iter().rev().cloned())
            .chain(
                self.crates
                    .iter()
                    .rev()
                    .flat_map(|c| [c.clone(), c.join("src")]),
            );
        let fits = |path: &PathBuf| !name.ends_with('/') || path.is_dir();
        for base in bases {
            if let Some(found) = glob(&base, name).into_iter().find(fits) {
                return Some(found);
            }
        }
        let bare = name.trim_end_matches('/');
        if bare.contains('/') {
            return None;
        }
        self.crates.iter().rev().find_map(|krate| {
            let mut found = named_anywhere(krate, bare);
            found.retain(fits);
            (found.len() == 1).then(|| found.remove(0))
        })
    }

    /// Records the path a name resolved to: its folder, and the crate it lies in.
    fn named(&mut self, found: &Path, crates: &[(String, PathBuf)]) {
        let folder = if found.is_dir() {
            found
        } else {
            found.parent().expect("a file's folder")
        };
        self.folders.push(folder.to_path_buf());
        self.crates.extend(crate_of(found, crates));
    }
}

/// The code spans of one line: the text between each pair of backticks.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// Whether a code span is a file or folder name rather than code or a command.
fn is_name(span: &str) -> bool {
    !span.contains(char::is_whitespace)
        && (span.contains('/') || FILE_ENDINGS.iter().any(|end| span.ends_with(end)))
}

/// The existing paths below `base` that `name` matches, component by component.
fn glob(base: &Path, name: &str) -> Vec<PathBuf> {
    let mut paths = vec![base.to_path_buf()];
    for component in name.split('/').filter(|c| !c.is_empty()) {
        paths = paths
            .iter()
            .flat_map(|path| children(path))
            .filter(|child| file_name_matches(component, child))
            .collect();
    }
    paths.sort();
    paths
}

/// Whether the last component of `path` matches `pattern`, in which a `<placeholder>` stands
/// for any name and `*` for any run of characters.
fn file_name_matches(pattern: &str, path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if pattern.starts_with('<') && pattern.ends_with('>') {
        return true;
    }
    wildcard(pattern, &name)
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((prefix, rest)) => name.strip_prefix(prefix).is_some_and(|tail| {
            tail.char_indices()
                .map(|(at, _)| at)
                .chain([tail.len()])
                .any(|at| wildcard(rest, &tail[at..]))
        }),
    }
}

/// The files and folders directly in `dir` (none when it is not a folder).
fn children(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.expect("a folder entry").path()).collect())
        .unwrap_or_default()
}

/// Every file and folder called `name` below `dir`, outside build output and hidden folders.
fn named_anywhere(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for child in children(dir) {
        if child.file_name().is_some_and(|n| n == name) {
            found.push(child.clone());
        }
        if child.is_dir() && !skipped(&child) {
            found.extend(named_anywhere(&child, name));
        }
    }
    found
}

fn skipped(dir: &Path) -> bool {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    name == "target" || name.starts_with('.')
}

/// Every crate of the repository, as its package name and folder: each folder below `root`
/// whose `Cargo.toml` has a `[package]`.
fn crate_folders(root: &Path) -> Vec<(String, PathBuf)> {
    let mut crates = Vec::new();
    for manifest in named_anywhere(root, "Cargo.toml") {
        if let Some(package) = package_name(&manifest) {
            let folder = manifest
                .parent()
                .expect("a manifest's folder")
                .to_path_buf();
            crates.push((package, folder));
        }
    }
    crates
}

/// The `name` of the `[package]` table of a `Cargo.toml`, which cargo's own layout puts on a
/// line of its own.
fn package_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).expect("a readable Cargo.toml");
    let package = text.split_once("[package]")?.1;
    let line = package
        .lines()
        .find(|line| line.trim_start().starts_with("name"))?;
    let value = line.split_once('=')?.1.trim();
    Some(value.trim_matches('"').to_owned())
}

/// The crate folder `path` lies in: the deepest one holding it.
fn crate_of(path: &Path, crates: &[(String, PathBuf)]) -> Option<PathBuf> {
    crates
        .iter()
        .map(|(_, folder)| folder)
        .filter(|folder| path.starts_with(folder))
        .max_by_key(|folder| folder.components().count())
        .cloned()
}
