//! The README's quickstart as a reader follows it: its four files (`Cargo.toml`, `build.rs`,
//! `schemas/orders.avdl`, `src/main.rs`) copied from `README.md`, unchanged, into a new folder
//! beside a checkout named `avdl2rs` (a link to this one), so that the README's relative path
//! dependencies hold as written; `cargo run` there must print what the README shows, and that
//! output must be the Confluent frame worked out by hand below. The schema must also be the
//! one of `examples/kafka-orders`, so the README cannot drift from the example it quotes.
//!
//! It builds a project outside the workspace like the fresh-project test, in the same target
//! directory, and is ignored by a plain `cargo test` for the same reason.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use avdl2rs_tests::workspace_root;

use crate::scratch_project::{cargo, text, write_project};

/// The files of the quickstart, each a fenced block whose first line names it.
const FILES: [&str; 4] = [
    "Cargo.toml",
    "build.rs",
    "schemas/orders.avdl",
    "src/main.rs",
];

/// What `cargo run` prints. The frame: magic byte 00, schema id 1 (00000001), then the Avro
/// body: id 42 (zig-zag 54), amount 99.5 (the double 0x4058e00000000000, little-endian),
/// user_id 7 (0e), currency "CNY" (length 3, zig-zag 06, then 434e59), discount as branch 1
/// of the union (02) holding 5.0 (0x4014000000000000, little-endian).
const EXPECTED: &str = "\
framed with schema id 1: 0000000001540000000000e058400e06434e59020000000000001440
read back: OrderEvent { id: 42, amount: 99.5, user_id: 7, currency: \"CNY\", discount: Some(5.0) }
";

/// The `## Quickstart` section of the README.
fn quickstart_section(readme: &str) -> &str {
    let start = readme
        .find("\n## Quickstart")
        .expect("the README has a Quickstart section");
    let rest = &readme[start + 1..];
    let end = rest.find("\n## ").map_or(rest.len(), |end| end + 1);
    &rest[..end]
}

/// The fenced code blocks of `section`, each as (info string, text).
fn fenced_blocks(section: &str) -> Vec<(&str, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(&str, String)> = None;
    for line in section.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info, String::new())),
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(
        open.is_none(),
        "a code block of the quickstart is not closed"
    );
    blocks
}

/// The file a block's first line names (`# Cargo.toml`, `// src/main.rs`), if any.
fn named_file(text: &str) -> Option<&str> {
    let first = text.lines().next()?;
    let name = first
        .strip_prefix("# ")
        .or_else(|| first.strip_prefix("// "))?;
    FILES.contains(&name).then_some(name)
}

#[test]
#[ignore = "compiles a separate project's dependencies from scratch; .ci/run runs it"]
fn the_quickstart_copied_beside_a_checkout_builds_and_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let blocks = fenced_blocks(quickstart_section(&readme));
    let files: Vec<(&str, &str)> = blocks
        .iter()
        .filter_map(|(_, text)| Some((named_file(text)?, text.as_str())))
        .collect();
    let mut names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    names.sort_unstable();
    let mut expected = FILES.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected, "the quickstart's files, one block each");

    let (_, avdl) = files
        .iter()
        .find(|(name, _)| *name == "schemas/orders.avdl")
        .unwrap();
    let example = workspace_root().join("examples/kafka-orders/schemas/v2/orders.avdl");
    let schema = avdl.split_once('\n').unwrap().1;
    assert_eq!(schema, std::fs::read_to_string(example).unwrap());

    let shown = blocks
        .iter()
        .find(|(info, text)| *info == "text" && text.starts_with("framed with"))
        .map(|(_, text)| text.as_str());
    assert_eq!(shown, Some(EXPECTED), "the output the README shows");

    let beside = fixed_folder();
    std::os::unix::fs::symlink(workspace_root(), beside.join("avdl2rs")).unwrap();
    let project = beside.join("quickstart");
    write_project(&project, &files);
    assert_runs(&project);
}

/// An empty folder outside the checkout (cargo would take a project inside it for a member of
/// the workspace), at the same path on every run of this checkout's tests: cargo tells path
/// dependencies apart by their path, so under a new temporary folder each run would rebuild
/// every crate of the workspace the project depends on.
fn fixed_folder() -> PathBuf {
    let mut hasher = DefaultHasher::new();
    workspace_root().hash(&mut hasher);
    let name = format!("avdl2rs-readme-quickstart-{:016x}", hasher.finish());
    let folder = std::env::temp_dir().join(name);
    if folder.exists() {
        std::fs::remove_dir_all(&folder).unwrap();
    }
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Runs the project, which must print [`EXPECTED`].
fn assert_runs(project: &Path) {
    let run = cargo(project, &["run", "--quiet"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), EXPECTED);
}
