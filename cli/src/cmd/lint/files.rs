//! The schema files named by `lint`'s paths: files as given, directories searched (hidden
//! folders skipped, symbolic links to folders not followed, so the walk ends), in name order
//! so that reports are stable.

use std::path::{Path, PathBuf};

/// A schema file found, or a path that gives none: its name and why.
pub(super) enum Found {
    File(PathBuf),
    Problem(String, String),
}

/// The extensions of the files `lint` checks.
const EXTENSIONS: [&str; 3] = ["avdl", "avsc", "avpr"];

/// Every schema file under `roots`, or why a root gives none.
pub(super) fn schema_files(roots: &[PathBuf]) -> Vec<Found> {
    let mut out = Vec::new();
    for root in roots {
        let name = root.display().to_string();
        let problem = |message: String| Found::Problem(name.clone(), message);
        if root.is_dir() {
            let found = search(root);
            if found.is_empty() {
                out.push(problem(format!(
                    "{name}: no .avdl, .avsc or .avpr file in it"
                )));
            }
            // `lint .` names files as `a.avdl`, not `./a.avdl`.
            let shown = |path: PathBuf| match path.strip_prefix(".") {
                Ok(inner) => inner.to_path_buf(),
                Err(_) => path,
            };
            out.extend(found.into_iter().map(|path| Found::File(shown(path))));
        } else if !root.exists() {
            out.push(problem(format!(
                "cannot read {name}: no such file or directory"
            )));
        } else if is_schema_file(root) {
            out.push(Found::File(root.clone()));
        } else {
            out.push(problem(format!(
                "{name}: not a schema file (.avdl, .avsc or .avpr)"
            )));
        }
    }
    out
}

/// The schema files under `dir`, depth first in name order.
fn search(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        let mut folders = Vec::new();
        for path in entries {
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            let is_link = path
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink());
            if path.is_dir() {
                if !hidden && !is_link {
                    folders.push(path);
                }
            } else if is_schema_file(&path) {
                found.push(path);
            }
        }
        pending.extend(folders.into_iter().rev());
    }
    found
}

fn is_schema_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e))
}
