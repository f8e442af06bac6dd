//! The `OneOfSerializer` of a `#[derive(AvroOneOf)]` enum, over both transports: each variant
//! written in its own type's encoding under its own subject's id (checked against the frame
//! the single type writes with that id), the ids asked once per variant, the subjects the
//! real registry then has, and the catch-all variant refused. Under TopicNameStrategy, the
//! union of the variants' types under the topic's subject: naming them through references
//! (against a fake, since the real registry of the tests refuses references), or defining
//! them; each frame is the union's branch as apache-avro reads it, and our deserializer reads
//! it back into its variant.

use crate::support;

use std::sync::Arc;

use avdl2rs::generic::GenericRecord;
use avdl2rs::{Avro, AvroOneOf, AvroSchema, OneOf, SubjectNameStrategy};
use avdl2rs_registry::{blocking, nonblocking, ClientConfig, OneOfSerializer};
use avdl2rs_registry::{SchemaReferences, SerdeError, SerializerConfig};
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

/// A fake keeping what is registered under each subject, each subject's first version, and
/// serving it back by id and by version.
fn registry_keeping_subjects() -> Fake {
    let kept = std::sync::Mutex::new(Vec::<(String, String)>::new());
    Fake::start(move |seen, _| {
        let mut kept = kept.lock().unwrap();
        let version = |id: usize| {
            let (subject, body) = &kept[id - 1];
            let mut version: serde_json::Value = serde_json::from_str(body).unwrap();
            version["subject"] = json!(subject);
            version["version"] = json!(1);
            version["id"] = json!(id);
            Answer::json(200, version.to_string())
        };
        let path = seen.path.as_str();
        let subject_of = |path: &str| path.split('/').nth(2).unwrap().to_owned();
        let index = |subject: &str, kept: &[(String, String)]| {
            kept.iter().position(|(s, _)| s == subject).map(|i| i + 1)
        };
        match seen.method.as_str() {
            "POST" if path.ends_with("/versions") => {
                let subject = subject_of(path);
                let id = index(&subject, &kept).unwrap_or_else(|| {
                    kept.push((subject, seen.body.clone()));
                    kept.len()
                });
                Answer::json(200, json!({ "id": id }).to_string())
            }
            "POST" => version(index(&subject_of(path), &kept).unwrap()),
            _ if path.starts_with("/schemas/ids/") => {
                let id = path["/schemas/ids/".len()..].split('?').next().unwrap();
                version(id.parse().unwrap())
            }
            _ if path.ends_with("/versions/1") => version(index(&subject_of(path), &kept).unwrap()),
            _ => Answer::error(404, 40401, "unexpected"),
        }
    })
}

/// The union of the variants' types, defining them, as apache-avro reads it.
fn union_of_variants() -> apache_avro::Schema {
    let union = format!("[{},{}]", Created::SCHEMA_JSON, Paid::SCHEMA_JSON);
    apache_avro::Schema::parse_str(&union).unwrap()
}

