//! One interface over the blocking and the async `Serializer`/`Deserializer`, so every
//! serde scenario runs against both transports.

use std::sync::Arc;

use super::runtime;
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_registry::{blocking, nonblocking, ClientConfig, SerdeError, SerializerConfig};

/// What a producer scenario does with a serializer.
pub trait Produce<T>: Send + Sync {
    fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError>;
    fn serialize_into(&self, topic: &str, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError>;
    fn schema_id(&self, topic: &str) -> Result<i32, SerdeError>;
    fn subject(&self, topic: &str) -> String;
    /// A topic handle's schema id, then the frames it writes for `values`, with `between`
    /// called before each.
    fn through_topic(
        &self,
        topic: &str,
        values: &[T],
        between: &mut dyn FnMut(),
    ) -> Result<(i32, Vec<Vec<u8>>), SerdeError>;
}

/// What a consumer scenario does with a deserializer.
pub trait Consume<T>: Send + Sync {
    fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError>;
}

/// A transport's serializers and deserializers.
pub trait Transport {
    fn producer<T: Encodable>(
        client: ClientConfig,
        config: SerializerConfig,
    ) -> Arc<dyn Produce<T>>;
    fn consumer<T: Decodable>(client: ClientConfig) -> Arc<dyn Consume<T>> {
        Self::consumer_ignoring(client, &[])
    }
    /// A consumer skipping the rules of the `ignored` types.
    fn consumer_ignoring<T: Decodable>(
        client: ClientConfig,
        ignored: &[&str],
    ) -> Arc<dyn Consume<T>>;
}

pub trait Encodable: AvroSchema + AvroEncode + Send + Sync + 'static {}
impl<T: AvroSchema + AvroEncode + Send + Sync + 'static> Encodable for T {}
pub trait Decodable: AvroSchema + AvroDecode + Send + Sync + 'static {}
impl<T: AvroSchema + AvroDecode + Send + Sync + 'static> Decodable for T {}

pub struct Blocking;
pub struct Async;

impl Transport for Blocking {
    fn producer<T: Encodable>(
        client: ClientConfig,
        config: SerializerConfig,
    ) -> Arc<dyn Produce<T>> {
        let client = Arc::new(blocking::Client::new(client).unwrap());
        Arc::new(blocking::Serializer::<T>::new(client, config))
    }

    fn consumer_ignoring<T: Decodable>(
        client: ClientConfig,
        ignored: &[&str],
    ) -> Arc<dyn Consume<T>> {
        let client = Arc::new(blocking::Client::new(client).unwrap());
        Arc::new(
            blocking::Deserializer::<T>::new(client).ignore_rule_types(ignored.iter().copied()),
        )
    }
}

impl<T: Encodable> Produce<T> for blocking::Serializer<T> {
    fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError> {
        blocking::Serializer::serialize(self, topic, value)
    }
    fn serialize_into(&self, topic: &str, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
        blocking::Serializer::serialize_into(self, topic, value, out)
    }
    fn schema_id(&self, topic: &str) -> Result<i32, SerdeError> {
        blocking::Serializer::schema_id(self, topic)
    }
    fn subject(&self, topic: &str) -> String {
        blocking::Serializer::subject(self, topic)
    }
    fn through_topic(
        &self,
        topic: &str,
        values: &[T],
        between: &mut dyn FnMut(),
    ) -> Result<(i32, Vec<Vec<u8>>), SerdeError> {
        let mut handle = self.for_topic(topic)?;
        let mut frames = Vec::new();
        for value in values {
            between();
            let mut frame = Vec::new();
            handle.serialize_into(value, &mut frame)?;
            frames.push(frame);
        }
        Ok((handle.schema_id(), frames))
    }
}

impl<T: Decodable> Consume<T> for blocking::Deserializer<T> {
    fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
        blocking::Deserializer::deserialize(self, frame)
    }
}

/// The async serializer, driven from test threads through its own runtime.
struct AsyncProducer<T> {
    runtime: tokio::runtime::Runtime,
    serializer: nonblocking::Serializer<T>,
}

struct AsyncConsumer<T> {
    runtime: tokio::runtime::Runtime,
    deserializer: nonblocking::Deserializer<T>,
}

impl Transport for Async {
    fn producer<T: Encodable>(
        client: ClientConfig,
        config: SerializerConfig,
    ) -> Arc<dyn Produce<T>> {
        let client = Arc::new(nonblocking::Client::new(client).unwrap());
        Arc::new(AsyncProducer {
            runtime: runtime(),
            serializer: nonblocking::Serializer::<T>::new(client, config),
        })
    }

    fn consumer_ignoring<T: Decodable>(
        client: ClientConfig,
        ignored: &[&str],
    ) -> Arc<dyn Consume<T>> {
        let client = Arc::new(nonblocking::Client::new(client).unwrap());
        let deserializer = nonblocking::Deserializer::<T>::new(client);
        Arc::new(AsyncConsumer {
            runtime: runtime(),
            deserializer: deserializer.ignore_rule_types(ignored.iter().copied()),
        })
    }
}

impl<T: Encodable> Produce<T> for AsyncProducer<T> {
    fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError> {
        self.runtime
            .block_on(self.serializer.serialize(topic, value))
    }
    fn serialize_into(&self, topic: &str, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
        self.runtime
            .block_on(self.serializer.serialize_into(topic, value, out))
    }
    fn schema_id(&self, topic: &str) -> Result<i32, SerdeError> {
        self.runtime.block_on(self.serializer.schema_id(topic))
    }
    fn subject(&self, topic: &str) -> String {
        self.serializer.subject(topic)
    }
    fn through_topic(
        &self,
        topic: &str,
        values: &[T],
        between: &mut dyn FnMut(),
    ) -> Result<(i32, Vec<Vec<u8>>), SerdeError> {
        self.runtime.block_on(async {
            let mut handle = self.serializer.for_topic(topic).await?;
            let mut frames = Vec::new();
            for value in values {
                between();
                let mut frame = Vec::new();
                handle.serialize_into(value, &mut frame).await?;
                frames.push(frame);
            }
            Ok((handle.schema_id(), frames))
        })
    }
}

impl<T: Decodable> Consume<T> for AsyncConsumer<T> {
    fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
        self.runtime.block_on(self.deserializer.deserialize(frame))
    }
}

/// Runs a scenario `fn<X: Transport>()` once per transport, as two tests.
#[macro_export]
macro_rules! both_serdes {
    ($($(#[$attr:meta])* $scenario:ident),* $(,)?) => {
        mod blocking_serdes {
            $($(#[$attr])* #[test] fn $scenario() { super::$scenario::<super::support::serdes::Blocking>() })*
        }
        mod async_serdes {
            $($(#[$attr])* #[test] fn $scenario() { super::$scenario::<super::support::serdes::Async>() })*
        }
    };
}
