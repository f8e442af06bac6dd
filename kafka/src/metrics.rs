//! The metrics of the producer, the consumer and the dead-letter forwarding, recorded through
//! the [`metrics`] facade so that the program chooses where they go (a Prometheus endpoint,
//! StatsD, logs): without a recorder installed, recording does nothing. The names and label
//! values are defined here once; the crate's `README.md` has the table, and
//! [`describe`] gives the recorder their help texts.
//!
//! Labels stay few and bounded, so that a series per value is affordable: the topic, the
//! part of the message (`key` or `value`) and the short name of a poison reason
//! ([`PoisonReason::kind`]).

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Instant;

use avdl2rs_registry::metrics::HandleCache;
use metrics::{counter, describe_counter, describe_histogram, histogram, Counter, Histogram, Unit};

use crate::format::PoisonReason;
use crate::message::Part;

/// Counter: messages the consumer read, records and poison alike, by `topic`.
pub const MESSAGES_CONSUMED: &str = "avdl2rs_kafka_messages_consumed_total";
/// Counter: bytes of the keys and values the consumer read, by `topic`.
pub const CONSUMED_BYTES: &str = "avdl2rs_kafka_consumed_bytes_total";
/// Histogram: seconds from a message's arrival at the consumer to its record (or poison),
/// key and value decoded, writer schemas fetched when they were not yet; of one message in
/// [`DECODE_TIMED_ONE_IN`].
pub const DECODE_SECONDS: &str = "avdl2rs_kafka_decode_seconds";
/// Counter: messages whose key or value could not be read, by `topic`, `part` and `reason`.
pub const POISON_MESSAGES: &str = "avdl2rs_kafka_poison_messages_total";
/// Counter: messages the broker acknowledged from the producer, by `topic`.
pub const MESSAGES_PRODUCED: &str = "avdl2rs_kafka_messages_produced_total";
/// Counter: bytes of the keys and values of those messages, by `topic`.
pub const PRODUCED_BYTES: &str = "avdl2rs_kafka_produced_bytes_total";
/// Counter: messages sent to a dead-letter topic, by `topic` and `reason`: poison messages
/// forwarded (the topic they were read from, their [`PoisonReason::kind`]), and those a
/// write rule stopped (the topic they were meant for, `rule`).
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
    describe_counter!(DEAD_LETTERED, "Messages sent to a dead-letter topic.");
    avdl2rs_registry::metrics::describe();
}

/// The decode time of one message in this many is recorded in [`DECODE_SECONDS`], on each
/// thread: reading the clock twice and recording a histogram sample would cost more than the
/// counters, and a steady sample describes the distribution as well as every message would.
pub const DECODE_TIMED_ONE_IN: u32 = 64;

/// The messages a [`ConsumedTally`] counts before it hands its counts to the recorder: each
/// hand-over looks up the topic's counter handles and adds to them atomically, which would
/// cost a per-message path several times what the decode costs if done for every message.
pub const CONSUMED_HANDED_OVER_EVERY: u64 = 256;

thread_local! {
    /// Messages to go before the next timed one, on this thread.
    static UNTIMED: Cell<u32> = const { Cell::new(0) };
    /// The handles of the consumer's counters by topic.
    static CONSUMED: RefCell<HandleCache<Box<str>, Consumed>> =
        const { RefCell::new(HandleCache::new()) };
    /// The handles of the producer's counters by topic.
    static PRODUCED: RefCell<HandleCache<Box<str>, Arc<Produced>>> =
        const { RefCell::new(HandleCache::new()) };
}

/// The handles the consumer records the messages of one topic with.
#[derive(Clone)]
struct Consumed {
    messages: Counter,
    bytes: Counter,
    decoding: Histogram,
}

/// When the decoding of a message began, for the messages whose decode time is recorded
/// ([`DECODE_TIMED_ONE_IN`]).
///
/// Public only for the benchmark of what metrics cost a consumer; not part of the API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct DecodeTimer(Option<Instant>);

