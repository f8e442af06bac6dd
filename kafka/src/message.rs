//! What the consumer hands out: a decoded [`Record`] or a [`Poison`] message, both with the
//! [`Position`] they were read at, and the [`Header`]s of either.

use std::fmt;

use rdkafka::message::{Headers, Message};

use crate::format::PoisonReason;

/// One header of a Kafka message: a name and bytes, which may be null.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The header's name.
    pub key: String,
    /// The header's value; `None` for a null value.
    pub value: Option<Vec<u8>>,
}

impl Header {
    /// A header with a value.
    pub fn new(key: impl Into<String>, value: impl Into<Vec<u8>>) -> Self {
        Header {
            key: key.into(),
            value: Some(value.into()),
        }
    }
}

/// The headers of `message`, in their order.
pub(crate) fn headers_of(message: &impl Message) -> Vec<Header> {
    let Some(headers) = message.headers() else {
        return Vec::new();
    };
    headers
        .iter()
        .map(|h| Header {
            key: h.key.to_owned(),
            value: h.value.map(<[u8]>::to_vec),
        })
        .collect()
}

/// Where a message was read: topic, partition and offset, what committing needs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The message's offset in the partition.
    pub offset: i64,
}

impl Position {
    pub(crate) fn of(message: &impl Message) -> Self {
        Position {
            topic: message.topic().to_owned(),
            partition: message.partition(),
            offset: message.offset(),
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Position {
            topic,
            partition,
            offset,
        } = self;
        write!(f, "{topic} partition {partition} offset {offset}")
    }
}

impl AsRef<Position> for Position {
    fn as_ref(&self) -> &Position {
        self
    }
}

/// A message read and decoded: its key and value as `K` and `V`, with everything Kafka
/// said about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<K, V> {
    /// Where it was read.
    pub position: Position,
    /// The message's timestamp, in milliseconds since the Unix epoch, when it has one.
    pub timestamp: Option<i64>,
    /// The message's headers, in their order.
    pub headers: Vec<Header>,
    /// The key; `None` for a message without a key.
    pub key: Option<K>,
    /// The value; `None` for a tombstone (a message without a value, which compacted topics
    /// use to delete a key).
    pub value: Option<V>,
    /// The Schema Registry id of the key's writer schema, for a Confluent-framed key.
    pub key_schema_id: Option<i32>,
    /// The Schema Registry id of the value's writer schema.
    pub schema_id: Option<i32>,
}

impl<K, V> AsRef<Position> for Record<K, V> {
    fn as_ref(&self) -> &Position {
        &self.position
    }
}

/// Which part of a message something is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// The message's key.
    Key,
    /// The message's value.
    Value,
}

impl Part {
    /// `"key"` or `"value"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Key => "key",
            Part::Value => "value",
        }
    }
}

/// A message that could not be decoded, kept whole: the bytes as they came, where they came
/// from, and why they could not be read. Consuming goes on after it; forward it to a
/// dead-letter topic ([`crate::DeadLetters`]) and mark it done like a record.
#[derive(Debug)]
pub struct Poison {
    /// Where it was read.
    pub position: Position,
    /// The message's timestamp, in milliseconds since the Unix epoch, when it has one.
    pub timestamp: Option<i64>,
    /// The message's headers, in their order.
    pub headers: Vec<Header>,
    /// The key's bytes.
    pub key: Option<Vec<u8>>,
    /// The value's bytes.
    pub payload: Option<Vec<u8>>,
    /// Which part could not be read.
    pub part: Part,
    /// Why.
    pub reason: PoisonReason,
}

impl Poison {
    pub(crate) fn new(message: &impl Message, part: Part, reason: PoisonReason) -> Self {
        Poison {
            position: Position::of(message),
            timestamp: message.timestamp().to_millis(),
            headers: headers_of(message),
            key: message.key().map(<[u8]>::to_vec),
            payload: message.payload().map(<[u8]>::to_vec),
            part,
            reason,
        }
    }
}

impl AsRef<Position> for Poison {
    fn as_ref(&self) -> &Position {
        &self.position
    }
}

impl fmt::Display for Poison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = self.part.as_str();
        write!(f, "{}: {part}: {}", self.position, self.reason)
    }
}

impl std::error::Error for Poison {}
