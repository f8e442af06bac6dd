//! `avdl2rs compat`, run as a process: exit codes (0 compatible, 1 incompatible, 2 the check
//! could not run), the text and JSON reports, protocols and IDL with `--type`, and
//! `--against-git` reading previous versions from a repository's history.

use std::path::Path;
use std::process::{Command, Output};

use crate::cli_support::{cli_binary, code, stdout};
use avdl2rs_tests::git;
use serde_json::Value;

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(cli_binary())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("avdl2rs starts")
}

fn record(fields: &str) -> String {
    format!(r#"{{"type":"record","name":"Payment","namespace":"shop","fields":[{fields}]}}"#)
}

const V1: &str = r#"{"name":"id","type":"string"},{"name":"amount","type":"int"}"#;
const V2_DEFAULTED: &str = r#"{"name":"id","type":"string"},{"name":"amount","type":"int"},{"name":"currency","type":"string","default":"EUR"}"#;
const V3_REQUIRED: &str = r#"{"name":"id","type":"string"},{"name":"amount","type":"int"},{"name":"currency","type":"string"}"#;

/// A temporary folder with the schema files `(name, text)`.
fn folder(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn exit_codes_say_compatible_incompatible_or_unusable() {
    let dir = folder(&[
        ("v1.avsc", record(V1)),
        ("v2.avsc", record(V2_DEFAULTED)),
        ("v3.avsc", record(V3_REQUIRED)),
        ("bad.avsc", r#"{"type":"record","name":"X"}"#.into()),
    ]);
    let d = dir.path();
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "FULL", "v2.avsc", "v1.avsc"]
        )),
        0
    );
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "BACKWARD", "v3.avsc", "v1.avsc"]
        )),
        1
    );
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "NONE", "v3.avsc", "v1.avsc"]
        )),
        0
    );
    // Non-transitive checks only the latest version, transitive all of them.
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "BACKWARD", "v3.avsc", "v1.avsc", "v2.avsc"]
        )),
        0
    );
    let transitive = run_in(
        d,
        &[
            "compat",
            "--level",
            "BACKWARD_TRANSITIVE",
            "v3.avsc",
            "v1.avsc",
            "v2.avsc",
        ],
    );
    assert_eq!(code(&transitive), 1);
    // The check cannot run: unknown level, missing file, invalid schema, no arguments.
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "SIDEWAYS", "v2.avsc", "v1.avsc"]
        )),
        2
    );
    assert_eq!(
        code(&run_in(
            d,
            &["compat", "--level", "FULL", "v2.avsc", "missing.avsc"]
        )),
        2
    );
    let bad = run_in(d, &["compat", "--level", "FULL", "v2.avsc", "bad.avsc"]);
    assert_eq!(code(&bad), 2);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad.avsc"));
    assert_eq!(code(&run_in(d, &["compat"])), 2);
}

#[test]
fn the_text_report_names_version_direction_location_and_both_fragments() {
    let dir = folder(&[("v1.avsc", record(V1)), ("v3.avsc", record(V3_REQUIRED))]);
    let output = run_in(
        dir.path(),
        &["compat", "--level", "FULL", "v3.avsc", "v1.avsc"],
    );
    assert_eq!(code(&output), 1);
    let text = stdout(&output);
    assert!(
        text.starts_with("incompatible: v3.avsc (shop.Payment) at FULL"),
        "{text}"
    );
    assert!(
        text.contains("the new schema cannot read data written with v1.avsc"),
        "{text}"
    );
    assert!(text.contains("at /fields/currency:"), "{text}");
    assert!(text.contains("[READER_FIELD_MISSING_DEFAULT]"), "{text}");
    // Fragments as long as a whole record are left to the JSON report.
    assert!(!text.contains("{\"type\":\"record\""), "{text}");
    let ok = run_in(
        dir.path(),
        &["compat", "--level", "FORWARD", "v3.avsc", "v1.avsc"],
    );
    assert_eq!(
        stdout(&ok),
        "compatible: v3.avsc (shop.Payment) at FORWARD against 1 previous version(s)\n"
    );
}

