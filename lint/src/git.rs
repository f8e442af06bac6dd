//! Files as they were at a git revision, so that an old version of a schema is parsed with
//! the imports and include directories of that revision, not of the working tree: what
//! `lint --against-git` and `compat --against-git` compare with, and the language server's
//! compatibility diagnostic.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use avdl_parser::SourceFiles;

/// Why a revision or a file of it cannot be read: git's message, or what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitError(pub String);

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GitError {}

/// The files of one revision of the repository that holds a given path.
#[derive(Debug)]
pub struct Revision {
    rev: String,
    /// The repository's top-level directory, absolute and without symlinks.
    root: PathBuf,
    /// Every file of the revision, relative to `root` (`/`-separated, as git writes them).
    files: HashSet<String>,
}

impl Revision {
    /// The revision `rev` of the repository holding `near` (a file or directory).
    pub fn open(rev: &str, near: &Path) -> Result<Revision, GitError> {
        let dir = absolute(near)
            .ancestors()
            .find(|d| d.is_dir())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let root = git(&dir, &["rev-parse", "--show-toplevel"])?;
        let root = PathBuf::from(String::from_utf8_lossy(&root).trim_end());
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        let listing = git(
            &root,
            &["ls-tree", "-r", "-z", "--name-only", "--full-tree", rev],
        )
        .map_err(|e| GitError(format!("git revision {rev}: {e}")))?;
        let files = listing
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect();
        Ok(Revision {
            rev: rev.to_owned(),
            root,
            files,
        })
    }

    /// `path` relative to the repository root, when it lies inside the repository.
    fn relative(&self, path: &Path) -> Option<String> {
        let inside = normalize(&absolute(path));
        let relative = inside.strip_prefix(&self.root).ok()?;
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    /// Whether the revision has a file at `path`.
    pub fn has(&self, path: &Path) -> bool {
        self.relative(path).is_some_and(|r| self.files.contains(&r))
    }

    /// The text of the file at `path` in the revision.
    pub fn read_text(&self, path: &Path) -> Result<String, GitError> {
        let bytes = self
            .read(path)
            .map_err(|e| GitError(format!("{}: {e}", self.display_name(path))))?;
        String::from_utf8(bytes)
            .map_err(|_| GitError(format!("{} is not UTF-8", self.display_name(path))))
    }
}

impl SourceFiles for Revision {
    fn is_file(&self, path: &Path) -> bool {
        self.has(path)
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let not_found = || std::io::Error::new(std::io::ErrorKind::NotFound, "not in the revision");
        let relative = self.relative(path).ok_or_else(not_found)?;
        if !self.files.contains(&relative) {
            return Err(not_found());
        }
        let object = format!("{}:{relative}", self.rev);
        git(&self.root, &["cat-file", "blob", &object]).map_err(std::io::Error::other)
    }

    fn identity(&self, path: &Path) -> PathBuf {
        normalize(&absolute(path))
    }

    fn display_name(&self, path: &Path) -> String {
        match self.relative(path) {
            Some(relative) => format!("{}:{relative}", self.rev),
            None => format!("{}:{}", self.rev, path.display()),
        }
    }
}

/// `path` made absolute against the current directory, symlinks of the existing part
/// resolved: one name per file, whichever way it is written (so it compares with the
/// repository root git reports, and a language server's index knows a file once).
pub fn absolute(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
    let joined = normalize(&cwd.join(path));
    // The file may be missing from the working tree; resolve its nearest existing parent.
    for ancestor in joined.ancestors().skip(1) {
        if let Ok(real) = std::fs::canonicalize(ancestor) {
            if let Ok(rest) = joined.strip_prefix(ancestor) {
                return real.join(rest);
            }
        }
    }
    joined
}

/// `path` with `.` and `..` removed lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Runs `git -C dir args…` and returns its stdout; its stderr is the error.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| GitError(format!("cannot run git: {e}")))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(GitError(format!(
            "git {}: {}",
            args.join(" "),
            stderr.trim()
        )))
    }
}
