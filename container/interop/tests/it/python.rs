//! Container files exchanged with Python `avro` 1.12, installed by `.ci/container-interop`
//! (`AVDL2RS_INTEROP_PYTHON`): files it writes with every codec it has read into generated
//! types with the same values, and files we write it reads back equal. (That `avdl2rs cat`
//! prints what Python reads is a test of the CLI's.)

use avdl2rs_container_interop::support;

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use support::{
    avro_files, check_file, interop_records, interop_schema, order_records, python, python_files,
    run, schema_file, warehouse_records, write_file, PYTHON_CODECS,
};

fn reads_python_files<T>(name: &str, schema: impl FnOnce(&Path) -> PathBuf, expected: &[T])
where
    T: AvroSchema + AvroDecode + PartialEq + Debug,
{
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let schema = schema(dir.path());
    for (codec, path) in python_files(&python, name, &schema, dir.path()) {
        check_file(name, codec, &path, expected);
    }
}

fn python_reads_our_files<T>(name: &str, records: &[T])
where
    T: AvroSchema + AvroEncode,
{
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    for codec in PYTHON_CODECS {
        let path = dir.path().join(format!("{name}-{codec}.avro"));
        write_file(&path, codec, records);
        let said = run(avro_files(&python).args(["check", name]).arg(&path));
        assert_eq!(said.trim(), "ok", "{name}, {codec}");
    }
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn python_interop_files_read_into_generated_types() {
    reads_python_files("interop", |_| interop_schema(), &interop_records());
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn python_example_files_read_into_generated_types() {
    reads_python_files(
        "orders",
        |dir| schema_file::<orders::OrderEvent>(dir, "orders"),
        &order_records(),
    );
    reads_python_files(
        "warehouse",
        |dir| schema_file::<warehouse::StockMoved>(dir, "warehouse"),
        &warehouse_records(),
    );
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn python_reads_our_files_with_every_codec() {
    python_reads_our_files("interop", &interop_records());
    python_reads_our_files("orders", &order_records());
    python_reads_our_files("warehouse", &warehouse_records());
}
