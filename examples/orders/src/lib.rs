//! The order service's events, generated from `schemas/orders.avdl` by `build.rs`, and what
//! a producer and a consumer do with them: frame an event for Kafka with the Schema
//! Registry id of its schema, read it back, and name the subject its schema is registered
//! under.

/// The generated types, one module per Avro namespace (`com.example.orders`).
pub mod schema {
    avdl2rs::include_generated!("orders");
}

pub use schema::com::example::orders::OrderEvent;

use std::collections::BTreeMap;

use avdl2rs::resolve::{Consumer, ResolveError, SchemaLookup};
use avdl2rs::{Avro, AvroSchema, SubjectNameStrategy, SubjectPart};

/// The Kafka topic the events are published to.
pub const TOPIC: &str = "orders";

/// An order as the service would publish it.
pub fn sample_order() -> OrderEvent {
    OrderEvent {
        id: 42,
        amount: 99.5,
        user_id: 7,
        currency: "CNY".to_string(),
        discount: Some(5.0),
    }
}

/// The Kafka message value for `order`: magic byte 0, `schema_id` as a big-endian `i32`,
/// then the Avro binary body.
pub fn frame(order: &OrderEvent, schema_id: i32) -> Vec<u8> {
    order
        .to_confluent(schema_id)
        .expect("an OrderEvent has no value Avro cannot hold")
}

/// A consumer that finds `OrderEvent`'s schema under `schema_id`, standing in for a Schema
/// Registry client (anything implementing `SchemaLookup`, a closure included).
pub fn consumer(schema_id: i32) -> Consumer<BTreeMap<i32, &'static str>> {
    Consumer::new(BTreeMap::from([(schema_id, OrderEvent::SCHEMA_JSON)]))
}

/// Reads a Kafka message value back: the schema id it was framed with and the order, read
/// with the writer schema registered under that id (resolved if it is another version).
pub fn unframe(
    consumer: &Consumer<impl SchemaLookup>,
    message: &[u8],
) -> Result<(i32, OrderEvent), ResolveError> {
    let (schema_id, _) = avdl2rs::wire::split_confluent(message)?;
    Ok((schema_id, consumer.decode_confluent(message)?))
}

/// The subject of the value schema on [`TOPIC`] under each naming strategy, as
/// `(strategy, subject)`.
pub fn subjects() -> [(&'static str, String); 3] {
    let subject = |strategy| OrderEvent::subject_name(strategy, TOPIC, SubjectPart::Value);
    [
        ("TopicNameStrategy", subject(SubjectNameStrategy::TopicName)),
        (
            "RecordNameStrategy",
            subject(SubjectNameStrategy::RecordName),
        ),
        (
            "TopicRecordNameStrategy",
            subject(SubjectNameStrategy::TopicRecordName),
        ),
    ]
}

/// Lower-case hex of `bytes`, two digits per byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
