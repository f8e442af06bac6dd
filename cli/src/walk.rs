//! The one walk of a folder for schema files, shared by the commands that take folders
//! (`fmt`, `lint`) so that they agree on what a folder holds: depth first in name order (so
//! reports and diffs are stable), hidden folders skipped (`.git`, editor folders), folders
//! reached through symbolic links not followed (a link to a parent would never end), and a
//! folder that cannot be read is an error, never silently a folder without files.

use std::path::{Path, PathBuf};

/// A folder the walk could not read, and why.
#[derive(Debug)]
pub(crate) struct Unreadable {
    pub(crate) folder: PathBuf,
    pub(crate) error: std::io::Error,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.folder.display(), self.error)
    }
}

/// The files under `dir` whose extension is one of `extensions`.
pub(crate) fn files_under(dir: &Path, extensions: &[&str]) -> Result<Vec<PathBuf>, Unreadable> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let mut folders = Vec::new();
        for path in entries(&folder)? {
            if path.is_dir() {
                if !is_hidden(&path) && !is_link(&path) {
                    folders.push(path);
                }
            } else if has_extension(&path, extensions) {
                found.push(path);
            }
        }
        pending.extend(folders.into_iter().rev());
    }
    Ok(found)
}

/// Whether `path` names a file of one of `extensions`.
pub(crate) fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.contains(&e))
}

/// The entries of `folder`, sorted by name.
fn entries(folder: &Path) -> Result<Vec<PathBuf>, Unreadable> {
    let unreadable = |error| Unreadable {
        folder: folder.to_path_buf(),
        error,
    };
    let mut entries = std::fs::read_dir(folder)
        .map_err(unreadable)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(unreadable)?;
    entries.sort();
    Ok(entries)
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

fn is_link(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_in_name_order_and_skips_hidden_folders() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "b/z.avdl",
            "a.avdl",
            "b/a.avsc",
            ".git/x.avdl",
            "c/notes.txt",
        ] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let found = files_under(dir.path(), &["avdl", "avsc"]).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["a.avdl", "b/a.avsc", "b/z.avdl"]);
        let avdl = files_under(dir.path(), &["avdl"]).unwrap();
        assert_eq!(avdl.len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn does_not_follow_a_link_to_a_parent() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.avdl"), "").unwrap();
        std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).unwrap();
        assert_eq!(files_under(dir.path(), &["avdl"]).unwrap().len(), 1);
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("gone");
        let error = files_under(&missing, &["avdl"]).unwrap_err();
        assert!(error
            .to_string()
            .starts_with(&format!("cannot read {}", missing.display())));
    }
}
