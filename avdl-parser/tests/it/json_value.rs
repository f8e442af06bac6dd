//! The compiled `Value` (`IdlFile::json`), which the linter, the language server and code
//! generation read, is built apart from the text `avdl2rs idl` prints: it must be the same
//! JSON, key order and numbers included, for every input, and the reference tools' JSON for
//! each of their cases.

use avdl2rs_tests::{idl_include_dirs, idl_reference_cases};
use serde_json::Value;

use crate::syntax_inputs;

/// Compact text keeps the key order, which `Value`'s equality ignores.
fn compact(value: &Value) -> String {
    serde_json::to_string(value).expect("a Value prints")
}

#[test]
fn the_value_is_the_reference_json_key_order_included() {
    let cases = idl_reference_cases();
    assert!(!cases.is_empty(), "no IDL conformance cases");
    let mut failures = Vec::new();
    for (input, expected) in &cases {
        let options = avdl_parser::ParseOptions {
            include_dirs: idl_include_dirs(input).to_vec(),
        };
        let file = avdl_parser::parse_file(input, &options)
            .unwrap_or_else(|e| panic!("{}: {e:?}", input.display()));
        let text = std::fs::read_to_string(expected).expect("readable expected output");
        let reference: Value = serde_json::from_str(&text).expect("expected output is JSON");
        if compact(file.json()) != compact(&reference) {
            failures.push(input.display().to_string());
        }
    }
    assert!(failures.is_empty(), "values differ: {failures:#?}");
}

#[test]
fn the_value_prints_as_the_written_text_for_every_input() {
    let mut compiled = 0;
    for input in syntax_inputs::all() {
        let options = syntax_inputs::options_for(&input.path);
        let Ok(file) = avdl_parser::parse_file(&input.path, &options) else {
            continue;
        };
        compiled += 1;
        let printed = serde_json::to_string_pretty(file.json()).expect("a Value prints");
        assert_eq!(
            printed,
            file.to_json_string(true),
            "{}",
            input.path.display()
        );
    }
    assert!(compiled > 20, "only {compiled} inputs compiled");
}
