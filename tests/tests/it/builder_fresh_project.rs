//! A new user's first build: a fresh cargo project outside the workspace, with path
//! dependencies on the runtime and codegen crates, an `.avdl` that imports another, a
//! `build.rs` using the `Builder` and a `main` that round-trips a value. It builds offline
//! and runs; an unchanged build does not rerun the build script; touching the *imported*
//! file does, and so does a new file in an input directory; and a syntax error in the
//! imported file fails the build with a located diagnostic.
//!
//! The project's target directory is `<target>/fresh-project` (see [`scratch_project`]),
//! reused between runs so only the first one compiles the dependencies. That first build takes
//! longer than the rest of the suite's tests together, so the test is ignored by a plain
//! `cargo test`; `.ci/run` runs it with the other ignored tests (`-- --include-ignored`).

use std::path::Path;

use avdl2rs_tests::workspace_root;

use crate::scratch_project::{self, cargo, text};

const MAIN_AVDL: &str = r#"@namespace("fresh.shop")
protocol Shop {
  import idl "common/money.avdl";

  /** An order, with an amount from the imported file. */
  record Order {
    long id;
    fresh.common.Money total;
    string? note = null;
  }
}
"#;

const MONEY_AVDL: &str = r#"@namespace("fresh.common")
protocol Common {
  record Money {
    long units;
    string currency = "EUR";
  }
}
"#;

const NOTE_AVSC: &str =
    r#"{"type": "record", "name": "Note", "fields": [{"name": "text", "type": "string"}]}"#;

const BUILD_RS: &str = r#"use std::io::Write;

fn main() {
    // A marker line per run, so the test can count runs.
    let marker = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("build-runs.txt");
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(marker).unwrap();
    writeln!(file, "run").unwrap();
    avdl2rs_codegen::Builder::new("shop").input("schemas/shop.avdl").build().unwrap();
    avdl2rs_codegen::Builder::new("extra").input("schemas/extra").build().unwrap();
}
"#;

const MAIN_RS: &str = r#"mod shop {
    avdl2rs::include_generated!("shop");
}

#[allow(dead_code)]
mod extra {
    avdl2rs::include_generated!("extra");
}

use avdl2rs::Avro;
use shop::fresh::common::Money;
use shop::fresh::shop::Order;

fn main() {
    let order = Order {
        id: 7,
        total: Money { units: 1250, currency: "EUR".to_string() },
        note: Some("gift".to_string()),
    };
    let message = order.to_confluent(3).unwrap();
    let decoded = Order::from_confluent_expecting(&message, 3).unwrap();
    assert_eq!(decoded, order);
    let hex: String = message.iter().map(|b| format!("{b:02x}")).collect();
    println!("round trip ok: {hex}");
}
"#;

/// Writes the project into `dir`.
fn write_project(dir: &Path) {
    let root = workspace_root();
    let manifest = format!(
        r#"[package]
name = "fresh_shop"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
avdl2rs = {{ path = {runtime:?}, default-features = false }}

[build-dependencies]
avdl2rs-codegen = {{ path = {codegen:?} }}

[workspace]
"#,
        runtime = root.join("runtime").display().to_string(),
        codegen = root.join("codegen").display().to_string(),
    );
    let files = [
        ("Cargo.toml", manifest.as_str()),
        ("build.rs", BUILD_RS),
        ("src/main.rs", MAIN_RS),
        ("schemas/shop.avdl", MAIN_AVDL),
        ("schemas/common/money.avdl", MONEY_AVDL),
        ("schemas/extra/note.avsc", NOTE_AVSC),
    ];
    scratch_project::write_project(dir, &files);
}

/// Builds the project, failing the test with cargo's output if the build fails.
fn build(dir: &Path) {
    let output = cargo(dir, &["build", "--quiet"]);
    assert!(
        output.status.success(),
        "cargo build failed:\n{}",
        text(&output.stderr)
    );
}

/// How many times the build script has run.
fn build_runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("build-runs.txt"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Writes `text` to `path` more than a second after the last build, so that its
/// modification time is newer than that build's even on file systems with coarse timestamps.
fn rewrite(path: &Path, text: &str) {
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(path, text).unwrap();
}

/// Builds the project and checks how many times the build script has run by then; a second
/// build must not run it again.
fn build_expecting_runs(dir: &Path, runs: usize, why: &str) {
    build(dir);
    assert_eq!(build_runs(dir), runs, "{why}");
    build(dir);
    assert_eq!(
        build_runs(dir),
        runs,
        "nothing changed, yet the build script ran"
    );
}

#[test]
#[ignore = "compiles a separate project's dependencies from scratch; .ci/run runs it"]
fn a_fresh_project_builds_runs_and_rebuilds_when_an_input_changes() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    write_project(dir);

    build(dir);
    assert_eq!(build_runs(dir), 1);
    let run = cargo(dir, &["run", "--quiet"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    // Magic byte, schema id 3, id 7 (zig-zag 0e), units 1250 (zig-zag c4 13), "EUR", note.
    assert_eq!(
        stdout.trim(),
        "round trip ok: 00000000030ec41306455552020867696674"
    );
    build_expecting_runs(
        dir,
        1,
        "the first build ran the build script more than once",
    );

    let money = dir.join("schemas/common/money.avdl");
    rewrite(&money, &format!("{MONEY_AVDL}// touched\n"));
    build_expecting_runs(dir, 2, "changing the imported file did not rerun build.rs");

    let tag = r#"{"type": "enum", "name": "Tag", "symbols": ["A", "B"]}"#;
    rewrite(&dir.join("schemas/extra/tag.avsc"), tag);
    build_expecting_runs(
        dir,
        3,
        "a new file in an input directory did not rerun build.rs",
    );

    rewrite(&money, &MONEY_AVDL.replace("long units;", "long units"));
    let failed = cargo(dir, &["build", "--quiet"]);
    assert!(!failed.status.success());
    let stderr = text(&failed.stderr);
    // The missing `;` is located at the end of `long units`, where it belongs.
    assert!(
        stderr.contains(" --> schemas/common/money.avdl:4:15\n"),
        "{stderr}"
    );
    assert!(stderr.contains("4 |     long units"), "{stderr}");
    assert!(!stderr.contains("Generate("), "a debug dump: {stderr}");
}
