//! The Avro JSON encoding both ways, for a schema the fuzzer writes too.
//!
//! Input: the schema's JSON, a zero byte, then a datum, read both as JSON text and as Avro
//! binary. JSON that encodes must give binary that decodes, and encoding that again must
//! give the same bytes; binary that decodes must give JSON that encodes to binary decoding
//! to the same JSON.
#![no_main]

use avdl2rs::avro_json::AvroJson;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|input: &[u8]| {
    let Some(split) = input.iter().position(|&b| b == 0) else {
        return;
    };
    let (schema, datum) = (&input[..split], &input[split + 1..]);
    let Ok(schema) = std::str::from_utf8(schema) else {
        return;
    };
    let Ok(json) = AvroJson::new(schema) else {
        return;
    };
    if let Ok(value) = serde_json::from_slice::<Value>(datum) {
        from_json(&json, &value);
    }
    from_binary(&json, datum);
});

/// JSON → binary → JSON → binary: the two binaries are equal.
fn from_json(json: &AvroJson, value: &Value) {
    let mut binary = Vec::new();
    if json.encode(value, &mut binary).is_err() {
        assert!(binary.is_empty(), "a failed encoding left bytes behind");
        return;
    }
    let decoded = json
        .decode(&binary)
        .unwrap_or_else(|e| panic!("the encoding of {value} does not decode: {e}"));
    let mut again = Vec::new();
    json.encode(&decoded, &mut again)
        .unwrap_or_else(|e| panic!("the decoding {decoded} does not encode: {e}"));
    assert_eq!(binary, again, "{value} → {decoded}");
}

/// Binary → JSON → binary → JSON: the two JSON values are equal.
fn from_binary(json: &AvroJson, datum: &[u8]) {
    let Ok(value) = json.decode(datum) else {
        return;
    };
    let mut binary = Vec::new();
    json.encode(&value, &mut binary)
        .unwrap_or_else(|e| panic!("the decoding {value} does not encode: {e}"));
    let again = json
        .decode(&binary)
        .unwrap_or_else(|e| panic!("the encoding of {value} does not decode: {e}"));
    assert_eq!(value, again);
}
