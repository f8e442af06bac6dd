//! apache-avro as the reference codec of the differential tests.

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use apache_avro::Schema;

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
