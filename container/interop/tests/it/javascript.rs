//! Container files exchanged with JavaScript `avsc`, installed by `.ci/container-interop`
//! (`AVDL2RS_INTEROP_NODE`, `AVDL2RS_INTEROP_NODE_PATH`): files it writes with the codecs it
//! has built in (`null`, `deflate`) read into generated types with the same values, and
//! files we write it reads back equal.

use avdl2rs_container_interop::support;

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Command;

use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_container::Codec;
use support::{
    avsc_interop_records, check_file, external, interop_schema, order_records, run, script,
    write_file,
};

const AVSC_CODECS: [Codec; 2] = [Codec::Null, Codec::Deflate];

/// `node avsc_files.js`, with avsc on the module path.
fn avsc_files() -> Command {
    let node = external("AVDL2RS_INTEROP_NODE");
    let modules = external("AVDL2RS_INTEROP_NODE_PATH");
    let mut command = Command::new(node);
    command
        .env("NODE_PATH", modules)
        .arg(script("avsc_files.js"));
    command
}

fn orders_schema(dir: &Path) -> PathBuf {
    let path = dir.join("orders.avsc");
    std::fs::write(&path, orders::OrderEvent::SCHEMA_JSON).unwrap();
    path
}

fn reads_avsc_files<T>(name: &str, schema: &Path, dir: &Path, expected: &[T])
where
    T: AvroSchema + AvroDecode + PartialEq + Debug,
{
    let mut command = avsc_files();
    let codecs = run(command.args(["write", name]).arg(schema).arg(dir));
    assert_eq!(codecs.lines().collect::<Vec<_>>(), ["null", "deflate"]);
    for codec in AVSC_CODECS {
        let path = dir.join(format!("{name}-{codec}.avro"));
        check_file(name, codec, &path, expected);
    }
}

fn avsc_reads_our_files<T: AvroSchema + AvroEncode>(name: &str, dir: &Path, records: &[T]) {
    for codec in AVSC_CODECS {
        let mut command = avsc_files();
        let path = dir.join(format!("ours-{name}-{codec}.avro"));
        write_file(&path, codec, records);
        let said = run(command.args(["check", name]).arg(&path));
        assert_eq!(said.trim(), "ok", "{name}, {codec}");
    }
}

#[test]
#[ignore = "needs node with JavaScript avsc (.ci/container-interop)"]
fn avsc_files_read_into_generated_types() {
    let dir = tempfile::tempdir().unwrap();
    reads_avsc_files(
        "interop",
        &interop_schema(),
        dir.path(),
        &avsc_interop_records(),
    );
    let orders = orders_schema(dir.path());
    reads_avsc_files("orders", &orders, dir.path(), &order_records());
}

#[test]
#[ignore = "needs node with JavaScript avsc (.ci/container-interop)"]
fn avsc_reads_our_files_with_its_codecs() {
    let dir = tempfile::tempdir().unwrap();
    avsc_reads_our_files("interop", dir.path(), &avsc_interop_records());
    avsc_reads_our_files("orders", dir.path(), &order_records());
}
