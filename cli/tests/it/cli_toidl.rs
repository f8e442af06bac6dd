//! `avdl2rs toidl`, run as a process: Java's IDL writer test file comes back byte for byte
//! from its JSON through files, stdin and stdout, `--indent` sets the indent, and bad input
//! exits 1 (with the file and the JSON path) and 2 (usage) without touching the output.

use std::path::PathBuf;

use crate::cli_support::{code, path_str, run, stderr, stdout};
use avdl2rs_tests::conformance_files;

/// The IDL writer's reference file in `syntax` (`schema` or `protocol`).
fn java_writer_file(syntax: &str) -> PathBuf {
    conformance_files("idl-writer", &["avdl"])
        .into_iter()
        .find(|f| f.ends_with(format!("idl_utils_test_{syntax}.avdl")))
        .expect("the IDL writer's reference files are in conformance/idl-writer")
}

/// The JSON `avdl2rs idl` gives for `avdl`.
fn idl_json(avdl: &str) -> String {
    let out = run(&["idl"], avdl);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn the_java_writers_schema_file_comes_back_from_its_json_through_files() {
    let expected = std::fs::read_to_string(java_writer_file("schema")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (json, avdl) = (dir.path().join("s.avsc"), dir.path().join("s.avdl"));
    std::fs::write(&json, idl_json(&expected)).unwrap();
    let out = run(&["toidl", path_str(&json), path_str(&avdl)], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&avdl).unwrap(), expected);
}

#[test]
fn a_protocol_from_stdin_is_written_to_stdout_with_the_indent_asked_for() {
    let original = std::fs::read_to_string(java_writer_file("protocol")).unwrap();
    let json = idl_json(&original);
    let out = run(&["toidl", "--indent", "4", "-"], &json);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written = stdout(&out);
    assert!(
        written.starts_with(
            "@namespace(\"naming\")\n@version(\"1.0.5\")\nprotocol HappyFlow {\n    /** A sample"
        ),
        "{written}"
    );
    assert!(
        written.contains("\n    enum Flag {\n        ON, OFF, CANARY\n    }\n"),
        "{written}"
    );
    assert_eq!(idl_json(&written), json);
}

#[test]
fn what_idl_cannot_say_exits_1_with_its_path_and_leaves_the_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (json, avdl) = (dir.path().join("x.avsc"), dir.path().join("x.avdl"));
    std::fs::write(&avdl, "kept").unwrap();
    let cases = [
        (
            r#"{"type": "fixed", "name": "F", "size": 1, "doc": "ends */ early"}"#,
            "at /doc",
        ),
        (r#"{"type": "fixed", "name": "F", "size": 1"#, "not JSON"),
        (
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Nope"}]}"#,
            "Nope",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&json, text).unwrap();
        let out = run(&["toidl", path_str(&json), path_str(&avdl)], "");
        assert_eq!(code(&out), 1, "{text}");
        let message = stderr(&out);
        assert!(
            message.contains("x.avsc") && message.contains(expected),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(&avdl).unwrap(), "kept");
    }
}

#[test]
fn a_bad_indent_is_a_usage_error() {
    let out = run(&["toidl", "--indent", "two", "-"], "\"int\"");
    assert_eq!(code(&out), 2);
    let out = run(&["toidl", "-"], "\"int\"");
    assert_eq!(
        (code(&out), stdout(&out)),
        (0, "schema int;\n\n".to_owned())
    );
}
