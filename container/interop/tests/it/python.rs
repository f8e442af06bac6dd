//! Container files exchanged with Python `avro` 1.12, installed by `.ci/container-interop`
//! (`AVDL2RS_INTEROP_PYTHON`): files it writes with every codec it has read into generated
//! types with the same values, files we write it reads back equal, and `avdl2rs cat` prints
//! what Python reads, in the Avro JSON encoding.

use crate::support;

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Command;

use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_container::Codec;
use support::{
    check_file, external, interop_records, interop_schema, order_records, run, script,
    warehouse_records, write_file,
};

/// The codecs Python writes: all but `xz`, which it does not have.
const PYTHON_CODECS: [Codec; 5] = [
    Codec::Null,
    Codec::Deflate,
    Codec::Snappy,
    Codec::Zstandard,
    Codec::Bzip2,
];

fn python() -> Option<PathBuf> {
    external("AVDL2RS_INTEROP_PYTHON")
}

fn avro_files(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.arg(script("avro_files.py"));
    command
}

/// The schema file of a generated type, written into `dir`.
fn schema_file<T: AvroSchema>(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.avsc"));
    std::fs::write(&path, T::SCHEMA_JSON).unwrap();
    path
}

/// Has Python write `name`'s records with every codec; returns the files by codec.
fn python_files(python: &Path, name: &str, schema: &Path, dir: &Path) -> Vec<(Codec, PathBuf)> {
    let codecs = run(avro_files(python)
        .args(["write", name])
        .arg(schema)
        .arg(dir));
    let written: Vec<(Codec, PathBuf)> = codecs
        .lines()
        .map(|codec| {
            let path = dir.join(format!("{name}-{codec}.avro"));
            (codec.parse().unwrap(), path)
        })
        .collect();
    let codecs: Vec<Codec> = written.iter().map(|(codec, _)| *codec).collect();
    assert_eq!(codecs.len(), PYTHON_CODECS.len(), "{codecs:?}");
    assert!(
        PYTHON_CODECS.iter().all(|c| codecs.contains(c)),
        "{codecs:?}"
    );
    written
}

fn reads_python_files<T>(name: &str, schema: impl FnOnce(&Path) -> PathBuf, expected: &[T])
where
    T: AvroSchema + AvroDecode + PartialEq + Debug,
{
    let Some(python) = python() else { return };
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
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    for codec in PYTHON_CODECS {
        let path = dir.path().join(format!("{name}-{codec}.avro"));
        write_file(&path, codec, records);
        let said = run(avro_files(&python).args(["check", name]).arg(&path));
        assert_eq!(said.trim(), "ok", "{name}, {codec}");
    }
}

#[test]
fn python_interop_files_read_into_generated_types() {
    reads_python_files("interop", |_| interop_schema(), &interop_records());
}

#[test]
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
fn python_reads_our_files_with_every_codec() {
    python_reads_our_files("interop", &interop_records());
    python_reads_our_files("orders", &order_records());
    python_reads_our_files("warehouse", &warehouse_records());
}

#[test]
fn cat_prints_what_python_reads() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let warehouse = schema_file::<warehouse::StockMoved>(dir.path(), "warehouse");
    let mut files = python_files(&python, "interop", &interop_schema(), dir.path());
    files.extend(python_files(&python, "warehouse", &warehouse, dir.path()));
    for (codec, path) in files {
        let theirs = run(avro_files(&python).arg("json").arg(&path));
        let ours = run(Command::new(avdl2rs_tests::cli_binary())
            .arg("cat")
            .arg(&path));
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
