//! [`TypedProducer`]: values (and keys) written by their encoders, then sent with rdkafka's
//! `FutureProducer`; delivery reports as typed results.

use std::cell::Cell;
use std::error::Error;
use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs::{AvroEncode, AvroSchema, OneOf, SubjectPart};
use avdl2rs_registry::nonblocking::{Client, Serializer};
use avdl2rs_registry::{OneOfSerializer, RuleError, SerdeError, SerializerConfig};
use rdkafka::config::ClientConfig;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::producer::{DeliveryFuture, FutureProducer};
use rdkafka::util::Timeout;

use crate::dead_letter::{DeadLetters, Stopped};
use crate::format::Encoder;
use crate::message::Part;
use crate::send::{delivered, record, Delivered, SendError, SendOptions};

/// How long to wait before trying again to queue a message when librdkafka's queue is full
/// (`queue.buffering.max.messages`): long enough to let deliveries drain it, short enough
/// not to idle a fast link.
const QUEUE_FULL_PAUSE: Duration = Duration::from_millis(2);

/// The buffers a message's key and value are written into: librdkafka copies them when the
/// message is queued, so they are kept per thread and reused, instead of a new buffer grown
/// from empty for every message (which cost the producer a tenth of its rate).
#[derive(Default)]
struct Buffers {
    key: Vec<u8>,
    value: Vec<u8>,
}

thread_local! {
    static BUFFERS: Cell<Buffers> = Cell::default();
}

/// The thread's buffers while a message is written, given back when it is queued or fails.
struct Lease(Buffers);

impl Lease {
    /// The thread's buffers, or new ones while they are lent (to a send of this thread
    /// waiting for the registry).
    fn take() -> Lease {
        Lease(BUFFERS.try_with(Cell::take).unwrap_or_default())
    }
}

impl Drop for Lease {
    /// Gives the buffers to the thread this ends on, whichever that is.
    fn drop(&mut self) {
        let buffers = std::mem::take(&mut self.0);
        let _ = BUFFERS.try_with(|kept| kept.set(buffers));
    }
}

/// Produces messages whose value is a `V` and whose key is a `K`, written by the encoders
/// `KE` and `VE` (by default the registry's serializers, Confluent-framed Avro under the
/// topic's `-key` and `-value` subjects). Share it between tasks through an `Arc`: sending
/// takes `&self`.
///
/// A key or value that cannot be written is a [`SendError::Encode`] before anything reaches
/// the broker, except one a rule of its schema stops with the action `DLQ`, which goes to a
/// dead-letter topic ([`TypedProducer::dead_letters`]).
pub struct TypedProducer<K: ?Sized, V: ?Sized, KE = Serializer<K>, VE = Serializer<V>> {
    producer: FutureProducer,
    key: KE,
    value: VE,
    dead_letters: Option<DeadLetters>,
    _types: PhantomData<fn(&K, &V)>,
}

impl<K, V> TypedProducer<K, V>
where
    K: AvroSchema + AvroEncode + Sync,
    V: AvroSchema + AvroEncode + Sync,
{
    /// A producer of Avro keys and values through the registry `client`, both as `config`
    /// says except that keys go under key subjects (`<topic>-key` with the default
    /// TopicNameStrategy).
    pub fn avro(
        kafka: &ClientConfig,
        client: Arc<Client>,
        config: SerializerConfig,
    ) -> Result<Self, KafkaError> {
        TypedProducer::through_registry(kafka, client, config, Serializer::new)
    }
}

impl<K, E> TypedProducer<K, E, Serializer<K>, OneOfSerializer<E, Client>>
where
    K: AvroSchema + AvroEncode + Sync,
    E: OneOf + Sync,
{
    /// A producer of Avro keys and of values of the [`OneOf`] enum `E` through the registry
    /// `client`, both as `config` says except that keys go under key subjects: several record
    /// types in one topic, each variant's type under its own subject (set
    /// `subject_strategy` to RecordNameStrategy or TopicRecordNameStrategy).
    pub fn avro_one_of(
        kafka: &ClientConfig,
        client: Arc<Client>,
        config: SerializerConfig,
    ) -> Result<Self, KafkaError> {
        TypedProducer::through_registry(kafka, client, config, OneOfSerializer::new)
    }
}

