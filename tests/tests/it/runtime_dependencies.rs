//! The runtime's default features (the derive among them) build no part of the IDL compiler:
//! a program using generated or derived types compiles the codec emitter and the schema model,
//! never the IDL parser, its grammar engine, the error renderer or the code formatter.

use std::process::Command;

use avdl2rs_tests::workspace_root;

/// The crates only code generation needs; none may appear in the runtime's normal graph.
const BUILD_TIME_ONLY: &[&str] = &[
    "pest",
    "pest_derive",
    "pest_generator",
    "avdl-parser",
    "avdl2rs-codegen",
    "prettyplease",
    "annotate-snippets",
];

#[test]
fn the_runtime_default_features_depend_on_no_build_time_crate() {
    let output = Command::new(env!("CARGO"))
        .args(["tree", "-p", "avdl2rs", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "cargo tree failed: {stderr}");
    let stdout = String::from_utf8(output.stdout).expect("cargo tree writes UTF-8");
    let packages: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    // The graph seen is the one with the derive, or the check would prove nothing.
    for expected in ["avdl2rs-derive", "avdl2rs-emit", "avdl2rs-schema"] {
        assert!(
            packages.contains(&expected),
            "{expected} missing:\n{stdout}"
        );
    }
    let found: Vec<&&str> = BUILD_TIME_ONLY
        .iter()
        .filter(|name| packages.contains(name))
        .collect();
    assert!(
        found.is_empty(),
        "the runtime's default features pull in {found:?}:\n{stdout}"
    );
}
