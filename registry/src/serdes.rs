//! Typed Kafka serializers for generated and derived types: [`Serializer`] finds the schema
//! id to write under (registering, looking up, or using the subject's latest version) and
//! frames values; [`Deserializer`] reads frames of any schema version into the type.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Instant;

use avdl2rs::compat::SchemaRef;
use avdl2rs::resolve::{Consumer, LookupError, ResolutionPlan, ResolveError, SchemaLookup};
use avdl2rs::schema::SchemaSet;
use avdl2rs::{wire, AvroDecode, AvroEncode, AvroSchema, EncodeError};
use avdl2rs::{SubjectNameStrategy, SubjectPart};

use crate::blocking::Client;
use crate::error::RegistryError;
use crate::references::assemble;
use crate::types::{Schema, Version};

/// How a [`Serializer`] picks the schema id it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerializerConfig {
    /// How the subject is named from the topic and the type (default: topic name).
    pub subject_strategy: SubjectNameStrategy,
    /// Whether the values are record keys or values (default: values).
    pub part: SubjectPart,
    /// Register the type's schema when the subject does not have it yet (default: `true`);
    /// when `false`, it must already be registered, and is looked up.
    pub auto_register: bool,
    /// Write under the subject's latest version instead of the type's own schema (default:
    /// `false`). Values are translated to the latest schema's encoding, which must be able
    /// to read the type's data (checked locally, by the Avro resolution rules).
    pub use_latest: bool,
    /// With `use_latest`: when the latest version cannot read the type's data, fail
    /// (`true`, the default) rather than fall back to the type's own schema.
    pub latest_strict: bool,
    /// Always write under this id, asking the registry nothing (default: none).
    pub schema_id: Option<i32>,
    /// Ask the registry to normalize the schema when registering or looking it up.
    pub normalize: bool,
}

impl Default for SerializerConfig {
    fn default() -> Self {
        SerializerConfig {
            subject_strategy: SubjectNameStrategy::TopicName,
            part: SubjectPart::Value,
            auto_register: true,
            use_latest: false,
            latest_strict: true,
            schema_id: None,
            normalize: false,
        }
    }
}

/// Why a value could not be serialized or deserialized.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SerdeError {
    /// The registry could not give the schema id.
    #[error("subject {subject}: {source}")]
    Registry {
        /// The subject asked about.
        subject: String,
        /// The registry's error.
        source: RegistryError,
    },
    /// The subject's latest version cannot be written with the type's data.
    #[error("subject {subject}: cannot write under the latest version: {source}")]
    Latest {
        /// The subject.
        subject: String,
        /// Why the latest schema cannot read the type's data.
        source: ResolveError,
    },
    /// The value could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The message could not be read.
    #[error(transparent)]
    Decode(#[from] ResolveError),
}

/// Where a subject's values go: the id, and the translation to its schema when that is not
/// the type's own.
#[derive(Clone)]
struct Target {
    id: i32,
    translate: Option<Arc<ResolutionPlan>>,
    expires: Option<Instant>,
}

impl Target {
    fn is_fresh(&self) -> bool {
        self.expires.is_none_or(|e| Instant::now() < e)
    }
}

/// The target a thread used last, so that a thread producing to one topic finds it without
/// touching the shared map (whose lock's atomic counter every thread would write).
struct Last {
    serializer: u64,
    topic: String,
    target: Target,
}

