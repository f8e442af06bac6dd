//! What the fuzz targets share: the generated types and the schemas older data is written
//! with. Each target must only ever see a value or an error: a panic, a stack overflow, a
//! hang or an allocation beyond the decode budget is a bug.

#![allow(missing_docs)]

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
