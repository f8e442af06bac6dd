//! A value a rule of its writer schema stops is a poison message naming the rule, for the
//! dead-letter forwarder; a value a write rule stops with the action `DLQ` goes to the
//! dead-letter topic instead of its own, through the real broker (`.ci/kafka-broker`).
//!
//! Against a registry answering fixed JSON (`avdl2rs_tests::fixed_registry`): the real one of
//! the other tests (`rivven-schema` 0.0.22, `.ci/registry-server`) drops rule sets. Reading
//! needs no broker, since the consumer hands the decoder's verdict on as it is.

use std::sync::{Arc, OnceLock};

use avdl2rs::{Avro, AvroSchema};
use avdl2rs_kafka::dead_letter::{
    KIND, PART, REASON, RULE_EXCEPTION, RULE_MODE, RULE_NAME, RULE_TOPIC, SCHEMA_ID, SOURCE_TOPIC,
    TIMESTAMP,
};
use avdl2rs_kafka::metrics::DEAD_LETTERED;
use avdl2rs_kafka::rdkafka::ClientConfig as KafkaConfig;
use avdl2rs_kafka::{
    DeadLetters, Decoder, Header, Part, PoisonReason, Raw, Record, SendError, SendOptions,
    TypedConsumer, TypedProducer, Undecodable,
};
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::{ClientConfig, SerializerConfig};
use avdl2rs_tests::fixed_registry::FixedRegistry;
use avdl2rs_tests::{external, fresh_name};
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use serde_json::json;

use crate::support::{receive, records, Env};

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct Order {
    id: i64,
}

#[tokio::test]
async fn a_value_a_rule_stops_is_poison_naming_the_rule() {
    let registry = FixedRegistry::start(|_, _| {
        json!({"schema": Order::SCHEMA_JSON, "ruleSet": {"domainRules": [
            {"name": "smallIds", "kind": "CONDITION", "type": "CEL", "mode": "READ",
             "expr": "message.id < 100", "onFailure": "DLQ"}]}})
    });
    let client = Arc::new(Client::new(ClientConfig::new(&registry.url)).unwrap());
    let decoder = Deserializer::<Order>::new(client);
    let small = Order { id: 5 }.to_confluent(41).unwrap();
    let decoded = decoder.decode(&small).await.unwrap();
    assert_eq!(
        (decoded.value, decoded.schema_id),
        (Order { id: 5 }, Some(41))
    );

    let large = Order { id: 500 }.to_confluent(41).unwrap();
    let Err(Undecodable::Poison(reason)) = decoder.decode(&large).await else {
        panic!("the rule let the value through");
    };
    assert_eq!(reason.kind(), "rule");
    assert_eq!(
        reason.to_string(),
        "CONDITION rule smallIds (CEL, READ): the condition failed (sent to the dead-letter topic)"
    );
    let PoisonReason::Rule(rule) = reason else {
        panic!("{reason}")
    };
    assert!(rule.is_dead_letter());
}

/// The dead-letter topic the rule of [`registry_naming_a_topic`] names, fresh for the run.
static RULE_DLQ: OnceLock<String> = OnceLock::new();

/// What the registries below answer: `Order` registers as id 41, with a write rule that sends
/// orders of 100 and more to the dead-letter topic `dlq`, or to none it names.
fn stopping_contract(method: &str, dlq: Option<&String>) -> serde_json::Value {
    if method == "POST" {
        return json!({"id": 41});
    }
    let mut rule = json!({"name": "smallIds", "kind": "CONDITION", "type": "CEL",
        "mode": "WRITE", "expr": "message.id < 100", "onFailure": "DLQ"});
    if let Some(topic) = dlq {
        rule["params"] = json!({ "dlq.topic": topic });
    }
    json!({"schema": Order::SCHEMA_JSON, "ruleSet": {"domainRules": [rule]}})
}

/// A registry whose rule names the dead-letter topic `RULE_DLQ`.
fn registry_naming_a_topic() -> FixedRegistry {
    FixedRegistry::start(|method, _| stopping_contract(method, RULE_DLQ.get()))
}

/// A registry whose rule names no dead-letter topic.
fn registry_naming_none() -> FixedRegistry {
    FixedRegistry::start(|method, _| stopping_contract(method, None))
}

/// A producer of text keys and `Order` values through `registry`.
fn producer(kafka: &KafkaConfig, registry: &FixedRegistry) -> TypedProducer<str, Order, Raw> {
    let client = Arc::new(Client::new(ClientConfig::new(&registry.url)).unwrap());
    let value = Serializer::new(client, SerializerConfig::default());
    TypedProducer::new(kafka, Raw, value).unwrap()
}

/// The broker of the environment, without its registry: these tests use their own.
fn broker() -> Env {
    let brokers = external(
        "AVDL2RS_KAFKA_BROKERS",
        "a running Kafka broker (.ci/kafka-broker)",
    );
    Env {
        brokers,
        registry_url: String::new(),
    }
}

/// The one message of the dead-letter topic `dlq`, as bytes.
async fn dead_letter(env: &Env, dlq: &str) -> Record<Vec<u8>, Vec<u8>> {
    let group = env.group(&fresh_name("dlq"));
    let consumer = TypedConsumer::<Vec<u8>, Vec<u8>, Raw, Raw>::new(&group, Raw, Raw).unwrap();
    consumer.subscribe(&[dlq]).unwrap();
    let mut letters = records(receive(&consumer, 1).await);
    letters.pop().unwrap()
}

