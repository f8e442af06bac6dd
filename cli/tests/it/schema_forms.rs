//! `avdl2rs canonical` and `avdl2rs fingerprint` on every conformance `.avsc` and on each
//! named type of every conformance `.avpr`, against `fastavro`'s Parsing Canonical Form and
//! fingerprints, computed by `tests/scripts/schema_forms.py`. fastavro gives the CRC-64 as the
//! 8 bytes single-object headers carry, least significant first, so the comparison checks the
//! printed byte order too. (Python `avro` 1.12 is no reference here: it writes `{"type":"int"}`
//! for a primitive with properties and defines a named type again inside a union.)

use std::path::Path;
use std::process::Command;

use avdl2rs_container_interop::support::{python, run};
use serde_json::Value;

use crate::cli_support::{code, path_str, run as avdl2rs, stderr, stdout};

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/schema_forms.py")
}

/// What Python says of each schema of `file`.
fn python_forms(python: &Path, file: &Path) -> Vec<Value> {
    run(Command::new(python).arg(script()).arg(file))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Our output of `command` on `file`, with `--type` when `name` is given.
fn ours(command: &[&str], file: &Path, name: &Value) -> String {
    let mut args = command.to_vec();
    args.push(path_str(file));
    if let Some(name) = name.as_str() {
        args.extend(["--type", name]);
    }
    let output = avdl2rs(&args, "");
    assert_eq!(code(&output), 0, "{args:?}: {}", stderr(&output));
    stdout(&output).trim_end().to_owned()
}

#[test]
#[ignore = "needs Python fastavro (.ci/container-interop)"]
fn canonical_forms_and_fingerprints_agree_with_fastavro() {
    let python = python();
    let files = avdl2rs_tests::conformance_files("schemas", &["avsc", "avpr"])
        .into_iter()
        .chain(avdl2rs_tests::conformance_files(
            "idl/output",
            &["avsc", "avpr"],
        ));
    let mut compared = 0;
    for file in files {
        for expected in python_forms(&python, &file) {
            let name = &expected["name"];
            let at = format!("{} {name}", file.display());
            assert_eq!(
                ours(&["canonical"], &file, name),
                expected["canonical"],
                "{at}"
            );
            for algorithm in ["crc64", "md5", "sha256"] {
                let printed = ours(&["fingerprint", "--algorithm", algorithm], &file, name);
                assert_eq!(printed, expected[algorithm], "{at} {algorithm}");
            }
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} schemas compared");
}

#[test]
fn crc64_is_the_default() {
    let file = avdl2rs_tests::conformance_dir().join("schemas/weather.avsc");
    let default = ours(&["fingerprint"], &file, &Value::Null);
    assert_eq!(
        default,
        ours(
            &["fingerprint", "--algorithm", "crc64"],
            &file,
            &Value::Null
        )
    );
    assert_eq!(default.len(), 18, "{default}");
}

#[test]
fn several_types_need_a_choice() {
    let file = avdl2rs_tests::conformance_dir().join("schemas/simple.avpr");
    let output = avdl2rs(&["canonical", path_str(&file)], "");
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("name one with --type"),
        "{}",
        stderr(&output)
    );
    let output = avdl2rs(&["fingerprint", path_str(&file), "--type", "Nope"], "");
    assert_eq!(code(&output), 1);
    let output = avdl2rs(&["fingerprint", "--algorithm", "sha1", path_str(&file)], "");
    assert_eq!(code(&output), 2);
}