impl DecodeTimer {
    /// Starts the timing of a message's decoding, when it is one of those timed.
    #[inline]
    pub fn start() -> Self {
        match UNTIMED.get() {
            0 => {
                UNTIMED.set(DECODE_TIMED_ONE_IN - 1);
                DecodeTimer(Some(Instant::now()))
            }
            left => {
                UNTIMED.set(left - 1);
                DecodeTimer(None)
            }
        }
    }
}

/// A consumer's counts of the messages it read and their bytes, in plain integers, handed to
/// the recorder's counters every [`CONSUMED_HANDED_OVER_EVERY`] messages, when the topic
/// changes, and by [`ConsumedTally::hand_over`], which the consumer calls whenever it waits
/// for the broker and when it is dropped: an idle consumer's counters are exact, a busy
/// one's lag by less than a batch. It counts the topic of the message read last.
///
/// Public only for the benchmark of what metrics cost a consumer; not part of the API.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ConsumedTally {
    topic: Box<str>,
    messages: u64,
    bytes: u64,
}

impl ConsumedTally {
    /// Counts a message the consumer read from `topic`: `bytes` of key and value, decoded
    /// since `timer` started, and why it is poison when it is.
    #[inline]
    pub fn received(
        &mut self,
        topic: &str,
        bytes: usize,
        timer: DecodeTimer,
        poison: Option<(Part, &PoisonReason)>,
    ) {
        if !same_text(&self.topic, topic) {
            self.switch_to(topic);
        }
        self.messages += 1;
        self.bytes += bytes as u64;
        if self.messages == CONSUMED_HANDED_OVER_EVERY {
            self.hand_over();
        }
        if let DecodeTimer(Some(started)) = timer {
            timed(topic, started);
        }
        if let Some((part, reason)) = poison {
            poisoned(topic, part, reason);
        }
    }

    /// Hands the counts to the recorder's counters of the topic, and starts again from zero;
    /// with them the writer-cache hits the registry's deserializers counted on this thread
    /// (`avdl2rs_registry::metrics::flush`).
    #[cold]
    pub fn hand_over(&mut self) {
        avdl2rs_registry::metrics::flush();
        if self.messages == 0 {
            return;
        }
        let (messages, bytes) = (self.messages, self.bytes);
        (self.messages, self.bytes) = (0, 0);
        with_consumed(&self.topic, |handles| {
            handles.messages.increment(messages);
            handles.bytes.increment(bytes);
        });
    }

    /// Hands over the counts of the previous topic, and counts `topic` from now on.
    #[cold]
    fn switch_to(&mut self, topic: &str) {
        self.hand_over();
        self.topic = topic.into();
    }
}

impl Drop for ConsumedTally {
    fn drop(&mut self) {
        self.hand_over();
    }
}

/// Whether `a` and `b` are the same text, compared inline a machine word at a time: topic
/// names are short, and a call to `memcmp` costs as much as the rest of counting a message.
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let Some(last) = a.len().checked_sub(8) else {
        return a.iter().zip(b).all(|(x, y)| x == y);
    };
    let word = |text: &[u8], at: usize| {
        let bytes = text.get(at..at + 8)?;
        bytes.try_into().ok().map(u64::from_ne_bytes)
    };
    // The first and the last word (which overlap below 16 bytes), then what lies between.
    let ends = word(a, 0) == word(b, 0) && word(a, last) == word(b, last);
    ends && (a.len() <= 16 || a.get(8..last) == b.get(8..last))
}

/// Runs `record` with the handles of the consumer's metrics of `topic`: kept ones, or, when
/// the thread is ending (a consumer dropped with the thread's locals), new ones.
fn with_consumed(topic: &str, record: impl FnOnce(&Consumed)) {
    let kept = CONSUMED.try_with(|kept| kept.borrow_mut().get(topic, register_consumed).clone());
    record(&kept.unwrap_or_else(|_| register_consumed(topic).1));
}

/// Records the decode time of a timed message of `topic`.
#[cold]
fn timed(topic: &str, started: Instant) {
    let elapsed = started.elapsed();
    with_consumed(topic, |handles| handles.decoding.record(elapsed));
}

