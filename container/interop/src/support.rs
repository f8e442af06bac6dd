//! What the interop tests share (this crate's and the CLI's, which compares `avdl2rs cat`
//! with Python): finding the other implementations, running them, and the records both sides
//! write, built here independently of the scripts' own copies.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::schema::org::apache::avro::{Foo, Interop, InteropUnionField, Kind, Md5, Node};
use avdl2rs::chrono::{DateTime, Utc};
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_container::{Codec, Reader, WriterBuilder};

/// The program an environment variable names (set by `.ci/container-interop`). Tests that
/// need one are `#[ignore]`d with the reason; asked to run without it, they fail here.
pub fn external(var: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => panic!("{var} is not set: `eval \"$(.ci/container-interop)\"` installs and names it"),
    }
}

/// Runs `command`, failing the test with its stderr unless it succeeds; returns stdout.
pub fn run(command: &mut Command) -> String {
    let output = command.output().expect("the program starts");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Writes `records` to the file `path` with `codec`, 100 records a block.
pub fn write_file<T: AvroSchema + AvroEncode>(path: &Path, codec: Codec, records: &[T]) {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .block_records(100)
        .build(std::fs::File::create(path).unwrap())
        .unwrap();
    writer.extend(records).unwrap();
    writer.finish().unwrap();
}

/// Reads the file another implementation wrote at `path` into `T`s, checking its codec, its
/// `user_metadata` entry, that it has `T`'s schema, and that the records are `expected`.
pub fn check_file<T>(name: &str, codec: Codec, path: &Path, expected: &[T])
where
    T: AvroSchema + AvroDecode + PartialEq + Debug,
{
    let reader = Reader::<T, _>::new(std::fs::File::open(path).unwrap()).unwrap();
    assert_eq!(reader.header().codec(), codec);
    assert_eq!(
        reader.header().get("user_metadata"),
        Some(&b"someByteArray"[..])
    );
    assert!(
        reader.is_direct(),
        "{name}: the file's schema is the type's"
    );
    let read: Vec<T> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(read.len(), expected.len(), "{name}, {codec}");
    for (i, (a, b)) in read.iter().zip(expected).enumerate() {
        assert!(
            a == b,
            "{name}, {codec}: record {i} is {a:?}, expected {b:?}"
        );
    }
}

/// A script of `tests/scripts/`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scripts")
        .join(name)
}

/// The interop schema of the conformance folder.
pub fn interop_schema() -> PathBuf {
    avdl2rs_tests::conformance_dir().join("schemas/interop.avsc")
}

/// How many records each side writes: several blocks of Python's 64,000-byte interval.
pub const COUNT: usize = 1500;

/// `values` repeated to [`COUNT`] records.
pub fn cycle<T: Clone>(values: &[T]) -> Vec<T> {
    values.iter().cycle().take(COUNT).cloned().collect()
}

fn node(label: &str, children: Vec<Node>) -> Node {
    Node {
        label: label.into(),
        children,
    }
}

/// The interop records, as in `tests/scripts/avro_files.py`.
pub fn interop_records() -> Vec<Interop> {
    let first = Interop {
        int_field: 12,
        long_field: 15234324,
        string_field: "hey".into(),
        bool_field: true,
        float_field: 1234.0,
        double_field: -1234.0,
        bytes_field: b"12312adf".to_vec(),
        null_field: (),
        array_field: vec![5.0, 0.0, 12.0],
        map_field: [
            ("a".into(), Foo { label: "a".into() }),
            (
                "bee".into(),
                Foo {
                    label: "cee".into(),
                },
            ),
        ]
        .into(),
        union_field: InteropUnionField::Double(12.0),
        enum_field: Kind::C,
        fixed_field: Md5(*b"1019181716151413"),
        record_field: node("blah", vec![node("inner", vec![])]),
    };
    let second = Interop {
        int_field: i32::MIN,
        long_field: i64::MIN,
        string_field: "h\u{e9}llo \u{2713} \u{1F600}".into(),
        bool_field: false,
        float_field: -0.5,
        double_field: 1e-300,
        bytes_field: vec![0x00, 0x7f, 0x80, 0xff],
        null_field: (),
        array_field: vec![],
        map_field: Default::default(),
        union_field: InteropUnionField::Array(vec![vec![], vec![0x01, 0xfe]]),
        enum_field: Kind::A,
        fixed_field: Md5(std::array::from_fn(|i| 240 + i as u8)),
        record_field: node("", vec![node("x", vec![node("y", vec![])])]),
    };
    let third = Interop {
        int_field: i32::MAX,
        long_field: i64::MAX,
        string_field: String::new(),
        bool_field: true,
        float_field: 3.25,
        double_field: 2.5,
        bytes_field: vec![],
        null_field: (),
        array_field: vec![1.5],
        map_field: [("k".into(), Foo { label: "v".into() })].into(),
        union_field: InteropUnionField::Double(0.5),
        enum_field: Kind::B,
        fixed_field: Md5([0; 16]),
        record_field: node("leaf", vec![]),
    };
    cycle(&[first, second, third])
}

/// The order records, as in `tests/scripts/avro_files.py`.
pub fn order_records() -> Vec<orders::OrderEvent> {
    let second = orders::OrderEvent {
        id: -1,
        amount: 0.25,
        user_id: 8,
        currency: "EUR".into(),
        discount: None,
    };
    cycle(&[orders::sample_order(), second])
}

/// The warehouse records, as in `tests/scripts/avro_files.py`.
pub fn warehouse_records() -> Vec<warehouse::StockMoved> {
    let at: DateTime<Utc> = "2026-12-01T08:30:15.123Z".parse().unwrap();
    cycle(&[warehouse::sample_movement(at)])
}

/// The interop records of `tests/scripts/avsc_files.js`: longs within 2^52, inside the
/// integers avsc handles by default.
pub fn avsc_interop_records() -> Vec<Interop> {
    let python = interop_records();
    let safe = 1i64 << 52;
    let second = Interop {
        long_field: -safe,
        union_field: InteropUnionField::Boolean(true),
        ..python[1].clone()
    };
    let third = Interop {
        long_field: safe,
        union_field: InteropUnionField::Array(vec![vec![], vec![0x01, 0xfe]]),
        ..python[2].clone()
    };
    cycle(&[python[0].clone(), second, third])
}

/// The codecs Python writes: all but `xz`, which it does not have.
pub const PYTHON_CODECS: [Codec; 5] = [
    Codec::Null,
    Codec::Deflate,
    Codec::Snappy,
    Codec::Zstandard,
    Codec::Bzip2,
];

/// Python with `avro` installed, from `AVDL2RS_INTEROP_PYTHON`.
pub fn python() -> PathBuf {
    external("AVDL2RS_INTEROP_PYTHON")
}

/// A run of `tests/scripts/avro_files.py` by `python`.
pub fn avro_files(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.arg(script("avro_files.py"));
    command
}

/// The schema file of a generated type, written into `dir`.
pub fn schema_file<T: AvroSchema>(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.avsc"));
    std::fs::write(&path, T::SCHEMA_JSON).unwrap();
    path
}

/// Has Python write `name`'s records with every codec; returns the files by codec.
pub fn python_files(python: &Path, name: &str, schema: &Path, dir: &Path) -> Vec<(Codec, PathBuf)> {
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
