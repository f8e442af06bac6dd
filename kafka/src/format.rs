//! How the key or the value of a message becomes bytes and back: the [`Encoder`] and
//! [`Decoder`] traits, implemented by the registry crate's async `Serializer` and
//! `Deserializer` (Confluent-framed Avro, schema ids from the registry), its
//! `OneOfSerializer` (several record types in one topic) and by [`Raw`] (strings and bytes as
//! they are), and why a message's bytes could not be read ([`PoisonReason`]).

use std::error::Error;
use std::fmt;
use std::future::Future;

use avdl2rs::resolve::{Resolvable, ResolveError};
use avdl2rs::{wire, AvroEncode, AvroSchema, OneOf, WireError};
use avdl2rs_registry::nonblocking::{Client, Deserializer, Serializer};
use avdl2rs_registry::{OneOfSerializer, RegistryError, RuleError, SerdeError};

/// Writes one part of a message (its key or its value) as bytes.
///
/// The producer calls it before anything is sent, so a value that cannot be written never
/// reaches the broker.
pub trait Encoder<T: ?Sized>: Send + Sync {
    /// Why a value could not be written.
    type Error: Error + Send + Sync + 'static;

    /// Writes `value`, bound for `topic`, to `out` (cleared first).
    fn encode(
        &self,
        topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

/// Reads one part of a message (its key or its value) from its bytes.
pub trait Decoder<T>: Send + Sync {
    /// Reads `bytes`. A failure says whether the bytes are at fault ([`Undecodable::Poison`],
    /// never worth reading again) or something the decoder needs is not there for now
    /// ([`Undecodable::Unavailable`], such as a registry that is down).
    fn decode(&self, bytes: &[u8]) -> impl Future<Output = Result<Decoded<T>, Undecodable>> + Send;
}

/// A decoded key or value, with the schema id of a Confluent frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// The Schema Registry id it was written under, for a Confluent frame.
    pub schema_id: Option<i32>,
}

/// Why a [`Decoder`] could not read a key or value.
#[derive(Debug)]
pub enum Undecodable {
    /// The bytes cannot be read: reading them again would fail again.
    Poison(PoisonReason),
    /// What the bytes need cannot be had now (the registry is unreachable for a writer
    /// schema not fetched yet); the same bytes may be readable later.
    Unavailable(RegistryError),
}

/// Why the bytes of a key or value cannot be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum PoisonReason {
    /// Not a Confluent frame: empty, another first byte than `0x00`, or shorter than the
    /// 5-byte header.
    NotFramed(WireError),
    /// The registry has no schema under the frame's id (or would not give it).
    UnknownSchema {
        /// The frame's schema id.
        id: i32,
        /// The registry's answer.
        source: Box<dyn Error + Send + Sync>,
    },
    /// The writer schema cannot be read as the reader's type: an incompatible schema
    /// change, or a writer schema that is not valid.
    Refused {
        /// The frame's schema id.
        id: i32,
        /// Why, with every incompatibility.
        source: ResolveError,
    },
    /// The body is not a valid value of its writer schema (truncated, damaged, or written
    /// with another schema than its id says).
    Damaged {
        /// The frame's schema id.
        id: i32,
        /// What is wrong, with the position in the body and the path in the datum.
        source: ResolveError,
    },
    /// A rule of the writer schema stopped the value (a condition with the action `DLQ` or
    /// `ERROR`), or applies and cannot be run; the error names the rule.
    Rule(RuleError),
    /// The writer schema names a type that is none of the variants of the
    /// [`avdl2rs::OneOf`] enum read (which has no catch-all variant).
    UnknownType {
        /// The frame's schema id.
        id: i32,
        /// The writer type's full name.
        full_name: String,
    },
    /// A text key or value that is not UTF-8.
    NotText(std::str::Utf8Error),
    /// Any other reason a decoder of its own gives.
    Other(Box<dyn Error + Send + Sync>),
}

impl PoisonReason {
    /// A short name of the reason, for dead-letter headers and logs: `not-framed`,
    /// `unknown-schema`, `refused`, `damaged`, `rule`, `unknown-type`, `not-text` or `other`.
    pub fn kind(&self) -> &'static str {
        match self {
            PoisonReason::NotFramed(_) => "not-framed",
            PoisonReason::UnknownSchema { .. } => "unknown-schema",
            PoisonReason::Refused { .. } => "refused",
            PoisonReason::Damaged { .. } => "damaged",
            PoisonReason::Rule(_) => "rule",
            PoisonReason::UnknownType { .. } => "unknown-type",
            PoisonReason::NotText(_) => "not-text",
            PoisonReason::Other(_) => "other",
        }
    }

    /// The schema id of the frame, when the bytes were one.
    pub fn schema_id(&self) -> Option<i32> {
        match self {
            PoisonReason::UnknownSchema { id, .. }
            | PoisonReason::Refused { id, .. }
            | PoisonReason::Damaged { id, .. }
            | PoisonReason::UnknownType { id, .. } => Some(*id),
            _ => None,
        }
    }
}

impl fmt::Display for PoisonReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoisonReason::NotFramed(e) => write!(f, "{e}"),
            PoisonReason::UnknownSchema { id, source } => {
                write!(f, "unknown schema id {id}: {source}")
            }
            PoisonReason::Refused { id, source } => write!(f, "schema id {id}: {source}"),
            PoisonReason::Damaged { id, source } => write!(f, "schema id {id}: {source}"),
            PoisonReason::Rule(e) => write!(f, "{e}"),
            PoisonReason::UnknownType { id, full_name } => {
                write!(
                    f,
                    "schema id {id} writes {full_name}, which is none of the types read"
                )
            }
            PoisonReason::NotText(e) => write!(f, "not UTF-8 text: {e}"),
            PoisonReason::Other(e) => write!(f, "{e}"),
        }
    }
}

