//! [`TypedConsumer`]: messages from rdkafka's `StreamConsumer`, read by their decoders into
//! records or set aside as poison, with offsets stored only when the caller says a record is
//! done.
//!
//! # Delivery semantics: at least once
//!
//! The consumer turns librdkafka's automatic offset store off (`enable.auto.offset.store =
//! false`): nothing counts as consumed until [`TypedConsumer::store_offset`] marks it done.
//! Stored offsets are committed by librdkafka's auto-commit (every
//! `auto.commit.interval.ms`, and when partitions are revoked or the consumer closes), or at
//! once by [`TypedConsumer::commit`]. A consumer that stops before it marked a record done
//! reads it again after a restart (or another group member does): each message is handled at
//! least once, and a crash between handling and marking repeats it. Poison messages are
//! marked like records, after they are forwarded (see [`crate::DeadLetters`]), so that they
//! are neither lost nor read forever.
//!
//! # When the registry is down
//!
//! Writer schemas already fetched are kept, so messages of known schema ids go on being
//! read. A message whose schema id was never seen cannot be read then: it is not poison
//! (the bytes may be fine), so the consumer keeps it and answers
//! [`ConsumeError::Unavailable`]; each later call waits a growing pause
//! (see [`TypedConsumer::unavailable_backoff`]) and tries that message again before reading
//! any other, so no message is skipped and the loop never spins. An outage longer than
//! `max.poll.interval.ms` makes the group hand the partitions to another member, which reads
//! the message again: still at least once.

use std::future::Future;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::Duration;

use avdl2rs::resolve::Resolvable;
use avdl2rs_registry::nonblocking::{Client, Deserializer};
use avdl2rs_registry::RegistryError;
use futures_util::Stream;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{CommitMode, Consumer, StreamConsumer};
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::{Message, OwnedMessage};
use rdkafka::{Offset, TopicPartitionList};

use crate::format::{Decoded, Decoder, Undecodable};
use crate::message::{headers_of, Part, Poison, Position, Record};

/// What a consumer's call gives: a record or a poison message, or an error that is not about
/// one message's bytes.
pub type Received<K, V> = Result<Result<Record<K, V>, Poison>, ConsumeError>;

/// Why the consumer could not give the next message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConsumeError {
    /// The Kafka client reported an error.
    #[error("kafka: {0}")]
    Kafka(#[from] KafkaError),
    /// The message at `position` needs a writer schema the registry cannot give now. The
    /// consumer keeps the message and tries it again at the next call.
    #[error("{position}: the {} waits for the registry (attempt {attempts}): {source}", part.as_str())]
    Unavailable {
        /// The message waiting.
        position: Position,
        /// Which part needs the registry.
        part: Part,
        /// How many times it was tried.
        attempts: u32,
        /// The registry's error.
        source: RegistryError,
    },
}

/// The message kept while the registry is down, and how often it was tried.
#[derive(Clone)]
struct Held {
    message: OwnedMessage,
    attempts: u32,
}

/// What the consumer keeps between calls, behind one lock that a read message takes once.
#[derive(Default)]
struct Kept {
    /// The message to read again first, if any.
    held: Option<Held>,
    /// The counts of the messages read, not yet handed to the recorder.
    tally: crate::metrics::ConsumedTally,
}

/// Consumes messages whose value is a `V` and whose key is a `K`, read by the decoders `KD`
/// and `VD` (by default the registry's deserializers: Confluent-framed Avro of any schema
/// version the type can read). See the [module docs](self) for the delivery semantics.
pub struct TypedConsumer<K, V, KD = Deserializer<K>, VD = Deserializer<V>> {
    consumer: Arc<StreamConsumer>,
    key: KD,
    value: VD,
    kept: Mutex<Kept>,
    backoff: (Duration, Duration),
    _types: PhantomData<fn() -> (K, V)>,
}

impl<K, V> TypedConsumer<K, V>
where
    K: Resolvable + Send,
    V: Resolvable + Send,
{
    /// A consumer of Avro keys and values, fetching writer schemas through `client`; inside a
    /// tokio runtime, as [`TypedConsumer::new`].
    pub fn avro(kafka: &ClientConfig, client: Arc<Client>) -> Result<Self, KafkaError> {
        let key = Deserializer::new(Arc::clone(&client));
        TypedConsumer::new(kafka, key, Deserializer::new(client))
    }
}

