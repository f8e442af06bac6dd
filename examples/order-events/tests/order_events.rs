//! The example's binary through the real broker and registry (`.ci/kafka-broker`,
//! `.ci/registry-server`): what `produce` writes, what `consume` prints for it, the subjects
//! TopicRecordNameStrategy gives, what Python `confluent-kafka` reads from the topic, and
//! what `consume` prints for what Python writes.
//!
//! The registry is a server of each test's own, started empty: `rivven-schema` 0.0.22 does
//! not add a schema as a new version of a subject when the same text is already registered
//! under another subject (it answers the existing id and leaves the subject as it was), so
//! on a shared registry a second run's subjects would not all appear.

use std::process::{Command, Output};

use avdl2rs::AvroSchema;
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::ClientConfig;
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

/// A reader of the topic in Python, printing each message's writer type and value.
const PYTHON_READER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/record_names.py");

/// What `consume` prints after `produce`: the first order's payment, written by version 1 of
/// `OrderPaid`, read with version 2's default currency.
const CONSUMED: &str = "\
OrderCreated {\"order_id\":\"o-1\",\"customer\":\"ann\",\"items\":2}
OrderPaid {\"order_id\":\"o-1\",\"amount\":25.5,\"currency\":\"EUR\"}
OrderShipped {\"order_id\":\"o-1\",\"carrier\":\"dhl\"}
OrderCreated {\"order_id\":\"o-2\",\"customer\":\"bob\",\"items\":1}
OrderPaid {\"order_id\":\"o-2\",\"amount\":12.75,\"currency\":\"USD\"}
OrderShipped {\"order_id\":\"o-2\",\"carrier\":\"ups\"}
";

/// What Python reads with each message's writer schema: the first payment has no currency.
const READ_BY_PYTHON: &str = "\
com.example.orders.OrderCreated {\"order_id\": \"o-1\", \"customer\": \"ann\", \"items\": 2}
com.example.orders.OrderPaid {\"order_id\": \"o-1\", \"amount\": 25.5}
com.example.orders.OrderShipped {\"order_id\": \"o-1\", \"carrier\": \"dhl\"}
com.example.orders.OrderCreated {\"order_id\": \"o-2\", \"customer\": \"bob\", \"items\": 1}
com.example.orders.OrderPaid {\"order_id\": \"o-2\", \"amount\": 12.75, \"currency\": \"USD\"}
com.example.orders.OrderShipped {\"order_id\": \"o-2\", \"carrier\": \"ups\"}
";

/// The simple names of the topic's types, in the order `produce` writes them per order.
const TYPES: [&str; 3] = ["OrderCreated", "OrderPaid", "OrderShipped"];

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

/// The stdout of a run that must succeed.
fn stdout_of(output: Output) -> String {
    assert!(
        output.status.success(),
        "{:?}: {}",
        output.status,
        text(output.stderr)
    );
    text(output.stdout)
}

#[tokio::test]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn three_types_in_one_topic_each_read_into_its_variant() {
    let server = RegistryServer::start();
    let registry = server.url();
    let topic = fresh_name("order-events");

    let produced = stdout_of(order_events(&registry, &["produce", "--topic", &topic]));
    let sent: Vec<String> = (0..6)
        .map(|offset| {
            let name = TYPES[offset % 3];
            format!("com.example.orders.{name} partition 0 offset {offset}")
        })
        .collect();
    assert_eq!(produced.lines().collect::<Vec<_>>(), sent);

    let args = ["consume", "--topic", &topic, "--count", "6"];
    assert_eq!(stdout_of(order_events(&registry, &args)), CONSUMED);

    let client = Client::new(ClientConfig::new(&registry)).unwrap();
    let mut subjects = client.subjects().await.unwrap();
    subjects.sort();
    let expected: Vec<String> = TYPES
        .iter()
        .map(|name| format!("{topic}-com.example.orders.{name}"))
        .collect();
    assert_eq!(subjects, expected);
    assert_eq!(client.versions(&expected[0]).await.unwrap(), [1]);
    assert_eq!(client.versions(&expected[1]).await.unwrap(), [1, 2]);

    let read = Command::new(python())
        .args([PYTHON_READER, &brokers(), &registry, &topic, "6"])
        .output()
        .unwrap();
    assert_eq!(stdout_of(read), READ_BY_PYTHON);
}

#[test]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
fn fewer_messages_than_asked_for_is_an_error_after_the_timeout() {
    let server = RegistryServer::start();
    let topic = fresh_name("order-events");
    stdout_of(order_events(&server.url(), &["produce", "--topic", &topic]));
    let args = [
        "--timeout",
        "5",
        "consume",
        "--topic",
        &topic,
        "--count",
        "7",
    ];
    let consumed = order_events(&server.url(), &args);
    assert_eq!(consumed.status.code(), Some(2));
    assert_eq!(text(consumed.stdout), CONSUMED);
    let stderr = text(consumed.stderr);
    assert!(
        stderr.contains("only 6 of 7 messages within 5s"),
        "{stderr}"
    );
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
