//! # avdl2rs-kafka — typed Kafka producers and consumers for avdl2rs types
//!
//! The loop around a Kafka client that every service reading and writing Avro through a
//! Schema Registry needs, on [`rdkafka`] (librdkafka, built from its bundled source) and
//! tokio:
//!
//! * [`TypedProducer`] writes keys and values with their own encoders — by default the
//!   registry's serializers, Confluent-framed under the `<topic>-key` and `<topic>-value`
//!   subjects (or the record strategies), or [`Raw`] text and bytes for keys — and sends them
//!   with headers, partition and timestamp; delivery reports come back as typed results, and
//!   a value that cannot be written never reaches the broker.
//! * [`TypedConsumer`] reads each message into a [`Record`] (topic, partition, offset,
//!   timestamp, headers, schema ids, the decoded key and value) or, when its bytes cannot be
//!   read, a [`Poison`] with the bytes, where they came from and why; one bad message never
//!   ends the stream. Offsets are stored only when the caller marks a record done: at least
//!   once (the [`consumer`] module says exactly what that means, and what happens while the
//!   registry is down).
//! * Generic records (`avdl2rs::generic::GenericValue`), for data whose schema is known only
//!   at run time, go through the same producer and consumer with the registry's
//!   `GenericSerializer` and `GenericDeserializer` as their value encoder and decoder.
//! * [`DeadLetters`] forwards poison messages to `<topic>.dlq` with headers saying why; the
//!   producer sends a value a write rule stops with the action `DLQ` to a dead-letter topic
//!   ([`TypedProducer::dead_letters`]).
//! * [`metrics`] counts what they do (messages and bytes, poison messages by reason,
//!   dead-lettered ones, decode time) through the `metrics` facade, for the program's
//!   exporter.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use avdl2rs::Avro;
//! # #[derive(Avro)] #[avro(namespace = "com.example")] struct OrderEvent { id: i32 }
//! use avdl2rs_kafka::rdkafka::ClientConfig;
//! use avdl2rs_kafka::{DeadLetters, Raw, TypedConsumer, TypedProducer};
//! use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
//! use avdl2rs_registry::{ClientConfig as RegistryConfig, SerializerConfig};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = Arc::new(Client::new(RegistryConfig::new("http://localhost:8081"))?);
//! let mut kafka = ClientConfig::new();
//! kafka.set("bootstrap.servers", "localhost:9092");
//!
//! // Keys as text, values as Avro under `orders-value`.
//! let value = Serializer::new(registry.clone(), SerializerConfig::default());
//! let producer = TypedProducer::<str, OrderEvent, Raw>::new(&kafka, Raw, value)?;
//! producer.send("orders", "order-1", &OrderEvent { id: 1 }).await?;
//!
//! kafka.set("group.id", "billing");
//! let consumer = TypedConsumer::<String, OrderEvent, Raw>::new(&kafka, Raw, Deserializer::new(registry))?;
//! consumer.subscribe(&["orders"])?;
//! let dead_letters = DeadLetters::new(&kafka)?;
//! loop {
//!     match consumer.recv().await? {
//!         Ok(record) => {
//!             // handle record.value ...
//!             consumer.store_offset(&record)?;
//!         }
//!         Err(poison) => {
//!             dead_letters.forward(&poison).await?;
//!             consumer.store_offset(&poison)?;
//!         }
//!     }
//! }
//! # }
//! ```

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

pub mod consumer;
pub mod dead_letter;
mod format;
mod generic;
mod message;
pub mod metrics;
mod producer;
mod send;

pub use consumer::{ConsumeError, Received, TypedConsumer};
pub use dead_letter::DeadLetters;
pub use format::{decode_frame, Decoded, Decoder, Encoder, PoisonReason, Raw, Undecodable};
pub use message::{Header, Part, Poison, Position, Record};
pub use producer::TypedProducer;
/// The Kafka client underneath, for its settings and everything this crate does not wrap.
pub use rdkafka;
pub use send::{Delivered, SendError, SendOptions};
