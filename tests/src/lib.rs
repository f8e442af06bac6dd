//! Shared helpers of the cross-crate tests.
//!
//! The reference test cases live outside the repository (`../shared/conformance` beside the
//! checkout, or wherever `AVDL2RS_CONFORMANCE` points). Tests walk those folders instead of
//! naming cases, so cases dropped in later are picked up without code changes.

use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives inside the workspace")
        .to_path_buf()
}

/// The conformance folder: `$AVDL2RS_CONFORMANCE`, else `../shared/conformance` relative to the
/// workspace root. Panics with a clear message when it is missing, because a conformance test
/// that silently finds no cases would pass without checking anything.
pub fn conformance_dir() -> PathBuf {
    let dir = match std::env::var_os("AVDL2RS_CONFORMANCE") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_relative() {
                workspace_root().join(dir)
            } else {
                dir
            }
        }
        None => workspace_root().join("../shared/conformance"),
    };
    assert!(
        dir.is_dir(),
        "conformance folder {} not found: set AVDL2RS_CONFORMANCE to the folder holding idl/ and schemas/",
        dir.display()
    );
    dir
}

/// Files directly inside `dir` whose name ends with `.{ext}`, sorted by name.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}
