//! The typed serializer and deserializer against a fake registry: which calls they make
//! (counted), the frames they write (read back with apache-avro's schema of the frame's
//! id), and reading other schema versions and schemas with references.

use crate::support;

use std::sync::{Arc, Barrier};

use avdl2rs::{Avro, AvroSchema, SubjectNameStrategy};
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{
    codes, ClientConfig, Deserializer, SerdeError, Serializer, SerializerConfig,
};
use serde_json::json;
use support::fake::{Answer, Fake};

/// Version 1 of an order.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct OrderV1 {
    id: i64,
}

/// Version 2: a field with a default, so it reads version 1 data and version 1 reads it.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct OrderV2 {
    id: i64,
    #[avro(default = "none")]
    note: String,
}

/// Another version 2: a field without default, which version 1 data cannot fill.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct OrderQty {
    id: i64,
    qty: i32,
}

fn client(url: &str) -> Arc<Client> {
    Arc::new(Client::new(ClientConfig::new(url)).unwrap())
}

fn schema_reply(json: &str) -> Answer {
    Answer::json(200, json!({ "schema": json }).to_string())
}

/// Reads a frame's body with apache-avro under `writer` and returns the record's fields.
fn read_with_apache(frame: &[u8], writer: &str) -> apache_avro::types::Value {
    assert_eq!(frame[0], 0);
    let schema = apache_avro::Schema::parse_str(writer).unwrap();
    let mut body = &frame[5..];
    let value = apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap()
        .read_value(&mut body)
        .unwrap();
    assert!(body.is_empty(), "{} bytes left", body.len());
    value
}

#[test]
fn auto_register_once_then_frames_from_the_cache() {
    let fake = Fake::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/orders-value/versions") => Answer::json(200, r#"{"id":41}"#),
        ("GET", "/schemas/ids/41?deleted=true") => schema_reply(OrderV1::SCHEMA_JSON),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let client = client(&fake.url);
    let serializer = Serializer::<OrderV1>::new(client.clone(), SerializerConfig::default());
    let deserializer = Deserializer::<OrderV1>::new(client);
    let mut frame = Vec::new();
    for id in 0..5 {
        serializer
            .serialize_into("orders", &OrderV1 { id }, &mut frame)
            .unwrap();
        assert_eq!(frame, OrderV1 { id }.to_confluent(41).unwrap());
        assert_eq!(deserializer.deserialize(&frame).unwrap(), OrderV1 { id });
    }
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "{requests:#?}");
    let sent: serde_json::Value = serde_json::from_str(&requests[0].body).unwrap();
    assert_eq!(sent, json!({ "schema": OrderV1::SCHEMA_JSON }));
}

#[test]
fn without_auto_register_the_schema_is_looked_up() {
    let fake = Fake::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/shop.Order") => Answer::json(
            200,
            json!({"subject":"shop.Order","version":4,"id":17,"schema":OrderV1::SCHEMA_JSON})
                .to_string(),
        ),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let config = SerializerConfig {
        subject_strategy: SubjectNameStrategy::RecordName,
        auto_register: false,
        ..SerializerConfig::default()
    };
    let serializer = Serializer::<OrderV1>::new(client(&fake.url), config);
    assert_eq!(serializer.subject("any"), "shop.Order");
    assert_eq!(serializer.schema_id("a").unwrap(), 17);
    assert_eq!(serializer.schema_id("b").unwrap(), 17);
    assert_eq!(
        fake.count(),
        1,
        "record-name subjects are shared across topics"
    );
}

