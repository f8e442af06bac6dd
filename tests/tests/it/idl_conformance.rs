//! Every reference case `conformance/idl/input/<case>.avdl` that has an expected
//! `output/<case>.avpr` or `output/<case>.avsc` must give exactly that JSON (key order aside).
//! Cases are discovered from the folders, so new ones are checked without code changes; all
//! failures are reported together.

use std::path::Path;

use avdl2rs_tests::{idl_include_dirs, idl_reference_cases, json_diff};

/// The problems of one case, empty when it passes.
fn check(input: &Path, expected: &Path) -> Vec<String> {
    let options = avdl_parser::ParseOptions {
        include_dirs: idl_include_dirs(input).to_vec(),
    };
    let expected_text = std::fs::read_to_string(expected).expect("readable expected output");
    let expected_json: serde_json::Value =
        serde_json::from_str(&expected_text).expect("expected output is JSON");
    match avdl_parser::parse_file(input, &options) {
        Ok(file) => {
            let mut problems = json_diff(&expected_json, file.json());
            // The text the `idl` command prints is written without the `Value`: check it too.
            match serde_json::from_str(&file.to_json_string(true)) {
                Ok(text) => problems.extend(
                    json_diff(&expected_json, &text)
                        .into_iter()
                        .map(|p| format!("written text: {p}")),
                ),
                Err(e) => problems.push(format!("written text is not JSON: {e}")),
            }
            let wants_protocol = expected.extension().is_some_and(|e| e == "avpr");
            if file.is_protocol() != wants_protocol {
                problems.push(format!("is_protocol() = {}", file.is_protocol()));
            }
            problems
        }
        Err(e) => vec![format!("parse failed: {e:?}")],
    }
}

#[test]
fn every_reference_case_gives_the_reference_json() {
    let cases = idl_reference_cases();
    assert!(!cases.is_empty(), "no IDL conformance cases");
    let mut failures = Vec::new();
    for (input, expected) in &cases {
        let problems = check(input, expected);
        if !problems.is_empty() {
            let shown: Vec<&str> = problems.iter().take(20).map(String::as_str).collect();
            failures.push(format!(
                "{}:\n    {}",
                input.display(),
                shown.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} IDL conformance cases differ from the reference:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
