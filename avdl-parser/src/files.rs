//! Where the parser reads files from: the file system, or anything else that can answer
//! "is there a file at this path" and "what are its bytes" — such as a git revision, so that
//! an old version of a schema is read with the imports it had then.

use std::io;
use std::path::{Path, PathBuf};

/// The files a parse reads: the root file (for [`crate::parse_file`]) and every import.
///
/// Paths are the ones the parser builds: the root path as given, an import joined to the
/// importing file's directory or to an include directory.
pub trait SourceFiles {
    /// Whether a file exists at `path` (imports are searched for with it).
    fn is_file(&self, path: &Path) -> bool;

    /// The bytes of the file at `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// The key under which `path` is read only once: two paths naming the same file must
    /// give the same key, which is what ends import cycles.
    fn identity(&self, path: &Path) -> PathBuf;

    /// How errors name the file at `path`.
    fn display_name(&self, path: &Path) -> String {
        path.display().to_string()
    }
}

/// The file system, the default [`SourceFiles`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FileSystem;

impl SourceFiles for FileSystem {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn identity(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
}
