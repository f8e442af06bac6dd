//! The IDL files the syntax tree tests read: every `.avdl` of the conformance folders (the
//! reference's test inputs and the IDL writer's), of this crate's feature cases, of the
//! examples' schema folders, and of the shared hostile inputs beside the repository when
//! that folder is there.

use std::path::{Path, PathBuf};

use avdl2rs_tests::{conformance_files, workspace_root};

/// One input: its path and text.
pub struct Input {
    pub path: PathBuf,
    pub text: String,
}

/// Every input, valid or not.
pub fn all() -> Vec<Input> {
    let root = workspace_root();
    let mut paths = conformance_files("idl/input", &["avdl"]);
    paths.extend(conformance_files("idl/classpath", &["avdl"]));
    paths.extend(conformance_files("idl-writer", &["avdl"]));
    paths.extend(avdl_files_under(&root.join("avdl-parser/tests/cases")));
    paths.extend(avdl_files_under(&root.join("examples")));
    let hostile = root.join("../shared/hostile");
    if hostile.is_dir() {
        paths.extend(avdl_files_under(&hostile));
    } else {
        eprintln!("{} is not there: its inputs are skipped", hostile.display());
    }
    assert!(paths.len() > 20, "too few IDL inputs found: {paths:?}");
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Input { path, text }
        })
        .collect()
}

/// Every `.avdl` file below `dir`, sorted.
fn avdl_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "avdl") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The compiler's options for `path`: imports from its folder, then from `classpath` beside
/// it and this crate's `include` cases, as the reference tools were run.
pub fn options_for(path: &Path) -> avdl_parser::ParseOptions {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut include_dirs = vec![dir.join("../classpath"), dir.join("include")];
    include_dirs.retain(|d| d.is_dir());
    avdl_parser::ParseOptions { include_dirs }
}