#[test]
fn a_missing_schema_is_a_typed_error() {
    let fake = Fake::start(|_, _| Answer::error(404, codes::SUBJECT_NOT_FOUND, "no subject"));
    let config = SerializerConfig {
        auto_register: false,
        ..SerializerConfig::default()
    };
    let serializer = Serializer::<OrderV1>::new(client(&fake.url), config);
    match serializer.serialize("t", &OrderV1 { id: 1 }).unwrap_err() {
        SerdeError::Registry { subject, source } => {
            assert_eq!(subject, "t-value");
            assert_eq!(source.api().unwrap().error_code, Some(40401));
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_fixed_schema_id_asks_nothing() {
    let fake = Fake::start(|_, _| Answer::error(500, 50001, "must not be called"));
    let config = SerializerConfig {
        schema_id: Some(99),
        ..SerializerConfig::default()
    };
    let serializer = Serializer::<OrderV1>::new(client(&fake.url), config);
    let frame = serializer.serialize("t", &OrderV1 { id: 3 }).unwrap();
    assert_eq!(frame, OrderV1 { id: 3 }.to_confluent(99).unwrap());
    assert_eq!(fake.count(), 0);
}

fn latest_is(schema: &'static str) -> Fake {
    Fake::start(
        move |seen, _| match (seen.method.as_str(), seen.path.as_str()) {
            ("GET", "/subjects/t-value/versions/latest") => Answer::json(
                200,
                json!({"subject":"t-value","version":2,"id":52,"schema":schema}).to_string(),
            ),
            ("POST", "/subjects/t-value/versions") => Answer::json(200, r#"{"id":51}"#),
            _ => Answer::error(404, 40401, "unexpected"),
        },
    )
}

fn use_latest(strict: bool) -> SerializerConfig {
    SerializerConfig {
        use_latest: true,
        latest_strict: strict,
        ..SerializerConfig::default()
    }
}

#[test]
fn use_latest_writes_the_latest_schemas_encoding() {
    let fake = latest_is(OrderV2::SCHEMA_JSON);
    let serializer = Serializer::<OrderV1>::new(client(&fake.url), use_latest(true));
    let frame = serializer.serialize("t", &OrderV1 { id: 8 }).unwrap();
    assert_eq!(&frame[..5], [0, 0, 0, 0, 52]);
    // The body is version 2's encoding, with the default filled in.
    let value = read_with_apache(&frame, OrderV2::SCHEMA_JSON);
    let expected = apache_avro::types::Value::Record(vec![
        ("id".into(), apache_avro::types::Value::Long(8)),
        (
            "note".into(),
            apache_avro::types::Value::String("none".into()),
        ),
    ]);
    assert_eq!(value, expected);
    serializer.serialize("t", &OrderV1 { id: 9 }).unwrap();
    assert_eq!(fake.count(), 1);
}

#[test]
fn a_topic_serializer_keeps_its_id_until_latest_expires() {
    let fake = latest_is(OrderV1::SCHEMA_JSON);
    let config =
        ClientConfig::new(&fake.url).latest_ttl(Some(std::time::Duration::from_millis(100)));
    let serializer =
        Serializer::<OrderV1>::new(Arc::new(Client::new(config).unwrap()), use_latest(true));
    let mut topic = serializer.for_topic("t").unwrap();
    assert_eq!(topic.schema_id(), 52);
    let mut frame = Vec::new();
    for id in 0..3 {
        topic.serialize_into(&OrderV1 { id }, &mut frame).unwrap();
        assert_eq!(
            frame,
            OrderV1 { id }.to_confluent(52).unwrap(),
            "the same schema: no translation"
        );
    }
    assert_eq!(fake.count(), 1);
    std::thread::sleep(std::time::Duration::from_millis(150));
    topic
        .serialize_into(&OrderV1 { id: 1 }, &mut frame)
        .unwrap();
    assert_eq!(fake.count(), 2, "the latest version was looked at again");
}

#[test]
fn an_unusable_latest_fails_when_strict_and_falls_back_otherwise() {
    let fake = latest_is(OrderQty::SCHEMA_JSON);
    let serializer = Serializer::<OrderV1>::new(client(&fake.url), use_latest(true));
    let e = serializer.serialize("t", &OrderV1 { id: 1 }).unwrap_err();
    assert!(matches!(e, SerdeError::Latest { .. }), "{e}");
    assert!(e.to_string().contains("qty"), "{e}");

    let lenient = Serializer::<OrderV1>::new(client(&fake.url), use_latest(false));
    let frame = lenient.serialize("t", &OrderV1 { id: 1 }).unwrap();
    assert_eq!(frame, OrderV1 { id: 1 }.to_confluent(51).unwrap());
}

#[test]
fn older_writers_are_read_through_resolution() {
    let fake = Fake::start(|_, _| schema_reply(OrderV1::SCHEMA_JSON));
    let deserializer = Deserializer::<OrderV2>::new(client(&fake.url));
    let frame = OrderV1 { id: 5 }.to_confluent(3).unwrap();
    let read = deserializer.deserialize(&frame).unwrap();
    assert_eq!(
        read,
        OrderV2 {
            id: 5,
            note: "none".into()
        }
    );
    assert!(deserializer.deserialize(&[1, 2]).is_err());
    assert!(deserializer.deserialize(&frame[..5]).is_err());
}

#[test]
fn concurrent_first_messages_fetch_the_schema_once() {
    let fake = Fake::start(|_, _| {
        schema_reply(OrderV1::SCHEMA_JSON).after(std::time::Duration::from_millis(200))
    });
    let deserializer = Arc::new(Deserializer::<OrderV1>::new(client(&fake.url)));
    let barrier = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|id| {
            let deserializer = Arc::clone(&deserializer);
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let frame = OrderV1 { id }.to_confluent(12).unwrap();
                barrier.wait();
                deserializer.deserialize(&frame).unwrap()
            })
        })
        .collect();
    for (id, thread) in threads.into_iter().enumerate() {
        assert_eq!(thread.join().unwrap(), OrderV1 { id: id as i64 });
    }
    assert_eq!(fake.count(), 1);
}

#[test]
fn writer_schemas_with_references_are_assembled() {
    // An order whose `total` is a Money record registered under the subject `money`.
    let order = r#"{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"},{"name":"total","type":"shop.Money"}]}"#;
    let money = r#"{"type":"record","name":"Money","namespace":"shop","fields":[{"name":"cents","type":"long"}]}"#;
    let fake = Fake::start(move |seen, _| {
        match seen.path.as_str() {
        "/schemas/ids/7?deleted=true" => Answer::json(
            200,
            json!({"schema": order, "references": [{"name":"shop.Money","subject":"money","version":1}]})
                .to_string(),
        ),
        "/subjects/money/versions/1" => Answer::json(
            200,
            json!({"subject":"money","version":1,"id":6,"schema":money}).to_string(),
        ),
        _ => Answer::error(404, 40403, "unexpected"),
    }
    });
    // The reader only wants the id: the writer's `total` is skipped.
    let deserializer = Deserializer::<OrderV1>::new(client(&fake.url));
    let mut frame = vec![0, 0, 0, 0, 7];
    avdl2rs::codec::write_long(&mut frame, 21);
    avdl2rs::codec::write_long(&mut frame, 1999);
    assert_eq!(
        deserializer.deserialize(&frame).unwrap(),
        OrderV1 { id: 21 }
    );
    assert_eq!(fake.count(), 2);
}

#[test]
fn round_trip_through_the_real_registry() {
    let Some(url) = avdl2rs_tests::schema_registry() else {
        return;
    };
    let topic = avdl2rs_tests::fresh_name("serdes");
    let producer = Serializer::<OrderV1>::new(client(&url), SerializerConfig::default());
    let frame = producer.serialize(&topic, &OrderV1 { id: 77 }).unwrap();
    let id = producer.schema_id(&topic).unwrap();
    assert_eq!(frame, OrderV1 { id: 77 }.to_confluent(id).unwrap());

    // A consumer with its own client, on the newer version of the type.
    let consumer = Deserializer::<OrderV2>::new(client(&url));
    let read = consumer.deserialize(&frame).unwrap();
    assert_eq!(
        read,
        OrderV2 {
            id: 77,
            note: "none".into()
        }
    );

    // Without registering, the same schema is found again.
    let config = SerializerConfig {
        auto_register: false,
        ..SerializerConfig::default()
    };
    let lookup = Serializer::<OrderV1>::new(client(&url), config);
    assert_eq!(lookup.schema_id(&topic).unwrap(), id);
}
