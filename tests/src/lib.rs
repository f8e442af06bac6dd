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

/// The IDL reference cases: every `idl/input/<case>.avdl` of the conformance folder that has an
/// expected `idl/output/<case>.avpr` or `.avsc`, with that expected file, sorted by input name.
pub fn idl_reference_cases() -> Vec<(PathBuf, PathBuf)> {
    let idl = conformance_dir().join("idl");
    files_with_extension(&idl.join("input"), "avdl")
        .into_iter()
        .filter_map(|input| {
            let stem = input.file_stem()?.to_owned();
            ["avpr", "avsc"]
                .iter()
                .map(|ext| idl.join("output").join(&stem).with_extension(ext))
                .find(|p| p.is_file())
                .map(|expected| (input, expected))
        })
        .collect()
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

/// The `avdl2rs` binary, built once per test run with the same cargo and target directory as
/// the tests (so the binary under test is always the current code).
pub fn cli_binary() -> PathBuf {
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY
        .get_or_init(|| {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let output = std::process::Command::new(cargo)
                .args(["build", "--quiet", "-p", "avdl2rs-cli", "--bin", "avdl2rs"])
                .args(["--message-format", "json"])
                .current_dir(workspace_root())
                .output()
                .expect("cargo runs");
            assert!(
                output.status.success(),
                "building avdl2rs failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
                .filter_map(|msg| msg["executable"].as_str().map(PathBuf::from))
                .next_back()
                .expect("cargo reports the avdl2rs executable")
        })
        .clone()
}

/// An external component a test needs (a registry's URL, an interpreter's path), from the
/// environment variable `var` that `.ci/run` sets. Absent on a developer machine, the test
/// is skipped with a printed reason (`None`); absent under CI, the test fails.
pub fn external(var: &str, what: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Some(value),
        _ if std::env::var_os("CI").is_some() => {
            panic!("{var} is not set, and CI must provide {what}")
        }
        _ => {
            println!("skipped: set {var} to {what}");
            None
        }
    }
}

/// The real Schema Registry the tests use (`.ci/registry-server` starts one).
pub fn schema_registry() -> Option<String> {
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
