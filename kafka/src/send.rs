//! What sending one message takes and gives, shared by the [`crate::TypedProducer`] and the
//! dead-letter forwarding ([`crate::DeadLetters`]): the options of a send, the rdkafka record
//! built from them, the delivery report and the errors.

use std::error::Error;

use avdl2rs_registry::RuleError;
use rdkafka::error::KafkaError;
use rdkafka::message::{Header as KafkaHeader, OwnedHeaders};
use rdkafka::producer::{DeliveryFuture, FutureRecord};

use crate::message::{Header, Part};

/// Where and how one message is sent, beyond its topic, key and value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SendOptions {
    /// Headers, in order.
    pub headers: Vec<Header>,
    /// The partition; by default the partitioner picks it from the key.
    pub partition: Option<i32>,
    /// The timestamp in milliseconds since the Unix epoch; by default, the time of sending.
    pub timestamp: Option<i64>,
}

impl SendOptions {
    /// No headers, the partitioner's partition, the time of sending.
    pub fn new() -> Self {
        SendOptions::default()
    }

    /// With one more header.
    pub fn header(mut self, key: impl Into<String>, value: impl Into<Vec<u8>>) -> Self {
        self.headers.push(Header::new(key, value));
        self
    }

    /// To this partition.
    pub fn partition(mut self, partition: i32) -> Self {
        self.partition = Some(partition);
        self
    }

    /// With this timestamp (milliseconds since the Unix epoch).
    pub fn timestamp(mut self, millis: i64) -> Self {
        self.timestamp = Some(millis);
        self
    }
}

/// Where the broker stored a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivered {
    /// The partition.
    pub partition: i32,
    /// The offset in the partition.
    pub offset: i64,
    /// The message's timestamp, when the broker reports one.
    pub timestamp: Option<i64>,
}

/// Why a message was not sent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// The key or the value could not be written; nothing was sent.
    #[error("cannot write the {}: {source}", part.as_str())]
    Encode {
        /// Which part.
        part: Part,
        /// The encoder's error.
        source: Box<dyn Error + Send + Sync>,
    },
    /// The client could not queue the message, or the broker did not take it.
    #[error("kafka: {0}")]
    Kafka(#[from] KafkaError),
    /// A rule of the key's or the value's schema stopped it with the action `DLQ`: the
    /// message was not sent to its topic but, as written, to a dead-letter topic (see
    /// [`crate::TypedProducer::dead_letters`]), which acknowledged it.
    #[error("the {} went to the dead-letter topic {dead_letter_topic}: {source}", part.as_str())]
    DeadLettered {
        /// Which part the rule stopped.
        part: Part,
        /// The topic the message went to instead.
        dead_letter_topic: String,
        /// Where the dead-letter topic stored it.
        delivered: Delivered,
        /// The rule and why it stopped the part.
        source: Box<RuleError>,
    },
    /// A rule stopped the key or the value with the action `DLQ`, as for
    /// [`SendError::DeadLettered`], and the dead-letter topic did not take the message
    /// either: it was sent nowhere.
    #[error("the {} could not go to the dead-letter topic {dead_letter_topic} ({error}): {source}", part.as_str())]
    DeadLetterFailed {
        /// Which part the rule stopped.
        part: Part,
        /// The topic the message should have gone to instead.
        dead_letter_topic: String,
        /// Why the dead-letter topic did not take it.
        error: KafkaError,
        /// The rule and why it stopped the part.
        source: Box<RuleError>,
    },
}

/// The rdkafka record of a written message.
pub(crate) fn record<'a>(
    topic: &'a str,
    key: Option<&'a [u8]>,
    payload: Option<&'a [u8]>,
    options: &SendOptions,
) -> FutureRecord<'a, [u8], [u8]> {
    let mut record = FutureRecord::to(topic);
    if let Some(payload) = payload {
        record = record.payload(payload);
    }
    if let Some(key) = key {
        record = record.key(key);
    }
    if !options.headers.is_empty() {
        record = record.headers(kafka_headers(&options.headers));
    }
    if let Some(partition) = options.partition {
        record = record.partition(partition);
    }
    if let Some(timestamp) = options.timestamp {
        record = record.timestamp(timestamp);
    }
    record
}

/// `headers` as rdkafka's.
pub(crate) fn kafka_headers(headers: &[Header]) -> OwnedHeaders {
    headers
        .iter()
        .fold(OwnedHeaders::new_with_capacity(headers.len()), |all, h| {
            all.insert(KafkaHeader {
                key: &h.key,
                value: h.value.as_deref(),
            })
        })
}

/// The delivery report of a queued message as a typed result.
pub(crate) async fn delivered(delivery: DeliveryFuture) -> Result<Delivered, KafkaError> {
    match delivery.await {
        Ok(Ok(d)) => Ok(Delivered {
            partition: d.partition,
            offset: d.offset,
            timestamp: d.timestamp.to_millis(),
        }),
        Ok(Err((e, _))) => Err(e),
        Err(_canceled) => Err(KafkaError::Canceled),
    }
}