impl<K, V, KD, VD> TypedConsumer<K, V, KD, VD>
where
    KD: Decoder<K>,
    VD: Decoder<V>,
{
    /// A consumer with the librdkafka settings `kafka` (`bootstrap.servers` and `group.id`
    /// at least; `enable.auto.offset.store` is always `false`) reading keys with `key` and
    /// values with `value`. Call it inside a tokio runtime: rdkafka's stream consumer starts a
    /// task on it.
    pub fn new(kafka: &ClientConfig, key: KD, value: VD) -> Result<Self, KafkaError> {
        let mut kafka = kafka.clone();
        kafka.set("enable.auto.offset.store", "false");
        Ok(TypedConsumer {
            consumer: Arc::new(kafka.create()?),
            key,
            value,
            kept: Mutex::default(),
            backoff: (Duration::from_millis(200), Duration::from_secs(10)),
            _types: PhantomData,
        })
    }

    /// With these pauses before a message that waits for the registry is tried again: the
    /// first, doubled at each attempt up to the longest (defaults: 200 ms and 10 s).
    pub fn unavailable_backoff(mut self, first: Duration, longest: Duration) -> Self {
        self.backoff = (first, longest.max(first));
        self
    }

    /// Subscribes to `topics`, replacing an earlier subscription; partitions are assigned by
    /// the group.
    pub fn subscribe(&self, topics: &[&str]) -> Result<(), KafkaError> {
        self.consumer.subscribe(topics)
    }

    /// The next message: a [`Record`], or a [`Poison`] message the decoders could not read
    /// (consuming goes on after it). Errors are about the client or the registry, never about
    /// one message's bytes.
    ///
    /// Cancel safe: a call dropped before it returns (a `select!` or a timeout around it) loses
    /// no message; one it had received and was still reading is read at the next call.
    pub async fn recv(&self) -> Received<K, V> {
        if let Some(Held { message, attempts }) = self.held() {
            self.kept().tally.hand_over();
            tokio::time::sleep(self.pause(attempts)).await;
            return self.read_or_hold(&message, attempts).await;
        }
        let mut receiving = std::pin::pin!(self.consumer.recv());
        let first = std::future::poll_fn(|cx| Poll::Ready(receiving.as_mut().poll(cx))).await;
        let message = match first {
            Poll::Ready(message) => message,
            Poll::Pending => {
                // Waiting for the broker: the metrics show every message read so far.
                self.kept().tally.hand_over();
                receiving.await
            }
        }?;
        self.read_or_hold(&message, 0).await
    }

    /// The messages, one [`TypedConsumer::recv`] after the other; the stream never ends.
    pub fn stream(&self) -> impl Stream<Item = Received<K, V>> + '_ {
        futures_util::stream::unfold(self, |consumer| async move {
            Some((consumer.recv().await, consumer))
        })
    }

    /// Marks the message at `done` (a [`Record`], a [`Poison`] or a [`Position`]) as handled:
    /// its offset is committed by the next auto-commit, or by [`TypedConsumer::commit`].
    pub fn store_offset(&self, done: &impl AsRef<Position>) -> Result<(), KafkaError> {
        let at = done.as_ref();
        self.consumer
            .store_offset(&at.topic, at.partition, at.offset)
    }

    /// Commits now that everything up to and including `done` is handled in its partition,
    /// and waits for the broker's answer (on a blocking thread, not the caller's task).
    pub async fn commit(&self, done: &impl AsRef<Position>) -> Result<(), KafkaError> {
        let at = done.as_ref();
        let mut list = TopicPartitionList::new();
        list.add_partition_offset(&at.topic, at.partition, Offset::Offset(at.offset + 1))?;
        self.blocking(move |consumer| consumer.commit(&list, CommitMode::Sync))
            .await
    }

    /// Commits every offset stored by [`TypedConsumer::store_offset`] now, and waits for the
    /// broker's answer. With nothing stored since the last commit there is nothing to do,
    /// which is not an error.
    pub async fn commit_stored(&self) -> Result<(), KafkaError> {
        let committed = self
            .blocking(|consumer| consumer.commit_consumer_state(CommitMode::Sync))
            .await;
        match committed {
            Err(KafkaError::ConsumerCommit(RDKafkaErrorCode::NoOffset)) => Ok(()),
            other => other,
        }
    }

    /// The rdkafka consumer underneath, for what this type does not cover (assignments,
    /// seeking, pausing, metadata).
    pub fn inner(&self) -> &StreamConsumer {
        &self.consumer
    }

    /// Runs `call` on the consumer on a blocking thread.
    async fn blocking(
        &self,
        call: impl FnOnce(&StreamConsumer) -> Result<(), KafkaError> + Send + 'static,
    ) -> Result<(), KafkaError> {
        let consumer = Arc::clone(&self.consumer);
        tokio::task::spawn_blocking(move || call(&consumer))
            .await
            .unwrap_or(Err(KafkaError::Canceled))
    }

    /// A copy of the message kept for the next call, if any; it stays kept until it is read.
    fn held(&self) -> Option<Held> {
        self.kept().held.clone()
    }

    /// What the consumer keeps between calls.
    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `message` for the next call, tried `attempts` times.
    fn hold(&self, message: &impl Message, attempts: u32) {
        let message = message.detach();
        self.kept().held = Some(Held { message, attempts });
    }

    /// The pause before attempt `attempts + 1` of a held message.
    fn pause(&self, attempts: u32) -> Duration {
        if attempts == 0 {
            // Kept by a call dropped while it read: nothing failed yet.
            return Duration::ZERO;
        }
        let (first, longest) = self.backoff;
        let doublings = attempts.saturating_sub(1).min(31);
        first.saturating_mul(1 << doublings).min(longest)
    }

    /// Reads `message`; when the registry cannot help now, keeps it for the next call. While
    /// the read waits (for the registry), the message is kept too, so that a caller dropping
    /// this call loses nothing; a read done at once copies nothing.
    async fn read_or_hold(&self, message: &impl Message, attempts: u32) -> Received<K, V> {
        let timer = crate::metrics::DecodeTimer::start();
        let mut read = std::pin::pin!(self.read(message));
        let first = std::future::poll_fn(|cx| Poll::Ready(read.as_mut().poll(cx))).await;
        let outcome = match first {
            Poll::Ready(outcome) => outcome,
            Poll::Pending => {
                self.hold(message, attempts);
                read.await
            }
        };
        match outcome {
            Ok(read) => {
                let mut kept = self.kept();
                kept.held = None;
                record_metrics(&mut kept.tally, message, &read, timer);
                Ok(read)
            }
            Err((part, source)) => {
                let attempts = attempts + 1;
                self.hold(message, attempts);
                Err(ConsumeError::Unavailable {
                    position: Position::of(message),
                    part,
                    attempts,
                    source,
                })
            }
        }
    }

    /// The record in `message`, or why it is poison; `Err` when a part waits for the
    /// registry.
    async fn read(
        &self,
        message: &impl Message,
    ) -> Result<Result<Record<K, V>, Poison>, (Part, RegistryError)> {
        let key = match read_part(&self.key, message.key(), Part::Key).await? {
            Ok(key) => key,
            Err(poison) => return Ok(Err(Poison::new(message, Part::Key, poison))),
        };
        let value = match read_part(&self.value, message.payload(), Part::Value).await? {
            Ok(value) => value,
            Err(poison) => return Ok(Err(Poison::new(message, Part::Value, poison))),
        };
        let (key, key_schema_id) = split(key);
        let (value, schema_id) = split(value);
        Ok(Ok(Record {
            position: Position::of(message),
            timestamp: message.timestamp().to_millis(),
            headers: headers_of(message),
            key,
            value,
            key_schema_id,
            schema_id,
        }))
    }
}

