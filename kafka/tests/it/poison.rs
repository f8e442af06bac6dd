//! Poison messages of every kind mixed into a topic of 10,000 good ones: every good one is
//! read, in order within its partition, once; every poison one is forwarded to the
//! dead-letter topic with its bytes and the headers saying why and where from.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use avdl2rs_kafka::dead_letter::{
    KIND, PART, REASON, SOURCE_OFFSET, SOURCE_PARTITION, SOURCE_TOPIC,
};
use avdl2rs_kafka::rdkafka::producer::{FutureProducer, FutureRecord};
use avdl2rs_kafka::{DeadLetters, Poison, Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::Serializer;
use avdl2rs_registry::{Schema, SerializerConfig};
use avdl2rs_tests::fresh_name;
use kafka_orders::v2::OrderEvent;

use crate::roundtrip::order;
use crate::support::{env, within};

const GOOD: i32 = 10_000;

/// A schema under the name of the reader's type that it cannot read: `id` is a string, and
/// the other fields are missing without defaults.
const INCOMPATIBLE: &str = r#"{"type":"record","name":"OrderEvent","namespace":"com.example.orders",
    "fields":[{"name":"id","type":"string"}]}"#;

/// The poison values, each with the reason kind it must be given.
fn poisons(good_frame: &[u8], incompatible_id: i32) -> Vec<(&'static str, Vec<u8>)> {
    let frame = |id: i32, body: &[u8]| {
        let mut out = vec![0];
        out.extend_from_slice(&id.to_be_bytes());
        out.extend_from_slice(body);
        out
    };
    let text_abc = [6, b'a', b'b', b'c'];
    vec![
        ("not-framed", b"plain text, not Avro".to_vec()),
        ("not-framed", vec![]),
        ("not-framed", vec![0, 0, 1]),
        ("not-framed", [&[1u8][..], &good_frame[1..]].concat()),
        ("unknown-schema", frame(i32::MAX - 7, &good_frame[5..])),
        ("damaged", good_frame[..good_frame.len() - 3].to_vec()),
        ("refused", frame(incompatible_id, &text_abc)),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn poison_messages_go_to_the_dead_letter_topic_and_every_good_one_is_read_once() {
    let env = env();
    let topic = env.topic("poison", 3).await;
    let dead_letters = DeadLetters::new(&env.kafka()).unwrap();
    let dlq = dead_letters.topic_for(&topic);
    assert_eq!(dlq, format!("{topic}.dlq"));
    let registry = env.registry();
    let other = Schema::avro(INCOMPATIBLE);
    let incompatible_id = registry
        .register(&format!("{topic}-other"), &other, false)
        .await
        .unwrap();

    // Good messages, queued in order; the poison ones from a plain producer in between.
    let value = Serializer::new(Arc::clone(&registry), SerializerConfig::default());
    let good_frame = value.serialize(&topic, &order(1)).await.unwrap();
    let producer = TypedProducer::<str, OrderEvent, Raw>::new(&env.kafka(), Raw, value).unwrap();
    let poisons = poisons(&good_frame, incompatible_id);
    let raw: FutureProducer = env.kafka().create().unwrap();
    let mut reports = Vec::new();
    for i in 0..GOOD {
        let key = format!("order-{}", i % 17);
        let value = order(i);
        let queued = producer.enqueue(&topic, Some(&key), &value, Default::default());
        reports.push(queued.await.unwrap());
        if i % 1_500 == 700 {
            let (_, bytes) = &poisons[(i / 1_500) as usize % poisons.len()];
            send_raw(&raw, &topic, &key, bytes).await;
        }
    }
    for (_, bytes) in &poisons {
        send_raw(&raw, &topic, "late", bytes).await;
    }
    for report in reports {
        within("a delivery", report).await.unwrap();
    }
    let poison_count = GOOD as usize / 1_500 + usize::from(GOOD % 1_500 > 700) + poisons.len();

    let consumer = env.text_consumer::<OrderEvent>(&topic);
    let mut by_partition: BTreeMap<i32, Vec<(i64, i32)>> = BTreeMap::new();
    let mut forwarded: Vec<Poison> = Vec::new();
    let mut good = 0;
    while good < GOOD as usize || forwarded.len() < poison_count {
        match within("a message", consumer.recv()).await.unwrap() {
            Ok(record) => {
                let id = record.value.as_ref().unwrap().id;
                let at = &record.position;
                by_partition
                    .entry(at.partition)
                    .or_default()
                    .push((at.offset, id));
                consumer.store_offset(&record).unwrap();
                good += 1;
            }
            Err(poison) => {
                within("forwarding", dead_letters.forward(&poison))
                    .await
                    .unwrap();
                consumer.store_offset(&poison).unwrap();
                forwarded.push(poison);
            }
        }
    }
    within("commit", consumer.commit_stored()).await.unwrap();

    let mut ids = BTreeSet::new();
    for (partition, read) in &by_partition {
        for pair in read.windows(2) {
            assert!(pair[0].0 < pair[1].0, "offsets in order in {partition}");
            assert!(
                pair[0].1 < pair[1].1,
                "orders in order in {partition}: {pair:?}"
            );
        }
        for &(_, id) in read {
            assert!(ids.insert(id), "order {id} read twice");
        }
    }
    assert_eq!(ids, (0..GOOD).collect(), "every good message read");
    let kinds: BTreeSet<&str> = forwarded.iter().map(|p| p.reason.kind()).collect();
    let expected: BTreeSet<&str> = poisons.iter().map(|(kind, _)| *kind).collect();
    assert_eq!(kinds, expected);
    for poison in &forwarded {
        let (kind, _) = poisons
            .iter()
            .find(|(_, bytes)| poison.payload.as_deref() == Some(bytes.as_slice()))
            .unwrap_or_else(|| panic!("{poison} carries the bytes sent"));
        assert_eq!(poison.reason.kind(), *kind, "{poison}");
    }

    check_dead_letters(&env, &dlq, &topic, &forwarded).await;
}

async fn send_raw(raw: &FutureProducer, topic: &str, key: &str, payload: &[u8]) {
    let record = FutureRecord::to(topic).key(key).payload(payload);
    raw.send(record, None).await.unwrap();
}

/// The dead-letter topic holds each forwarded message once: its bytes, key and headers,
/// and the headers saying why and where from.
async fn check_dead_letters(
    env: &crate::support::Env,
    dlq: &str,
    topic: &str,
    forwarded: &[Poison],
) {
    let consumer =
        TypedConsumer::<Vec<u8>, Vec<u8>, Raw, Raw>::new(&env.group(&fresh_name("dlq")), Raw, Raw)
            .unwrap();
    consumer.subscribe(&[dlq]).unwrap();
    let letters =
        crate::support::records(crate::support::receive(&consumer, forwarded.len()).await);
    for poison in forwarded {
        let source = &poison.position;
        let header = |letter: &avdl2rs_kafka::Record<Vec<u8>, Vec<u8>>, name: &str| {
            let found = letter.headers.iter().rev().find(|h| h.key == name);
            let value = found.and_then(|h| h.value.clone()).unwrap_or_default();
            String::from_utf8(value).unwrap()
        };
        let letter = letters
            .iter()
            .find(|l| {
                header(l, SOURCE_PARTITION) == source.partition.to_string()
                    && header(l, SOURCE_OFFSET) == source.offset.to_string()
            })
            .unwrap_or_else(|| panic!("a dead letter for {poison}"));
        assert_eq!(header(letter, SOURCE_TOPIC), topic);
        assert_eq!(header(letter, KIND), poison.reason.kind());
        assert_eq!(header(letter, REASON), poison.reason.to_string());
        assert_eq!(header(letter, PART), "value");
        assert_eq!(letter.key, poison.key);
        // An empty value and a missing one are both an empty payload on the topic.
        let sent = poison.payload.clone().filter(|p| !p.is_empty());
        assert_eq!(letter.value.clone().filter(|p| !p.is_empty()), sent);
    }
}
