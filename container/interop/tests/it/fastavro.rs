//! The runtime's Avro JSON encoding (`avdl2rs::avro_json`) against Python `fastavro`'s
//! `json_writer` and `json_reader`, installed by `.ci/container-interop`
//! (`AVDL2RS_INTEROP_PYTHON`): the JSON each writes for the same records is the same, and
//! each reads the other's JSON back into the same records, directly and through the generated
//! types' `to_avro_json`/`from_avro_json`. The records have only finite
//! floats: `fastavro` writes NaN and the infinities as bare `NaN` and `Infinity`, which are not
//! JSON, where Java's encoder (and ours) writes strings. The interop schema is left out:
//! `fastavro`'s JSON grammar recurses without end on a recursive type (its `Node`).

use avdl2rs_container_interop::support;

use std::path::Path;
use std::process::Command;

use avdl2rs::avro_json::AvroJson;
use avdl2rs_container::{Codec, JsonReader, Reader};
use serde_json::Value;
use support::{order_records, python, run, schema_file, warehouse_records, write_file};

/// A run of `tests/scripts/fastavro_json.py` by `python`.
fn fastavro_json(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.arg(support::script("fastavro_json.py"));
    command
}

/// JSON lines, one value each.
fn parse_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

/// Both ways for `records` of type `T`, named `name`.
fn agrees_with_fastavro<T>(python: &Path, name: &str, records: &[T])
where
    T: avdl2rs::Avro + PartialEq + std::fmt::Debug + 'static,
{
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file::<T>(dir.path(), name);
    let file = dir.path().join(format!("{name}.avro"));
    write_file(&file, Codec::Null, records);

    // The same JSON from the same file.
    let ours: Vec<Value> = JsonReader::new(std::fs::File::open(&file).unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let theirs = parse_lines(&run(fastavro_json(python)
        .arg("json")
        .arg(&schema)
        .arg(&file)));
    assert_eq!(ours.len(), records.len(), "{name}");
    assert_eq!(theirs.len(), records.len(), "{name}");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "{name}: record {i}");
    }

    // The generated types write and read the same JSON themselves.
    for (i, (value, record)) in theirs.iter().zip(records).enumerate() {
        assert_eq!(&record.to_avro_json().unwrap(), value, "{name}: record {i}");
        let back = T::from_avro_json(value).unwrap_or_else(|e| panic!("{name}: record {i}: {e}"));
        assert_eq!(&back, record, "{name}: record {i}");
    }

    // fastavro's JSON, encoded by us, is each record's binary encoding.
    let json = AvroJson::new(T::SCHEMA_JSON).unwrap();
    for (i, (value, record)) in theirs.iter().zip(records).enumerate() {
        let mut ours = Vec::new();
        json.encode(value, &mut ours)
            .unwrap_or_else(|e| panic!("{name}: record {i}: {e}"));
        let mut expected = Vec::new();
        record.encode(&mut expected).unwrap();
        assert_eq!(ours, expected, "{name}: record {i}");
    }

    // Our JSON, read by fastavro, is the records again.
    let lines: Vec<String> = ours.iter().map(Value::to_string).collect();
    let json_path = dir.path().join(format!("{name}.json"));
    std::fs::write(&json_path, lines.join("\n") + "\n").unwrap();
    let back = dir.path().join(format!("{name}-back.avro"));
    let count = run(fastavro_json(python)
        .arg("binary")
        .arg(&schema)
        .arg(&json_path)
        .arg(&back));
    assert_eq!(count.trim(), records.len().to_string(), "{name}");
    let read: Vec<T> = Reader::<T, _>::new(std::fs::File::open(&back).unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        read == records,
        "{name}: fastavro read our JSON into other records"
    );
}

#[test]
#[ignore = "needs Python fastavro (.ci/container-interop)"]
fn fastavro_and_we_write_and_read_the_same_json() {
    let python = python();
    agrees_with_fastavro(&python, "orders", &order_records());
    agrees_with_fastavro(&python, "warehouse", &warehouse_records());
}
