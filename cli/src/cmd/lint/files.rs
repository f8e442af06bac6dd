//! The schema files named by `lint`'s paths: files as given, directories searched by the
//! CLI's one folder walk (`crate::walk`).

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
            let found = match crate::walk::files_under(root, &EXTENSIONS) {
                Ok(found) => found,
                Err(unreadable) => {
                    out.push(problem(unreadable.to_string()));
                    continue;
                }
            };
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

fn is_schema_file(path: &Path) -> bool {
    crate::walk::has_extension(path, &EXTENSIONS)
}
