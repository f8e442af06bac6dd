//! Several record types in one topic, as one `#[derive(AvroOneOf)]` enum: Python
//! `confluent-kafka` produces them with TopicRecordNameStrategy (each under
//! `<topic>-<full name>`), one of them in two versions; our consumer reads each into its
//! variant, and a type the enum does not know is a poison message that goes to the
//! dead-letter topic with the reason `unknown-type`; the generic consumer reads all of them,
//! that type too. The other way, our producer of the enum
//! writes each variant under its own subject, and Python reads each as the record its
//! writer schema names. Under TopicNameStrategy the topic's one subject holds a union of the
//! types: Python writes its branches and we read each into its variant, we write them and
//! Python reads each branch. `TypedProducer::avro_one_of` writes Avro keys beside the events. (The registry of the tests, rivven-schema 0.0.22, refuses every
//! schema with references, "Unknown primitive type", so the union here defines its types; the
//! union naming them through references is tested against a fake registry in the registry
//! crate.)

use avdl2rs::generic::GenericValue;
use avdl2rs::{Avro, AvroOneOf, OneOf, SubjectNameStrategy};
use avdl2rs_kafka::dead_letter::{KIND, SOURCE_OFFSET};
use avdl2rs_kafka::{DeadLetters, Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::{Client, GenericDeserializer};
use avdl2rs_registry::{OneOfSerializer, Schema, SerializerConfig};
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

/// The record `name` of the namespace of the events, as JSON.
fn record(name: &str, fields: Value) -> Value {
    json!({"type": "record", "name": name, "namespace": "com.acme.orders", "fields": fields})
}

/// [`record`] as schema text, a JSON string.
fn schema(name: &str, fields: Value) -> Value {
    json!(record(name, fields).to_string())
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

    // The generic consumer reads every record of the topic as its writer wrote it, the type
    // no variant is included: the record's full name and its fields.
    let generic = TypedConsumer::<String, GenericValue, Raw, _>::new(
        &env.group(&fresh_name("generic")),
        Raw,
        GenericDeserializer::new(env.registry()),
    )
    .unwrap();
    generic.subscribe(&[&topic]).unwrap();
    let read: Vec<(String, Value)> = records(receive(&generic, 5).await)
        .into_iter()
        .map(|record| {
            let value = record.value.unwrap();
            let name = value.as_record().unwrap().schema().name.full_name();
            (name, serde_json::to_value(&value).unwrap())
        })
        .collect();
    let written: Vec<(String, Value)> = messages
        .as_array()
        .unwrap()
        .iter()
        .map(|message| {
            let schema: Value = serde_json::from_str(message[0].as_str().unwrap()).unwrap();
            let name = format!("com.acme.orders.{}", schema["name"].as_str().unwrap());
            (name, message[1].clone())
        })
        .collect();
    assert_eq!(read, written);
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

/// `count` messages of `topic` (of one partition) as Python's deserializer reads them:
/// `[type, value]` in order.
fn python_reads(env: &Env, topic: &str, count: usize) -> Vec<Value> {
    let group = fresh_name("py");
    let out = python(env, &["consume-types", topic, &group, &count.to_string()]);
    let mut lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines.sort_by_key(|m| m["offset"].as_i64().unwrap());
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn python_writes_union_branches_and_we_read_each_into_its_variant() {
    let env = env();
    let topic = env.topic("one-of-union", 1).await;
    let long = |name| json!({"name": name, "type": "long"});
    let text = |name| json!({"name": name, "type": "string"});
    // The writer's OrderPaid is version 1, without `currency`; OrderCancelled no variant is.
    let union = json!([
        record("OrderCreated", json!([long("id"), text("customer")])),
        record(
            "OrderPaid",
            json!([long("id"), {"name": "amount", "type": "double"}])
        ),
        record("OrderCancelled", json!([long("id")])),
        record("OrderShipped", json!([long("id"), text("carrier")])),
    ])
    .to_string();
    let subject = format!("{topic}-value");
    let registry = env.registry();
    registry
        .register(&subject, &Schema::avro(union.clone()), false)
        .await
        .unwrap();
    let messages = json!([
        ["com.acme.orders.OrderShipped", {"id": 4, "carrier": "dhl"}],
        ["com.acme.orders.OrderCancelled", {"id": 5}],
        ["com.acme.orders.OrderPaid", {"id": 4, "amount": 2.5}],
    ]);
    python(
        &env,
        &["produce-union", &topic, &union, &messages.to_string()],
    );

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let mut received = receive(&consumer, 3).await;
    let poison = received
        .remove(1)
        .expect_err("the unknown branch is poison");
    assert_eq!(poison.reason.kind(), "unknown-type");
    assert!(poison
        .reason
        .to_string()
        .contains("com.acme.orders.OrderCancelled"));
    let values: Vec<OrderEvent> = records(received)
        .into_iter()
        .map(|r| r.value.unwrap())
        .collect();
    let shipped = OrderShipped {
        id: 4,
        carrier: "dhl".into(),
    };
    let paid = OrderPaid {
        id: 4,
        amount: 2.5,
        currency: "EUR".into(),
    };
    assert_eq!(
        values,
        [OrderEvent::Shipped(shipped), OrderEvent::Paid(paid)]
    );

    // Ours writes under the union Python uses, as Confluent's producers of it do: its latest
    // version, not registering. OrderPaid is written as that union's version 1 branch.
    let config = SerializerConfig::default()
        .use_latest(true)
        .auto_register(false);
    let serializer = OneOfSerializer::new(registry, config);
    let producer = TypedProducer::new(&env.kafka(), Raw, serializer).unwrap();
    let (events, _) = three_events();
    send_all(&producer, &topic, &events).await;
    let read = python_reads(&env, &topic, 6);
    assert_eq!(
        read[3..],
        [
            json!(["com.acme.orders.OrderCreated", {"id": 5, "customer": "bo"}]),
            json!(["com.acme.orders.OrderPaid", {"id": 5, "amount": 12.25}]),
            json!(["com.acme.orders.OrderShipped", {"id": 5, "carrier": "ups"}]),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn we_write_the_union_under_the_topic_subject_and_python_reads_each_branch() {
    let env = env();
    let topic = env.topic("one-of-union-ours", 1).await;
    let serializer = OneOfSerializer::new(env.registry(), SerializerConfig::default());
    let producer = TypedProducer::new(&env.kafka(), Raw, serializer).unwrap();
    let (events, read) = three_events();
    send_all(&producer, &topic, &events).await;

    assert_eq!(python_reads(&env, &topic, 3), read);
    let latest = env
        .registry()
        .latest(&format!("{topic}-value"))
        .await
        .unwrap();
    let union: Value = serde_json::from_str(&latest.schema.schema).unwrap();
    let names: Vec<_> = union
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].clone())
        .collect();
    assert_eq!(names, ["OrderCreated", "OrderPaid", "OrderShipped"]);

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let received = records(receive(&consumer, 3).await);
    let values: Vec<OrderEvent> = received.into_iter().map(|r| r.value.unwrap()).collect();
    assert_eq!(values, events);
}

/// The key of the events, an Avro record of its own.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "com.acme.orders")]
struct OrderKey {
    id: i64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn avro_keys_and_events_under_record_name_subjects() {
    let env = env();
    let topic = env.topic("one-of-keyed", 1).await;
    let config = SerializerConfig::default().subject_strategy(SubjectNameStrategy::TopicRecordName);
    let producer = TypedProducer::avro_one_of(&env.kafka(), env.registry(), config).unwrap();
    let (events, _) = three_events();
    for event in &events {
        producer
            .send(&topic, &OrderKey { id: 5 }, event)
            .await
            .unwrap();
    }

    let group = env.group(&fresh_name("g"));
    let consumer = TypedConsumer::<OrderKey, OrderEvent>::avro(&group, env.registry()).unwrap();
    consumer.subscribe(&[topic.as_str()]).unwrap();
    let received = records(receive(&consumer, 3).await);
    let keys: Vec<_> = received.iter().map(|r| r.key.clone().unwrap()).collect();
    assert_eq!(
        keys,
        [OrderKey { id: 5 }, OrderKey { id: 5 }, OrderKey { id: 5 }]
    );
    let values: Vec<OrderEvent> = received.into_iter().map(|r| r.value.unwrap()).collect();
    assert_eq!(values, events);
    let subjects = env.registry().subjects().await.unwrap();
    let ours: Vec<_> = subjects.iter().filter(|s| s.starts_with(&topic)).collect();
    let mut expected: Vec<String> = OrderEvent::VARIANTS
        .iter()
        .map(|n| format!("{topic}-{n}"))
        .collect();
    expected.push(format!("{topic}-com.acme.orders.OrderKey"));
    let mut ours: Vec<String> = ours.into_iter().cloned().collect();
    ours.sort();
    expected.sort();
    assert_eq!(ours, expected);
}