impl Error for PoisonReason {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            PoisonReason::NotFramed(e) => Some(e),
            PoisonReason::UnknownSchema { source, .. } | PoisonReason::Other(source) => {
                Some(source.as_ref())
            }
            PoisonReason::Refused { source, .. } | PoisonReason::Damaged { source, .. } => {
                Some(source)
            }
            PoisonReason::Rule(e) => Some(e),
            PoisonReason::NotText(e) => Some(e),
            PoisonReason::UnknownType { .. } => None,
        }
    }
}

impl Undecodable {
    /// The failure of reading a Confluent frame with schema id `id`, from the error of the
    /// resolving read: a registry that could not be reached is [`Undecodable::Unavailable`],
    /// everything else is the bytes' fault.
    pub fn of_resolve(id: i32, error: ResolveError) -> Self {
        let poison = |reason| Undecodable::Poison(reason);
        match error {
            ResolveError::Wire(WireError::Body(_))
            | ResolveError::Translate(_)
            | ResolveError::Decode(_) => poison(PoisonReason::Damaged { id, source: error }),
            ResolveError::Wire(wire) => poison(PoisonReason::NotFramed(wire)),
            ResolveError::UnknownType { id, full_name } => {
                poison(PoisonReason::UnknownType { id, full_name })
            }
            ResolveError::Lookup { id, source } => match source.downcast::<RegistryError>() {
                Ok(registry) if registry.is_retriable() => Undecodable::Unavailable(*registry),
                Ok(registry) => poison(PoisonReason::UnknownSchema {
                    id,
                    source: registry,
                }),
                Err(source) => poison(PoisonReason::UnknownSchema { id, source }),
            },
            refused => poison(PoisonReason::Refused {
                id,
                source: refused,
            }),
        }
    }
}

impl<T> Encoder<T> for Serializer<T>
where
    T: AvroSchema + AvroEncode + Sync,
{
    type Error = SerdeError;

    fn encode(
        &self,
        topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> impl Future<Output = Result<(), SerdeError>> + Send {
        self.serialize_into(topic, value, out)
    }
}

/// Values of a [`OneOf`] enum, each variant's type under its own subject (a topic of several
/// record types).
impl<E> Encoder<E> for OneOfSerializer<E, Client>
where
    E: OneOf + Sync,
{
    type Error = SerdeError;

    fn encode(
        &self,
        topic: &str,
        value: &E,
        out: &mut Vec<u8>,
    ) -> impl Future<Output = Result<(), SerdeError>> + Send {
        self.serialize_into(topic, value, out)
    }
}

impl<T> Decoder<T> for Deserializer<T>
where
    T: Resolvable + Send,
{
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<T>, Undecodable> {
        decode_frame(bytes, |id, body| self.deserialize_body(id, body)).await
    }
}

/// A registry deserializer's read of the Confluent frame `bytes` as a [`Decoder`] answers
/// it: the frame is split once, here, and `deserialize_body` reads the body written under
/// the frame's schema id. Bytes that are not a frame are poison before it runs. Public for
/// decoders of other forms of a registry deserializer's values (a program's own, such as Avro
/// JSON).
pub async fn decode_frame<'a, T, F>(
    bytes: &'a [u8],
    deserialize_body: impl FnOnce(i32, &'a [u8]) -> F,
) -> Result<Decoded<T>, Undecodable>
where
    F: Future<Output = Result<T, SerdeError>>,
{
    let (id, body) = match wire::split_confluent(bytes) {
        Ok(parts) => parts,
        Err(e) => return Err(Undecodable::Poison(PoisonReason::NotFramed(e))),
    };
    match deserialize_body(id, body).await {
        Ok(value) => Ok(Decoded {
            value,
            schema_id: Some(id),
        }),
        Err(SerdeError::Decode(e)) => Err(Undecodable::of_resolve(id, e)),
        Err(SerdeError::Rule(e)) => Err(Undecodable::Poison(PoisonReason::Rule(e))),
        Err(other) => Err(Undecodable::Poison(PoisonReason::Other(Box::new(other)))),
    }
}

impl<T: ?Sized, E: Encoder<T>> Encoder<T> for std::sync::Arc<E> {
    type Error = E::Error;

    fn encode(
        &self,
        topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> impl Future<Output = Result<(), E::Error>> + Send {
        (**self).encode(topic, value, out)
    }
}

impl<T, D: Decoder<T>> Decoder<T> for std::sync::Arc<D> {
    fn decode(&self, bytes: &[u8]) -> impl Future<Output = Result<Decoded<T>, Undecodable>> + Send {
        (**self).decode(bytes)
    }
}

/// Keys and values as their bytes: `str`/`String` as UTF-8 (Kafka's `StringSerializer`),
/// `[u8]`/`Vec<u8>` as they are. For keys that are plain text or ids, as most keys are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Raw;

impl<T: AsRef<[u8]> + ?Sized + Sync> Encoder<T> for Raw {
    type Error = std::convert::Infallible;

    async fn encode(
        &self,
        _topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), std::convert::Infallible> {
        out.clear();
        out.extend_from_slice(value.as_ref());
        Ok(())
    }
}

impl Decoder<String> for Raw {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<String>, Undecodable> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Decoded {
                value: text.to_owned(),
                schema_id: None,
            }),
            Err(e) => Err(Undecodable::Poison(PoisonReason::NotText(e))),
        }
    }
}

impl Decoder<Vec<u8>> for Raw {
    async fn decode(&self, bytes: &[u8]) -> Result<Decoded<Vec<u8>>, Undecodable> {
        Ok(Decoded {
            value: bytes.to_vec(),
            schema_id: None,
        })
    }
}
