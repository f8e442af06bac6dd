//! The `OneOfSerializer` of a `#[derive(AvroOneOf)]` enum, over both transports: each variant
//! written in its own type's encoding under its own subject's id (checked against the frame
//! the single type writes with that id), the ids asked once per variant, the subjects the
//! real registry then has, and the catch-all variant refused.

use crate::support;

use std::sync::Arc;

use avdl2rs::generic::GenericRecord;
use avdl2rs::{Avro, AvroOneOf, AvroSchema, OneOf, SubjectNameStrategy};
use avdl2rs_registry::{blocking, nonblocking, ClientConfig, OneOfSerializer};
use avdl2rs_registry::{SerdeError, SerializerConfig};
use serde_json::json;
use support::fake::{Answer, Fake};
use support::serdes::{Async, Blocking};

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Created {
    id: i64,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Paid {
    id: i64,
    cents: i64,
}

#[derive(AvroOneOf, Debug, Clone, PartialEq)]
enum Event {
    Created(Created),
    Paid(Paid),
    #[avro(other)]
    Other(GenericRecord),
}

/// What the scenarios do with a `OneOfSerializer`, for either transport.
trait Produce: Send + Sync {
    fn serialize(&self, topic: &str, value: &Event) -> Result<Vec<u8>, SerdeError>;
    fn schema_id(&self, topic: &str, variant: usize) -> Result<i32, SerdeError>;
    fn subject(&self, topic: &str, variant: usize) -> Option<String>;
}

trait Transport {
    fn producer(client: ClientConfig, config: SerializerConfig) -> Box<dyn Produce>;
}

type BlockingSerializer = OneOfSerializer<Event, blocking::Client>;

impl Produce for BlockingSerializer {
    fn serialize(&self, topic: &str, value: &Event) -> Result<Vec<u8>, SerdeError> {
        BlockingSerializer::serialize(self, topic, value)
    }
    fn schema_id(&self, topic: &str, variant: usize) -> Result<i32, SerdeError> {
        BlockingSerializer::schema_id(self, topic, variant)
    }
    fn subject(&self, topic: &str, variant: usize) -> Option<String> {
        BlockingSerializer::subject(self, topic, variant)
    }
}

impl Transport for Blocking {
    fn producer(client: ClientConfig, config: SerializerConfig) -> Box<dyn Produce> {
        let client = Arc::new(blocking::Client::new(client).unwrap());
        Box::new(OneOfSerializer::<Event, _>::new(client, config))
    }
}

/// The async serializer, driven from the test thread through its own runtime.
struct AsyncProducer {
    runtime: tokio::runtime::Runtime,
    serializer: OneOfSerializer<Event, nonblocking::Client>,
}

impl Produce for AsyncProducer {
    fn serialize(&self, topic: &str, value: &Event) -> Result<Vec<u8>, SerdeError> {
        self.runtime
            .block_on(self.serializer.serialize(topic, value))
    }
    fn schema_id(&self, topic: &str, variant: usize) -> Result<i32, SerdeError> {
        self.runtime
            .block_on(self.serializer.schema_id(topic, variant))
    }
    fn subject(&self, topic: &str, variant: usize) -> Option<String> {
        self.serializer.subject(topic, variant)
    }
}

impl Transport for Async {
    fn producer(client: ClientConfig, config: SerializerConfig) -> Box<dyn Produce> {
        let client = Arc::new(nonblocking::Client::new(client).unwrap());
        Box::new(AsyncProducer {
            runtime: support::runtime(),
            serializer: OneOfSerializer::new(client, config),
        })
    }
}

fn strategy(strategy: SubjectNameStrategy) -> SerializerConfig {
    SerializerConfig::default().subject_strategy(strategy)
}

fn created() -> Event {
    Event::Created(Created { id: 7 })
}

fn paid() -> Event {
    Event::Paid(Paid { id: 7, cents: 250 })
}

/// A registry knowing one schema id per record-name subject.
fn registry_of_two_types() -> Fake {
    Fake::start(|seen, _| {
        let schema = |json: &str| Answer::json(200, json!({ "schema": json }).to_string());
        match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/subjects/shop.Created/versions") => Answer::json(200, r#"{"id":1}"#),
            ("POST", "/subjects/shop.Paid/versions") => Answer::json(200, r#"{"id":2}"#),
            ("GET", "/schemas/ids/1?deleted=true") => schema(Created::SCHEMA_JSON),
            ("GET", "/schemas/ids/2?deleted=true") => schema(Paid::SCHEMA_JSON),
            _ => Answer::error(404, 40401, "unexpected"),
        }
    })
}

fn each_variant_is_registered_once_under_its_record_name<X: Transport>() {
    let fake = registry_of_two_types();
    let config = strategy(SubjectNameStrategy::RecordName);
    let serializer = X::producer(ClientConfig::new(&fake.url), config);
    assert_eq!(serializer.subject("a", 1).as_deref(), Some("shop.Paid"));
    assert_eq!(serializer.subject("a", 2), None, "the catch-all has none");
    for topic in ["a", "b", "a"] {
        let frame = serializer.serialize(topic, &created()).unwrap();
        assert_eq!(frame, Created { id: 7 }.to_confluent(1).unwrap());
        let frame = serializer.serialize(topic, &paid()).unwrap();
        let single = Paid { id: 7, cents: 250 }.to_confluent(2).unwrap();
        assert_eq!(frame, single);
    }
    // Per variant: registered, then its schema read for rules; never again, for any topic.
    assert_eq!(fake.count(), 4);
    assert_eq!(serializer.schema_id("c", 1).unwrap(), 2);
    assert_eq!(fake.count(), 4);
}

fn the_catch_all_variant_is_not_written<X: Transport>() {
    let fake = registry_of_two_types();
    let config = strategy(SubjectNameStrategy::RecordName);
    let serializer = X::producer(ClientConfig::new(&fake.url), config);
    let schema = avdl2rs::generic::GenericSchema::new(
        r#"{"type":"record","name":"Refunded","fields":[{"name":"id","type":"long"}]}"#,
    )
    .unwrap();
    let value = schema.from_avro_json(&json!({"id": 1})).unwrap();
    let record = value.as_record().unwrap().clone();
    let e = serializer
        .serialize("a", &Event::Other(record))
        .unwrap_err();
    assert!(e.to_string().contains("catch-all"), "{e}");
    assert_eq!(fake.count(), 0);
}

fn topic_record_names_through_the_real_registry<X: Transport>() {
    let url = avdl2rs_tests::schema_registry();
    let topic = avdl2rs_tests::fresh_name("one-of");
    let config = strategy(SubjectNameStrategy::TopicRecordName);
    let serializer = X::producer(ClientConfig::new(&url), config);
    let frames = [created(), paid(), created()].map(|e| serializer.serialize(&topic, &e).unwrap());

    let client = blocking::Client::new(ClientConfig::new(&url)).unwrap();
    let id_of = |name: &str| client.latest(&format!("{topic}-{name}")).unwrap().id;
    let (created_id, paid_id) = (id_of("shop.Created"), id_of("shop.Paid"));
    assert_ne!(created_id, paid_id);
    assert_eq!(
        frames[0],
        Created { id: 7 }.to_confluent(created_id).unwrap()
    );
    assert_eq!(
        frames[1],
        Paid { id: 7, cents: 250 }.to_confluent(paid_id).unwrap()
    );
    assert_eq!(frames[2], frames[0]);
    let subjects = client.subjects().unwrap();
    let ours: Vec<_> = subjects.iter().filter(|s| s.starts_with(&topic)).collect();
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert_eq!(Event::VARIANTS, ["shop.Created", "shop.Paid"]);

    // Our deserializer reads each frame into its variant.
    let consumer = blocking::Deserializer::<Event>::new(Arc::new(client));
    assert_eq!(consumer.deserialize(&frames[1]).unwrap(), paid());
}

both_serdes!(
    each_variant_is_registered_once_under_its_record_name,
    the_catch_all_variant_is_not_written,
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    topic_record_names_through_the_real_registry,
);
