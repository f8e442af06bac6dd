//! The feature cases in `tests/cases/`: each `<case>.avdl` with an expected `<case>.avpr` or
//! `<case>.avsc` beside it (written by hand from the language document and the reference
//! behaviour) must give exactly that JSON. `include/` holds files the cases import.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn expected_for(input: &Path) -> Option<PathBuf> {
    ["avpr", "avsc"]
        .iter()
        .map(|ext| input.with_extension(ext))
        .find(|p| p.is_file())
}

#[test]
fn every_case_gives_its_expected_json() {
    let dir = cases_dir();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("cases folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "avdl"))
        .collect();
    inputs.sort();
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![dir.join("include")],
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for input in &inputs {
        let Some(expected_path) = expected_for(input) else {
            continue;
        };
        checked += 1;
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        match avdl_parser::parse_file(input, &options) {
            Ok(file) if *file.json() == expected => {
                failures.extend(text_differs(&file).map(|e| format!("{}: {e}", input.display())));
                let wants_protocol = expected_path.extension().is_some_and(|e| e == "avpr");
                if file.is_protocol() != wants_protocol {
                    failures.push(format!(
                        "{}: is_protocol() = {}",
                        input.display(),
                        file.is_protocol()
                    ));
                }
            }
            Ok(file) => failures.push(format!(
                "{}:\n  expected {}\n  found    {}",
                input.display(),
                expected,
                file.json()
            )),
            Err(e) => failures.push(format!("{}: {e:?}", input.display())),
        }
    }
    assert!(
        checked >= 10,
        "only {checked} cases found in {}",
        dir.display()
    );
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whether the JSON text written straight from the syntax tree differs from serde_json's
/// printing of the file's `Value`, pretty or compact.
fn text_differs(file: &avdl_parser::IdlFile) -> Option<String> {
    let pretty = serde_json::to_string_pretty(file.json()).unwrap();
    let compact = serde_json::to_string(file.json()).unwrap();
    if file.to_json_string(true) != pretty {
        Some(format!(
            "pretty text differs:\n{}",
            file.to_json_string(true)
        ))
    } else if file.to_json_string(false) != compact {
        Some(format!(
            "compact text differs:\n{}",
            file.to_json_string(false)
        ))
    } else {
        None
    }
}

#[test]
fn files_read_lists_the_root_and_each_import_once() {
    let dir = cases_dir();
    let options = avdl_parser::ParseOptions::default();
    let file = avdl_parser::parse_file(dir.join("imports.avdl"), &options).unwrap();
    let names: Vec<String> = file
        .files_read()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "imports.avdl",
            "cycle_a.avdl",
            "cycle_b.avdl",
            "commented.avsc",
            "messages.avpr"
        ]
    );
}

#[test]
fn named_schemas_are_self_contained() {
    let file = avdl_parser::parse_file(cases_dir().join("spec_protocol.avdl"), &Default::default())
        .unwrap();
    let schemas = file.named_schemas().unwrap();
    let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "org.apache.avro.test.Kind",
            "org.apache.avro.test.MD5",
            "org.apache.avro.test.TestRecord",
            "org.apache.avro.test.TestError"
        ]
    );
    // The record's schema file inlines the enum and the fixed it uses, with explicit namespaces
    // since each file starts without an enclosing namespace: the schema-mode expectation.
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(cases_dir().join("spec_schema.avsc")).unwrap(),
    )
    .unwrap();
    assert_eq!(schemas[2].1, expected);
    assert_eq!(schemas[0].1["namespace"], "org.apache.avro.test");
}

#[test]
fn parse_str_reads_text_and_resolves_imports_in_include_dirs() {
    let dir = cases_dir();
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![dir.join("include")],
    };
    let text = "protocol S { import idl \"cycle_b.avdl\"; record Uses { b.B b; } }";
    let file = avdl_parser::parse_str(text, "<stdin>", &options).unwrap();
    let types: Vec<&str> = file.json()["types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["A", "B", "Uses"]);
    assert_eq!(file.files_read().len(), 2);
}