#[cold]
fn register_consumed(topic: &str) -> (Box<str>, Consumed) {
    let handles = Consumed {
        messages: counter!(MESSAGES_CONSUMED, TOPIC => topic.to_owned()),
        bytes: counter!(CONSUMED_BYTES, TOPIC => topic.to_owned()),
        decoding: histogram!(DECODE_SECONDS),
    };
    (topic.into(), handles)
}

/// Records a poison message of `topic`: rare, so its handle is not kept.
#[cold]
fn poisoned(topic: &str, part: Part, reason: &PoisonReason) {
    let (part, reason) = (part.as_str(), reason.kind());
    counter!(POISON_MESSAGES, TOPIC => topic.to_owned(), PART => part, REASON => reason)
        .increment(1);
}

/// The handles the producer records an acknowledged message of one topic with.
pub(crate) struct Produced {
    messages: Counter,
    bytes: Counter,
}

/// The handles to record the messages the broker acknowledges on `topic` with, for a
/// delivery that may end on another thread.
pub(crate) fn producing(topic: &str) -> Arc<Produced> {
    PRODUCED.with_borrow_mut(|kept| {
        let register = |topic: &str| {
            let handles = Produced {
                messages: counter!(MESSAGES_PRODUCED, TOPIC => topic.to_owned()),
                bytes: counter!(PRODUCED_BYTES, TOPIC => topic.to_owned()),
            };
            (topic.into(), Arc::new(handles))
        };
        Arc::clone(kept.get(topic, register))
    })
}

impl Produced {
    /// Records a message of `bytes` the broker acknowledged.
    pub(crate) fn acknowledged(&self, bytes: usize) {
        self.messages.increment(1);
        self.bytes.increment(bytes as u64);
    }
}

