//! A derived type's Avro field names and enum symbols under serde's `rename_all` are the names
//! serde itself gives them, checked against serde_json's output of the same type, so that a
//! value written by serde and its Avro schema agree (acronyms included, which serde does not
//! read as one word).

use avdl2rs::{Avro, AvroSchema};
use serde::Serialize;
use serde_json::Value;

#[derive(Avro, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
struct Endpoint {
    http2_port: i32,
    base_url_v2: String,
}

#[derive(Avro, Serialize, Clone, Copy)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Protocol {
    HTTPServer,
    IPv4,
    DarkBlue,
}

#[derive(Avro, Serialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Kind {
    HTTPServer,
    A1B,
}

/// The `key` array of the schema's JSON, each element's `name` or the element itself.
fn names(schema: &str, key: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(schema).unwrap();
    let items = schema[key].as_array().unwrap();
    items
        .iter()
        .map(|item| {
            item.get("name")
                .unwrap_or(item)
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// serde_json's spelling of each variant.
fn serde_symbols<T: Serialize>(variants: &[T]) -> Vec<String> {
    let json = |v| {
        serde_json::to_value(v)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    };
    variants.iter().map(json).collect()
}

#[test]
fn fields_are_named_as_serde_names_them() {
    let by_serde = serde_json::to_value(Endpoint::default()).unwrap();
    let by_serde: Vec<String> = by_serde.as_object().unwrap().keys().cloned().collect();
    assert_eq!(by_serde, ["Http2Port", "BaseUrlV2"]);
    assert_eq!(names(Endpoint::SCHEMA_JSON, "fields"), by_serde);
}

#[test]
fn symbols_are_named_as_serde_names_them() {
    let protocol = serde_symbols(&[Protocol::HTTPServer, Protocol::IPv4, Protocol::DarkBlue]);
    assert_eq!(protocol, ["H_T_T_P_SERVER", "I_PV4", "DARK_BLUE"]);
    assert_eq!(names(Protocol::SCHEMA_JSON, "symbols"), protocol);
    let kind = serde_symbols(&[Kind::HTTPServer, Kind::A1B]);
    assert_eq!(names(Kind::SCHEMA_JSON, "symbols"), kind);
}
