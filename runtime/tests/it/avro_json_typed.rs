//! `to_avro_json` / `from_avro_json` of a derived type, against JSON written by hand from the
//! specification's "JSON Encoding": unions wrapped by branch name, bytes as code points,
//! enums as symbols, logical types as their underlying type, missing fields from defaults,
//! and located errors.

use std::collections::BTreeMap;

use avdl2rs::chrono::{DateTime, TimeZone, Utc};
use avdl2rs::uuid::Uuid;
use avdl2rs::Avro;
use serde_json::json;

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
enum Status {
    Open,
    Closed,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Line {
    sku: String,
    qty: i32,
    note: Option<String>,
    data: Vec<u8>,
    status: Status,
    tags: BTreeMap<String, i64>,
    #[avro(logical = "timestamp-millis")]
    at: DateTime<Utc>,
    id: Uuid,
    #[avro(default = 1.5)]
    weight: f64,
}

fn line() -> Line {
    Line {
        sku: "tea".into(),
        qty: 3,
        note: Some("hot".into()),
        data: vec![0, 0x7f, 0xe9, 0xff],
        status: Status::Closed,
        tags: BTreeMap::from([("a".into(), 1), ("b".into(), -2)]),
        at: Utc.timestamp_millis_opt(1_700_000_000_123).unwrap(),
        id: Uuid::from_u128(0x0b7e4c1e_6a51_4c55_9a3c_2f6f3b1d9e01),
        weight: f64::INFINITY,
    }
}

#[test]
fn a_derived_record_is_written_as_the_specification_says() {
    let expected = json!({
        "sku": "tea",
        "qty": 3,
        "note": {"string": "hot"},
        "data": "\u{0}\u{7f}\u{e9}\u{ff}",
        "status": "Closed",
        "tags": {"a": 1, "b": -2},
        "at": 1_700_000_000_123_i64,
        "id": "0b7e4c1e-6a51-4c55-9a3c-2f6f3b1d9e01",
        "weight": "Infinity",
    });
    assert_eq!(line().to_avro_json().unwrap(), expected);
    assert_eq!(Line::from_avro_json(&expected).unwrap(), line());
}

#[test]
fn the_null_branch_is_null_and_missing_fields_take_their_defaults() {
    let without = Line {
        note: None,
        weight: 1.5,
        ..line()
    };
    let json = without.to_avro_json().unwrap();
    assert_eq!(json["note"], serde_json::Value::Null);
    let mut sparse = json.clone();
    let fields = sparse.as_object_mut().unwrap();
    fields.remove("note");
    fields.remove("weight");
    assert_eq!(Line::from_avro_json(&sparse).unwrap(), without);
}

#[test]
fn json_that_does_not_fit_is_refused_at_its_place() {
    let mut json = line().to_avro_json().unwrap();
    json["qty"] = json!("3");
    let error = Line::from_avro_json(&json).unwrap_err();
    assert_eq!(error.to_string(), r#"at /qty: expected int, found "3""#);

    let mut json = line().to_avro_json().unwrap();
    json["note"] = json!({"int": 3});
    let error = Line::from_avro_json(&json).unwrap_err();
    assert_eq!(error.path(), "/note");

    let mut json = line().to_avro_json().unwrap();
    json.as_object_mut().unwrap().remove("sku");
    assert!(Line::from_avro_json(&json).is_err(), "sku has no default");
}
