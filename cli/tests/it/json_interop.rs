//! `fromjson` and `tojson` against Python: `fastavro`'s `json_writer` writes the same JSON as
//! `tojson` for the same file, and `fromjson` reads it back into the same records, on the
//! examples' records and on random records of the conformance schemas; Python `avro` reads
//! the files `fromjson` writes. `fastavro`'s JSON grammar recurses without end on a recursive
//! type, so the interop schema (its `Node`) is left out of the JSON comparison.

use std::path::Path;
use std::process::Command;

use avdl2rs_container::Codec;
use avdl2rs_container_interop::support::{
    avro_files, order_records, python, run, schema_file, script, write_file,
};
use orders::OrderEvent;
use serde_json::Value;

use crate::cli_support::{code, path_str, run as avdl2rs, stderr, stdout};

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn succeeds(args: &[&str]) -> String {
    let output = avdl2rs(args, "");
    assert_eq!(code(&output), 0, "{args:?}: {}", stderr(&output));
    stdout(&output)
}

/// fastavro's JSON of `file` equals ours, and `fromjson` of it gives a file of the same JSON
/// (and of the same records, for Python avro when `check` names them).
fn agrees(python: &Path, schema: &Path, file: &Path, check: Option<&str>) {
    let theirs = run(Command::new(python)
        .arg(script("fastavro_json.py"))
        .arg("json")
        .arg(schema)
        .arg(file));
    let ours = succeeds(&["tojson", path_str(file)]);
    assert_eq!(lines(&ours), lines(&theirs), "{}", file.display());
    let json = file.with_extension("jsonl");
    std::fs::write(&json, &theirs).unwrap();
    let back = file.with_extension("back.avro");
    succeeds(&[
        "fromjson",
        "--schema",
        path_str(schema),
        "--codec",
        "deflate",
        path_str(&json),
        "-o",
        path_str(&back),
    ]);
    assert_eq!(
        lines(&succeeds(&["tojson", path_str(&back)])),
        lines(&theirs)
    );
    if let Some(name) = check {
        let verdict = run(avro_files(python).args(["check", name]).arg(&back));
        assert_eq!(verdict.trim(), "ok");
    }
}

#[test]
#[ignore = "needs Python fastavro and avro (.ci/container-interop)"]
fn fastavro_and_python_agree_with_fromjson_and_tojson() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let orders = schema_file::<OrderEvent>(dir.path(), "orders");
    let file = dir.path().join("orders.avro");
    write_file(&file, Codec::Null, &order_records());
    agrees(&python, &orders, &file, Some("orders"));
    let mut compared = 0;
    for schema in avdl2rs_tests::conformance_files("schemas", &["avsc"]) {
        if schema
            .file_name()
            .is_some_and(|name| name == "interop.avsc")
        {
            continue;
        }
        let file = dir
            .path()
            .join(schema.file_name().unwrap())
            .with_extension("avro");
        succeeds(&[
            "random",
            "--schema",
            path_str(&schema),
            "--count",
            "200",
            "--seed",
            "3",
            "-o",
            path_str(&file),
        ]);
        agrees(&python, &schema, &file, None);
        compared += 1;
    }
    assert!(compared >= 2, "{compared} conformance schemas");
}