/// Records a message meant for `topic` forwarded to its dead-letter topic, for the reason
/// `kind` ([`PoisonReason::kind`]).
pub(crate) fn dead_lettered(topic: &str, kind: &'static str) {
    counter!(DEAD_LETTERED, TOPIC => topic.to_owned(), REASON => kind).increment(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Decoder, Raw, Undecodable};
    use metrics_util::debugging::{DebugValue, DebuggingRecorder};
    use metrics_util::MetricKind;

    /// Every counter recorded while `run` ran with its count, and every histogram with its
    /// number of samples, with their labels as `name=value` pairs.
    fn recorded(run: impl FnOnce()) -> Vec<(String, Vec<String>, u64)> {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        metrics::with_local_recorder(&recorder, run);
        let mut recorded: Vec<_> = (snapshotter.snapshot().into_vec().into_iter())
            .filter_map(|(key, _, _, value)| {
                let n = match (key.kind(), value) {
                    (MetricKind::Counter, DebugValue::Counter(n)) => n,
                    (MetricKind::Histogram, DebugValue::Histogram(samples)) => samples.len() as u64,
                    _ => return None,
                };
                let (_, key) = key.into_parts();
                let labels = key.labels().map(|l| format!("{}={}", l.key(), l.value()));
                Some((key.name().to_owned(), labels.collect(), n))
            })
            .collect();
        recorded.sort();
        recorded
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
        let recorded = recorded(|| {
            let mut tally = ConsumedTally::default();
            tally.received("orders", 3, DecodeTimer::start(), None);
            let poison = Some((Part::Key, &reason));
            tally.received("orders", 1, DecodeTimer::start(), poison);
        });
        let expected = [
            counter(CONSUMED_BYTES, &["topic=orders"], 4),
            counter(DECODE_SECONDS, &[], 1),
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
    fn one_decode_in_64_is_timed_and_every_message_counted_by_topic() {
        let recorded = recorded(|| {
            let mut tally = ConsumedTally::default();
            for n in 0..130 {
                let topic = if n % 2 == 0 { "orders" } else { "payments" };
                tally.received(topic, 2, DecodeTimer::start(), None);
            }
        });
        let expected = [
            counter(CONSUMED_BYTES, &["topic=orders"], 130),
            counter(CONSUMED_BYTES, &["topic=payments"], 130),
            // Messages 0, 64 and 128 of the thread.
            counter(DECODE_SECONDS, &[], 3),
            counter(MESSAGES_CONSUMED, &["topic=orders"], 65),
            counter(MESSAGES_CONSUMED, &["topic=payments"], 65),
        ];
        assert_eq!(recorded, expected);
    }

    #[test]
    fn counts_reach_the_recorder_every_batch_and_at_each_hand_over() {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        let consumed = || {
            let all = snapshotter.snapshot().into_vec();
            let found = all
                .iter()
                .find(|(k, ..)| k.key().name() == MESSAGES_CONSUMED);
            match found {
                Some((_, _, _, DebugValue::Counter(n))) => *n,
                _ => 0,
            }
        };
        let mut tally = ConsumedTally::default();
        let batch = CONSUMED_HANDED_OVER_EVERY;
        metrics::with_local_recorder(&recorder, || {
            for _ in 0..batch + 3 {
                tally.received("orders", 1, DecodeTimer(None), None);
            }
        });
        // A snapshot drains the recorder: the counts since the last one.
        assert_eq!(consumed(), batch);
        metrics::with_local_recorder(&recorder, || tally.hand_over());
        assert_eq!(consumed(), 3);
        metrics::with_local_recorder(&recorder, || {
            tally.received("orders", 1, DecodeTimer(None), None);
            drop(tally);
        });
        assert_eq!(consumed(), 1);
    }

    #[test]
    fn topics_are_the_same_only_when_every_byte_is() {
        let topics = [
            "",
            "a",
            "orders",
            "orders-v1",
            "orders-v2",
            "orders.v1.events",
            "a",
        ];
        for (i, a) in topics.iter().enumerate() {
            for (j, b) in topics.iter().enumerate() {
                assert_eq!(same_text(a, b), a == b, "{a:?} {b:?} ({i}, {j})");
            }
        }
        let long = "payments.settled.v3.".repeat(3);
        let mut other = long.clone().into_bytes();
        other[17] = b'x';
        let other = String::from_utf8(other).unwrap();
        assert!(same_text(&long, &long.clone()));
        assert!(!same_text(&long, &other));
    }

    #[test]
    fn handles_kept_for_one_recorder_are_not_used_for_another() {
        let record = || {
            ConsumedTally::default().received("orders", 5, DecodeTimer(None), None);
            producing("orders").acknowledged(7);
        };
        let recorders = [DebuggingRecorder::new(), DebuggingRecorder::new()];
        metrics::with_local_recorder(&recorders[0], record);
        metrics::with_local_recorder(&recorders[1], record);
        metrics::with_local_recorder(&recorders[1], record);
        metrics::with_local_recorder(&recorders[0], record);
        metrics::with_local_recorder(&recorders[0], record);
        // A snapshot drains the recorder: one each.
        let bytes = |recorder: &DebuggingRecorder| {
            let all = recorder.snapshotter().snapshot().into_vec();
            let count = |name: &str| match all.iter().find(|(k, ..)| k.key().name() == name) {
                Some((_, _, _, DebugValue::Counter(n))) => *n,
                other => panic!("{name}: {other:?}"),
            };
            (count(CONSUMED_BYTES), count(PRODUCED_BYTES))
        };
        assert_eq!(bytes(&recorders[0]), (15, 21));
        assert_eq!(bytes(&recorders[1]), (10, 14));
    }

    #[test]
    fn dead_letters_and_produced_messages_count_by_topic() {
        let recorded = recorded(|| {
            dead_lettered("orders", not_text().kind());
            let produced = producing("orders");
            produced.acknowledged(10);
            producing("orders").acknowledged(5);
        });
        let expected = [
            counter(DEAD_LETTERED, &["topic=orders", "reason=not-text"], 1),
            counter(MESSAGES_PRODUCED, &["topic=orders"], 2),
            counter(PRODUCED_BYTES, &["topic=orders"], 15),
        ];
        assert_eq!(recorded, expected);
    }
}
