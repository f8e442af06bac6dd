//! Messages from a typed producer to a typed consumer group through the broker: keys and
//! values under their own subjects, headers, partitions, timestamps, text keys, messages
//! without key or value, and values that cannot be written.

use std::collections::BTreeMap;
use std::sync::Arc;

use avdl2rs::{Avro, AvroSchema, SubjectNameStrategy};
use avdl2rs_kafka::rdkafka::producer::{FutureProducer, FutureRecord};
use avdl2rs_kafka::{
    Header, Part, PoisonReason, Raw, SendError, SendOptions, TypedConsumer, TypedProducer,
};
use avdl2rs_registry::nonblocking::Serializer;
use avdl2rs_registry::SerializerConfig;
use avdl2rs_tests::fresh_name;
use kafka_orders::v2::OrderEvent;

use crate::support::{env, receive, records, within};

/// The key of the order topic in these tests: a record of its own.
#[derive(Avro, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[avro(namespace = "com.example.kafka")]
pub struct OrderKey {
    pub order_id: String,
    pub region: i32,
}

pub fn order(id: i32) -> OrderEvent {
    OrderEvent {
        id,
        amount: f64::from(id) * 1.25,
        user_id: id % 7,
        currency: if id % 2 == 0 { "EUR" } else { "CNY" }.into(),
        discount: (id % 3 == 0).then_some(0.5),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn avro_keys_and_values_arrive_with_headers_partitions_and_their_own_subjects() {
    let env = env();
    let topic = env.topic("typed", 3).await;
    let registry = env.registry();
    let producer = TypedProducer::<OrderKey, OrderEvent>::avro(
        &env.kafka(),
        Arc::clone(&registry),
        SerializerConfig::default(),
    )
    .unwrap();
    let key = |i: i32| OrderKey {
        order_id: format!("o-{i:03}"),
        region: i % 3,
    };
    let mut delivered = BTreeMap::new();
    for i in 0..30 {
        let options = SendOptions::new()
            .header("trace", format!("t-{i}"))
            .partition(i % 3)
            .timestamp(1_700_000_000_000 + i64::from(i));
        let mut options = options;
        options.headers.push(Header {
            key: "empty".into(),
            value: None,
        });
        let report = producer
            .send_with(&topic, Some(&key(i)), &order(i), options)
            .await
            .unwrap();
        assert_eq!(report.partition, i % 3);
        delivered.insert(i, report);
    }

    let key_subject = registry.latest(&format!("{topic}-key")).await.unwrap();
    let value_subject = registry.latest(&format!("{topic}-value")).await.unwrap();
    assert_ne!(key_subject.id, value_subject.id);
    assert!(key_subject.schema.schema.contains("OrderKey"));
    assert!(value_subject.schema.schema.contains("OrderEvent"));

    let consumer =
        TypedConsumer::<OrderKey, OrderEvent>::avro(&env.group(&fresh_name("g")), registry)
            .unwrap();
    consumer.subscribe(&[&topic]).unwrap();
    let mut received = records(receive(&consumer, 30).await);
    within("commit", consumer.commit_stored()).await.unwrap();
    received.sort_by(|a, b| a.key.cmp(&b.key));
    for (i, record) in (0..).zip(&received) {
        assert_eq!(record.key, Some(key(i)));
        assert_eq!(record.value, Some(order(i)));
        assert_eq!(record.key_schema_id, Some(key_subject.id));
        assert_eq!(record.schema_id, Some(value_subject.id));
        assert_eq!(record.position.topic, topic);
        assert_eq!(record.position.partition, delivered[&i].partition);
        assert_eq!(record.position.offset, delivered[&i].offset);
        assert_eq!(record.timestamp, Some(1_700_000_000_000 + i64::from(i)));
        let trace = Header::new("trace", format!("t-{i}"));
        let empty = Header {
            key: "empty".into(),
            value: None,
        };
        assert_eq!(record.headers, [trace, empty]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn record_strategies_name_the_subjects_after_the_types() {
    let env = env();
    let topic = env.topic("strategy", 1).await;
    let registry = env.registry();
    let config = SerializerConfig::default().subject_strategy(SubjectNameStrategy::TopicRecordName);
    let producer =
        TypedProducer::<OrderKey, OrderEvent>::avro(&env.kafka(), Arc::clone(&registry), config)
            .unwrap();
    let key = OrderKey {
        order_id: "o-1".into(),
        region: 1,
    };
    producer.send(&topic, &key, &order(1)).await.unwrap();
    let subjects = registry.subjects().await.unwrap();
    for name in [OrderKey::FULL_NAME, OrderEvent::FULL_NAME] {
        let subject = format!("{topic}-{name}");
        assert!(subjects.contains(&subject), "{subject} in {subjects:?}");
    }
    assert!(!subjects.contains(&format!("{topic}-value")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn text_keys_missing_keys_tombstones_and_keys_that_are_not_text() {
    let env = env();
    let topic = env.topic("text-keys", 1).await;
    let producer = env.text_producer::<OrderEvent>();
    producer.send(&topic, "k-1", &order(1)).await.unwrap();
    let options = SendOptions::new();
    producer
        .send_with(&topic, None, &order(2), options)
        .await
        .unwrap();
    let raw: FutureProducer = env.kafka().create().unwrap();
    let tombstone = FutureRecord::<[u8], [u8]>::to(&topic).key(b"k-3");
    raw.send(tombstone, None).await.unwrap();
    let latin1 = FutureRecord::<[u8], [u8]>::to(&topic).key(b"k-\xe9");
    raw.send(latin1, None).await.unwrap();

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let mut received = receive(&consumer, 4).await.into_iter();
    let keyed = received.next().unwrap().unwrap();
    assert_eq!(
        (keyed.key.as_deref(), keyed.value),
        (Some("k-1"), Some(order(1)))
    );
    assert_eq!(keyed.key_schema_id, None);
    let unkeyed = received.next().unwrap().unwrap();
    assert_eq!((unkeyed.key, unkeyed.value), (None, Some(order(2))));
    let deleted = received.next().unwrap().unwrap();
    assert_eq!((deleted.key.as_deref(), deleted.value), (Some("k-3"), None));
    assert_eq!(deleted.schema_id, None);
    let poison = received.next().unwrap().unwrap_err();
    assert_eq!(poison.part, Part::Key);
    assert!(
        matches!(poison.reason, PoisonReason::NotText(_)),
        "{poison}"
    );
    assert_eq!(poison.key.as_deref(), Some(&b"k-\xe9"[..]));
    assert_eq!(poison.position.offset, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn a_value_that_cannot_be_written_never_reaches_the_broker() {
    let env = env();
    let topic = env.topic("unwritable", 1).await;
    let registry = env.registry();
    // The subject has no schema, and this producer may only look it up.
    let lookup_only = SerializerConfig::default().auto_register(false);
    let value = Serializer::new(Arc::clone(&registry), lookup_only);
    let refused = TypedProducer::<str, OrderEvent, Raw>::new(&env.kafka(), Raw, value).unwrap();
    let error = refused.send(&topic, "k", &order(1)).await.unwrap_err();
    assert!(
        matches!(
            error,
            SendError::Encode {
                part: Part::Value,
                ..
            }
        ),
        "{error}"
    );

    let producer = env.text_producer::<OrderEvent>();
    let first = producer.send(&topic, "k", &order(2)).await.unwrap();
    assert_eq!(
        first.offset, 0,
        "the refused message took no offset: it was never sent"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn every_compression_codec_of_the_bundled_librdkafka_goes_through() {
    let env = env();
    for codec in ["gzip", "snappy", "lz4"] {
        let topic = env.topic(&format!("compressed-{codec}"), 1).await;
        let mut kafka = env.kafka();
        kafka.set("compression.type", codec);
        let producer = env.text_producer_with::<OrderEvent>(&kafka);
        for id in 0..50 {
            let value = order(id);
            let queued = producer.enqueue(&topic, Some("k"), &value, SendOptions::new());
            drop(queued.await.unwrap());
        }
        producer.flush(std::time::Duration::from_secs(30)).unwrap();
        let consumer = env.text_consumer::<OrderEvent>(&topic);
        let read = records(receive(&consumer, 50).await);
        let ids: Vec<i32> = read.iter().map(|r| r.value.as_ref().unwrap().id).collect();
        assert_eq!(ids, (0..50).collect::<Vec<_>>(), "{codec}");
    }
}
