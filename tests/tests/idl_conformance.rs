//! Every reference case `conformance/idl/input/<case>.avdl` that has an expected
//! `output/<case>.avpr` or `output/<case>.avsc` must give exactly that JSON (key order aside).
//! Cases are discovered from the folders, so new ones are checked without code changes; all
//! failures are reported together.

use std::path::{Path, PathBuf};

use avdl2rs_tests::{conformance_dir, files_with_extension, json_diff};

/// The input files that have an expected output, with that output.
fn cases(idl: &Path) -> Vec<(PathBuf, PathBuf)> {
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

/// The problems of one case, empty when it passes.
fn check(idl: &Path, input: &Path, expected: &Path) -> Vec<String> {
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![idl.join("input"), idl.join("classpath")],
    };
    let expected_text = std::fs::read_to_string(expected).expect("readable expected output");
    let expected_json: serde_json::Value =
        serde_json::from_str(&expected_text).expect("expected output is JSON");
    match avdl_parser::parse_file(input, &options) {
        Ok(file) => {
            let mut problems = json_diff(&expected_json, file.json());
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
    let idl = conformance_dir().join("idl");
    let cases = cases(&idl);
    assert!(
        !cases.is_empty(),
        "no IDL conformance cases in {}",
        idl.display()
    );
    let mut failures = Vec::new();
    for (input, expected) in &cases {
        let problems = check(&idl, input, expected);
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
