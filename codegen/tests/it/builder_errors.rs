//! A failing build prints a diagnostic, under `Debug` too: build scripts `unwrap()` it.

use crate::builder_support;

use builder_support::{fixture, scratch_dir};
use std::path::PathBuf;

use avdl2rs_codegen::builder::BuildError;
use avdl2rs_codegen::Builder;

fn build_error(builder: &mut Builder, test: &str) -> BuildError {
    let out = scratch_dir(&format!("errors_{test}"));
    let error = builder
        .out_dir(&out)
        .cargo_instructions(false)
        .build()
        .unwrap_err();
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "wrote output");
    error
}

/// A schema file named `name` holding `text`, in a directory of its own.
fn written(name: &str, text: &str) -> PathBuf {
    let file = scratch_dir(&format!("errors_source_{name}")).join(name);
    std::fs::write(&file, text).unwrap();
    file
}

/// `Debug` is `Display`: no variant names, braces or escaped quotes.
fn assert_reads_as_diagnostic(error: &BuildError) -> String {
    let debug = format!("{error:?}");
    assert_eq!(debug, error.to_string());
    for dump in ["Generate(", "Idl {", "Schema {", "source:", "NotFound"] {
        assert!(!debug.contains(dump), "debug dump in {debug}");
    }
    debug
}

#[test]
fn an_idl_syntax_error_shows_file_line_column_and_the_line() {
    let file = fixture("idl/broken.avdl");
    let error = build_error(Builder::new("shop").input(&file), "syntax");
    let text = assert_reads_as_diagnostic(&error);
    // A missing `;` is located where it is missing: after `long id`, not at `string`.
    let located = format!("{}:4:12", file.display());
    assert!(text.contains(&located), "{text}");
    // The snippet: the offending line, with a caret under the column.
    assert!(text.contains("4 |     long id"), "{text}");
    assert!(text.contains("  |            ^"), "{text}");
}

#[test]
fn a_missing_import_names_the_importing_file() {
    let file = written(
        "lonely.avdl",
        "protocol P {\n  import idl \"nowhere.avdl\";\n  record R { int x; }\n}\n",
    );
    let error = build_error(Builder::new("p").input(&file), "import");
    let text = assert_reads_as_diagnostic(&error);
    assert!(text.contains(&format!("{}:2:", file.display())), "{text}");
    assert!(text.contains("nowhere.avdl"), "{text}");
}

#[test]
fn the_parser_help_reaches_the_build_failure() {
    let file = written(
        "typo.avdl",
        "protocol P {\n  record Order { Custmer buyer; }\n  record Customer { int id; }\n}\n",
    );
    let error = build_error(Builder::new("p").input(&file), "help");
    let text = assert_reads_as_diagnostic(&error);
    assert!(text.contains(&format!("{}:2:18", file.display())), "{text}");
    assert!(text.contains("= help: did you mean `Customer`?"), "{text}");
}

#[test]
fn a_schema_error_names_the_file_and_the_place_in_the_schema() {
    let file = written(
        "bad.avsc",
        r#"{"type": "record", "name": "R", "fields": [{"name": "x", "type": "nope"}]}"#,
    );
    let error = build_error(Builder::new("r").input(&file), "json");
    let text = assert_reads_as_diagnostic(&error);
    assert!(
        text.starts_with(&format!("error: {}", file.display())),
        "{text}"
    );
    assert!(text.contains("nope"), "{text}");
}

#[test]
fn inputs_are_checked_before_anything_is_generated() {
    let error = build_error(&mut Builder::new("x"), "none");
    assert!(assert_reads_as_diagnostic(&error).contains("no schema input"));

    let missing = fixture("idl/missing.avdl");
    let error = build_error(Builder::new("x").input(&missing), "missing");
    let text = assert_reads_as_diagnostic(&error);
    assert!(text.contains(&missing.display().to_string()), "{text}");
    assert!(text.contains("does not exist"), "{text}");

    let empty = scratch_dir("errors_empty_input");
    let error = build_error(Builder::new("x").input(&empty), "empty");
    assert!(assert_reads_as_diagnostic(&error).contains("holds no .avdl"));
}

#[test]
fn the_output_name_must_be_a_plain_file_name() {
    for name in ["", "a/b", "orders.rs", ".."] {
        let error = build_error(Builder::new(name).input(fixture("json/money.avsc")), "name");
        let text = assert_reads_as_diagnostic(&error);
        assert!(text.contains("plain file name"), "{name:?}: {text}");
    }
}

#[test]
fn a_build_script_shows_the_compiler_layout() {
    let file = written(
        "orders.avdl",
        "protocol Orders {\n  recrod OrderEvent {\n    int id;\n  }\n}\n",
    );
    let error = build_error(Builder::new("o").input(&file), "layout");
    let expected = format!(
        "error: unknown keyword `recrod`; did you mean `record`?\n --> {}:2:3\n  |\n\
         2 |   recrod OrderEvent {{\n  |   ^^^^^^",
        file.display()
    );
    assert_eq!(assert_reads_as_diagnostic(&error), expected);
}
