//! Several record types in one topic, as one `#[derive(AvroOneOf)]` enum: Python
//! `confluent-kafka` produces them with TopicRecordNameStrategy (each under
//! `<topic>-<full name>`), one of them in two versions; our consumer reads each into its
//! variant, and a type the enum does not know is a poison message that goes to the
//! dead-letter topic with the reason `unknown-type`. The other way, our producer of the enum
//! writes each variant under its own subject, and Python reads each as the record its
//! writer schema names.

use avdl2rs::{Avro, AvroOneOf, OneOf, SubjectNameStrategy};
use avdl2rs_kafka::dead_letter::{KIND, SOURCE_OFFSET};
use avdl2rs_kafka::{DeadLetters, Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::{OneOfSerializer, SerializerConfig};
use avdl2rs_tests::fresh_name;
use serde_json::{json, Value};

use crate::python_interop::python;
use crate::support::{env, receive, records, Env};

#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "com.acme.orders")]
struct OrderCreated {
    id: i64,
    customer: String,
}

/// The reader's version 2: `currency` added, with a default.
#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "com.acme.orders")]
struct OrderPaid {
    id: i64,
    amount: f64,
    #[avro(default = "EUR")]
    currency: String,
}

#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "com.acme.orders")]
struct OrderShipped {
    id: i64,
    carrier: String,
}

#[derive(AvroOneOf, Debug, PartialEq)]
enum OrderEvent {
    Created(OrderCreated),
    Paid(OrderPaid),
    Shipped(OrderShipped),
}

fn schema(name: &str, fields: serde_json::Value) -> serde_json::Value {
    let schema = json!({"type": "record", "name": name, "namespace": "com.acme.orders",
        "fields": fields});
    json!(schema.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn python_writes_three_types_and_we_read_each_into_its_variant() {
    let env = env();
    let topic = env.topic("one-of", 1).await;
    let long = |name| json!({"name": name, "type": "long"});
    let text = |name| json!({"name": name, "type": "string"});
    let created = schema("OrderCreated", json!([long("id"), text("customer")]));
    let paid_v1 = schema(
        "OrderPaid",
        json!([long("id"), {"name": "amount", "type": "double"}]),
    );
    let paid_v2 = schema(
        "OrderPaid",
        json!([long("id"), {"name": "amount", "type": "double"},
            {"name": "currency", "type": "string", "default": "EUR"}]),
    );
    let shipped = schema("OrderShipped", json!([long("id"), text("carrier")]));
    let cancelled = schema("OrderCancelled", json!([long("id")]));
    let messages = json!([
        [created, {"id": 1, "customer": "ann"}],
        [paid_v1, {"id": 1, "amount": 9.5}],
        [cancelled, {"id": 2}],
        [shipped, {"id": 1, "carrier": "dhl"}],
        [paid_v2, {"id": 3, "amount": 4.0, "currency": "USD"}],
    ]);
    python(&env, &["produce-types", &topic, &messages.to_string()]);

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let mut received = receive(&consumer, 5).await;
    let poison = received.remove(2).expect_err("the unknown type is poison");
    assert_eq!(poison.reason.kind(), "unknown-type");
    assert!(poison
        .reason
        .to_string()
        .contains("com.acme.orders.OrderCancelled"));
    let events: Vec<OrderEvent> = records(received)
        .into_iter()
        .map(|r| r.value.unwrap())
        .collect();
    let expected = [
        OrderEvent::Created(OrderCreated {
            id: 1,
            customer: "ann".into(),
        }),
        OrderEvent::Paid(OrderPaid {
            id: 1,
            amount: 9.5,
            currency: "EUR".into(),
        }),
        OrderEvent::Shipped(OrderShipped {
            id: 1,
            carrier: "dhl".into(),
        }),
        OrderEvent::Paid(OrderPaid {
            id: 3,
            amount: 4.0,
            currency: "USD".into(),
        }),
    ];
    assert_eq!(events, expected);

    let dead_letters = DeadLetters::new(&env.kafka()).unwrap();
    dead_letters.forward(&poison).await.unwrap();
    let dlq = dead_letters.topic_for(&topic);
    let reader =
        TypedConsumer::<String, Vec<u8>, Raw, Raw>::new(&env.group(&fresh_name("dlq")), Raw, Raw)
            .unwrap();
    reader.subscribe(&[dlq.as_str()]).unwrap();
    let letter = records(receive(&reader, 1).await).remove(0);
    let header = |name| {
        let found = letter.headers.iter().find(|h| h.key == name);
        found.and_then(|h| h.value.clone())
    };
    assert_eq!(header(KIND).as_deref(), Some(&b"unknown-type"[..]));
    assert_eq!(header(SOURCE_OFFSET).as_deref(), Some(&b"2"[..]));
}

/// One event of each variant, and each as Python reads it: the record's full name and its
/// fields.
fn three_events() -> ([OrderEvent; 3], [Value; 3]) {
    let events = [
        OrderEvent::Created(OrderCreated {
            id: 5,
            customer: "bo".into(),
        }),
        OrderEvent::Paid(OrderPaid {
            id: 5,
            amount: 12.25,
            currency: "CHF".into(),
        }),
        OrderEvent::Shipped(OrderShipped {
            id: 5,
            carrier: "ups".into(),
        }),
    ];
    let read = [
        json!(["com.acme.orders.OrderCreated", {"id": 5, "customer": "bo"}]),
        json!(["com.acme.orders.OrderPaid", {"id": 5, "amount": 12.25, "currency": "CHF"}]),
        json!(["com.acme.orders.OrderShipped", {"id": 5, "carrier": "ups"}]),
    ];
    (events, read)
}

/// Sends `events` to `topic` in order, keyed by their index.
async fn send_all(
    producer: &TypedProducer<str, OrderEvent, Raw, OneOfSerializer<OrderEvent, Client>>,
    topic: &str,
    events: &[OrderEvent],
) {
    for (index, event) in events.iter().enumerate() {
        producer
            .send(topic, &index.to_string(), event)
            .await
            .unwrap();
    }
}

/// `count` messages of `topic` as Python's deserializer reads them: `[type, value]` by key.
fn python_reads(env: &Env, topic: &str, count: usize) -> Vec<Value> {
    let group = fresh_name("py");
    let out = python(env, &["consume-types", topic, &group, &count.to_string()]);
    let mut lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by_key(|m| m["key"].as_str().unwrap().parse::<usize>().unwrap());
    lines
        .iter()
        .map(|m| json!([m["type"], m["value"]]))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn we_write_three_types_under_their_own_subjects_and_python_reads_each() {
    let env = env();
    let topic = env.topic("one-of-ours", 1).await;
    let config = SerializerConfig::default().subject_strategy(SubjectNameStrategy::TopicRecordName);
    let serializer = OneOfSerializer::new(env.registry(), config);
    let producer = TypedProducer::new(&env.kafka(), Raw, serializer).unwrap();
    let (events, read) = three_events();
    send_all(&producer, &topic, &events).await;

    assert_eq!(python_reads(&env, &topic, 3), read);
    let subjects = env.registry().subjects().await.unwrap();
    for name in OrderEvent::VARIANTS {
        let subject = format!("{topic}-{name}");
        assert!(subjects.contains(&subject), "{subject} in {subjects:?}");
    }
    assert!(!subjects.contains(&format!("{topic}-value")));

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let received = records(receive(&consumer, 3).await);
    let values: Vec<OrderEvent> = received.into_iter().map(|r| r.value.unwrap()).collect();
    assert_eq!(values, events);
}