/// Counts in `tally` a message read into `read`, timed by `timer`.
fn record_metrics<R>(
    tally: &mut crate::metrics::ConsumedTally,
    message: &impl Message,
    read: &Result<R, Poison>,
    timer: crate::metrics::DecodeTimer,
) {
    let bytes = message.key().map_or(0, <[u8]>::len) + message.payload().map_or(0, <[u8]>::len);
    let poison = read.as_ref().err().map(|p| (p.part, &p.reason));
    tally.received(message.topic(), bytes, timer, poison);
}

/// Reads one part of a message, when it has one.
async fn read_part<T>(
    decoder: &impl Decoder<T>,
    bytes: Option<&[u8]>,
    part: Part,
) -> Result<Result<Option<Decoded<T>>, crate::PoisonReason>, (Part, RegistryError)> {
    let Some(bytes) = bytes else {
        return Ok(Ok(None));
    };
    match decoder.decode(bytes).await {
        Ok(decoded) => Ok(Ok(Some(decoded))),
        Err(Undecodable::Poison(reason)) => Ok(Err(reason)),
        Err(Undecodable::Unavailable(source)) => Err((part, source)),
    }
}

fn split<T>(decoded: Option<Decoded<T>>) -> (Option<T>, Option<i32>) {
    match decoded {
        Some(Decoded { value, schema_id }) => (Some(value), schema_id),
        None => (None, None),
    }
}

/// `Message::detach` for both the borrowed and the owned messages the consumer reads.
trait Detach {
    fn detach(&self) -> OwnedMessage;
}

impl<M: Message> Detach for M {
    fn detach(&self) -> OwnedMessage {
        OwnedMessage::new(
            self.payload().map(<[u8]>::to_vec),
            self.key().map(<[u8]>::to_vec),
            self.topic().to_owned(),
            self.timestamp(),
            self.partition(),
            self.offset(),
            self.headers()
                .map(|_| crate::send::kafka_headers(&headers_of(self))),
        )
    }
}
