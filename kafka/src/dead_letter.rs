//! [`DeadLetters`]: poison messages forwarded, bytes unchanged, to a dead-letter topic with
//! headers saying why, where from and when, so that the consumer can go on; and the keys and
//! values a rule stops on their way out, which the producer sends to one (Confluent's `DLQ`
//! rule action).

use std::time::{SystemTime, UNIX_EPOCH};

use avdl2rs::wire;
use avdl2rs_registry::RuleError;
use rdkafka::config::ClientConfig;
use rdkafka::error::KafkaError;
use rdkafka::producer::{FutureProducer, FutureRecord};

use crate::message::{Header, Part, Poison};
use crate::send::{delivered, record, Delivered, SendError, SendOptions};

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

/// The header naming the rule that stopped a key or value the producer was writing, as
/// Confluent's serializers name it.
pub const RULE_NAME: &str = "__rule.name";
/// The header with the mode the rule stopped the key or value in: `WRITE`.
pub const RULE_MODE: &str = "__rule.mode";
/// The header with the topic the stopped message was meant for.
pub const RULE_TOPIC: &str = "__rule.topic";
/// The header with why the rule stopped it, in words.
pub const RULE_EXCEPTION: &str = "__rule.exception";
/// The rule parameter naming the dead-letter topic of the values the rule stops.
pub const DLQ_TOPIC: &str = "dlq.topic";

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

    /// The producer dead letters are sent with.
    pub(crate) fn producer(&self) -> &FutureProducer {
        &self.producer
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
        let forwarded = send(&self.producer, message).await?;
        crate::metrics::dead_lettered(&poison.position.topic, poison.reason.kind());
        Ok(forwarded)
    }
}

/// A message whose key or value a rule stopped with the action `DLQ` as the producer wrote
/// it: bound for a dead-letter topic instead of its own.
pub(crate) struct Stopped<'a> {
    /// The topic it was meant for.
    topic: &'a str,
    /// The part the rule stopped.
    pub(crate) part: Part,
    /// The rule, and why.
    pub(crate) rule: RuleError,
    key: Option<&'a [u8]>,
    payload: Option<&'a [u8]>,
}

impl<'a> Stopped<'a> {
    /// The message for `topic` whose `part` `rule` stopped, with the key and value as
    /// written (each absent when there was none, or it could not be written).
    pub(crate) fn new(
        topic: &'a str,
        part: Part,
        rule: RuleError,
        key: Option<&'a [u8]>,
        payload: Option<&'a [u8]>,
    ) -> Self {
        Stopped {
            topic,
            part,
            rule,
            key,
            payload,
        }
    }

    /// The topic the rule names in its `dlq.topic` parameter, if it names one.
    fn rule_topic(&self) -> Option<&str> {
        let named = self.rule.rule.params.get(DLQ_TOPIC);
        named.map(String::as_str).filter(|t| !t.is_empty())
    }

    /// Whether the rule names the dead-letter topic itself.
    pub(crate) fn names_topic(&self) -> bool {
        self.rule_topic().is_some()
    }

    /// The dead-letter topic: the rule's, else `dead_letters`' for the message's topic.
    pub(crate) fn topic_in(&self, dead_letters: Option<&DeadLetters>) -> Option<String> {
        let configured = || dead_letters.map(|d| d.topic_for(self.topic));
        self.rule_topic().map(str::to_owned).or_else(configured)
    }

    /// Sends the message to `dead_letter_topic` through `producer`, with the caller's
    /// `options` (its headers first; no partition, which is the other topic's) and waits
    /// for the broker's acknowledgement.
    pub(crate) async fn send(
        &self,
        producer: &FutureProducer,
        dead_letter_topic: &str,
        options: &SendOptions,
    ) -> Result<Delivered, KafkaError> {
        let options = SendOptions {
            headers: self.headers(&options.headers, now_millis()),
            partition: None,
            timestamp: options.timestamp,
        };
        let message = record(dead_letter_topic, self.key, self.payload, &options);
        let sent = send(producer, message).await?;
        crate::metrics::dead_lettered(self.topic, "rule");
        Ok(sent)
    }

