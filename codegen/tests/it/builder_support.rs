//! Fixture paths and scratch directories shared by the builder tests.

use std::path::{Path, PathBuf};

/// A file or directory under `tests/builder_fixtures`.
pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/builder_fixtures")
        .join(relative)
}

/// A fresh, empty directory named `test` inside this test target's scratch folder.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("builder")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
