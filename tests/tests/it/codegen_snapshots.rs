//! Snapshot tests of generated code: each `tests/snapshots/<case>.avsc|.avpr|.avdl` must
//! generate exactly the reviewed `tests/snapshots/<case>.rs` (an IDL input goes through the IDL
//! parser, importing from `tests/snapshots/imported/`). A mismatch shows a unified diff; set
//! `UPDATE_SNAPSHOTS=1` to rewrite the expected files, then review the diff: the snapshot is
//! the specification.
//!
//! The snapshots are also compiled here under `#![deny(warnings)]`, each included inside a
//! nested module that shadows `Option`, `Result`, `Vec`, `String` and `Box`, proving that the
//! generated code works wherever it is included: what sits at the file's top level, in the
//! including module's scope, uses full paths; the modules the file declares see only the
//! prelude and their own items, so they use the prelude's short names unless a generated type
//! takes one (`reserved.avsc` names records `Box` and `Option`).

#![deny(warnings)]

use std::path::Path;

use avdl2rs_codegen::{Generator, Options};
use avdl2rs_tests::snapshot::Snapshots;

fn snapshot_dir() -> std::path::PathBuf {
    avdl2rs_tests::workspace_root().join("tests/snapshots")
}

fn generate(input: &Path) -> String {
    let mut generator = Generator::new(Options::default());
    // IDL inputs import files beside them.
    let include_dirs = [snapshot_dir()];
    generator.add_file(input, &include_dirs).unwrap();
    generator.generate().unwrap()
}

/// The snapshot inputs: JSON schemas and protocols, and IDL files (through the IDL parser, as
/// the `Builder` reads them). IDL files under `imported/` are only read through an import.
fn snapshot_inputs() -> Vec<std::path::PathBuf> {
    let dir = snapshot_dir();
    let mut inputs = Vec::new();
    for ext in ["avsc", "avpr", "avdl"] {
        inputs.extend(avdl2rs_tests::files_with_extension(&dir, ext));
    }
    inputs.sort();
    inputs
}

#[test]
fn generated_code_matches_the_reviewed_snapshots() {
    let inputs = snapshot_inputs();
    assert!(
        inputs
            .iter()
            .any(|i| i.extension().is_some_and(|e| e == "avdl")),
        "no IDL snapshot inputs in {}",
        snapshot_dir().display()
    );
    let mut snapshots = Snapshots::new(UPDATE_COMMAND);
    for input in inputs {
        snapshots.check(&input.with_extension("rs"), &generate(&input));
    }
    snapshots.assert_all_match();
}

/// The command that rewrites the snapshots of this module.
const UPDATE_COMMAND: &str = "UPDATE_SNAPSHOTS=1 cargo test -p avdl2rs-tests -- codegen_snapshots";

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
shadowed!(doc_controls, "doc_controls.rs");
shadowed!(doc_controls_idl, "doc_controls_idl.rs");
shadowed!(idl_imports, "idl_imports.rs");
shadowed!(idl_messages, "idl_messages.rs");
shadowed!(idl_namespaces, "idl_namespaces.rs");
shadowed!(logical, "logical.rs");
shadowed!(namespaces, "namespaces.rs");
shadowed!(primitives, "primitives.rs");
shadowed!(recursion, "recursion.rs");
shadowed!(reserved, "reserved.rs");
shadowed!(unions, "unions.rs");
