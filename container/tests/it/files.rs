//! Writing and reading files with derived types: every codec, block policies, flush, append,
//! metadata, older schema versions, and the files checked against apache-avro's reader and
//! writer (the independent implementation the project compares its codecs with).

use std::collections::HashMap;
use std::io::{Seek, SeekFrom};

use apache_avro::types::Value as ApacheValue;
use avdl2rs::Avro;
use avdl2rs_container::{Codec, Error, JsonReader, Reader, Writer, WriterBuilder};

/// A record exercising every kind of field.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.files")]
struct Event {
    id: i64,
    name: String,
    score: f64,
    payload: Vec<u8>,
    tags: Vec<String>,
    counts: HashMap<String, i32>,
    note: Option<String>,
}

fn events(n: usize) -> Vec<Event> {
    (0..n)
        .map(|i| Event {
            id: i as i64 * 7 - 3,
            name: format!("event-{i}"),
            score: i as f64 / 4.0,
            payload: vec![i as u8; i % 5],
            tags: (0..i % 3).map(|t| format!("t{t}")).collect(),
            counts: (0..i % 2).map(|c| (format!("c{c}"), c as i32)).collect(),
            note: (i % 2 == 0).then(|| "even".to_string()),
        })
        .collect()
}

fn write(codec: Codec, builder: WriterBuilder, values: &[Event]) -> Vec<u8> {
    let mut writer = builder.codec(codec).build(Vec::new()).unwrap();
    writer.extend(values).unwrap();
    writer.finish().unwrap()
}

/// The records of `file`, read as a reader does by default and (the same, checked) with
/// decompression on the reading thread and on one, two and five worker threads.
fn read_all(file: &[u8]) -> Vec<Event> {
    let read: Vec<Event> = Reader::new(file)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for threads in [0, 1, 2, 5] {
        let ahead: Vec<Event> = Reader::new(file)
            .unwrap()
            .decompression_threads(threads)
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(ahead == read, "{threads} threads read the same records");
    }
    read
}

/// The number of blocks of a file: how often its sync marker occurs after the header.
fn block_count(file: &[u8]) -> usize {
    let sync = Reader::<Event, _>::new(file).unwrap().header().sync();
    file.windows(16).filter(|w| *w == sync).count() - 1
}

#[test]
fn every_codec_round_trips_across_blocks() {
    let values = events(500);
    for codec in Codec::ALL {
        let file = write(codec, WriterBuilder::new().block_records(64), &values);
        assert_eq!(read_all(&file), values, "{codec}");
        assert_eq!(block_count(&file), 8, "{codec}");
        let reader = Reader::<Event, _>::new(file.as_slice()).unwrap();
        assert_eq!(reader.header().codec(), codec);
        assert!(reader.is_direct());
    }
}

#[test]
fn decompression_threads_change_while_reading() {
    let values = events(500);
    for codec in [Codec::Zstandard, Codec::Bzip2] {
        let file = write(codec, WriterBuilder::new().block_records(16), &values);
        let mut reader = Reader::<Event, _>::new(file.as_slice())
            .unwrap()
            .decompression_threads(3);
        let mut read: Vec<Event> = (&mut reader).take(40).map(Result::unwrap).collect();
        // The blocks already in flight are taken from the workers, then read on this thread.
        let mut reader = reader.decompression_threads(0);
        read.extend((&mut reader).take(100).map(Result::unwrap));
        // And on workers again.
        let reader = reader.decompression_threads(2);
        read.extend(reader.map(Result::unwrap));
        assert_eq!(read, values, "{codec}");
    }
}

#[test]
fn block_size_policy_by_bytes_and_empty_file() {
    let values = events(300);
    let file = write(Codec::Null, WriterBuilder::new().block_bytes(1000), &values);
    let blocks = block_count(&file);
    let data_bytes: usize = values
        .iter()
        .map(|v| v.to_avro_bytes().unwrap().len())
        .sum();
    // Each block ends on the first record that reaches 1000 bytes.
    assert!(
        blocks >= data_bytes / 1100 && blocks <= data_bytes / 1000 + 1,
        "{blocks}"
    );
    assert_eq!(read_all(&file), values);

    let empty = write(Codec::Deflate, WriterBuilder::new(), &[]);
    assert_eq!(block_count(&empty), 0);
    assert!(read_all(&empty).is_empty());
}

