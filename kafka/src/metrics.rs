//! The metrics of the producer, the consumer and the dead-letter forwarding, recorded through
//! the [`metrics`] facade so that the program chooses where they go (a Prometheus endpoint,
//! StatsD, logs): without a recorder installed, recording does nothing. The names and label
//! values are defined here once; the crate's `README.md` has the table, and
//! [`describe`] gives the recorder their help texts.
//!
//! Labels stay few and bounded, so that a series per value is affordable: the topic, the
//! part of the message (`key` or `value`) and the short name of a poison reason
//! ([`PoisonReason::kind`]).

use std::time::Duration;

use metrics::{counter, describe_counter, describe_histogram, histogram, Unit};

use crate::format::PoisonReason;
use crate::message::Part;

/// Counter: messages the consumer read, records and poison alike, by `topic`.
pub const MESSAGES_CONSUMED: &str = "avdl2rs_kafka_messages_consumed_total";
/// Counter: bytes of the keys and values the consumer read, by `topic`.
pub const CONSUMED_BYTES: &str = "avdl2rs_kafka_consumed_bytes_total";
/// Histogram: seconds from a message's arrival at the consumer to its record (or poison),
/// key and value decoded, writer schemas fetched when they were not yet.
pub const DECODE_SECONDS: &str = "avdl2rs_kafka_decode_seconds";
/// Counter: messages whose key or value could not be read, by `topic`, `part` and `reason`.
pub const POISON_MESSAGES: &str = "avdl2rs_kafka_poison_messages_total";
/// Counter: messages the broker acknowledged from the producer, by `topic`.
pub const MESSAGES_PRODUCED: &str = "avdl2rs_kafka_messages_produced_total";
/// Counter: bytes of the keys and values of those messages, by `topic`.
pub const PRODUCED_BYTES: &str = "avdl2rs_kafka_produced_bytes_total";
/// Counter: poison messages forwarded to a dead-letter topic, by the `topic` they were read
/// from and `reason`.
pub const DEAD_LETTERED: &str = "avdl2rs_kafka_dead_lettered_messages_total";

/// The label with the topic.
pub const TOPIC: &str = "topic";
/// The label with the part of a message that could not be read: `key` or `value`.
pub const PART: &str = "part";
/// The label with why a message could not be read: [`PoisonReason::kind`].
pub const REASON: &str = "reason";

/// Gives the installed recorder the help text and unit of every metric of this crate and of
/// the registry client underneath (`avdl2rs_registry::metrics::describe`). Call it once,
/// after installing the recorder; exporters that show help texts (Prometheus' `# HELP`)
/// need it.
pub fn describe() {
    describe_counter!(MESSAGES_CONSUMED, "Messages read by the consumer.");
    describe_counter!(
        CONSUMED_BYTES,
        Unit::Bytes,
        "Bytes of keys and values read."
    );
    describe_histogram!(
        DECODE_SECONDS,
        Unit::Seconds,
        "Time to decode a message's key and value."
    );
    describe_counter!(
        POISON_MESSAGES,
        "Messages whose key or value could not be read."
    );
    describe_counter!(MESSAGES_PRODUCED, "Messages acknowledged by the broker.");
    describe_counter!(
        PRODUCED_BYTES,
        Unit::Bytes,
        "Bytes of keys and values produced."
    );
    describe_counter!(
        DEAD_LETTERED,
        "Poison messages forwarded to a dead-letter topic."
    );
    avdl2rs_registry::metrics::describe();
}

/// Records a message the consumer read from `topic`: `bytes` of key and value, decoded in
/// `decoding`, and why it is poison when it is.
///
/// Public only for the benchmark of what metrics cost a consumer; not part of the API.
#[doc(hidden)]
pub fn received(
    topic: &str,
    bytes: usize,
    decoding: Duration,
    poison: Option<(Part, &PoisonReason)>,
) {
    counter!(MESSAGES_CONSUMED, TOPIC => topic.to_owned()).increment(1);
    counter!(CONSUMED_BYTES, TOPIC => topic.to_owned()).increment(bytes as u64);
    histogram!(DECODE_SECONDS).record(decoding);
    if let Some((part, reason)) = poison {
        let (part, reason) = (part.as_str(), reason.kind());
        counter!(POISON_MESSAGES, TOPIC => topic.to_owned(), PART => part, REASON => reason)
            .increment(1);
    }
}

/// Records a message of `bytes` the broker acknowledged on `topic`.
pub(crate) fn produced(topic: &str, bytes: usize) {
    counter!(MESSAGES_PRODUCED, TOPIC => topic.to_owned()).increment(1);
    counter!(PRODUCED_BYTES, TOPIC => topic.to_owned()).increment(bytes as u64);
}

/// Records a poison message from `topic` forwarded to its dead-letter topic.
pub(crate) fn dead_lettered(topic: &str, reason: &PoisonReason) {
    counter!(DEAD_LETTERED, TOPIC => topic.to_owned(), REASON => reason.kind()).increment(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Decoder, Raw, Undecodable};
    use metrics_util::debugging::{DebugValue, DebuggingRecorder};
    use metrics_util::MetricKind;

    /// Every counter recorded while `run` ran, with its labels as `name=value` pairs.
    fn counters(run: impl FnOnce()) -> Vec<(String, Vec<String>, u64)> {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        metrics::with_local_recorder(&recorder, run);
        let mut counters: Vec<_> = (snapshotter.snapshot().into_vec().into_iter())
            .filter_map(|(key, _, _, value)| match (key.kind(), value) {
                (MetricKind::Counter, DebugValue::Counter(n)) => {
                    let (_, key) = key.into_parts();
                    let labels = key.labels().map(|l| format!("{}={}", l.key(), l.value()));
                    Some((key.name().to_owned(), labels.collect(), n))
                }
                _ => None,
            })
            .collect();
        counters.sort();
        counters
    }

    fn not_text() -> PoisonReason {
        let decoded =
            futures_util::FutureExt::now_or_never(Decoder::<String>::decode(&Raw, b"\xff"));
        match decoded {
            Some(Err(Undecodable::Poison(reason))) => reason,
            other => panic!("expected poison, got {other:?}"),
        }
    }

    fn counter(name: &str, labels: &[&str], n: u64) -> (String, Vec<String>, u64) {
        let labels = labels.iter().map(|l| l.to_string()).collect();
        (name.to_owned(), labels, n)
    }

    #[test]
    fn a_poison_message_counts_as_consumed_and_as_poison_by_part_and_reason() {
        let reason = not_text();
        let recorded = counters(|| {
            received("orders", 3, Duration::from_micros(5), None);
            received(
                "orders",
                1,
                Duration::from_micros(5),
                Some((Part::Key, &reason)),
            );
        });
        let expected = [
            counter(CONSUMED_BYTES, &["topic=orders"], 4),
            counter(MESSAGES_CONSUMED, &["topic=orders"], 2),
            counter(
                POISON_MESSAGES,
                &["topic=orders", "part=key", "reason=not-text"],
                1,
            ),
        ];
        assert_eq!(recorded, expected);
    }

    #[test]
    fn dead_letters_and_produced_messages_count_by_topic() {
        let recorded = counters(|| {
            dead_lettered("orders", &not_text());
            produced("orders", 10);
            produced("orders", 5);
        });
        let expected = [
            counter(DEAD_LETTERED, &["topic=orders", "reason=not-text"], 1),
            counter(MESSAGES_PRODUCED, &["topic=orders"], 2),
            counter(PRODUCED_BYTES, &["topic=orders"], 15),
        ];
        assert_eq!(recorded, expected);
    }
}
