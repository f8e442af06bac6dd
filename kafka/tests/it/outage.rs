//! The registry stopped in the middle of a stream: messages whose writer schema is cached go
//! on being read; the first one with a schema id never seen waits, with growing pauses and
//! typed errors, until the registry is back, and then the stream goes on with nothing lost.
//!
//! The test starts a registry of its own (the real server, `rivven-schema`), so that stopping
//! it leaves the other tests' registry alone. That server keeps schemas in memory only, so
//! "back" is a new instance on the same port given the same schemas in the same order, which
//! gives them the same ids (checked), as a registry restored from its backing store would.

use std::sync::Arc;
use std::time::{Duration, Instant};

use avdl2rs::AvroSchema;
use avdl2rs_kafka::{ConsumeError, Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::{ClientConfig, RetryPolicy, Schema, SerializerConfig, Version};
use avdl2rs_tests::fresh_name;
use avdl2rs_tests::registry_server::RegistryServer;

use crate::support::{env, receive, records, within};

/// A client that fails fast: the consumer's own pauses are what this test looks at.
fn client(url: &str) -> Arc<Client> {
    let retry = RetryPolicy::default()
        .max_retries(1)
        .initial_backoff(Duration::from_millis(10));
    let config = ClientConfig::new(url)
        .retry(retry)
        .timeouts(Duration::from_secs(1), Duration::from_secs(2));
    Arc::new(Client::new(config).unwrap())
}

mod v1 {
    #[derive(avdl2rs::Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.outage")]
    pub struct Reading {
        pub seq: i32,
    }
}

mod v2 {
    #[derive(avdl2rs::Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.outage")]
    pub struct Reading {
        pub seq: i32,
        #[avro(default = "m")]
        pub unit: String,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and its server binary (.ci/kafka-broker, .ci/registry-server)"]
async fn cached_schemas_outlive_the_registry_and_a_new_one_waits_for_it() {
    let env = env();
    let mut registry = RegistryServer::start();
    let topic = env.topic("outage", 1).await;
    let subject = format!("{topic}-value");

    // 50 messages of the first schema, one of the second, 50 of the first again.
    let producing = client(&registry.url());
    let old = Serializer::new(Arc::clone(&producing), SerializerConfig::default());
    let old = TypedProducer::<str, v1::Reading, Raw>::new(&env.kafka(), Raw, old).unwrap();
    let new = Serializer::new(Arc::clone(&producing), SerializerConfig::default());
    let new = TypedProducer::<str, v2::Reading, Raw>::new(&env.kafka(), Raw, new).unwrap();
    for seq in 0..50 {
        old.send(&topic, "k", &v1::Reading { seq }).await.unwrap();
    }
    let unit = "km".to_owned();
    new.send(&topic, "k", &v2::Reading { seq: 50, unit })
        .await
        .unwrap();
    for seq in 51..101 {
        old.send(&topic, "k", &v1::Reading { seq }).await.unwrap();
    }
    old.send(&topic, "k", &v1::Reading { seq: 101 })
        .await
        .unwrap();
    let mut ids = Vec::new();
    for version in [1, 2] {
        let found = producing.subject_version(&subject, Version::Number(version));
        ids.push(found.await.unwrap().id);
    }

    let consuming = client(&registry.url());
    let value = Deserializer::new(Arc::clone(&consuming));
    let consumer =
        TypedConsumer::<String, v1::Reading, Raw>::new(&env.group(&fresh_name("g")), Raw, value)
            .unwrap()
            .unavailable_backoff(Duration::from_millis(150), Duration::from_millis(600));
    consumer.subscribe(&[&topic]).unwrap();
    let mut seqs: Vec<i32> = records(receive(&consumer, 20).await)
        .into_iter()
        .map(|r| r.value.unwrap().seq)
        .collect();

    registry.stop();
    // Warm: the first schema is cached, so the registry's absence does not show.
    let warm = records(receive(&consumer, 30).await);
    seqs.extend(warm.iter().map(|r| r.value.as_ref().unwrap().seq));

    // Cold: the second schema was never fetched. The message waits, with typed errors and
    // growing pauses between its attempts, and is not poison.
    let mut pauses = Vec::new();
    for attempt in 1..=3 {
        let started = Instant::now();
        match within("an attempt", consumer.recv()).await {
            Err(ConsumeError::Unavailable {
                position, attempts, ..
            }) => {
                assert_eq!((position.offset, attempts), (50, attempt));
            }
            other => panic!("attempt {attempt}: {other:?}"),
        }
        pauses.push(started.elapsed());
    }
    assert!(pauses[1] >= Duration::from_millis(150), "{pauses:?}");
    assert!(pauses[2] >= Duration::from_millis(300), "{pauses:?}");

    // The registry is back with the same schemas under the same ids.
    registry.restart();
    let restoring = client(&registry.url());
    for (json, id) in [v1::Reading::SCHEMA_JSON, v2::Reading::SCHEMA_JSON]
        .into_iter()
        .zip(ids)
    {
        let schema = Schema::avro(json);
        let restored = restoring.register(&subject, &schema, false).await;
        assert_eq!(restored.unwrap(), id, "the same id as before the outage");
    }
    let rest = records(receive(&consumer, 52).await);
    assert_eq!(rest[0].position.offset, 50);
    seqs.extend(rest.iter().map(|r| r.value.as_ref().unwrap().seq));
    assert_eq!(
        seqs,
        (0..102).collect::<Vec<_>>(),
        "nothing lost, nothing twice"
    );
}