#[test]
fn flush_leaves_a_readable_file_and_drop_flushes() {
    let values = events(10);
    let mut writer = Writer::<Event, _>::new(Vec::new()).unwrap();
    writer.extend(&values[..4]).unwrap();
    writer.flush().unwrap();
    assert_eq!(read_all(writer.get_ref()), values[..4]);
    writer.extend(&values[4..]).unwrap();
    writer.flush().unwrap();
    assert_eq!(read_all(writer.get_ref()), values);

    let mut out = Vec::new();
    {
        let mut writer = Writer::<Event, _>::new(&mut out).unwrap();
        writer.extend(&values).unwrap();
    }
    assert_eq!(read_all(&out), values);
}

#[test]
fn appending_to_a_file_keeps_its_codec_and_sync_marker() {
    let values = events(20);
    let mut file = tempfile::tempfile().unwrap();
    let mut writer = WriterBuilder::new()
        .codec(Codec::Snappy)
        .metadata("origin", "test")
        .build::<Event, _>(&mut file)
        .unwrap();
    writer.extend(&values[..12]).unwrap();
    writer.finish().unwrap();

    let mut writer = WriterBuilder::new()
        .codec(Codec::Null)
        .append_to::<Event, _>(&mut file)
        .unwrap();
    writer.extend(&values[12..]).unwrap();
    writer.finish().unwrap();

    file.seek(SeekFrom::Start(0)).unwrap();
    let reader = Reader::<Event, _>::new(&mut file).unwrap();
    assert_eq!(reader.header().codec(), Codec::Snappy);
    assert_eq!(reader.header().get("origin"), Some(&b"test"[..]));
    let read: Vec<Event> = reader.collect::<Result<_, _>>().unwrap();
    assert_eq!(read, values);

    let error = WriterBuilder::new()
        .append_to::<Renamed, _>(&mut file)
        .unwrap_err();
    assert!(matches!(error, Error::SchemaMismatch { .. }), "{error}");
}

#[test]
fn metadata_is_exposed_and_reserved_keys_are_refused() {
    let file = write(
        Codec::Null,
        WriterBuilder::new().metadata("producer", vec![0xff, 0x00]),
        &events(1),
    );
    let reader = Reader::<Event, _>::new(file.as_slice()).unwrap();
    let header = reader.header();
    assert_eq!(header.get("producer"), Some(&[0xff, 0x00][..]));
    assert_eq!(header.get("avro.codec"), Some(&b"null"[..]));
    assert_eq!(
        header.schema_json(),
        <Event as avdl2rs::AvroSchema>::SCHEMA_JSON
    );

    let error = WriterBuilder::new()
        .metadata("avro.mine", "x")
        .build::<Event, _>(Vec::new())
        .unwrap_err();
    assert!(error.to_string().contains("reserved"), "{error}");
}