#[test]
fn the_json_report_lists_every_violation() {
    let changed = r#"{"name":"id","type":"long"},{"name":"amount","type":"string"}"#;
    let dir = folder(&[("v1.avsc", record(V1)), ("v2.avsc", record(changed))]);
    let output = run_in(
        dir.path(),
        &[
            "compat", "--level", "FULL", "v2.avsc", "v1.avsc", "--format", "json",
        ],
    );
    assert_eq!(code(&output), 1);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["compatible"], false);
    assert_eq!(report["level"], "FULL");
    assert_eq!(report["schema"], "shop.Payment");
    let found: Vec<(String, String, String)> = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap().to_owned();
            (s("direction"), s("kind"), s("location"))
        })
        .collect();
    let expected = [
        ("backward", "TYPE_MISMATCH", "/fields/id/type"),
        ("backward", "TYPE_MISMATCH", "/fields/amount/type"),
        ("forward", "TYPE_MISMATCH", "/fields/id/type"),
        ("forward", "TYPE_MISMATCH", "/fields/amount/type"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(found, expected);
    assert_eq!(report["violations"][0]["against"], "v1.avsc");
    assert_eq!(report["violations"][0]["reader"], "long");
    assert_eq!(report["violations"][0]["writer"], "string");
}

#[test]
fn protocols_and_idl_files_are_checked_type_by_type() {
    let idl_v1 = "@namespace(\"shop\")\nprotocol Shop {\n enum Status { NEW, PAID }\n record Payment { string id; Status status; }\n}\n";
    let idl_v2 = "@namespace(\"shop\")\nprotocol Shop {\n enum Status { NEW, PAID, REFUNDED }\n record Payment { string id; Status status; }\n}\n";
    let dir = folder(&[("v1.avdl", idl_v1.into()), ("v2.avdl", idl_v2.into())]);
    let d = dir.path();
    // Without --type every shared named type is checked: the enum fails forward on its own.
    let no_type = ["compat", "--level", "FORWARD", "v2.avdl", "v1.avdl"];
    let output = run_in(d, &no_type);
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output)
            .contains("  shop.Status: v1.avdl cannot read data written with the new schema\n"),
        "{}",
        stdout(&output)
    );
    let backward = ["compat", "--level", "BACKWARD", "v2.avdl", "v1.avdl"];
    assert_eq!(code(&run_in(d, &backward)), 0);
    let args = [
        "compat",
        "--type",
        "shop.Payment",
        "v2.avdl",
        "v1.avdl",
        "--level",
    ];
    let backward = [&args[..], &["BACKWARD"]].concat();
    let forward = [&args[..], &["FORWARD"]].concat();
    assert_eq!(code(&run_in(d, &backward)), 0);
    let output = run_in(d, &forward);
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).contains("REFUNDED"), "{}", stdout(&output));
    // Versions may be in different formats: the old one as the JSON the IDL stands for.
    let v1_json = r#"{"protocol":"Shop","namespace":"shop","types":[
        {"type":"enum","name":"Status","symbols":["NEW","PAID"]},
        {"type":"record","name":"Payment","fields":[{"name":"id","type":"string"},{"name":"status","type":"Status"}]}]}"#;
    std::fs::write(d.join("v1.avpr"), v1_json).unwrap();
    let mixed = [
        "compat",
        "--type",
        "shop.Payment",
        "--level",
        "BACKWARD",
        "v2.avdl",
        "v1.avpr",
    ];
    assert_eq!(code(&run_in(d, &mixed)), 0);
    let mixed_forward = [
        "compat",
        "--type",
        "shop.Payment",
        "--level",
        "FORWARD",
        "v2.avdl",
        "v1.avpr",
    ];
    assert_eq!(code(&run_in(d, &mixed_forward)), 1);
    // A simple name works when it is unique.
    let simple = [
        "compat", "--type", "Payment", "--level", "BACKWARD", "v2.avdl", "v1.avdl",
    ];
    assert_eq!(code(&run_in(d, &simple)), 0);
}

#[test]
fn against_git_reads_previous_versions_from_history() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("schemas")).unwrap();
    let file = d.join("schemas/payment.avsc");
    git(d, &["init", "-q"]);
    std::fs::write(&file, record(V1)).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "v1"]);
    git(d, &["tag", "v1"]);
    std::fs::write(&file, record(V2_DEFAULTED)).unwrap();
    git(d, &["commit", "-q", "-am", "v2"]);
    // The working copy: a required field the history never wrote.
    std::fs::write(&file, record(V3_REQUIRED)).unwrap();

    let against_head = [
        "compat",
        "--level",
        "BACKWARD",
        "schemas/payment.avsc",
        "--against-git",
        "HEAD",
    ];
    assert_eq!(code(&run_in(d, &against_head)), 0);
    let both = [
        "compat",
        "--level",
        "BACKWARD_TRANSITIVE",
        "schemas/payment.avsc",
        "--against-git",
        "v1",
        "--against-git",
        "HEAD",
        "--format",
        "json",
    ];
    let output = run_in(d, &both);
    assert_eq!(code(&output), 1);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        report["previous"],
        serde_json::json!(["v1:schemas/payment.avsc", "HEAD:schemas/payment.avsc"])
    );
    assert_eq!(report["violations"].as_array().unwrap().len(), 1);
    assert_eq!(report["violations"][0]["version"], 0);
    // From a subdirectory, and with a revision that does not exist.
    let from_sub = [
        "compat",
        "--level",
        "BACKWARD",
        "payment.avsc",
        "--against-git",
        "HEAD",
    ];
    assert_eq!(code(&run_in(&d.join("schemas"), &from_sub)), 0);
    let missing = [
        "compat",
        "--level",
        "BACKWARD",
        "schemas/payment.avsc",
        "--against-git",
        "nope",
    ];
    let output = run_in(d, &missing);
    assert_eq!(code(&output), 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("git revision nope"));
}
