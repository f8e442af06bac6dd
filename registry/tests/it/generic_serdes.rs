//! The generic serializer and deserializer against a real Schema Registry, over both
//! transports: the frame a generic value is written as (read back with apache-avro under the
//! registered schema), read again as a value of its writer schema, resolved to a newer
//! reader schema (both also as Avro JSON), and read by the typed deserializer.

use std::sync::Arc;

use apache_avro::types::Value;
use avdl2rs::generic::{GenericSchema, GenericValue};
use avdl2rs::{Avro, AvroSchema};
use avdl2rs_registry::{blocking, nonblocking, ClientConfig, SerializerConfig};
use serde_json::json;

use crate::support;

const ORDER_V1: &str = r#"{"type":"record","name":"Order","namespace":"shop","fields":[
    {"name":"id","type":"long"},
    {"name":"tags","type":{"type":"array","items":"string"}}]}"#;

const ORDER_V2: &str = r#"{"type":"record","name":"Order","namespace":"shop","fields":[
    {"name":"id","type":"long"},
    {"name":"tags","type":{"type":"array","items":"string"}},
    {"name":"note","type":["null","string"],"default":null}]}"#;

/// The generated-type twin of `ORDER_V2`, to read generic frames with the typed deserializer.
#[derive(Avro, Debug, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct OrderV2 {
    id: i64,
    tags: Vec<String>,
    note: Option<String>,
}

/// What a scenario asks of one transport.
struct Frames {
    /// The frame of the value and its schema id.
    written: (Vec<u8>, i32),
    /// The id found without registering.
    looked_up: i32,
    /// The frame read with its writer schema, and resolved to `ORDER_V2`.
    read: GenericValue,
    resolved: GenericValue,
    /// The same two reads in Avro JSON.
    read_json: serde_json::Value,
    resolved_json: serde_json::Value,
}

fn order_v1(schema: &GenericSchema) -> GenericValue {
    schema
        .from_avro_json(&json!({"id": 41, "tags": ["gift", "ünï"]}))
        .unwrap()
}

fn blocking_frames(url: &str, topic: &str) -> Frames {
    let client = |url: &str| Arc::new(blocking::Client::new(ClientConfig::new(url)).unwrap());
    let serializer =
        blocking::GenericSerializer::new(client(url), ORDER_V1, SerializerConfig::default())
            .unwrap();
    let frame = serializer
        .serialize(topic, &order_v1(serializer.schema()))
        .unwrap();
    let id = serializer.schema_id(topic).unwrap();
    let lookup = SerializerConfig::default().auto_register(false);
    let lookup = blocking::GenericSerializer::new(client(url), ORDER_V1, lookup).unwrap();
    let reader = GenericSchema::new(ORDER_V2).unwrap();
    Frames {
        looked_up: lookup.schema_id(topic).unwrap(),
        read: blocking::GenericDeserializer::new(client(url))
            .deserialize(&frame)
            .unwrap(),
        resolved: blocking::GenericDeserializer::with_reader(client(url), reader.clone())
            .deserialize(&frame)
            .unwrap(),
        read_json: blocking::GenericDeserializer::new(client(url))
            .deserialize_avro_json(&frame)
            .unwrap(),
        resolved_json: blocking::GenericDeserializer::with_reader(client(url), reader)
            .deserialize_avro_json(&frame)
            .unwrap(),
        written: (frame, id),
    }
}

fn async_frames(url: &str, topic: &str) -> Frames {
    let client = |url: &str| Arc::new(nonblocking::Client::new(ClientConfig::new(url)).unwrap());
    support::runtime().block_on(async {
        let serializer =
            nonblocking::GenericSerializer::new(client(url), ORDER_V1, SerializerConfig::default())
                .unwrap();
        let frame = serializer
            .serialize(topic, &order_v1(serializer.schema()))
            .await
            .unwrap();
        let id = serializer.schema_id(topic).await.unwrap();
        let lookup = SerializerConfig::default().auto_register(false);
        let lookup = nonblocking::GenericSerializer::new(client(url), ORDER_V1, lookup).unwrap();
        let reader = GenericSchema::new(ORDER_V2).unwrap();
        Frames {
            looked_up: lookup.schema_id(topic).await.unwrap(),
            read: nonblocking::GenericDeserializer::new(client(url))
                .deserialize(&frame)
                .await
                .unwrap(),
            resolved: nonblocking::GenericDeserializer::with_reader(client(url), reader.clone())
                .deserialize(&frame)
                .await
                .unwrap(),
            read_json: nonblocking::GenericDeserializer::new(client(url))
                .deserialize_avro_json(&frame)
                .await
                .unwrap(),
            resolved_json: nonblocking::GenericDeserializer::with_reader(client(url), reader)
                .deserialize_avro_json(&frame)
                .await
                .unwrap(),
            written: (frame, id),
        }
    })
}

fn generic_values_round_trip_through_the_real_registry(frames: fn(&str, &str) -> Frames) {
    let url = avdl2rs_tests::schema_registry();
    let topic = avdl2rs_tests::fresh_name("generic");
    let frames = frames(&url, &topic);
    let (frame, id) = &frames.written;
    assert_eq!(frames.looked_up, *id);

    // The frame: header, then the value as apache-avro reads it under the registered schema.
    assert_eq!(frame[0], 0);
    assert_eq!(frame[1..5], id.to_be_bytes());
    let registered = blocking::Client::new(ClientConfig::new(&url))
        .unwrap()
        .schema_by_id(*id)
        .unwrap();
    let apache = apache_avro::Schema::parse_str(&registered.schema).unwrap();
    let mut body = &frame[5..];
    let value = apache_avro::reader::datum::GenericDatumReader::builder(&apache)
        .build()
        .unwrap()
        .read_value(&mut body)
        .unwrap();
    assert!(body.is_empty());
    let tags = ["gift", "ünï"].map(|t| Value::String(t.into())).to_vec();
    assert_eq!(
        value,
        Value::Record(vec![
            ("id".into(), Value::Long(41)),
            ("tags".into(), Value::Array(tags)),
        ])
    );

    let v1 = GenericSchema::new(ORDER_V1).unwrap();
    assert_eq!(frames.read, order_v1(&v1));
    let v2 = GenericSchema::new(ORDER_V2).unwrap();
    let expected = json!({"id": 41, "tags": ["gift", "ünï"], "note": null});
    assert_eq!(v2.to_avro_json(&frames.resolved).unwrap(), expected);
    assert_eq!(frames.resolved_json, expected);
    assert_eq!(frames.read_json, json!({"id": 41, "tags": ["gift", "ünï"]}));

    // The typed deserializer reads what the generic serializer wrote.
    let typed = blocking::Deserializer::<OrderV2>::new(Arc::new(
        blocking::Client::new(ClientConfig::new(&url)).unwrap(),
    ));
    assert_eq!(
        typed.deserialize(frame).unwrap(),
        OrderV2 {
            id: 41,
            tags: vec!["gift".into(), "ünï".into()],
            note: None
        }
    );
    assert_eq!(OrderV2::FULL_NAME, "shop.Order");
}

#[test]
#[ignore = "needs a Schema Registry (.ci/registry-server)"]
fn blocking_generic_values_round_trip_through_the_real_registry() {
    generic_values_round_trip_through_the_real_registry(blocking_frames);
}

#[test]
#[ignore = "needs a Schema Registry (.ci/registry-server)"]
fn async_generic_values_round_trip_through_the_real_registry() {
    generic_values_round_trip_through_the_real_registry(async_frames);
}