fn the_topic_subject_holds_a_union_naming_the_variants_by_reference<X: Transport>() {
    use apache_avro::types::Value;
    let fake = registry_keeping_subjects();
    let config = SerializerConfig::default().references(SchemaReferences::Registered);
    let serializer = X::producer(ClientConfig::new(&fake.url), config);
    assert_eq!(serializer.subject("t", 0).as_deref(), Some("t-value"));
    let frames = [paid(), created()].map(|e| serializer.serialize("t", &e).unwrap());

    let sent = fake.sent();
    let expected = [
        ("POST", "/subjects/shop.Created/versions"),
        ("POST", "/subjects/shop.Created"),
        ("POST", "/subjects/shop.Paid/versions"),
        ("POST", "/subjects/shop.Paid"),
        ("POST", "/subjects/t-value/versions"),
        ("GET", "/schemas/ids/3?deleted=true"),
    ];
    assert_eq!(sent, expected.map(|(m, p)| (m.to_owned(), p.to_owned())));
    let requests = fake.requests();
    let union: serde_json::Value = serde_json::from_str(&requests[4].body).unwrap();
    assert_eq!(union["schema"], r#"["shop.Created","shop.Paid"]"#);
    assert_eq!(
        union["references"],
        json!([
            {"name": "shop.Created", "subject": "shop.Created", "version": 1},
            {"name": "shop.Paid", "subject": "shop.Paid", "version": 1},
        ])
    );
    assert_eq!(&frames[0][..5], [0, 0, 0, 0, 3]);
    let schema = union_of_variants();
    let reader = apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap();
    let read = |frame: &[u8]| reader.read_value(&mut &frame[5..]);
    let paid_record = Value::Record(vec![
        ("id".into(), Value::Long(7)),
        ("cents".into(), Value::Long(250)),
    ]);
    assert_eq!(
        read(&frames[0]).unwrap(),
        Value::Union(1, Box::new(paid_record))
    );
    let created_record = Value::Record(vec![("id".into(), Value::Long(7))]);
    assert_eq!(
        read(&frames[1]).unwrap(),
        Value::Union(0, Box::new(created_record))
    );

    // Our deserializer assembles the union from its references and reads each branch.
    let client = Arc::new(blocking::Client::new(ClientConfig::new(&fake.url)).unwrap());
    let consumer = blocking::Deserializer::<Event>::new(client);
    assert_eq!(consumer.deserialize(&frames[0]).unwrap(), paid());
    assert_eq!(consumer.deserialize(&frames[1]).unwrap(), created());
}

fn a_union_defining_the_variants_through_the_real_registry<X: Transport>() {
    let url = avdl2rs_tests::schema_registry();
    let topic = avdl2rs_tests::fresh_name("one-of-union");
    let serializer = X::producer(ClientConfig::new(&url), SerializerConfig::default());
    let frames = [created(), paid()].map(|e| serializer.serialize(&topic, &e).unwrap());
    let id = serializer.schema_id(&topic, 1).unwrap();
    assert_eq!(&frames[1][1..5], id.to_be_bytes());

    let client = blocking::Client::new(ClientConfig::new(&url)).unwrap();
    let latest = client.latest(&format!("{topic}-value")).unwrap();
    assert_eq!(latest.id, id);
    let registered = apache_avro::Schema::parse_str(&latest.schema.schema).unwrap();
    assert_eq!(
        registered.canonical_form(),
        union_of_variants().canonical_form()
    );
    let consumer = blocking::Deserializer::<Event>::new(Arc::new(client));
    assert_eq!(consumer.deserialize(&frames[0]).unwrap(), created());
    assert_eq!(consumer.deserialize(&frames[1]).unwrap(), paid());
}

/// Two event types that both hold the named type `shop.Money`, and one with another
/// definition of it.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Money {
    cents: i64,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Money", namespace = "shop")]
struct OtherMoney {
    units: i32,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Charged {
    amount: Money,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Refunded {
    amount: Money,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "shop")]
struct Tipped {
    amount: OtherMoney,
}

#[derive(AvroOneOf, Debug, Clone, PartialEq)]
enum Payment {
    Charged(Charged),
    Refunded(Refunded),
}

#[derive(AvroOneOf, Debug, Clone, PartialEq)]
enum Conflicting {
    Charged(Charged),
    Tipped(Tipped),
}

#[test]
fn a_named_type_two_variants_hold_is_defined_once_in_the_union() {
    let fake = registry_keeping_subjects();
    let client = Arc::new(blocking::Client::new(ClientConfig::new(&fake.url)).unwrap());
    let serializer =
        OneOfSerializer::<Payment, _>::new(client.clone(), SerializerConfig::default());
    let refunded = Payment::Refunded(Refunded {
        amount: Money { cents: 3 },
    });
    let frame = serializer.serialize("t", &refunded).unwrap();
    let registered: serde_json::Value = serde_json::from_str(&fake.requests()[0].body).unwrap();
    let union = registered["schema"].as_str().unwrap();
    assert_eq!(union.matches("\"cents\"").count(), 1, "{union}");
    // apache-avro refuses a named type defined twice; it reads this union and the frame.
    let schema = apache_avro::Schema::parse_str(union).unwrap();
    let reader = apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap();
    let read = reader.read_value(&mut &frame[5..]).unwrap();
    assert!(
        matches!(read, apache_avro::types::Value::Union(1, _)),
        "{read:?}"
    );
    let consumer = blocking::Deserializer::<Payment>::new(client);
    assert_eq!(consumer.deserialize(&frame).unwrap(), refunded);

    // Two definitions of `shop.Money` make no union: refused before any request.
    let fake = registry_of_two_types();
    let client = Arc::new(blocking::Client::new(ClientConfig::new(&fake.url)).unwrap());
    let serializer = OneOfSerializer::<Conflicting, _>::new(client, SerializerConfig::default());
    let tipped = Conflicting::Tipped(Tipped {
        amount: OtherMoney { units: 1 },
    });
    let e = serializer.serialize("t", &tipped).unwrap_err();
    assert!(matches!(e, SerdeError::Schema { .. }), "{e:?}");
    assert!(e.to_string().contains("shop.Money"), "{e}");
    assert_eq!(fake.count(), 0);
}

both_serdes!(
    the_topic_subject_holds_a_union_naming_the_variants_by_reference,
    each_variant_is_registered_once_under_its_record_name,
    the_catch_all_variant_is_not_written,
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    topic_record_names_through_the_real_registry,
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    a_union_defining_the_variants_through_the_real_registry,
);
