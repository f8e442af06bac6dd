//! Snapshot tests of generated code: each `tests/snapshots/<case>.avsc|.avpr` must generate
//! exactly the reviewed `tests/snapshots/<case>.rs`. Set `UPDATE_SNAPSHOTS=1` to rewrite the
//! expected files, then review the diff: the snapshot is the specification.
//!
//! The snapshots are also compiled here under `#![deny(warnings)]`, each included inside a
//! nested module that shadows `Option`, `Result`, `Vec`, `String` and `Box`, proving that the
//! generated code uses fully qualified paths and works wherever it is included.

#![deny(warnings)]

use std::path::Path;

use avdl2rs_codegen::{Generator, Options};

fn snapshot_dir() -> std::path::PathBuf {
    avdl2rs_tests::workspace_root().join("tests/snapshots")
}

fn generate(input: &Path) -> String {
    let mut generator = Generator::new(Options::default());
    generator.add_file(input, &[]).unwrap();
    generator.generate().unwrap()
}

#[test]
fn generated_code_matches_the_reviewed_snapshots() {
    let dir = snapshot_dir();
    let mut inputs = avdl2rs_tests::files_with_extension(&dir, "avsc");
    inputs.extend(avdl2rs_tests::files_with_extension(&dir, "avpr"));
    assert!(
        !inputs.is_empty(),
        "no snapshot inputs in {}",
        dir.display()
    );
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for input in inputs {
        let expected_path = input.with_extension("rs");
        let actual = generate(&input);
        if update {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            stale.push(expected_path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated code differs from (run with UPDATE_SNAPSHOTS=1 and review): {stale:?}"
    );
}

#[test]
fn generation_is_deterministic() {
    let input = snapshot_dir().join("unions.avsc");
    assert_eq!(generate(&input), generate(&input));
}

/// Includes a snapshot two modules deep, beside items named like the prelude's, so that any
/// unqualified use of `Option`, `Some`, `Vec`... in generated code fails to compile. Only
/// `dead_code` is allowed: the test uses few of the generated types.
macro_rules! shadowed {
    ($name:ident, $file:literal) => {
        #[allow(dead_code)]
        mod $name {
            pub mod nested {
                struct Option;
                struct Result;
                struct Vec;
                struct String;
                struct Box;
                struct Some;
                struct None;
                struct Ok;
                struct Err;
                struct Default;
                include!(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/", $file));
            }
        }
    };
}

shadowed!(defaults, "defaults.rs");
shadowed!(logical, "logical.rs");
shadowed!(namespaces, "namespaces.rs");
shadowed!(primitives, "primitives.rs");
shadowed!(recursion, "recursion.rs");
shadowed!(reserved, "reserved.rs");
shadowed!(unions, "unions.rs");
