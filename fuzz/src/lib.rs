//! What the fuzz targets share: the generated types, the schemas older data is written
//! with, and the readers of container files driven to the end of untrusted input. Each
//! target must only ever see a value or an error: a panic, a stack overflow, a hang or an
//! allocation beyond the decode budget is a bug.

#![allow(missing_docs)]

pub mod container;

/// The generated types of `tests/snapshots/recursion.avsc` and `unions.avsc`.
pub mod generated {
    avdl2rs::include_generated!("fuzzed");
}

/// Decodes `bytes` as `T` and drops the result (dropping a deep value is part of the test).
pub fn decode_and_drop<T: avdl2rs::Avro>(bytes: &[u8]) {
    drop(T::from_avro_bytes(bytes));
}

/// An older `LinkedList`: an extra recursive field the plan skips, and the union's
/// branches in the other order, so the plan re-indexes them.
pub const LINKED_LIST_V0: &str = r#"{"type":"record","name":"LinkedList","fields":[
  {"name":"junk","type":{"type":"array","items":{"type":"record","name":"Junk","fields":[
     {"name":"more","type":["null","Junk"]},{"name":"bits","type":{"type":"map","values":"bytes"}}]}}},
  {"name":"value","type":"int"},
  {"name":"next","type":["LinkedList","null"]}]}"#;

/// An older `Tree` with a `weight` the reader does not have, read and skipped at every level.
pub const TREE_V0: &str = r#"{"type":"record","name":"Tree","fields":[
  {"name":"weight","type":"double"},
  {"name":"children","type":{"type":"array","items":"Tree"}},
  {"name":"by_name","type":{"type":"map","values":"Tree"}}]}"#;

/// A record of every primitive and logical type, with an enum, a fixed, a map and a union
/// of several branches: the Avro JSON encoding and the JSON reader of container files
/// have a rule for each.
pub const EVERY_TYPE: &str = r#"{"type":"record","name":"Every","namespace":"fuzz","fields":[
  {"name":"n","type":"null"},{"name":"b","type":"boolean"},{"name":"i","type":"int"},
  {"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"d","type":"double"},
  {"name":"by","type":"bytes"},{"name":"s","type":"string"},
  {"name":"e","type":{"type":"enum","name":"Suit","symbols":["HEARTS","SPADES"],"default":"SPADES"}},
  {"name":"x","type":{"type":"fixed","name":"Four","size":4}},
  {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
  {"name":"decf","type":{"type":"fixed","name":"DecF","size":5,"logicalType":"decimal","precision":11,"scale":3}},
  {"name":"u","type":{"type":"string","logicalType":"uuid"}},
  {"name":"date","type":{"type":"int","logicalType":"date"}},
  {"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
  {"name":"tu","type":{"type":"long","logicalType":"time-micros"}},
  {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
  {"name":"lts","type":{"type":"long","logicalType":"local-timestamp-millis"}},
  {"name":"dur","type":{"type":"fixed","name":"Dur","size":12,"logicalType":"duration"}},
  {"name":"m","type":{"type":"map","values":["null","long","string","Suit"]}},
  {"name":"a","type":{"type":"array","items":["null","Four",{"type":"array","items":"double"}]}}]}"#;

/// An array of nulls: any number of items in a few bytes.
pub const NULLS: &str = r#"{"type":"array","items":"null"}"#;
