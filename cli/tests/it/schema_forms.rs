//! `avdl2rs canonical` and `avdl2rs fingerprint` on every conformance `.avsc` and on each
//! named type of every conformance `.avpr`, against `fastavro`'s Parsing Canonical Form and
//! fingerprints, computed by `tests/scripts/schema_forms.py`. fastavro gives the CRC-64 as the
//! 8 bytes single-object headers carry, least significant first, as avro-tools prints them and
//! as `fingerprint` does by default, so the comparison checks the printed byte order too. (Python `avro` 1.12 is no reference here: it writes `{"type":"int"}`
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
                let digest = expected[algorithm].as_str().unwrap();
                assert_eq!(printed, format!("{digest} {}", file.display()), "{at}");
            }
            let value = expected["crc64_value"].as_u64().unwrap();
            let decimal = ours(&["fingerprint", "--format", "u64"], &file, name);
            assert_eq!(decimal, value.to_string(), "{at}");
            let prefixed = ours(&["fingerprint", "--format", "0x"], &file, name);
            assert_eq!(prefixed, format!("{value:#018x}"), "{at}");
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
    let (digest, name) = default.split_once(' ').unwrap();
    assert_eq!((digest.len(), name), (16, path_str(&file)), "{default}");
}

/// The 64-bit fingerprint by the specification's own pseudo-code ("Schema Fingerprints"),
/// written out here independently of the schema crate's table-driven one.
fn spec_fingerprint64(bytes: &[u8]) -> u64 {
    const EMPTY: u64 = 0xc15d_213a_a4d7_a795;
    let table: Vec<u64> = (0..256u64)
        .map(|i| (0..8).fold(i, |fp, _| (fp >> 1) ^ (EMPTY & (fp & 1).wrapping_neg())))
        .collect();
    bytes.iter().fold(EMPTY, |fp, &byte| {
        (fp >> 8) ^ table[((fp ^ u64::from(byte)) & 0xff) as usize]
    })
}

#[test]
fn crc64_bytes_are_the_spec_value_least_significant_first() {
    let dir = tempfile::tempdir().unwrap();
    for (schema, canonical) in [
        (r#""int""#, r#""int""#),
        (
            r#"{"type": "record", "name": "R", "namespace": "n", "fields": [{"name": "a", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}"#,
            r#"{"name":"n.R","type":"record","fields":[{"name":"a","type":"long"}]}"#,
        ),
    ] {
        let file = dir.path().join("s.avsc");
        std::fs::write(&file, schema).unwrap();
        let value = spec_fingerprint64(canonical.as_bytes());
        let bytes: String = value
            .to_le_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let printed = ours(&["fingerprint"], &file, &Value::Null);
        assert_eq!(printed, format!("{bytes} {}", file.display()), "{schema}");
        let decimal = ours(&["fingerprint", "--format", "int"], &file, &Value::Null);
        assert_eq!(decimal, value.to_string(), "{schema}");
    }
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

#[test]
fn only_crc64_is_a_number() {
    let file = avdl2rs_tests::conformance_dir().join("schemas/weather.avsc");
    for format in ["0x", "u64"] {
        let args = ["fingerprint", "--algorithm", "md5", "--format", format];
        let output = avdl2rs(&[&args[..], &[path_str(&file)]].concat(), "");
        assert_eq!(code(&output), 2, "{format}");
        assert!(
            stderr(&output).contains("only --algorithm crc64"),
            "{format}"
        );
    }
}
