//! apache-avro as the reference codec of the differential tests.
#![allow(dead_code)] // each test file uses its own part of the support module

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use apache_avro::Schema;
use avdl2rs::codec::Reader;
use avdl2rs::{DecodeError, EncodeError};

/// Parses a schema for apache-avro.
pub fn schema(json: &str) -> Schema {
    Schema::parse_str(json).unwrap()
}

/// apache-avro's binary encoding of `value`.
pub fn their_bytes(schema: &Schema, value: Value) -> Vec<u8> {
    GenericDatumWriter::builder(schema)
        .build()
        .unwrap()
        .write_value_to_vec(value)
        .unwrap()
}

/// The value apache-avro reads from all of `bytes` (it must not leave any).
pub fn their_value(schema: &Schema, bytes: &[u8]) -> Value {
    let mut input = bytes;
    let value = GenericDatumReader::builder(schema)
        .build()
        .unwrap()
        .read_value(&mut input)
        .unwrap();
    assert!(input.is_empty(), "apache-avro left {} bytes", input.len());
    value
}

/// A codec function pair under test.
pub type Encode<T> = fn(&T, &mut Vec<u8>) -> Result<(), EncodeError>;
/// See [`Encode`].
pub type Decode<T> = fn(&mut Reader<'_>) -> Result<T, DecodeError>;

/// Checks `value` both ways against apache-avro's `expected` under `schema_json`.
pub fn check<T: PartialEq + std::fmt::Debug>(
    schema_json: &str,
    value: &T,
    expected: Value,
    encode: Encode<T>,
    decode: Decode<T>,
) {
    let schema = schema(schema_json);
    let mut ours = Vec::new();
    encode(value, &mut ours).unwrap();
    assert_eq!(their_value(&schema, &ours), expected);
    let theirs = their_bytes(&schema, expected);
    let mut reader = Reader::new(&theirs);
    assert_eq!(&decode(&mut reader).unwrap(), value);
    assert!(reader.is_empty());
}
