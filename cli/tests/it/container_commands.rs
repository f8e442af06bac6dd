//! The container-file commands on the built `avdl2rs` binary: `cat` (JSON lines, `--pretty`,
//! `--head`, several files, stdin), `getschema`, `getmeta`, `count`, and exit codes 1 for a
//! damaged file (with the block and byte offset) and 2 for usage errors; and `cat` against
//! Python `avro`'s reading of the files it writes.

use std::path::Path;
use std::process::{Command, Output};

use avdl2rs::AvroSchema;
use avdl2rs_container::{Codec, WriterBuilder};
use avdl2rs_container_interop::support::{
    self, avro_files, interop_schema, order_records, python, python_files, run, schema_file,
};
use orders::OrderEvent;

use crate::cli_support::cli_binary;

fn avdl2rs(args: &[&str], stdin: &[u8]) -> Output {
    avdl2rs_tests::run_with_stdin(cli_binary(), args, stdin)
}

fn stdout(output: &Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A file of the first `n` order records, 10 per block.
fn orders_file(dir: &Path, name: &str, n: usize) -> (String, Vec<u8>) {
    let mut writer = WriterBuilder::new()
        .codec(Codec::Zstandard)
        .block_records(10)
        .metadata("producer", "orders-service")
        .build::<OrderEvent, _>(Vec::new())
        .unwrap();
    writer.extend(&order_records()[..n]).unwrap();
    let bytes = writer.finish().unwrap();
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    (path.to_str().unwrap().to_owned(), bytes)
}

/// An order as the JSON encoding writes it (the union `["null", "double"]` wrapped).
fn order_json(order: &OrderEvent) -> serde_json::Value {
    serde_json::json!({
        "id": order.id,
        "amount": order.amount,
        "user_id": order.user_id,
        "currency": order.currency,
        "discount": order.discount.map(|d| serde_json::json!({"double": d})),
    })
}

fn lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn cat_prints_json_lines_of_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let (first, _) = orders_file(dir.path(), "a.avro", 25);
    let (second, bytes) = orders_file(dir.path(), "b.avro", 3);
    let expected: Vec<serde_json::Value> = order_records()[..25]
        .iter()
        .chain(&order_records()[..3])
        .map(order_json)
        .collect();
    assert_eq!(
        lines(&stdout(&avdl2rs(&["cat", &first, &second], b""))),
        expected
    );
    assert_eq!(
        lines(&stdout(&avdl2rs(
            &["cat", "--head", "12", &first, &second],
            b""
        ))),
        expected[..12]
    );
    assert_eq!(
        lines(&stdout(&avdl2rs(&["cat", "-"], &bytes))),
        expected[25..]
    );
    let pretty = stdout(&avdl2rs(&["cat", "--pretty", "--head", "1", &first], b""));
    assert!(pretty.starts_with("{\n  \"id\": 42,\n"), "{pretty}");
    let value: serde_json::Value = serde_json::from_str(&pretty).unwrap();
    assert_eq!(value, expected[0]);
}

#[test]
fn getschema_getmeta_and_count() {
    let dir = tempfile::tempdir().unwrap();
    let (file, bytes) = orders_file(dir.path(), "orders.avro", 25);
    let schema: serde_json::Value =
        serde_json::from_str(&stdout(&avdl2rs(&["getschema", &file], b""))).unwrap();
    let expected: serde_json::Value = serde_json::from_str(OrderEvent::SCHEMA_JSON).unwrap();
    assert_eq!(schema, expected);
    let raw = stdout(&avdl2rs(&["getschema", "--raw", "-"], &bytes));
    assert_eq!(raw, format!("{}\n", OrderEvent::SCHEMA_JSON));

    let meta = stdout(&avdl2rs(&["getmeta", &file], b""));
    assert_eq!(
        meta,
        format!(
            "avro.codec\tzstandard\navro.schema\t{}\nproducer\torders-service\n",
            OrderEvent::SCHEMA_JSON
        )
    );
    let codec = stdout(&avdl2rs(&["getmeta", "--key", "avro.codec", &file], b""));
    assert_eq!(codec, "zstandard\n");
    let missing = avdl2rs(&["getmeta", "--key", "nope", &file], b"");
    assert_eq!(missing.status.code(), Some(1));

    assert_eq!(stdout(&avdl2rs(&["count", &file], b"")), "25\n");
    assert_eq!(stdout(&avdl2rs(&["count", "-"], &bytes)), "25\n");
}

#[test]
fn damaged_files_and_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = orders_file(dir.path(), "orders.avro", 25);
    // Cut inside the last block.
    let cut = &bytes[..bytes.len() - 20];
    for command in ["cat", "count"] {
        let output = avdl2rs(&[command, "-"], cut);
        assert_eq!(output.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("<stdin>: damaged block 2 at byte")
                && stderr.contains("the file ends inside the block"),
            "{command}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let cat = avdl2rs(&["cat", "-"], cut);
    assert_eq!(lines(&String::from_utf8(cat.stdout).unwrap()).len(), 20);

    let not_avro = avdl2rs(&["getschema", "-"], b"{\"type\": \"record\"}");
    assert_eq!(not_avro.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not_avro.stderr).contains("not an Avro object container file"));

    let missing = avdl2rs(&["cat", "/nonexistent/file.avro"], b"");
    assert_eq!(missing.status.code(), Some(1));
    for usage in [&["cat"][..], &["count"], &["cat", "--head", "x", "-"]] {
        assert_eq!(avdl2rs(usage, b"").status.code(), Some(2), "{usage:?}");
    }
}

/// Python `avro` (`AVDL2RS_INTEROP_PYTHON`, installed by `.ci/container-interop`) renders files
/// it wrote with every codec it has in the Avro JSON encoding; `cat` must print the same.
#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn cat_prints_what_python_reads() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let warehouse = schema_file::<warehouse::StockMoved>(dir.path(), "warehouse");
    let mut files = python_files(&python, "interop", &interop_schema(), dir.path());
    files.extend(python_files(&python, "warehouse", &warehouse, dir.path()));
    for (codec, path) in files {
        let theirs = run(avro_files(&python).arg("json").arg(&path));
        let ours = run(Command::new(cli_binary()).arg("cat").arg(&path));
        let parse = |text: &str| -> Vec<serde_json::Value> {
            text.lines()
                .map(|line| serde_json::from_str(line).unwrap())
                .collect()
        };
        let (theirs, ours) = (parse(&theirs), parse(&ours));
        assert_eq!(ours.len(), support::COUNT, "{}", path.display());
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{codec}: record {i} of {}", path.display());
        }
        assert_eq!(ours.len(), theirs.len());
    }
}