impl<K, V, VE> TypedProducer<K, V, Serializer<K>, VE>
where
    K: AvroSchema + AvroEncode + Sync,
    V: ?Sized + Sync,
    VE: Encoder<V>,
{
    /// A producer of Avro keys under key subjects and of values under value subjects, both
    /// through `client` as `config` says; `value` builds the values' serializer.
    fn through_registry(
        kafka: &ClientConfig,
        client: Arc<Client>,
        config: SerializerConfig,
        value: impl FnOnce(Arc<Client>, SerializerConfig) -> VE,
    ) -> Result<Self, KafkaError> {
        let key = Serializer::new(Arc::clone(&client), config.clone().part(SubjectPart::Key));
        TypedProducer::new(kafka, key, value(client, config.part(SubjectPart::Value)))
    }
}

impl<K, V, KE, VE> TypedProducer<K, V, KE, VE>
where
    K: ?Sized + Sync,
    V: ?Sized + Sync,
    KE: Encoder<K>,
    VE: Encoder<V>,
{
    /// A producer with the librdkafka settings `kafka` (`bootstrap.servers` at least) writing
    /// keys with `key` and values with `value`.
    pub fn new(kafka: &ClientConfig, key: KE, value: VE) -> Result<Self, KafkaError> {
        Ok(TypedProducer {
            producer: kafka.create()?,
            key,
            value,
            dead_letters: None,
            _types: PhantomData,
        })
    }

    /// With `dead_letters` for the keys and values a rule stops with the action `DLQ`.
    ///
    /// Such a message goes, as written (a value stopped by its schema's rule as the
    /// Confluent frame it would have been), with the caller's headers and the headers
    /// naming the rule (`crate::dead_letter`), to the rule's `dlq.topic` parameter when it
    /// names one — through this producer, whether or not `dead_letters` is given, as
    /// Confluent's serializers do — else to `dead_letters`' topic for the message's topic;
    /// with neither it is a [`SendError::Encode`] like any other value that cannot be
    /// written. The caller gets [`SendError::DeadLettered`] once the dead-letter topic
    /// acknowledged the message.
    pub fn dead_letters(mut self, dead_letters: DeadLetters) -> Self {
        self.dead_letters = Some(dead_letters);
        self
    }

    /// Sends `value` with `key` to `topic` and waits for the broker's acknowledgement.
    pub async fn send(&self, topic: &str, key: &K, value: &V) -> Result<Delivered, SendError> {
        self.send_with(topic, Some(key), value, SendOptions::new())
            .await
    }

    /// Sends a message with the given options (`key` may be absent) and waits for the
    /// broker's acknowledgement.
    pub async fn send_with(
        &self,
        topic: &str,
        key: Option<&K>,
        value: &V,
        options: SendOptions,
    ) -> Result<Delivered, SendError> {
        self.enqueue(topic, key, value, options).await?.await
    }

    /// Writes the message and queues it, returning once it is queued: the returned future
    /// resolves with the delivery report. Queue many before awaiting their reports to keep
    /// the link busy (awaiting each in turn costs a round trip per message). A message a
    /// rule sends to a dead-letter topic is waited for here, and is the error
    /// ([`TypedProducer::dead_letters`]).
    pub async fn enqueue(
        &self,
        topic: &str,
        key: Option<&K>,
        value: &V,
        options: SendOptions,
    ) -> Result<impl Future<Output = Result<Delivered, SendError>> + Send + 'static, SendError>
    {
        let mut lease = Lease::take();
        let Buffers {
            key: key_bytes,
            value: payload,
        } = &mut lease.0;
        if let Some(key) = key {
            let written = self.key.encode(topic, key, key_bytes).await;
            if let Some(rule) = stopped(Part::Key, written)? {
                // The value goes with the key, when it can be written.
                let value = self.value.encode(topic, value, payload).await;
                let payload = value.is_ok().then_some(payload.as_slice());
                let stop =
                    Stopped::new(topic, Part::Key, rule, Some(key_bytes.as_slice()), payload);
                return Err(self.dead_letter(&stop, &options).await);
            }
        }
        let written = self.value.encode(topic, value, payload).await;
        let key_bytes = key.map(|_| key_bytes.as_slice());
        if let Some(rule) = stopped(Part::Value, written)? {
            let stop = Stopped::new(
                topic,
                Part::Value,
                rule,
                key_bytes,
                Some(payload.as_slice()),
            );
            return Err(self.dead_letter(&stop, &options).await);
        }
        let size = key_bytes.map_or(0, <[u8]>::len) + payload.len();
        let delivery = self.queue(topic, key_bytes, payload, &options).await?;
        Ok(counted(topic, size, delivered(delivery)))
    }

    /// Sends a message a rule stopped to its dead-letter topic; the error for the caller.
    #[cold]
    async fn dead_letter(&self, stop: &Stopped<'_>, options: &SendOptions) -> SendError {
        let Some(dead_letter_topic) = stop.topic_in(self.dead_letters.as_ref()) else {
            return encode_error(stop.part, stop.rule.clone());
        };
        let producer = match &self.dead_letters {
            Some(dead_letters) if !stop.names_topic() => dead_letters.producer(),
            _ => &self.producer,
        };
        let (part, source) = (stop.part, Box::new(stop.rule.clone()));
        match stop.send(producer, &dead_letter_topic, options).await {
            Ok(delivered) => SendError::DeadLettered {
                part,
                dead_letter_topic,
                delivered,
                source,
            },
            Err(error) => SendError::DeadLetterFailed {
                part,
                dead_letter_topic,
                error,
                source,
            },
        }
    }

    /// Queues the written message, waiting while librdkafka's queue is full.
    async fn queue(
        &self,
        topic: &str,
        key: Option<&[u8]>,
        payload: &[u8],
        options: &SendOptions,
    ) -> Result<DeliveryFuture, KafkaError> {
        loop {
            let record = record(topic, key, Some(payload), options);
            match self.producer.send_result(record) {
                Ok(delivery) => return Ok(delivery),
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), _)) => {
                    tokio::time::sleep(QUEUE_FULL_PAUSE).await;
                }
                Err((e, _)) => return Err(e),
            }
        }
    }

    /// Waits until every queued message is delivered or `timeout` has passed.
    pub fn flush(&self, timeout: Duration) -> Result<(), KafkaError> {
        use rdkafka::producer::Producer;
        self.producer.flush(Timeout::After(timeout))
    }

    /// The rdkafka producer underneath, for what this type does not cover (transactions,
    /// metadata).
    pub fn inner(&self) -> &FutureProducer {
        &self.producer
    }
}

