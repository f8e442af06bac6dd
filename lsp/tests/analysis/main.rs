//! The analysis on `examples/warehouse` (imports across folders and through an include
//! directory) and on small fixtures: broken files, JSON schemas, non-ASCII text.

mod code_action;
mod compat;
mod completion;
mod hover;
mod navigation;
mod rename;

use std::path::{Path, PathBuf};

use avdl2rs_lsp::analysis::{FileEdits, Span, Workspace};

/// The schemas of `examples/warehouse`.
pub fn warehouse_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/warehouse/schemas")
}

/// The warehouse schemas indexed, with the include directory its build script uses.
pub fn warehouse() -> Workspace {
    let dir = warehouse_dir();
    let mut workspace = Workspace::new(vec![dir.join("shared")]);
    workspace.scan(&dir);
    workspace
}

/// A folder of fixture files, indexed.
pub fn fixture(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut workspace = Workspace::new(Vec::new());
    workspace.scan(dir.path());
    (dir, workspace)
}

/// The byte offset of the `nth` (from 0) occurrence of `needle` in the file at `path`,
/// plus `within` bytes.
pub fn offset(path: &Path, needle: &str, nth: usize, within: usize) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("{needle:?} #{nth} not in {}", path.display()))
        .0;
    start + within
}

/// The text of `span` in the file at `path`.
pub fn text_at(path: &Path, span: &Span) -> String {
    std::fs::read_to_string(path).unwrap()[span.clone()].to_owned()
}

/// Writes `edits` into the files they name.
pub fn apply(all: &[FileEdits]) {
    for file in all {
        let mut text = std::fs::read_to_string(&file.path).unwrap();
        for edit in file.edits.iter().rev() {
            text.replace_range(edit.span.clone(), &edit.text);
        }
        std::fs::write(&file.path, text).unwrap();
    }
}
