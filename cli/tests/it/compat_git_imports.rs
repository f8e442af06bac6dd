//! `avdl2rs compat` as a CI job runs it, in a scratch git repository whose IDL files import a
//! shared file: previous versions are read entirely from the revision (imports and include
//! directories too), every shared named type is checked without `--type`, a file new since
//! the revision is a first version, and failures of `--format json` still write JSON.

use std::path::Path;
use std::process::{Command, Output};

use crate::cli_support::{cli_binary, stdout};
use avdl2rs_tests::git;
use serde_json::Value;

const MONEY_V1: &str =
    "@namespace(\"shop\")\nprotocol Money {\n  record Money { long cents; }\n}\n";
/// A field without a default: data written with v1 cannot be read any more.
const MONEY_V2: &str =
    "@namespace(\"shop\")\nprotocol Money {\n  record Money { long cents; string currency; }\n}\n";
const ORDERS: &str = "@namespace(\"shop\")\nprotocol Orders {\n  import idl \"shared/money.avdl\";\n  enum Status { NEW, PAID }\n  record Order { string id; Status status; Money total; }\n}\n";
/// Imports through an include directory, not beside itself.
const PAYMENTS: &str = "@namespace(\"shop\")\nprotocol Payments {\n  import idl \"money.avdl\";\n  record Payment { string id; Money amount; }\n}\n";

fn avdl2rs(dir: &Path, args: &[&str]) -> Output {
    Command::new(cli_binary())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("avdl2rs starts")
}

/// `avdl2rs compat --level LEVEL ARGS…` run in `dir`.
fn compat(dir: &Path, level: &str, args: &[&str]) -> Output {
    avdl2rs(dir, &[&["compat", "--level", level][..], args].concat())
}

/// A repository whose last commit has the v1 shared file, with v2 in the working tree.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("schemas/shared")).unwrap();
    std::fs::write(d.join("schemas/shared/money.avdl"), MONEY_V1).unwrap();
    std::fs::write(d.join("schemas/orders.avdl"), ORDERS).unwrap();
    std::fs::write(d.join("schemas/payments.avdl"), PAYMENTS).unwrap();
    git(d, &["init", "-q"]);
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "v1"]);
    std::fs::write(d.join("schemas/shared/money.avdl"), MONEY_V2).unwrap();
    dir
}

#[test]
fn a_breaking_change_to_an_imported_file_fails_every_importer() {
    let repo = repository();
    let d = repo.path();
    let orders = compat(
        d,
        "BACKWARD",
        &["schemas/orders.avdl", "--against-git", "HEAD"],
    );
    let text = stdout(&orders);
    assert_eq!(orders.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("incompatible: schemas/orders.avdl (shop.Money, shop.Status, shop.Order) at BACKWARD against 1 previous version(s): 2 problem(s)\n"),
        "{text}"
    );
    // The problem is named once per type and version, without the schemas in full.
    assert!(
        text.contains("  shop.Money: the new schema cannot read data written with HEAD:schemas/orders.avdl\n    at /fields/currency:"),
        "{text}"
    );
    assert!(!text.contains("\"fields\""), "{text}");

    let payments = compat(
        d,
        "BACKWARD",
        &[
            "-I",
            "schemas/shared",
            "schemas/payments.avdl",
            "--against-git",
            "HEAD",
            "--format",
            "json",
        ],
    );
    assert_eq!(payments.status.code(), Some(1), "{}", stdout(&payments));
    let report: Value = serde_json::from_str(&stdout(&payments)).unwrap();
    assert_eq!(
        report["types"],
        serde_json::json!(["shop.Money", "shop.Payment"])
    );
    let types: Vec<&str> = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["shop.Money", "shop.Payment"]);

    // Once committed, the same change is no longer a difference from HEAD.
    git(d, &["commit", "-q", "-am", "v2"]);
    let again = compat(
        d,
        "BACKWARD",
        &["schemas/orders.avdl", "--against-git", "HEAD"],
    );
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    // ... and against the first commit, from a subdirectory, it still fails.
    let first = compat(
        &d.join("schemas"),
        "BACKWARD",
        &["orders.avdl", "--against-git", "HEAD~1"],
    );
    assert_eq!(first.status.code(), Some(1), "{}", stdout(&first));
}

#[test]
fn new_files_new_types_and_removed_types_are_reported() {
    let repo = repository();
    let d = repo.path();
    std::fs::write(
        d.join("schemas/refunds.avdl"),
        ORDERS.replace("Orders", "Refunds"),
    )
    .unwrap();
    let refunds = compat(
        d,
        "FULL",
        &["schemas/refunds.avdl", "--against-git", "HEAD"],
    );
    let text = stdout(&refunds);
    assert_eq!(refunds.status.code(), Some(0), "{text}");
    assert!(text.starts_with("compatible: "), "{text}");
    assert!(
        text.contains("HEAD:schemas/refunds.avdl does not exist: a first version there"),
        "{text}"
    );
    // A type added and a type removed: the first is new, the second is listed.
    let changed = ORDERS
        .replace("enum Status { NEW, PAID }", "enum State { NEW, PAID }")
        .replace("Status status;", "State status = \"NEW\";");
    std::fs::write(d.join("schemas/orders.avdl"), changed).unwrap();
    std::fs::write(d.join("schemas/shared/money.avdl"), MONEY_V1).unwrap();
    let orders = compat(
        d,
        "BACKWARD",
        &[
            "schemas/orders.avdl",
            "--against-git",
            "HEAD",
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_str(&stdout(&orders)).unwrap();
    assert_eq!(report["new_types"], serde_json::json!(["shop.State"]));
    assert_eq!(report["removed_types"], serde_json::json!(["shop.Status"]));
    // Order's field changed its enum's name: a reader cannot match the old one.
    let kinds: Vec<&str> = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["NAME_MISMATCH"], "{report}");
    assert_eq!(orders.status.code(), Some(1));
}

#[test]
fn a_check_that_cannot_run_still_writes_json() {
    let repo = repository();
    let output = compat(
        repo.path(),
        "BACKWARD",
        &[
            "schemas/orders.avdl",
            "--against-git",
            "no-such-revision",
            "--format",
            "json",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["compatible"], Value::Null);
    let error = report["error"].as_str().unwrap();
    assert!(error.contains("no-such-revision"), "{error}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-revision"));
}
