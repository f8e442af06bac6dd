//! Generic records through the broker and the registry: Python `confluent-kafka` writes both
//! versions of the order event, and a `TypedConsumer` with the registry's
//! `GenericDeserializer` reads every record as a value of its writer schema, equal to what
//! Python wrote; a `TypedProducer` with the `GenericSerializer` writes values Python reads.

use avdl2rs::generic::GenericValue;
use avdl2rs::AvroSchema;
use avdl2rs_kafka::{Raw, TypedConsumer, TypedProducer};
use avdl2rs_registry::nonblocking::{GenericDeserializer, GenericSerializer};
use avdl2rs_registry::SerializerConfig;
use avdl2rs_tests::fresh_name;
use kafka_orders::{v1, v2};
use serde_json::{json, Value};

use crate::python_interop::python;
use crate::support::{env, receive, records};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn the_generic_consumer_reads_what_python_wrote_under_either_version() {
    let env = env();
    let topic = env.topic("generic-from-python", 2).await;
    let old =
        json!([{"id": 0, "amount": 1.5, "user_id": 9}, {"id": 1, "amount": 2.5, "user_id": 8}]);
    let new = json!([
        {"id": 2, "amount": 3.5, "user_id": 7, "currency": "EUR", "discount": 0.5},
        {"id": 3, "amount": 4.5, "user_id": 6, "currency": "ünï", "discount": null}
    ]);
    for (schema, values) in [
        (v1::OrderEvent::SCHEMA_JSON, &old),
        (v2::OrderEvent::SCHEMA_JSON, &new),
    ] {
        python(&env, &["produce", &topic, schema, &values.to_string()]);
    }

    let value = GenericDeserializer::new(env.registry());
    let consumer = TypedConsumer::<String, GenericValue, Raw, _>::new(
        &env.group(&fresh_name("g")),
        Raw,
        value,
    )
    .unwrap();
    consumer.subscribe(&[&topic]).unwrap();
    let mut read: Vec<Value> = records(receive(&consumer, 4).await)
        .into_iter()
        .map(|record| serde_json::to_value(record.value.unwrap()).unwrap())
        .collect();
    read.sort_by_key(|v| v["id"].as_i64());
    let written: Vec<Value> = [old, new]
        .iter()
        .flat_map(|v| v.as_array().unwrap().clone())
        .collect();
    assert_eq!(read, written);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker, a Schema Registry and Python confluent-kafka (.ci/kafka-broker, .ci/registry-server)"]
async fn python_reads_what_the_generic_producer_wrote() {
    let env = env();
    let topic = env.topic("generic-to-python", 1).await;
    let config = SerializerConfig::default();
    let value =
        GenericSerializer::new(env.registry(), v2::OrderEvent::SCHEMA_JSON, config).unwrap();
    let orders: Vec<Value> = (0..3)
        .map(|id| {
            json!({"id": id, "amount": 0.25, "user_id": id * 2,
            "currency": "CHF", "discount": if id == 1 { json!(null) } else { json!(0.5) }})
        })
        .collect();
    let values: Vec<GenericValue> = orders
        .iter()
        .map(|order| {
            value
                .schema()
                .from_avro_json(&natural_to_avro(order))
                .unwrap()
        })
        .collect();
    let producer =
        TypedProducer::<str, GenericValue, Raw, _>::new(&env.kafka(), Raw, value).unwrap();
    for (id, order) in (0..).zip(&values) {
        let key: String = format!("{id}");
        producer.send(&topic, &key, order).await.unwrap();
    }
    let out = python(&env, &["consume", &topic, &fresh_name("py"), "3"]);
    let mut seen: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["value"].clone())
        .collect();
    seen.sort_by_key(|v| v["id"].as_i64());
    assert_eq!(seen, orders);
}

/// The Avro JSON of an order written as plain JSON: its `discount` union wrapped in its
/// branch's name.
fn natural_to_avro(order: &Value) -> Value {
    let mut avro = order.clone();
    if let Some(discount) = order["discount"].as_f64() {
        avro["discount"] = json!({ "double": discount });
    }
    avro
}
