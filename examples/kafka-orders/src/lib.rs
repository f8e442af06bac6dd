//! Order events through a Kafka broker and a Schema Registry, across a schema change: the
//! order service's first release publishes `OrderEvent` version 1; version 2 adds a currency
//! and an optional discount, both with defaults. The release pipeline registers each version
//! (producers only look schemas up, as production setups advise), and the change is rolled
//! out both ways:
//!
//! * producer first: version 2 producers write while the billing consumers still read
//!   version 1 (the subject must be FORWARD compatible);
//! * consumer first: a version 2 consumer reads what version 1 producers wrote (BACKWARD).
//!
//! [`run`] is the whole story; `src/main.rs` runs it against the broker and registry the
//! environment names.

/// The generated types of version 1 (`schemas/v1/orders.avdl`).
pub mod v1 {
    avdl2rs::include_generated!("orders_v1");
    pub use com::example::orders::OrderEvent;
}

/// The generated types of version 2 (`schemas/v2/orders.avdl`).
pub mod v2 {
    avdl2rs::include_generated!("orders_v2");
    pub use com::example::orders::OrderEvent;
}

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs::compat::CompatLevel;
use avdl2rs::{AvroDecode, AvroSchema};
use avdl2rs_kafka::rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use avdl2rs_kafka::rdkafka::types::RDKafkaErrorCode;
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_kafka::{Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::{Schema, SerializerConfig};

/// What the example's errors are: any, with its message.
pub type Result<T, E = Box<dyn Error + Send + Sync>> = std::result::Result<T, E>;

/// Where the broker and the registry are.
pub struct Setup {
    /// `host:port` of the brokers, comma-separated.
    pub brokers: String,
    /// The registry client.
    pub registry: Arc<Client>,
}

impl Setup {
    /// The librdkafka settings of every client of the example. The short session timeout
    /// makes group joins quick on brokers that wait for it (tansu waits half of it).
    fn kafka(&self, group: Option<&str>) -> ClientConfig {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.brokers);
        if let Some(group) = group {
            config
                .set("group.id", group)
                .set("auto.offset.reset", "earliest")
                .set("session.timeout.ms", "6000");
        }
        config
    }
}

/// What each consumer read: `(group, order id, currency, discount)` per event, in the order
/// of the order ids. Version 1 readers have no currency or discount (`None`).
pub type Seen = Vec<(String, i32, Option<String>, Option<f64>)>;

/// Runs the story on `topic` (created with three partitions) and returns what each
/// consumer group read.
pub async fn run(setup: &Setup, topic: &str) -> Result<Seen> {
    create_topic(setup, topic, 3).await?;
    let subject = format!("{topic}-value");
    let registry = &setup.registry;
    registry
        .set_config(Some(&subject), CompatLevel::Full)
        .await?;

    // Release 1: the pipeline registers version 1, producers write under the latest version.
    registry
        .register(&subject, &Schema::avro(v1::OrderEvent::SCHEMA_JSON), false)
        .await?;
    let old = producer::<v1::OrderEvent>(setup)?;
    for id in 1..=3 {
        let order = v1::OrderEvent {
            id,
            amount: 10.0 * f64::from(id),
            user_id: 7,
        };
        old.send(topic, &id.to_string(), &order).await?;
    }

    // Release 2, producer first: version 2 is registered (FULL lets it in) and written.
    registry
        .register(&subject, &Schema::avro(v2::OrderEvent::SCHEMA_JSON), false)
        .await?;
    let new = producer::<v2::OrderEvent>(setup)?;
    for id in 4..=6 {
        let order = v2::OrderEvent {
            id,
            amount: 10.0 * f64::from(id),
            user_id: 7,
            currency: "EUR".into(),
            discount: Some(1.5),
        };
        new.send(topic, &id.to_string(), &order).await?;
    }

    // The billing consumers, still on version 1, read both releases' events (FORWARD) ...
    let mut seen = Seen::new();
    let billing: Vec<v1::OrderEvent> = consume(setup, topic, "billing-v1", 6).await?;
    seen.extend(
        billing
            .iter()
            .map(|o| ("billing-v1".into(), o.id, None, None)),
    );
    // ... and a consumer upgraded first reads release 1's events with the defaults (BACKWARD).
    let audit: Vec<v2::OrderEvent> = consume(setup, topic, "audit-v2", 6).await?;
    seen.extend(
        audit
            .into_iter()
            .map(|o| ("audit-v2".into(), o.id, Some(o.currency), o.discount)),
    );
    Ok(seen)
}

/// A producer of text keys and `T` values that only looks schemas up and writes under the
/// subject's latest version.
fn producer<T: AvroSchema + avdl2rs::AvroEncode + Sync>(
    setup: &Setup,
) -> Result<TypedProducer<str, T, Raw>> {
    let config = SerializerConfig::default()
        .auto_register(false)
        .use_latest(true);
    let value = Serializer::new(Arc::clone(&setup.registry), config);
    Ok(TypedProducer::new(&setup.kafka(None), Raw, value)?)
}

/// The first `count` events of `topic` for a new consumer `group`, read as `T`, by order id;
/// each is marked done once read, and committed before returning.
async fn consume<T: AvroSchema + AvroDecode + Send>(
    setup: &Setup,
    topic: &str,
    group: &str,
    count: usize,
) -> Result<Vec<T>> {
    let value = Deserializer::new(Arc::clone(&setup.registry));
    let consumer = TypedConsumer::<String, T, Raw>::new(&setup.kafka(Some(group)), Raw, value)?;
    consumer.subscribe(&[topic])?;
    let mut events = Vec::new();
    while events.len() < count {
        let received = tokio::time::timeout(Duration::from_secs(60), consumer.recv()).await;
        let record = received.map_err(|_| "no event within a minute")???;
        consumer.store_offset(&record)?;
        events.extend(record.value.map(|v| (record.key, v)));
    }
    consumer.commit_stored().await?;
    events.sort_by_key(|(key, _)| key.as_deref().and_then(|k| k.parse::<i32>().ok()));
    Ok(events.into_iter().map(|(_, v)| v).collect())
}

/// Creates `topic` with `partitions` partitions (one replica); an existing topic is kept.
pub async fn create_topic(setup: &Setup, topic: &str, partitions: i32) -> Result<()> {
    let admin: AdminClient<_> = setup.kafka(None).create()?;
    let new = NewTopic::new(topic, partitions, TopicReplication::Fixed(1));
    for result in admin.create_topics([&new], &AdminOptions::new()).await? {
        match result {
            Ok(_) => {}
            Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => {}
            Err((name, code)) => return Err(format!("cannot create topic {name}: {code}").into()),
        }
    }
    Ok(())
}
