//! Interop with Python `confluent-kafka` (its AvroSerializer and AvroDeserializer with
//! SchemaRegistryClient) through the real registry, both ways, on the orders and warehouse
//! examples: a frame Python writes decodes into the generated type, and a frame we write
//! Python reads as the same values.

use std::process::Command;
use std::sync::Arc;

use avdl2rs::chrono::{TimeZone, Utc};
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{ClientConfig, Deserializer, Serializer, SerializerConfig};
use avdl2rs_tests::{external, fresh_name, schema_registry};
use serde_json::{json, Value};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/interop.py");

/// The registry and the venv's python the environment names.
fn setup() -> (String, String) {
    let python = external(
        "AVDL2RS_REGISTRY_PYTHON",
        "a python with confluent-kafka (.ci/registry-server makes one)",
    );
    (schema_registry(), python)
}

fn python(python: &str, args: &[&str]) -> String {
    let out = Command::new(python)
        .arg(SCRIPT)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Python writes `as_json`, we read `value`; we write `value`, Python reads `as_json`.
fn both_ways<T>(value: &T, as_json: &Value, name: &str)
where
    T: AvroSchema + AvroEncode + AvroDecode + PartialEq + std::fmt::Debug,
{
    let (url, py) = setup();
    let client = Arc::new(Client::new(ClientConfig::new(&url)).unwrap());

    let topic = fresh_name(&format!("{name}-from-python"));
    let frame = unhex(&python(
        &py,
        &[
            "produce",
            &url,
            &topic,
            T::SCHEMA_JSON,
            &as_json.to_string(),
        ],
    ));
    let read: T = Deserializer::new(Arc::clone(&client))
        .deserialize(&frame)
        .unwrap();
    assert_eq!(&read, value);
    // Python registered under the topic's value subject: our serializer finds the same id.
    let ours = Serializer::<T>::new(Arc::clone(&client), SerializerConfig::default());
    assert_eq!(
        ours.schema_id(&topic).unwrap(),
        i32::from_be_bytes(frame[1..5].try_into().unwrap())
    );
    assert_eq!(
        ours.serialize(&topic, value).unwrap(),
        frame,
        "the same bytes"
    );

    let topic = fresh_name(&format!("{name}-to-python"));
    let frame = ours.serialize(&topic, value).unwrap();
    let read: Value =
        serde_json::from_str(&python(&py, &["consume", &url, &topic, &hex(&frame)])).unwrap();
    assert_eq!(&read, as_json);
}

#[test]
#[ignore = "needs a Schema Registry and Python confluent-kafka (.ci/registry-server)"]
fn orders_both_ways() {
    let order = orders::sample_order();
    let as_json =
        json!({"id": 42, "amount": 99.5, "user_id": 7, "currency": "CNY", "discount": 5.0});
    both_ways(&order, &as_json, "orders");
}

#[test]
#[ignore = "needs a Schema Registry and Python confluent-kafka (.ci/registry-server)"]
fn warehouse_both_ways() {
    let at = Utc.timestamp_millis_opt(1_700_000_000_123).unwrap();
    let movement = warehouse::sample_movement(at);
    let location = |zone: &str, bin: &str| json!({"site": "SHA-1", "aisle": 3, "shelf": 2, "bin": bin, "zone": zone});
    let as_json = json!({
        "event": {
            "event_id": "0b7e4c1e-6a51-4c55-9a3c-2f6f3b1d9e01",
            "occurred_at": 1_700_000_000_123_i64,
            "source": "warehouse-service",
            "actor": {"id": "forklift-17", "on_behalf_of": null},
            "correlation_id": null
        },
        "from": location("RECEIVING", "R-01"),
        "to": location("STORAGE", "S-42"),
        "lines": [
            {"sku": {"code": "SKU-1001", "description": "Tea, 250 g", "weight_grams": 250}, "quantity": 12},
            {"sku": {"code": "SKU-2002", "description": "Teapot", "weight_grams": null}, "quantity": 1}
        ],
        "labels": {"carrier": "internal"}
    });
    both_ways(&movement, &as_json, "warehouse");
}