/// The headers of `letter` as text, but the time of sending.
fn headers(letter: &Record<Vec<u8>, Vec<u8>>) -> Vec<(String, String)> {
    let text = |h: &Header| {
        let value = h.value.as_deref().map(String::from_utf8_lossy);
        (h.key.clone(), value.unwrap_or_default().into_owned())
    };
    letter
        .headers
        .iter()
        .filter(|h| h.key != TIMESTAMP)
        .map(text)
        .collect()
}

/// The headers a dead letter of a value the rule stopped on its way to `topic` carries,
/// after the caller's `trace`, but the time of sending.
fn stopped_headers(topic: &str, why: &str) -> Vec<(String, String)> {
    let expected = [
        ("trace", "t-7"),
        (RULE_NAME, "smallIds"),
        (RULE_MODE, "WRITE"),
        (RULE_TOPIC, topic),
        (
            RULE_EXCEPTION,
            "the condition failed (sent to the dead-letter topic)",
        ),
        (REASON, why),
        (KIND, "rule"),
        (PART, "value"),
        (SOURCE_TOPIC, topic),
        (SCHEMA_ID, "41"),
    ];
    expected
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[tokio::test]
async fn without_a_dead_letter_topic_a_stopped_value_is_an_encode_error() {
    // No broker: nothing is sent, so the producer never connects.
    let registry = registry_naming_none();
    let mut kafka = KafkaConfig::new();
    kafka.set("bootstrap.servers", "127.0.0.1:9");
    let sent = (producer(&kafka, &registry))
        .send("orders", "k", &Order { id: 500 })
        .await;
    let Err(SendError::Encode { part, source }) = sent else {
        panic!("{sent:?}");
    };
    assert_eq!(part, Part::Value);
    assert_eq!(
        source.to_string(),
        "CONDITION rule smallIds (CEL, WRITE): the condition failed (sent to the dead-letter topic)"
    );
}

#[tokio::test]
#[ignore = "needs a Kafka broker (.ci/kafka-broker)"]
async fn a_value_a_write_rule_stops_goes_to_the_topic_the_rule_names_and_is_counted() {
    let env = broker();
    let dlq = RULE_DLQ.get_or_init(|| fresh_name("rule-named-dlq"));
    let registry = registry_naming_a_topic();
    let topic = env.topic("stopped", 1).await;
    // `DeadLetters` would send to `<topic>.dlq`: the rule's topic wins.
    let dead_letters = DeadLetters::new(&env.kafka()).unwrap();
    let producer = producer(&env.kafka(), &registry).dead_letters(dead_letters);
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let recording = metrics::set_default_local_recorder(&recorder);
    let options = SendOptions::new().header("trace", "t-7").timestamp(1_700);
    let value = Order { id: 500 };
    let sent = producer
        .send_with(&topic, Some("order-500"), &value, options)
        .await;
    drop(recording);
    let Err(SendError::DeadLettered {
        part,
        dead_letter_topic,
        source,
        ..
    }) = sent
    else {
        panic!("{sent:?}");
    };
    assert_eq!(
        (part, dead_letter_topic.as_str()),
        (Part::Value, dlq.as_str())
    );
    assert_eq!(source.rule.name, "smallIds");

    let letter = dead_letter(&env, dlq).await;
    // The frame the serializer wrote: schema id 41, then `id` 500 in Avro (zigzag 1000).
    assert_eq!(
        letter.value.as_deref(),
        Some(&[0, 0, 0, 0, 41, 0xe8, 0x07][..])
    );
    assert_eq!(letter.key.as_deref(), Some(&b"order-500"[..]));
    assert_eq!(letter.timestamp, Some(1_700));
    assert_eq!(
        headers(&letter),
        stopped_headers(&topic, &source.to_string())
    );

    let counted = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .find_map(|(key, _, _, value)| {
            let (_, key) = key.into_parts();
            let labels: Vec<_> = key
                .labels()
                .map(|l| format!("{}={}", l.key(), l.value()))
                .collect();
            (key.name() == DEAD_LETTERED).then_some((labels, value))
        });
    let labels = vec![format!("topic={topic}"), "reason=rule".to_owned()];
    assert_eq!(counted, Some((labels, DebugValue::Counter(1))));
}

#[tokio::test]
#[ignore = "needs a Kafka broker (.ci/kafka-broker)"]
async fn a_value_stopped_by_a_rule_naming_no_topic_goes_to_the_dead_letters_topic() {
    let env = broker();
    let registry = registry_naming_none();
    let topic = env.topic("stopped", 1).await;
    let dead_letters = DeadLetters::new(&env.kafka()).unwrap();
    let dlq = dead_letters.topic_for(&topic);
    let producer = producer(&env.kafka(), &registry).dead_letters(dead_letters);
    // A value the rule lets through is sent as usual.
    producer
        .send(&topic, "small", &Order { id: 5 })
        .await
        .unwrap();
    let options = SendOptions::new().header("trace", "t-7");
    let sent = producer
        .send_with(&topic, None, &Order { id: 500 }, options)
        .await;
    let Err(SendError::DeadLettered {
        dead_letter_topic,
        source,
        ..
    }) = sent
    else {
        panic!("{sent:?}");
    };
    assert_eq!(dead_letter_topic, format!("{topic}.dlq"));
    let letter = dead_letter(&env, &dlq).await;
    assert_eq!(
        letter.value.as_deref(),
        Some(&[0, 0, 0, 0, 41, 0xe8, 0x07][..])
    );
    assert_eq!(letter.key, None);
    assert_eq!(
        headers(&letter),
        stopped_headers(&topic, &source.to_string())
    );
}
