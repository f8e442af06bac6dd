//! Shared helpers of the tests of every crate: where the conformance cases are, a JSON diff,
//! and reviewed snapshot files compared with a unified diff (`snapshot`).
//!
//! The reference test cases are part of the repository (`conformance/` at the workspace root).
//! `AVDL2RS_CONFORMANCE` may name more folders of the same layout (a path list, like `PATH`),
//! walked in addition to it; a folder named there that does not exist is reported on stderr and
//! skipped, so a clone runs the same tests with or without those extra cases. Tests walk the
//! folders through the functions here instead of naming cases, so cases dropped in later are
//! picked up without code changes.

pub mod fixed_registry;
pub mod registry_server;
pub mod snapshot;

/// The workspace's README, the project's front door: `cargo test --doc` compiles its
/// snippets here, where the code generator and the runtime are at hand.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme_doctests {}

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The variable naming extra conformance folders.
pub const EXTRA_CONFORMANCE_VAR: &str = "AVDL2RS_CONFORMANCE";

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives inside the workspace")
        .to_path_buf()
}

/// The conformance folder of the repository, `conformance/` at the workspace root. Panics when
/// it is missing, because a conformance test that silently finds no cases would pass without
/// checking anything.
pub fn conformance_dir() -> PathBuf {
    let dir = workspace_root().join("conformance");
    assert!(
        dir.is_dir(),
        "conformance folder {} not found: it is part of the repository",
        dir.display()
    );
    dir
}

/// Every conformance folder: the repository's, then each existing folder named in
/// `AVDL2RS_CONFORMANCE` (relative ones from the workspace root), without repeats. Folders named
/// there that do not exist are reported on stderr, once per process, and skipped.
pub fn conformance_dirs() -> &'static [PathBuf] {
    static DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let extra = std::env::var_os(EXTRA_CONFORMANCE_VAR).unwrap_or_default();
        let (dirs, missing) = conformance_dirs_for(&extra);
        for dir in missing {
            eprintln!(
                "{EXTRA_CONFORMANCE_VAR}: {} is not a folder; its cases are skipped",
                dir.display()
            );
        }
        dirs
    })
}

/// The conformance folders for `extra`, a value of `AVDL2RS_CONFORMANCE`, and the folders it
/// names that do not exist.
fn conformance_dirs_for(extra: &OsStr) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut dirs = vec![conformance_dir()];
    let mut missing = Vec::new();
    for dir in std::env::split_paths(extra).filter(|d| !d.as_os_str().is_empty()) {
        let dir = workspace_root().join(dir);
        if !dir.is_dir() {
            missing.push(dir);
        } else if !dirs.iter().any(|known| same_folder(known, &dir)) {
            dirs.push(dir);
        }
    }
    (dirs, missing)
}

fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// The files of `sub` (`"schemas"`, `"idl/output"`, …) in every conformance folder whose name
/// ends with `.{ext}` for one of `exts`, folder by folder, each sorted by name. A folder without
/// `sub` contributes nothing, and a file that an earlier folder already holds under the same
/// name with the same bytes is taken once (an extra folder is often a newer copy of the
/// repository's).
pub fn conformance_files(sub: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in conformance_dirs().iter().map(|root| root.join(sub)) {
        if dir.is_dir() {
            let mut found: Vec<PathBuf> = exts
                .iter()
                .flat_map(|ext| files_with_extension(&dir, ext))
                .filter(|file| !files.iter().any(|known| same_case(known, file)))
                .collect();
            found.sort();
            files.extend(found);
        }
    }
    files
}

/// Whether two case files have the same name and the same bytes.
fn same_case(a: &Path, b: &Path) -> bool {
    a.file_name() == b.file_name()
        && matches!((std::fs::read(a), std::fs::read(b)), (Ok(a), Ok(b)) if a == b)
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

/// The IDL reference cases of every conformance folder: each `idl/input/<case>.avdl` that has
/// an expected `idl/output/<case>.avpr` or `.avsc`, with that expected file, sorted by input name
/// within each folder.
pub fn idl_reference_cases() -> Vec<(PathBuf, PathBuf)> {
    conformance_files("idl/input", &["avdl"])
        .into_iter()
        .filter_map(|input| {
            let output = input.parent()?.parent()?.join("output");
            let stem = input.file_stem()?.to_owned();
            ["avpr", "avsc"]
                .iter()
                .map(|ext| output.join(&stem).with_extension(ext))
                .find(|p| p.is_file())
                .map(|expected| (input, expected))
        })
        .collect()
}

/// The directories imports of the IDL reference case `input` are searched in, as the reference
/// tools were run on it: the case's own folder and the `classpath` folder beside it.
pub fn idl_include_dirs(input: &Path) -> [PathBuf; 2] {
    let input_dir = input.parent().expect("a case file is inside a folder");
    let classpath = input_dir
        .parent()
        .expect("a case folder is inside idl/")
        .join("classpath");
    [input_dir.to_path_buf(), classpath]
}

/// The differences between two JSON values, one line per difference with its path
/// (`$.types[2].fields[0].type: expected "int", found "long"`). Object key order is ignored;
/// everything else is compared exactly (`1` and `1.0` differ, as serde_json's equality says).
pub fn json_diff(expected: &serde_json::Value, actual: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    diff_at("$", expected, actual, &mut out);
    out
}

fn diff_at(
    path: &str,
    expected: &serde_json::Value,
    actual: &serde_json::Value,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, ev) in e {
                match a.get(key) {
                    Some(av) => diff_at(&format!("{path}.{key}"), ev, av, out),
                    None => out.push(format!("{path}.{key}: missing (expected {ev})")),
                }
            }
            for key in a.keys().filter(|k| !e.contains_key(*k)) {
                out.push(format!("{path}.{key}: unexpected (found {})", a[key]));
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff_at(&format!("{path}[{i}]"), ev, av, out);
            }
        }
        _ if expected != actual => out.push(format!("{path}: expected {expected}, found {actual}")),
        _ => {}
    }
}

