//! What every test needs: the broker and registry from the environment, client settings
//! suited to the test broker, topics of their own, and reading a known number of messages.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs::resolve::Resolvable;
use avdl2rs::{AvroEncode, AvroSchema};
use avdl2rs_kafka::rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use avdl2rs_kafka::rdkafka::client::DefaultClientContext;
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_kafka::{Decoder, Poison, Raw, Received, Record, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::nonblocking::{Deserializer, Serializer};
use avdl2rs_registry::SerializerConfig;
use avdl2rs_tests::{external, fresh_name, schema_registry};

/// The broker and registry of a test.
pub struct Env {
    /// The broker's `host:port`.
    pub brokers: String,
    /// The registry's URL.
    pub registry_url: String,
}

/// The broker and registry the environment names; a test without them fails, saying which
/// is missing (the tests are `#[ignore]`d, so only a run that asks for them gets here).
pub fn env() -> Env {
    let brokers = external(
        "AVDL2RS_KAFKA_BROKERS",
        "a running Kafka broker (.ci/kafka-broker)",
    );
    Env {
        brokers,
        registry_url: schema_registry(),
    }
}

/// A producer of text keys and Avro values, registering under `<topic>-value`.
pub type TextProducer<T> = TypedProducer<str, T, Raw>;
/// A consumer of text keys and Avro values.
pub type TextConsumer<T> = TypedConsumer<String, T, Raw>;

impl Env {
    /// A producer of text keys and `T` values with the producer settings, registering `T`'s
    /// schema through a client of its own.
    pub fn text_producer<T: AvroSchema + AvroEncode + Sync>(&self) -> TextProducer<T> {
        self.text_producer_with(&self.kafka())
    }

    /// [`Env::text_producer`] with these Kafka settings.
    pub fn text_producer_with<T>(&self, kafka: &ClientConfig) -> TextProducer<T>
    where
        T: AvroSchema + AvroEncode + Sync,
    {
        let value = Serializer::new(self.registry(), SerializerConfig::default());
        TypedProducer::new(kafka, Raw, value).unwrap()
    }

    /// A consumer of text keys and `T` values in a new group, subscribed to `topic`.
    pub fn text_consumer<T: Resolvable + Send>(&self, topic: &str) -> TextConsumer<T> {
        let value = Deserializer::new(self.registry());
        let consumer = TypedConsumer::new(&self.group(&fresh_name("g")), Raw, value).unwrap();
        consumer.subscribe(&[topic]).unwrap();
        consumer
    }

    /// A registry client of the test registry.
    pub fn registry(&self) -> Arc<Client> {
        let config = avdl2rs_registry::ClientConfig::new(&self.registry_url);
        Arc::new(Client::new(config).unwrap())
    }

    /// Producer (and admin) settings.
    pub fn kafka(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.brokers);
        config
    }

    /// Consumer settings for `group`, from the earliest offset. The broker (tansu) completes a
    /// group join after about half the session timeout, so it is short.
    pub fn group(&self, group: &str) -> ClientConfig {
        let mut config = self.kafka();
        config
            .set("group.id", group)
            .set("auto.offset.reset", "earliest")
            .set("session.timeout.ms", "6000")
            .set("heartbeat.interval.ms", "1000");
        config
    }

    /// A new topic with `partitions` partitions, named after `prefix`.
    pub async fn topic(&self, prefix: &str, partitions: i32) -> String {
        let topic = fresh_name(prefix);
        let admin: AdminClient<DefaultClientContext> = self.kafka().create().unwrap();
        let new = NewTopic::new(&topic, partitions, TopicReplication::Fixed(1));
        for result in admin
            .create_topics([&new], &AdminOptions::new())
            .await
            .unwrap()
        {
            result.unwrap_or_else(|(name, code)| panic!("create {name}: {code}"));
        }
        topic
    }
}

/// How long a test waits for one message before it fails.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// `future`, or a panic naming `what` after [`PATIENCE`].
pub async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    match tokio::time::timeout(PATIENCE, future).await {
        Ok(value) => value,
        Err(_) => panic!("{what}: nothing within {PATIENCE:?}"),
    }
}

/// The next `count` messages of `consumer`, each marked done; consumer errors fail the test.
// A poison message is no larger than a record, the other variant: boxing it would only add
// an allocation.
#[allow(clippy::result_large_err)]
pub async fn receive<K, V, KD, VD>(
    consumer: &TypedConsumer<K, V, KD, VD>,
    count: usize,
) -> Vec<Result<Record<K, V>, Poison>>
where
    KD: Decoder<K>,
    VD: Decoder<V>,
{
    let mut received = Vec::with_capacity(count);
    while received.len() < count {
        let next: Received<K, V> = within("a message", consumer.recv()).await;
        let next = next.unwrap_or_else(|e| panic!("consumer error: {e}"));
        match &next {
            Ok(record) => consumer.store_offset(record).unwrap(),
            Err(poison) => consumer.store_offset(poison).unwrap(),
        }
        received.push(next);
    }
    received
}

/// The records of `received`, failing on a poison message.
pub fn records<K, V>(received: Vec<Result<Record<K, V>, Poison>>) -> Vec<Record<K, V>> {
    received
        .into_iter()
        .map(|r| r.unwrap_or_else(|poison| panic!("poison: {poison}")))
        .collect()
}