    /// The `original` headers, then those Confluent's serializers add (but `__rule.subject`,
    /// which the producer cannot know of any encoder), then those of a poison message's that
    /// apply to a message never sent: the rule stopped it at `now`.
    fn headers(&self, original: &[Header], now: i64) -> Vec<Header> {
        let rule = &self.rule;
        let mut headers = original.to_vec();
        headers.extend([
            Header::new(RULE_NAME, rule.rule.name.as_str()),
            Header::new(RULE_MODE, "WRITE"),
            Header::new(RULE_TOPIC, self.topic),
            Header::new(RULE_EXCEPTION, rule.failure.to_string()),
        ]);
        let why = Why {
            reason: rule.to_string(),
            kind: "rule",
            part: self.part,
            topic: self.topic,
        };
        headers.extend(why.headers(now));
        let stopped = match self.part {
            Part::Key => self.key,
            Part::Value => self.payload,
        };
        if let Some((id, _)) = stopped.and_then(|bytes| wire::split_confluent(bytes).ok()) {
            headers.push(Header::new(SCHEMA_ID, id.to_string()));
        }
        headers
    }
}

/// Why a message is a dead letter and where it comes from: what the headers of every dead
/// letter say.
struct Why<'a> {
    reason: String,
    kind: &'static str,
    part: Part,
    topic: &'a str,
}

impl Why<'_> {
    /// [`REASON`], [`KIND`], [`PART`], [`TIMESTAMP`] (`now`) and [`SOURCE_TOPIC`].
    fn headers(self, now: i64) -> [Header; 5] {
        [
            Header::new(REASON, self.reason),
            Header::new(KIND, self.kind),
            Header::new(PART, self.part.as_str()),
            Header::new(TIMESTAMP, now.to_string()),
            Header::new(SOURCE_TOPIC, self.topic),
        ]
    }
}

/// Sends `message` through `producer` and waits for the broker's acknowledgement.
async fn send(
    producer: &FutureProducer,
    message: FutureRecord<'_, [u8], [u8]>,
) -> Result<Delivered, KafkaError> {
    let delivery = producer.send_result(message).map_err(|(e, _)| e)?;
    delivered(delivery).await
}

/// The original headers of `poison`, then the dead-letter ones, forwarded at `now`.
fn dead_letter_headers(poison: &Poison, now: i64) -> Vec<Header> {
    let position = &poison.position;
    let mut headers = poison.headers.clone();
    let why = Why {
        reason: poison.reason.to_string(),
        kind: poison.reason.kind(),
        part: poison.part,
        topic: &position.topic,
    };
    headers.extend(why.headers(now));
    headers.extend([
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
    use serde_json::json;

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

    fn stopping(params: serde_json::Value) -> avdl2rs_registry::RuleError {
        let rule = serde_json::json!({"name": "knownKeys", "kind": "CONDITION",
            "mode": "WRITEREAD", "type": "CEL", "expr": "message.id < 9", "onFailure": "DLQ",
            "params": params});
        avdl2rs_registry::RuleError {
            rule: Box::new(serde_json::from_value(rule).unwrap()),
            failure: avdl2rs_registry::rules::RuleFailure::Stopped {
                held: false,
                detail: None,
                action: avdl2rs_registry::rules::Action::DeadLetter,
            },
        }
    }

    #[test]
    fn a_stopped_key_names_the_rule_its_part_and_its_frames_schema_id() {
        let key = [0, 0, 0, 0, 7, 24];
        let stop = Stopped::new("orders", Part::Key, stopping(json!({})), Some(&key), None);
        assert_eq!(stop.topic_in(None), None, "no topic named, none configured");
        let headers = stop.headers(&[], 5);
        let text = |key: &str| {
            let found = headers.iter().find(|h| h.key == key).unwrap();
            String::from_utf8(found.value.clone().unwrap()).unwrap()
        };
        assert_eq!(text(RULE_NAME), "knownKeys");
        assert_eq!(
            text(RULE_MODE),
            "WRITE",
            "the mode it ran in, not the rule's"
        );
        assert_eq!(text(RULE_TOPIC), "orders");
        assert_eq!(text(PART), "key");
        assert_eq!(text(KIND), "rule");
        assert_eq!(text(TIMESTAMP), "5");
        assert_eq!(text(SCHEMA_ID), "7");

        let named = stopping(json!({"dlq.topic": "orders-stopped"}));
        let stop = Stopped::new("orders", Part::Value, named, None, Some(b"not a frame"));
        assert_eq!(stop.topic_in(None).as_deref(), Some("orders-stopped"));
        let headers = stop.headers(&[], 5);
        assert!(headers.iter().all(|h| h.key != SCHEMA_ID));
    }
}
