//! Writes the seeds that need the project's own writers: container files of every codec,
//! `container_codecs` inputs, Avro JSON and binary datums, and framed messages, each
//! from a few values of the fuzzed schemas. `fuzz/seeds` runs it; the text seeds (IDL,
//! schemas, registry replies) it copies or writes itself.
//!
//! Usage: `seed_corpus CORPUS_DIR`, which gets one folder per target.

use std::path::{Path, PathBuf};

use avdl2rs::avro_json::AvroJson;
use avdl2rs::wire::{write_confluent_header, write_single_object_header};
use avdl2rs::AvroSchema;
use avdl2rs_container::{Codec, WriterBuilder};
use avdl2rs_fuzz::container::{SCHEMAS, SYNC};
use avdl2rs_fuzz::generated::{Expr, LinkedList, Tree};
use avdl2rs_fuzz::{EVERY_TYPE, LINKED_LIST_V0, NULLS, TREE_V0};
use serde_json::{json, Value};

/// A schema, a name for its seeds, and values of it in the Avro JSON encoding.
struct Sample {
    name: &'static str,
    schema: &'static str,
    values: Vec<Value>,
}

fn samples() -> Vec<Sample> {
    let leaf = json!({"children": [], "by_name": {}});
    let long = |n: i64| json!({"node": {"long": n}});
    vec![
        Sample {
            name: "tree",
            schema: Tree::SCHEMA_JSON,
            values: vec![
                leaf.clone(),
                json!({"children": [leaf.clone(), {"children": [leaf.clone()], "by_name": {}}],
                       "by_name": {"a": leaf.clone()}}),
            ],
        },
        Sample {
            name: "linked_list",
            schema: LinkedList::SCHEMA_JSON,
            values: vec![
                json!({"value": 1, "next": null}),
                json!({"value": -7, "next": {"LinkedList": {"value": 300, "next": null}}}),
            ],
        },
        Sample {
            name: "tree_v0",
            schema: TREE_V0,
            values: vec![
                json!({"weight": 1.5, "children": [{"weight": -0.0, "children": [],
                "by_name": {}}], "by_name": {}}),
            ],
        },
        Sample {
            name: "linked_list_v0",
            schema: LINKED_LIST_V0,
            values: vec![
                json!({"junk": [{"more": {"Junk": {"more": null, "bits": {}}},
                "bits": {"k": "v\u{00ff}"}}], "value": 3, "next": {"LinkedList":
                {"junk": [], "value": 4, "next": null}}}),
            ],
        },
        Sample {
            name: "expr",
            schema: Expr::SCHEMA_JSON,
            values: vec![
                long(5),
                json!({"node": {"Sum": {"left": long(1), "right": {"node": {"Expr": long(2)}}}}}),
            ],
        },
        Sample {
            name: "every_type",
            schema: EVERY_TYPE,
            values: vec![json!({
                "n": null, "b": true, "i": -2147483648i64, "l": 9007199254740993i64,
                "f": 1.25, "d": -1e300, "by": "\u{0}\u{ff}a", "s": "ünï ☃",
                "e": "HEARTS", "x": "abcd", "dec": "\u{1}\u{2}", "decf": "\u{0}\u{0}\u{0}\u{30}\u{39}",
                "u": "123e4567-e89b-12d3-a456-426614174000", "date": 19000,
                "tm": 3600000, "tu": 1, "ts": 1700000000000i64, "tsu": -1,
                "lts": 0, "dur": "\u{1}\u{0}\u{0}\u{0}\u{2}\u{0}\u{0}\u{0}\u{3}\u{0}\u{0}\u{0}",
                "m": {"n": null, "k": {"long": 5}, "s": {"string": "x"},
                      "e": {"fuzz.Suit": "SPADES"}},
                "a": [null, {"fuzz.Four": "wxyz"}, {"array": [1.5, -0.5]}]
            })],
        },
        Sample {
            name: "nulls",
            schema: NULLS,
            values: vec![json!([null, null, null]), json!([])],
        },
    ]
}

fn main() {
    let corpus = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: seed_corpus CORPUS_DIR"),
    );
    for sample in samples() {
        let json = AvroJson::new(sample.schema).expect("a valid schema");
        let datums: Vec<Vec<u8>> = sample
            .values
            .iter()
            .map(|value| {
                let mut datum = Vec::new();
                json.encode(value, &mut datum)
                    .unwrap_or_else(|e| panic!("{}: {value}: {e}", sample.name));
                datum
            })
            .collect();
        write_containers(&corpus, &sample, &datums);
        write_datums(&corpus, &sample, &datums);
    }
}

/// A file of every codec for `container_read`, the same records as a `container_codecs`
/// input.
fn write_containers(corpus: &Path, sample: &Sample, datums: &[Vec<u8>]) {
    let index = SCHEMAS.iter().position(|s| *s == sample.schema);
    for (number, codec) in Codec::ALL.into_iter().enumerate() {
        let mut writer = WriterBuilder::new()
            .codec(codec)
            .block_records(1)
            .sync_marker(SYNC)
            .build_datums(sample.schema, Vec::new())
            .expect("every codec is compiled in");
        for datum in datums {
            writer.append_encoded(datum).expect("writing to memory");
        }
        let file = writer.finish().expect("writing to memory");
        let name = format!("{}-{codec}", sample.name);
        write(corpus, "container_read", &name, &file);
        if let Some(index) = index {
            let mut input = vec![number as u8, index as u8, 1, 0];
            for datum in datums.iter().filter(|d| d.len() < 256) {
                input.push(datum.len() as u8);
                input.extend_from_slice(datum);
            }
            write(corpus, "container_codecs", &name, &input);
        }
    }
}

/// Datums for `avro_json` (as JSON and as binary, after the schema) and for the decoding
/// targets, bare and framed.
fn write_datums(corpus: &Path, sample: &Sample, datums: &[Vec<u8>]) {
    let confluent_id = match sample.schema {
        s if s == LinkedList::SCHEMA_JSON => Some(1),
        LINKED_LIST_V0 => Some(2),
        s if s == Tree::SCHEMA_JSON => Some(3),
        TREE_V0 => Some(4),
        s if s == Expr::SCHEMA_JSON => Some(5),
        _ => None,
    };
    for (n, (value, datum)) in sample.values.iter().zip(datums).enumerate() {
        let name = format!("{}-{n}", sample.name);
        let with_schema = |body: &[u8]| [sample.schema.as_bytes(), &[0], body].concat();
        write(
            corpus,
            "avro_json",
            &format!("{name}-json"),
            &with_schema(value.to_string().as_bytes()),
        );
        write(
            corpus,
            "avro_json",
            &format!("{name}-binary"),
            &with_schema(datum),
        );
        let Some(id) = confluent_id else { continue };
        let target = if id % 2 == 0 {
            "decode_resolved"
        } else {
            "decode_generated"
        };
        write(corpus, target, &name, datum);
        let mut framed = Vec::new();
        write_confluent_header(&mut framed, id);
        framed.extend_from_slice(datum);
        write(
            corpus,
            "decode_framed",
            &format!("{name}-confluent"),
            &framed,
        );
        if id == 3 {
            let mut single = Vec::new();
            write_single_object_header(&mut single, Tree::FINGERPRINT);
            single.extend_from_slice(datum);
            write(corpus, "decode_framed", &format!("{name}-single"), &single);
        }
    }
}

fn write(corpus: &Path, target: &str, name: &str, bytes: &[u8]) {
    let dir = corpus.join(target);
    std::fs::create_dir_all(&dir).expect("creating the corpus folder");
    std::fs::write(dir.join(name), bytes).expect("writing a seed");
}
