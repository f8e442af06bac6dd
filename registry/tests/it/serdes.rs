//! The typed serializer and deserializer against a fake registry, each scenario over both
//! transports: which calls they make (counted), the frames they write (read back with
//! apache-avro's schema of the frame's id), reading other schema versions, and schemas with
//! references both ways.

use crate::support;

use std::sync::{Arc, Barrier};

use avdl2rs::{Avro, AvroSchema, SubjectNameStrategy, SubjectPart};
use avdl2rs_registry::{codes, ClientConfig, SchemaReferences, SerdeError, SerializerConfig};
use serde_json::json;
use support::fake::{Answer, Fake};
use support::serdes::Transport;

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

/// A named type used twice inside another, for registering with references.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Money", namespace = "shop")]
struct Money {
    cents: i64,
}

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Invoice", namespace = "shop")]
struct Invoice {
    id: i64,
    total: Money,
    refunds: Vec<Money>,
}

fn client(url: &str) -> ClientConfig {
    ClientConfig::new(url)
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

fn auto_register_once_then_frames_from_the_cache<X: Transport>() {
    let fake = Fake::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/orders-value/versions") => Answer::json(200, r#"{"id":41}"#),
        ("GET", "/schemas/ids/41?deleted=true") => schema_reply(OrderV1::SCHEMA_JSON),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let serializer = X::producer::<OrderV1>(client(&fake.url), SerializerConfig::default());
    let deserializer = X::consumer::<OrderV1>(client(&fake.url));
    let mut frame = Vec::new();
    for id in 0..5 {
        serializer
            .serialize_into("orders", &OrderV1 { id }, &mut frame)
            .unwrap();
        assert_eq!(frame, OrderV1 { id }.to_confluent(41).unwrap());
        assert_eq!(deserializer.deserialize(&frame).unwrap(), OrderV1 { id });
    }
    // The registration, then the registered schema (for its rules) by each side's client.
    let requests = fake.requests();
    assert_eq!(requests.len(), 3, "{requests:#?}");
    let sent: serde_json::Value = serde_json::from_str(&requests[0].body).unwrap();
    assert_eq!(sent, json!({ "schema": OrderV1::SCHEMA_JSON }));
}

fn interleaved_topics_and_serializers_keep_their_own_ids<X: Transport>() {
    let fake = Fake::start(|seen, _| match seen.path.as_str() {
        "/subjects/a-value/versions" => Answer::json(200, r#"{"id":1}"#),
        "/subjects/b-value/versions" => Answer::json(200, r#"{"id":2}"#),
        "/subjects/a-key/versions" => Answer::json(200, r#"{"id":3}"#),
        path if path.starts_with("/schemas/ids/") => schema_reply(OrderV1::SCHEMA_JSON),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let values = X::producer::<OrderV1>(client(&fake.url), SerializerConfig::default());
    let key_config = SerializerConfig::default().part(SubjectPart::Key);
    let keys = X::producer::<OrderV1>(client(&fake.url), key_config);
    let order = OrderV1 { id: 1 };
    let mut frame = Vec::new();
    for _ in 0..3 {
        for (producer, topic, id) in [(&values, "a", 1), (&values, "b", 2), (&keys, "a", 3)] {
            producer.serialize_into(topic, &order, &mut frame).unwrap();
            assert_eq!(frame, order.to_confluent(id).unwrap(), "{topic} {id}");
            producer.serialize_into(topic, &order, &mut frame).unwrap();
            assert_eq!(frame, order.to_confluent(id).unwrap(), "{topic} {id} again");
        }
    }
    assert_eq!(fake.count(), 6, "each target once, and its schema's rules");
}

fn without_auto_register_the_schema_is_looked_up<X: Transport>() {
    let fake = Fake::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/shop.Order") => Answer::json(
            200,
            json!({"subject":"shop.Order","version":4,"id":17,"schema":OrderV1::SCHEMA_JSON})
                .to_string(),
        ),
        ("GET", "/schemas/ids/17?deleted=true") => schema_reply(OrderV1::SCHEMA_JSON),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let config = SerializerConfig::default()
        .subject_strategy(SubjectNameStrategy::RecordName)
        .auto_register(false);
    let serializer = X::producer::<OrderV1>(client(&fake.url), config);
    assert_eq!(serializer.subject("any"), "shop.Order");
    assert_eq!(serializer.schema_id("a").unwrap(), 17);
    assert_eq!(serializer.schema_id("b").unwrap(), 17);
    assert_eq!(
        fake.count(),
        2,
        "record-name subjects are shared across topics: one lookup, one fetch of its rules"
    );
}

fn a_missing_schema_is_a_typed_error<X: Transport>() {
    let fake = Fake::start(|_, _| Answer::error(404, codes::SUBJECT_NOT_FOUND, "no subject"));
    let config = SerializerConfig::default().auto_register(false);
    let serializer = X::producer::<OrderV1>(client(&fake.url), config);
    match serializer.serialize("t", &OrderV1 { id: 1 }).unwrap_err() {
        SerdeError::Registry { subject, source } => {
            assert_eq!(subject, "t-value");
            assert_eq!(source.api().unwrap().error_code, Some(40401));
        }
        other => panic!("{other}"),
    }
}

fn a_fixed_schema_id_asks_nothing<X: Transport>() {
    let fake = Fake::start(|_, _| Answer::error(500, 50001, "must not be called"));
    let config = SerializerConfig::default().schema_id(Some(99));
    let serializer = X::producer::<OrderV1>(client(&fake.url), config);
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
            ("GET", "/schemas/ids/51?deleted=true") => schema_reply(OrderV1::SCHEMA_JSON),
            _ => Answer::error(404, 40401, "unexpected"),
        },
    )
}

fn use_latest(strict: bool) -> SerializerConfig {
    SerializerConfig::default()
        .use_latest(true)
        .latest_strict(strict)
}

fn use_latest_writes_the_latest_schemas_encoding<X: Transport>() {
    let fake = latest_is(OrderV2::SCHEMA_JSON);
    let serializer = X::producer::<OrderV1>(client(&fake.url), use_latest(true));
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

fn a_topic_serializer_keeps_its_id_until_latest_expires<X: Transport>() {
    let fake = latest_is(OrderV1::SCHEMA_JSON);
    let config =
        ClientConfig::new(&fake.url).latest_ttl(Some(std::time::Duration::from_millis(100)));
    let serializer = X::producer::<OrderV1>(config, use_latest(true));
    let values: Vec<_> = (0..4).map(|id| OrderV1 { id }).collect();
    let mut sent = 0;
    let mut counts = Vec::new();
    let (id, frames) = serializer
        .through_topic("t", &values, &mut || {
            counts.push(fake.count());
            sent += 1;
            if sent == 4 {
                std::thread::sleep(std::time::Duration::from_millis(150));
            }
        })
        .unwrap();
    assert_eq!(id, 52);
    for (frame, value) in frames.iter().zip(&values) {
        let expected = value.to_confluent(52).unwrap();
        assert_eq!(frame, &expected, "the same schema: no translation");
    }
    assert_eq!(counts, [1, 1, 1, 1]);
    assert_eq!(fake.count(), 2, "the latest version was looked at again");
}

fn an_unusable_latest_fails_when_strict_and_falls_back_otherwise<X: Transport>() {
    let fake = latest_is(OrderQty::SCHEMA_JSON);
    let serializer = X::producer::<OrderV1>(client(&fake.url), use_latest(true));
    let e = serializer.serialize("t", &OrderV1 { id: 1 }).unwrap_err();
    assert!(matches!(e, SerdeError::Latest { .. }), "{e}");
    assert!(e.to_string().contains("qty"), "{e}");

    let lenient = X::producer::<OrderV1>(client(&fake.url), use_latest(false));
    let frame = lenient.serialize("t", &OrderV1 { id: 1 }).unwrap();
    assert_eq!(frame, OrderV1 { id: 1 }.to_confluent(51).unwrap());
}

fn older_writers_are_read_through_resolution<X: Transport>() {
    let fake = Fake::start(|_, _| schema_reply(OrderV1::SCHEMA_JSON));
    let deserializer = X::consumer::<OrderV2>(client(&fake.url));
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

fn concurrent_first_messages_fetch_the_schema_once<X: Transport>() {
    let fake = Fake::start(|_, _| {
        schema_reply(OrderV1::SCHEMA_JSON).after(std::time::Duration::from_millis(200))
    });
    let deserializer = X::consumer::<OrderV1>(client(&fake.url));
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

fn writer_schemas_with_references_are_assembled<X: Transport>() {
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
    let deserializer = X::consumer::<OrderV1>(client(&fake.url));
    let mut frame = vec![0, 0, 0, 0, 7];
    avdl2rs::codec::write_long(&mut frame, 21);
    avdl2rs::codec::write_long(&mut frame, 1999);
    assert_eq!(
        deserializer.deserialize(&frame).unwrap(),
        OrderV1 { id: 21 }
    );
    assert_eq!(fake.count(), 2);
}

/// A fake that keeps the schemas registered with references and serves them back.
fn registry_keeping_references() -> Fake {
    let kept = std::sync::Mutex::new(std::collections::HashMap::<String, String>::new());
    Fake::start(move |seen, _| {
        let mut kept = kept.lock().unwrap();
        match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/subjects/shop.Money/versions") => {
                kept.insert("money".into(), seen.body.clone());
                Answer::json(200, r#"{"id":5}"#)
            }
            ("POST", "/subjects/shop.Money") | ("GET", "/subjects/shop.Money/versions/3") => {
                let mut version: serde_json::Value = serde_json::from_str(&kept["money"]).unwrap();
                version["subject"] = json!("shop.Money");
                version["version"] = json!(3);
                version["id"] = json!(5);
                Answer::json(200, version.to_string())
            }
            ("POST", "/subjects/invoices-value/versions") => {
                kept.insert("invoice".into(), seen.body.clone());
                Answer::json(200, r#"{"id":6}"#)
            }
            ("GET", "/schemas/ids/6?deleted=true") => Answer::json(200, kept["invoice"].clone()),
            _ => Answer::error(404, 40401, "unexpected"),
        }
    })
}

fn named_types_are_registered_as_references<X: Transport>() {
    let fake = registry_keeping_references();
    let config = SerializerConfig::default().references(SchemaReferences::Registered);
    let serializer = X::producer::<Invoice>(client(&fake.url), config);
    let invoice = Invoice {
        id: 4,
        total: Money { cents: 1999 },
        refunds: vec![Money { cents: 500 }],
    };
    let frame = serializer.serialize("invoices", &invoice).unwrap();
    assert_eq!(frame, invoice.to_confluent(6).unwrap());

    let requests = fake.requests();
    let sent: Vec<_> = requests
        .iter()
        .map(|r| (r.method.as_str(), r.path.as_str()))
        .collect();
    assert_eq!(
        sent,
        [
            ("POST", "/subjects/shop.Money/versions"),
            ("POST", "/subjects/shop.Money"),
            ("POST", "/subjects/invoices-value/versions"),
            ("GET", "/schemas/ids/6?deleted=true"),
        ]
    );
    let body = |n: usize| -> serde_json::Value { serde_json::from_str(&requests[n].body).unwrap() };
    let schema_of = |n: usize| -> serde_json::Value {
        serde_json::from_str(body(n)["schema"].as_str().unwrap()).unwrap()
    };
    // The dependency alone is the derived Money schema, without references.
    let money: serde_json::Value = serde_json::from_str(Money::SCHEMA_JSON).unwrap();
    assert_eq!(schema_of(0), money);
    assert_eq!(body(0).get("references"), None);
    assert_eq!(
        body(1),
        body(0),
        "the lookup of its version sends the same schema"
    );
    // The invoice names Money and references the version the registry gave it.
    assert_eq!(
        body(2)["references"],
        json!([{"name": "shop.Money", "subject": "shop.Money", "version": 3}])
    );
    let top = schema_of(2);
    assert_eq!(top["fields"][1]["type"], "shop.Money");
    assert!(!body(2)["schema"].as_str().unwrap().contains("cents"));
    // With Money defined first, the text is the derived Invoice schema again.
    let mut set = avdl2rs::schema::SchemaSet::new();
    set.parse_str(Money::SCHEMA_JSON).unwrap();
    let parsed = set.parse_str(body(2)["schema"].as_str().unwrap()).unwrap();
    assert_eq!(set.canonical_form(&parsed), Invoice::CANONICAL_FORM);

    // A consumer fetches the invoice, then the referenced Money, and reads the frame.
    let consumer = X::consumer::<Invoice>(client(&fake.url));
    assert_eq!(consumer.deserialize(&frame).unwrap(), invoice);
    let paths: Vec<_> = fake.requests()[4..]
        .iter()
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(
        paths,
        [
            "/schemas/ids/6?deleted=true",
            "/subjects/shop.Money/versions/3"
        ]
    );
}

fn round_trip_through_the_real_registry<X: Transport>() {
    let url = avdl2rs_tests::schema_registry();
    let topic = avdl2rs_tests::fresh_name("serdes");
    let producer = X::producer::<OrderV1>(client(&url), SerializerConfig::default());
    let frame = producer.serialize(&topic, &OrderV1 { id: 77 }).unwrap();
    let id = producer.schema_id(&topic).unwrap();
    assert_eq!(frame, OrderV1 { id: 77 }.to_confluent(id).unwrap());

    // A consumer with its own client, on the newer version of the type.
    let consumer = X::consumer::<OrderV2>(client(&url));
    let read = consumer.deserialize(&frame).unwrap();
    assert_eq!(
        read,
        OrderV2 {
            id: 77,
            note: "none".into()
        }
    );

    // Without registering, the same schema is found again.
    let config = SerializerConfig::default().auto_register(false);
    let lookup = X::producer::<OrderV1>(client(&url), config);
    assert_eq!(lookup.schema_id(&topic).unwrap(), id);
}

both_serdes!(
    auto_register_once_then_frames_from_the_cache,
    interleaved_topics_and_serializers_keep_their_own_ids,
    without_auto_register_the_schema_is_looked_up,
    a_missing_schema_is_a_typed_error,
    a_fixed_schema_id_asks_nothing,
    use_latest_writes_the_latest_schemas_encoding,
    a_topic_serializer_keeps_its_id_until_latest_expires,
    an_unusable_latest_fails_when_strict_and_falls_back_otherwise,
    older_writers_are_read_through_resolution,
    concurrent_first_messages_fetch_the_schema_once,
    writer_schemas_with_references_are_assembled,
    named_types_are_registered_as_references,
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    round_trip_through_the_real_registry,
);
