//! The example's binary through the real broker and registry (`.ci/kafka-broker`,
//! `.ci/registry-server`): what `consume` prints for what Python `confluent-kafka` writes.
//!
//! The registry is a server of each test's own, started empty: `rivven-schema` 0.0.22 does
//! not add a schema as a new version of a subject when the same text is already registered
//! under another subject (it answers the existing id and leaves the subject as it was), so
//! on a shared registry a second run's subjects would not all appear.

use std::process::{Command, Output};

use avdl2rs::AvroSchema;
use avdl2rs_tests::registry_server::RegistryServer;
use avdl2rs_tests::{external, fresh_name};
use order_events::schema::{OrderCreated, OrderShipped};
use order_events::v1;
use serde_json::json;

const BINARY: &str = env!("CARGO_BIN_EXE_order-events");

/// The Python side of the Kafka crate's interop tests, whose `produce-types` writes each
/// value under its own type's subject (TopicRecordNameStrategy).
const PYTHON_WRITER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../kafka/tests/python/kafka_interop.py"
);

fn brokers() -> String {
    external(
        "AVDL2RS_KAFKA_BROKERS",
        "a running Kafka broker (.ci/kafka-broker)",
    )
}

fn python() -> String {
    external(
        "AVDL2RS_REGISTRY_PYTHON",
        "a python with confluent-kafka (.ci/registry-server makes one)",
    )
}

/// Runs the binary with `args`, the broker and the registry given by their variables.
fn order_events(registry: &str, args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .env("AVDL2RS_KAFKA_BROKERS", brokers())
        .env("AVDL2RS_SCHEMA_REGISTRY_URL", registry)
        .output()
        .unwrap()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

#[test]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
fn a_type_the_enum_does_not_know_is_reported_and_the_others_printed() {
    let server = RegistryServer::start();
    let topic = fresh_name("order-events");
    let cancelled = json!({"type": "record", "name": "OrderCancelled",
        "namespace": "com.example.orders", "fields": [{"name": "order_id", "type": "string"}]});
    let messages = json!([
        [OrderCreated::SCHEMA_JSON, {"order_id": "o-7", "customer": "cy", "items": 3}],
        [v1::OrderPaid::SCHEMA_JSON, {"order_id": "o-7", "amount": 9.5}],
        [cancelled.to_string(), {"order_id": "o-7"}],
        [OrderShipped::SCHEMA_JSON, {"order_id": "o-8", "carrier": "gls"}],
    ]);
    let written = Command::new(python())
        .args([
            PYTHON_WRITER,
            "produce-types",
            &brokers(),
            &server.url(),
            &topic,
        ])
        .arg(messages.to_string())
        .output()
        .unwrap();
    assert!(written.status.success(), "{}", text(written.stderr));

    let args = ["consume", "--topic", &topic, "--count", "4"];
    let consumed = order_events(&server.url(), &args);
    assert_eq!(consumed.status.code(), Some(1));
    let mut lines: Vec<String> = text(consumed.stdout).lines().map(Into::into).collect();
    // The broker may give an auto-created topic several partitions: order within each key.
    lines.sort();
    assert_eq!(
        lines,
        [
            r#"OrderCreated {"order_id":"o-7","customer":"cy","items":3}"#,
            r#"OrderPaid {"order_id":"o-7","amount":9.5,"currency":"EUR"}"#,
            r#"OrderShipped {"order_id":"o-8","carrier":"gls"}"#,
        ]
    );
    let stderr = text(consumed.stderr);
    assert!(
        stderr.contains("com.example.orders.OrderCancelled"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("error: 1 message(s) could not be read\n"),
        "{stderr}"
    );
}