thread_local! {
    /// The type's own encoding, before translation to the latest schema's.
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// Tells serializers apart in [`LAST`].
static NEXT_SERIALIZER: AtomicU64 = AtomicU64::new(0);

/// Frames values of `T` for Kafka: `0x00`, the schema id, the Avro body. Resolved ids are
/// kept per topic, so a warm serializer asks the registry nothing. Share it between threads.
pub struct Serializer<T> {
    id: u64,
    client: Arc<Client>,
    config: SerializerConfig,
    targets: RwLock<HashMap<String, Target>>,
    _type: PhantomData<fn(&T)>,
}

impl<T: AvroSchema + AvroEncode> Serializer<T> {
    /// A serializer asking `client` for ids as `config` says.
    pub fn new(client: Arc<Client>, config: SerializerConfig) -> Self {
        Serializer {
            id: NEXT_SERIALIZER.fetch_add(1, Ordering::Relaxed),
            client,
            config,
            targets: RwLock::default(),
            _type: PhantomData,
        }
    }

    /// The subject `T`'s values on `topic` are registered under.
    pub fn subject(&self, topic: &str) -> String {
        self.config
            .subject_strategy
            .subject(topic, self.config.part, T::FULL_NAME)
    }

    /// Writes the frame of `value` on `topic` to `out`, which is cleared first and can be
    /// reused between messages. The topic's schema id is found in a per-thread entry for the
    /// topic used last, else in a shared map; [`Self::for_topic`] keeps it in a handle.
    pub fn serialize_into(
        &self,
        topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), SerdeError> {
        write_frame(&self.target(topic)?, value, out)
    }

    /// The serializer of one topic: the schema id is resolved now and kept in the handle, so
    /// framing a value costs what `encode_confluent` costs. Make one per producing thread.
    pub fn for_topic(&self, topic: &str) -> Result<TopicSerializer<'_, T>, SerdeError> {
        Ok(TopicSerializer {
            target: self.target(topic)?,
            topic: topic.to_owned(),
            serializer: self,
        })
    }

    /// The frame of `value` on `topic`.
    pub fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError> {
        let mut out = Vec::new();
        self.serialize_into(topic, value, &mut out)?;
        Ok(out)
    }

    /// The schema id values on `topic` are written under.
    pub fn schema_id(&self, topic: &str) -> Result<i32, SerdeError> {
        self.target(topic).map(|t| t.id)
    }

    /// The target of `topic`: the thread's last one, when it is for this topic.
    #[inline]
    fn target(&self, topic: &str) -> Result<Target, SerdeError> {
        let last = LAST.with_borrow(|last| {
            last.as_ref()
                .filter(|l| l.serializer == self.id && l.topic == topic && l.target.is_fresh())
                .map(|l| l.target.clone())
        });
        match last {
            Some(target) => Ok(target),
            None => self.remembered_target(topic),
        }
    }

    /// The target of `topic` from the shared map or the registry, remembered as the thread's
    /// last. Out of line: the error type is large, and the warm path should not carry it.
    #[cold]
    #[inline(never)]
    fn remembered_target(&self, topic: &str) -> Result<Target, SerdeError> {
        let target = self.shared_target(topic)?;
        LAST.set(Some(Last {
            serializer: self.id,
            topic: topic.to_owned(),
            target: target.clone(),
        }));
        Ok(target)
    }

    fn shared_target(&self, topic: &str) -> Result<Target, SerdeError> {
        let key = self.topic_key(topic);
        let cached = self
            .targets
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned();
        if let Some(target) = cached.filter(Target::is_fresh) {
            return Ok(target);
        }
        let target = self.resolve(&self.subject(topic))?;
        self.targets
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_owned(), target.clone());
        Ok(target)
    }

    /// Record-name subjects do not depend on the topic: one entry serves them all.
    fn topic_key<'a>(&self, topic: &'a str) -> &'a str {
        match self.config.subject_strategy {
            SubjectNameStrategy::RecordName => "",
            _ => topic,
        }
    }

    fn resolve(&self, subject: &str) -> Result<Target, SerdeError> {
        if let Some(id) = self.config.schema_id {
            return Ok(Target {
                id,
                translate: None,
                expires: None,
            });
        }
        if self.config.use_latest {
            match self.latest(subject) {
                Err(SerdeError::Latest { .. }) if !self.config.latest_strict => {}
                found => return found,
            }
        }
        let registry = |source| SerdeError::Registry {
            subject: subject.to_owned(),
            source,
        };
        let schema = Schema::avro(T::SCHEMA_JSON);
        let normalize = self.config.normalize;
        let id = if self.config.auto_register {
            self.client.register(subject, &schema, normalize)
        } else {
            self.client.id_of(subject, &schema, normalize)
        }
        .map_err(registry)?;
        Ok(Target {
            id,
            translate: None,
            expires: None,
        })
    }

    fn latest(&self, subject: &str) -> Result<Target, SerdeError> {
        let latest = self
            .client
            .latest(subject)
            .map_err(|source| SerdeError::Registry {
                subject: subject.to_owned(),
                source,
            })?;
        let json =
            self.client
                .assembled(&latest.schema)
                .map_err(|source| SerdeError::Registry {
                    subject: subject.to_owned(),
                    source,
                })?;
        let incompatible = |source| SerdeError::Latest {
            subject: subject.to_owned(),
            source,
        };
        let plan = plan_to::<T>(&json).map_err(incompatible)?;
        Ok(Target {
            id: latest.id,
            translate: (!plan.is_direct()).then(|| Arc::new(plan)),
            expires: self
                .client
                .settings()
                .latest_ttl
                .map(|ttl| Instant::now() + ttl),
        })
    }
}

