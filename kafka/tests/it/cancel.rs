//! A `recv` dropped while it reads a message (a timeout or a `select!` around it) loses
//! nothing: the next call reads that message first.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use avdl2rs_kafka::rdkafka::producer::{FutureProducer, FutureRecord};
use avdl2rs_kafka::{Decoded, Decoder, Raw, TypedConsumer, Undecodable};
use avdl2rs_tests::fresh_name;

use crate::support::{env, within};

/// Bytes as they are, but the read waits (as for a registry) until the gate is opened.
struct Gate(AtomicBool);

impl Decoder<Vec<u8>> for Gate {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<Vec<u8>>, Undecodable> {
        if !self.0.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        Ok(Decoded {
            value: bytes.to_vec(),
            schema_id: None,
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn a_call_dropped_while_reading_loses_no_message() {
    let env = env();
    let topic = env.topic("cancel", 1).await;
    let producer: FutureProducer = env.kafka().create().unwrap();
    for n in 0..3u8 {
        let payload = [n];
        let record = FutureRecord::<[u8], [u8]>::to(&topic).payload(&payload[..]);
        producer.send(record, None).await.unwrap();
    }
    let gate = Arc::new(Gate(AtomicBool::new(false)));
    let group = env.group(&fresh_name("g"));
    let consumer =
        TypedConsumer::<String, Vec<u8>, Raw, _>::new(&group, Raw, Arc::clone(&gate)).unwrap();
    consumer.subscribe(&[&topic]).unwrap();

    // The first call gets the first message and waits at the gate until it is dropped.
    let dropped = tokio::time::timeout(Duration::from_secs(20), consumer.recv()).await;
    assert!(dropped.is_err(), "the read waited");

    gate.0.store(true, Ordering::SeqCst);
    for n in 0..3u8 {
        let record = within("a record", consumer.recv()).await.unwrap().unwrap();
        assert_eq!(
            (record.position.offset, record.value),
            (i64::from(n), Some(vec![n]))
        );
    }
}