fn encode_error(part: Part, error: impl Error + Send + Sync + 'static) -> SendError {
    SendError::Encode {
        part,
        source: Box::new(error),
    }
}

/// The rule that stopped `part` with the action `DLQ` when `written` failed so; other
/// failures as the caller's error.
fn stopped<E>(part: Part, written: Result<(), E>) -> Result<Option<RuleError>, SendError>
where
    E: Error + Send + Sync + 'static,
{
    match written {
        Ok(()) => Ok(None),
        Err(error) => match dead_letter_rule(&error) {
            Some(rule) => Ok(Some(rule.clone())),
            None => Err(encode_error(part, error)),
        },
    }
}

/// The rule in `error` (a registry serializer's, or in its sources) whose action is `DLQ`.
fn dead_letter_rule<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a RuleError> {
    std::iter::successors(Some(error), |&e| e.source())
        .find_map(rule_error)
        .filter(|rule| rule.is_dead_letter())
}

/// `error` as a rule's error: itself, or inside a registry serializer's.
fn rule_error<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a RuleError> {
    match error.downcast_ref::<SerdeError>() {
        Some(SerdeError::Rule(rule)) => Some(rule),
        _ => error.downcast_ref::<RuleError>(),
    }
}

/// `delivery`, counted in the metrics as a message of `size` bytes on `topic` once the
/// broker acknowledged it.
fn counted(
    topic: &str,
    size: usize,
    delivery: impl Future<Output = Result<Delivered, KafkaError>>,
) -> impl Future<Output = Result<Delivered, SendError>> {
    let counters = crate::metrics::producing(topic);
    async move {
        let delivered = delivery.await?;
        counters.acknowledged(size);
        Ok(delivered)
    }
}