/// Writes the frame of `value` for `target` to `out`, cleared first.
#[inline]
fn write_frame<T: AvroEncode>(
    target: &Target,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), SerdeError> {
    out.clear();
    wire::write_confluent_header(out, target.id);
    let Some(plan) = &target.translate else {
        return Ok(value.encode(out)?);
    };
    let mut own = SCRATCH.take();
    own.clear();
    let result = value
        .encode(&mut own)
        .map_err(SerdeError::from)
        .and_then(|()| {
            plan.translate(&own, out)
                .map_err(|e| SerdeError::Decode(ResolveError::Translate(e)))
        });
    SCRATCH.set(own);
    result
}

/// A [`Serializer`] bound to one topic, with its schema id at hand (see
/// [`Serializer::for_topic`]). With `use_latest`, the latest version is looked at again
/// when the client's `latest_ttl` has passed.
pub struct TopicSerializer<'a, T> {
    serializer: &'a Serializer<T>,
    topic: String,
    target: Target,
}

impl<T: AvroSchema + AvroEncode> TopicSerializer<'_, T> {
    /// The schema id values are written under.
    pub fn schema_id(&self) -> i32 {
        self.target.id
    }

    /// Writes the frame of `value` to `out`, which is cleared first.
    #[inline]
    pub fn serialize_into(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
        if self.target.expires.is_some_and(|e| Instant::now() >= e) {
            self.target = self.serializer.target(&self.topic)?;
        }
        write_frame(&self.target, value, out)
    }
}

/// The plan translating `T`'s encoding into that of the schema `reader_json`.
fn plan_to<T: AvroSchema>(reader_json: &str) -> Result<ResolutionPlan, ResolveError> {
    let mut reader_set = SchemaSet::new();
    let reader = reader_set
        .parse_str(reader_json)
        .map_err(ResolveError::ReaderSchema)?;
    let mut writer_set = SchemaSet::new();
    let writer = writer_set
        .parse_str(T::SCHEMA_JSON)
        .map_err(ResolveError::WriterSchema)?;
    ResolutionPlan::new(
        SchemaRef::new(&reader_set, &reader),
        SchemaRef::new(&writer_set, &writer),
    )
}

impl SchemaLookup for Client {
    /// The writer schema of `id`, with its references assembled into it.
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let schema = Client::schema_by_id(self, id)?;
        Ok(Arc::from(self.assembled(&schema)?))
    }
}

impl Client {
    /// The self-contained JSON of `schema`: its references fetched and inlined.
    pub fn assembled(&self, schema: &Schema) -> crate::Result<String> {
        assemble(schema, &mut |reference| {
            let version = Version::Number(reference.version);
            self.subject_version(&reference.subject, version)
                .map(|v| v.schema)
        })
    }
}

/// The client as the lookup of a [`Consumer`] that shares it.
struct Shared(Arc<Client>);

impl SchemaLookup for Shared {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        SchemaLookup::schema_by_id(&*self.0, id)
    }
}

/// Reads Confluent frames into `T`, whatever version of its schema wrote them: the writer
/// schema is fetched by id once, and the resolution plan for each id is cached.
pub struct Deserializer<T> {
    consumer: Consumer<Shared>,
    _type: PhantomData<fn() -> T>,
}

impl<T: AvroSchema + AvroDecode> Deserializer<T> {
    /// A deserializer fetching writer schemas through `client`.
    pub fn new(client: Arc<Client>) -> Self {
        Deserializer {
            consumer: Consumer::new(Shared(client)),
            _type: PhantomData,
        }
    }

    /// The value in `frame`.
    pub fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
        Ok(self.consumer.decode_confluent::<T>(frame)?)
    }
}
