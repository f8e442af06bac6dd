//! [`DeadLetters`]: poison messages forwarded, bytes unchanged, to a dead-letter topic with
//! headers saying why, where from and when, so that the consumer can go on.

use std::time::{SystemTime, UNIX_EPOCH};

use rdkafka::config::ClientConfig;
use rdkafka::error::KafkaError;
use rdkafka::producer::FutureProducer;

use crate::message::{Header, Poison};
use crate::producer::{delivered, record, Delivered, SendError, SendOptions};

/// The header with the reason a message could not be read, in words.
pub const REASON: &str = "__dlq.error.reason";
/// The header with the short name of the reason (`PoisonReason::kind`).
pub const KIND: &str = "__dlq.error.kind";
/// The header naming the part that could not be read: `key` or `value`.
pub const PART: &str = "__dlq.error.part";
/// The header with the time of forwarding, milliseconds since the Unix epoch.
pub const TIMESTAMP: &str = "__dlq.error.timestamp";
/// The header with the topic the message was read from.
pub const SOURCE_TOPIC: &str = "__dlq.source.topic";
/// The header with the partition the message was read from.
pub const SOURCE_PARTITION: &str = "__dlq.source.partition";
/// The header with the offset the message was read at.
pub const SOURCE_OFFSET: &str = "__dlq.source.offset";
/// The header with the schema id of the frame that could not be read, when it was one.
pub const SCHEMA_ID: &str = "__dlq.error.schema.id";

/// Forwards [`Poison`] messages to a dead-letter topic: the original key, value, headers and
/// timestamp, plus headers in the shape Kafka Connect's dead-letter queues use (all values
/// UTF-8 text): [`REASON`], [`KIND`], [`PART`], [`TIMESTAMP`], [`SOURCE_TOPIC`],
/// [`SOURCE_PARTITION`], [`SOURCE_OFFSET`] and, for frames, [`SCHEMA_ID`].
///
/// The topic is `<topic>.dlq` for messages read from `<topic>` unless
/// [`DeadLetters::topic_name`] says otherwise.
pub struct DeadLetters {
    producer: FutureProducer,
    name: Box<dyn Fn(&str) -> String + Send + Sync>,
}

impl DeadLetters {
    /// Forwarding through a producer with the librdkafka settings `kafka`.
    pub fn new(kafka: &ClientConfig) -> Result<Self, KafkaError> {
        Ok(DeadLetters {
            producer: kafka.create()?,
            name: Box::new(|topic| format!("{topic}.dlq")),
        })
    }

    /// Naming the dead-letter topic of each source topic with `name`.
    pub fn topic_name(mut self, name: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.name = Box::new(name);
        self
    }

    /// The dead-letter topic of messages read from `topic`.
    pub fn topic_for(&self, topic: &str) -> String {
        (self.name)(topic)
    }

    /// Sends `poison` to its dead-letter topic and waits for the broker's acknowledgement.
    /// Mark it done on the consumer afterwards, so that it is neither lost nor read again.
    pub async fn forward(&self, poison: &Poison) -> Result<Delivered, SendError> {
        let topic = self.topic_for(&poison.position.topic);
        let options = SendOptions {
            headers: dead_letter_headers(poison, now_millis()),
            partition: None,
            timestamp: poison.timestamp,
        };
        let message = record(
            &topic,
            poison.key.as_deref(),
            poison.payload.as_deref(),
            &options,
        );
        let delivery = self
            .producer
            .send_result(message)
            .map_err(|(e, _)| SendError::Kafka(e))?;
        let forwarded = delivered(delivery).await?;
        crate::metrics::dead_lettered(&poison.position.topic, poison.reason.kind());
        Ok(forwarded)
    }
}

/// The original headers of `poison`, then the dead-letter ones, forwarded at `now`.
fn dead_letter_headers(poison: &Poison, now: i64) -> Vec<Header> {
    let position = &poison.position;
    let mut headers = poison.headers.clone();
    headers.extend([
        Header::new(REASON, poison.reason.to_string()),
        Header::new(KIND, poison.reason.kind()),
        Header::new(PART, poison.part.as_str()),
        Header::new(TIMESTAMP, now.to_string()),
        Header::new(SOURCE_TOPIC, position.topic.as_str()),
        Header::new(SOURCE_PARTITION, position.partition.to_string()),
        Header::new(SOURCE_OFFSET, position.offset.to_string()),
    ]);
    if let Some(id) = poison.reason.schema_id() {
        headers.push(Header::new(SCHEMA_ID, id.to_string()));
    }
    headers
}

fn now_millis() -> i64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH);
    since.map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::PoisonReason;
    use crate::message::{Part, Position};
    use avdl2rs::WireError;

    #[test]
    fn headers_say_why_where_from_and_when_after_the_original_ones() {
        let poison = Poison {
            position: Position {
                topic: "orders".into(),
                partition: 2,
                offset: 41,
            },
            timestamp: Some(7),
            headers: vec![Header::new("trace", "t-1")],
            key: None,
            payload: Some(vec![1, 2]),
            part: Part::Value,
            reason: PoisonReason::NotFramed(WireError::BadMagic { found: 1 }),
        };
        let text = |h: &Header| {
            let value = h.value.as_deref().map(String::from_utf8_lossy);
            (h.key.clone(), value.unwrap_or_default().into_owned())
        };
        let headers: Vec<_> = dead_letter_headers(&poison, 1_700)
            .iter()
            .map(text)
            .collect();
        let expected = [
            ("trace", "t-1"),
            (
                REASON,
                "not a Confluent-framed message: magic byte is 0x01, expected 0x00",
            ),
            (KIND, "not-framed"),
            (PART, "value"),
            (TIMESTAMP, "1700"),
            (SOURCE_TOPIC, "orders"),
            (SOURCE_PARTITION, "2"),
            (SOURCE_OFFSET, "41"),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(headers, expected);
    }

    #[test]
    fn a_value_a_rule_stopped_is_forwarded_with_the_rule_named() {
        let rule = serde_json::json!({"name": "smallOrders", "kind": "CONDITION",
            "mode": "READ", "type": "CEL", "expr": "message.amount < 100", "onFailure": "DLQ"});
        let failure = avdl2rs_registry::rules::RuleFailure::Stopped {
            held: false,
            detail: None,
            action: avdl2rs_registry::rules::Action::DeadLetter,
        };
        let reason = PoisonReason::Rule(avdl2rs_registry::RuleError {
            rule: Box::new(serde_json::from_value(rule).unwrap()),
            failure,
        });
        let poison = Poison {
            position: Position {
                topic: "orders".into(),
                partition: 0,
                offset: 3,
            },
            timestamp: None,
            headers: Vec::new(),
            key: None,
            payload: Some(vec![0, 0, 0, 0, 41, 2]),
            part: Part::Value,
            reason,
        };
        let headers = dead_letter_headers(&poison, 1);
        let value = |key: &str| {
            let header = headers.iter().find(|h| h.key == key).unwrap();
            String::from_utf8(header.value.clone().unwrap()).unwrap()
        };
        assert_eq!(
            value(REASON),
            "CONDITION rule smallOrders (CEL, READ): the condition failed (sent to the \
             dead-letter topic)"
        );
        assert_eq!(value(KIND), "rule");
    }
}