/// Runs `git ARGS…` in `dir` with a throwaway identity, failing the test when git fails: for
/// tests that build a scratch repository.
pub fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// Runs `binary` with `args`, feeding it `stdin`, with backtraces on so that a panic shows.
/// A command that fails before reading its input closes stdin early: that is the command's
/// answer, not the test's failure.
pub fn run_with_stdin(binary: &Path, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(binary)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", binary.display()));
    let mut input = child.stdin.take().expect("stdin is piped");
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("the command's output")
}

/// An external component a test needs (a registry's URL, an interpreter's path), from the
/// environment variable `var` that a `.ci/` script sets. Tests that need one are
/// `#[ignore = "needs <component> (<script>)"]`, so a plain `cargo test` lists them as ignored
/// with the reason; run with `--include-ignored` (as `.ci/run` does), such a test was asked
/// for, and a missing component fails it with this message rather than passing unseen.
pub fn external(var: &str, what: &str) -> String {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => value,
        _ => panic!("{var} is not set: this test needs {what}"),
    }
}

/// The real Schema Registry the tests use (`.ci/registry-server` starts one).
pub fn schema_registry() -> String {
    external(
        "AVDL2RS_SCHEMA_REGISTRY_URL",
        "a running Schema Registry (.ci/registry-server)",
    )
}

/// A name (for a subject or topic) no other test run has used on a long-running registry.
pub fn fresh_name(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{prefix}-{}-{nanos}-{n}", std::process::id())
}

/// Runs `test` on a thread with a 64 MiB stack: the schema writers, apache-avro and the
/// random value generator recurse once per nested record, deeper than a test thread's
/// default stack allows for the record chains.
pub fn on_big_stack(test: impl FnOnce() + Send + 'static) {
    let thread = std::thread::Builder::new().stack_size(64 << 20).spawn(test);
    if let Err(panic) = thread.expect("a test thread starts").join() {
        std::panic::resume_unwind(panic);
    }
}

/// How many records the compiled chain of `build.rs` has: enough for its last record to
/// nest deeper than rustc's default recursion limit allows (the test binary raises it).
pub const COMPILED_CHAIN: usize = 80;

/// A protocol (`.avpr` JSON) of `records` records in namespace `chain`, each holding the one
/// before in an optional field, the last one holding all: `Rec0 { int value }`, then
/// `RecN { int value; union { null, RecN-1 } previous = null }`.
pub fn record_chain(records: usize) -> serde_json::Value {
    let mut types = vec![serde_json::json!({"type": "record", "name": "Rec0",
        "fields": [{"name": "value", "type": "int"}]})];
    for n in 1..records {
        types.push(
            serde_json::json!({"type": "record", "name": format!("Rec{n}"),
            "fields": [{"name": "value", "type": "int"},
                       {"name": "previous", "type": ["null", format!("Rec{}", n - 1)],
                        "default": null}]}),
        );
    }
    serde_json::json!({"protocol": "Chain", "namespace": "chain", "types": types})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(dirs: &[PathBuf]) -> std::ffi::OsString {
        std::env::join_paths(dirs).unwrap()
    }

    #[test]
    fn without_the_variable_only_the_repository_folder_is_walked() {
        let (dirs, missing) = conformance_dirs_for(OsStr::new(""));
        assert_eq!(dirs, [workspace_root().join("conformance")]);
        assert!(missing.is_empty());
    }

    #[test]
    fn a_missing_folder_is_reported_and_the_others_are_walked() {
        let absent = PathBuf::from("/nonexistent/avdl2rs-conformance");
        let extra = workspace_root().join("tests/snapshots");
        let (dirs, missing) = conformance_dirs_for(&list(&[absent.clone(), extra.clone()]));
        assert_eq!(dirs, [conformance_dir(), extra]);
        assert_eq!(missing, [absent]);
    }

    #[test]
    fn a_case_is_the_same_only_with_the_same_name_and_bytes() {
        let original = conformance_dir().join("schemas/interop.avsc");
        let copies = tempfile::tempdir().unwrap();
        let copy = copies.path().join("interop.avsc");
        std::fs::copy(&original, &copy).unwrap();
        assert!(same_case(&original, &copy));
        let renamed = copies.path().join("other.avsc");
        std::fs::copy(&original, &renamed).unwrap();
        assert!(!same_case(&original, &renamed));
        std::fs::write(&copy, "{}").unwrap();
        assert!(!same_case(&original, &copy));
    }

    #[test]
    fn relative_folders_are_from_the_workspace_root_and_repeats_are_dropped() {
        let relative = PathBuf::from("tests/snapshots");
        let again = workspace_root().join("conformance/../conformance");
        let (dirs, missing) = conformance_dirs_for(&list(&[relative.clone(), again, relative]));
        assert_eq!(
            dirs,
            [conformance_dir(), workspace_root().join("tests/snapshots")]
        );
        assert!(missing.is_empty());
    }
}