/// A file with `avro.codec` set to `name`, built by hand as the specification lays it out.
fn file_with_codec(name: &str) -> Vec<u8> {
    use avdl2rs::codec::{write_bytes, write_long, write_string};
    let mut file = b"Obj\x01".to_vec();
    write_long(&mut file, 2);
    write_string(&mut file, "avro.schema");
    write_bytes(&mut file, br#""long""#);
    write_string(&mut file, "avro.codec");
    write_bytes(&mut file, name.as_bytes());
    write_long(&mut file, 0);
    file.extend_from_slice(&[7; 16]);
    file
}

#[test]
fn unknown_codec_is_named() {
    let error = JsonReader::new(file_with_codec("lz4").as_slice()).unwrap_err();
    assert!(
        matches!(&error, Error::UnknownCodec(name) if name == "lz4"),
        "{error}"
    );
    assert!(error.to_string().contains("\"lz4\""), "{error}");
    assert!(JsonReader::new(file_with_codec("null").as_slice()).is_ok());
}

/// `Event` as it was before `score`, `counts` and `note` existed, with `id` an int.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.files", name = "Event")]
struct EventV1 {
    id: i32,
    name: String,
    payload: Vec<u8>,
    tags: Vec<String>,
    removed: String,
}

/// `Event` as a newer version: `id` promoted to long, fields removed, one added.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.files", name = "Event")]
struct EventV2 {
    id: i64,
    name: String,
    #[avro(default = "unknown")]
    region: String,
    tags: Vec<String>,
}

/// A version that adds a field without a default: V1 files cannot fill it.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.files", name = "Event")]
struct EventRequired {
    id: i64,
    score: f64,
}

/// A type of another name, whose schema differs from `Event`'s.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.files")]
struct Renamed {
    id: i64,
}

#[test]
fn old_files_read_into_newer_types() {
    let old: Vec<EventV1> = (0..100)
        .map(|i| EventV1 {
            id: i - 50,
            name: format!("n{i}"),
            payload: vec![1, 2, 3],
            tags: vec![format!("t{i}")],
            removed: "gone".into(),
        })
        .collect();
    for codec in [Codec::Null, Codec::Deflate, Codec::Zstandard] {
        let mut writer = WriterBuilder::new()
            .codec(codec)
            .block_records(30)
            .build(Vec::new())
            .unwrap();
        writer.extend(&old).unwrap();
        let file = writer.finish().unwrap();

        let reader = Reader::<EventV2, _>::new(file.as_slice()).unwrap();
        assert!(!reader.is_direct());
        let read: Vec<EventV2> = reader.collect::<Result<_, _>>().unwrap();
        let expected: Vec<EventV2> = old
            .iter()
            .map(|v| EventV2 {
                id: i64::from(v.id),
                name: v.name.clone(),
                region: "unknown".into(),
                tags: v.tags.clone(),
            })
            .collect();
        assert_eq!(read, expected, "{codec}");

        let error = Reader::<EventRequired, _>::new(file.as_slice()).unwrap_err();
        assert!(matches!(error, Error::Resolve(_)), "{error}");
        assert!(error.to_string().contains("score"), "{error}");
    }
}

/// `Event` as apache-avro's generic value.
fn apache_value(event: &Event) -> ApacheValue {
    let bytes = event.to_avro_bytes().unwrap();
    let schema =
        apache_avro::Schema::parse_str(<Event as avdl2rs::AvroSchema>::SCHEMA_JSON).unwrap();
    apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap()
        .read_value(&mut bytes.as_slice())
        .unwrap()
}

#[test]
fn apache_avro_reads_our_files() {
    let values = events(200);
    for codec in [Codec::Null, Codec::Deflate] {
        let file = write(codec, WriterBuilder::new().block_records(50), &values);
        let reader = apache_avro::Reader::new(file.as_slice()).unwrap();
        let read: Vec<ApacheValue> = reader.map(Result::unwrap).collect();
        let expected: Vec<ApacheValue> = values.iter().map(apache_value).collect();
        assert_eq!(read, expected, "{codec}");
    }
}

#[test]
fn we_read_apache_avro_files() {
    let values = events(200);
    let schema =
        apache_avro::Schema::parse_str(<Event as avdl2rs::AvroSchema>::SCHEMA_JSON).unwrap();
    for (codec, apache_codec) in [
        (Codec::Null, apache_avro::Codec::Null),
        (
            Codec::Deflate,
            apache_avro::Codec::Deflate(Default::default()),
        ),
        (Codec::Snappy, apache_avro::Codec::Snappy),
        (
            Codec::Zstandard,
            apache_avro::Codec::Zstandard(Default::default()),
        ),
    ] {
        let mut writer = apache_avro::Writer::builder()
            .schema(&schema)
            .writer(Vec::new())
            .codec(apache_codec)
            .block_size(1000)
            .build()
            .unwrap();
        for value in &values {
            writer.append_value(apache_value(value)).unwrap();
        }
        let file = writer.into_inner().unwrap();
        assert!(block_count(&file) > 1, "{codec}");
        assert_eq!(read_all(&file), values, "{codec}");
    }
}

/// A record for the JSON encoding: floats that JSON cannot hold, and a nested named type in
/// a union.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.json")]
struct Reading {
    value: f64,
    raw: Vec<u8>,
    inner: Option<Inner>,
    label: Option<String>,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.json")]
struct Inner {
    n: i32,
}

#[test]
fn json_reader_writes_the_json_encoding() {
    let readings = [
        Reading {
            value: f64::NAN,
            raw: vec![0x00, 0x41, 0xe9, 0xff],
            inner: Some(Inner { n: -3 }),
            label: None,
        },
        Reading {
            value: f64::NEG_INFINITY,
            raw: vec![],
            inner: None,
            label: Some("x".into()),
        },
        Reading {
            value: 0.1,
            raw: vec![],
            inner: None,
            label: None,
        },
    ];
    let mut writer = WriterBuilder::new().build(Vec::new()).unwrap();
    writer.extend(&readings).unwrap();
    let file = writer.finish().unwrap();
    let json: Vec<serde_json::Value> = JsonReader::new(file.as_slice())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // The specification's JSON encoding: a union's non-null value wrapped in an object keyed
    // by its type (a named type by full name), bytes as one code point per byte.
    assert_eq!(
        json,
        [
            serde_json::json!({"value": "NaN", "raw": "\u{0}A\u{e9}\u{ff}",
                "inner": {"test.json.Inner": {"n": -3}}, "label": null}),
            serde_json::json!({"value": "-Infinity", "raw": "", "inner": null,
                "label": {"string": "x"}}),
            serde_json::json!({"value": 0.1, "raw": "", "inner": null, "label": null}),
        ]
    );
}
