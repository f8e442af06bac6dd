//! Typed Kafka serializers for generated and derived types: [`Serializer`] finds the schema
//! id to write under (registering, looking up, or using the subject's latest version) and
//! frames values; [`Deserializer`] reads frames of any schema version into the type.
//!
//! Both are generic over the client `C`: the state, the caches and the warm path are here,
//! once; the steps that ask the registry are written once in [`serializer_methods`] and
//! [`deserializer_methods`] and expanded by each transport, blocking or async, over its own
//! client (`blocking::Serializer<T>` is `Serializer<T, blocking::Client>`).

mod dependencies;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use avdl2rs::compat::SchemaRef;
use avdl2rs::resolve::{Consumer, LookupError, ResolutionPlan, ResolveError, SchemaLookup};
use avdl2rs::schema::SchemaSet;
use avdl2rs::{wire, AvroDecode, AvroEncode, AvroSchema, EncodeError};
use avdl2rs::{SubjectNameStrategy, SubjectPart};

use crate::error::RegistryError;
use crate::types::{Schema, SchemaReference};

pub(crate) use dependencies::{split, Part};

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
    /// Whether the named types the schema uses are defined inside it (the default) or
    /// registered as references.
    pub dependencies: Dependencies,
}

/// How the named types a schema uses (records, enums, fixed inside it) reach the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dependencies {
    /// One self-contained schema defines them all.
    #[default]
    Inline,
    /// Each named type is registered on its own under its full name (the subject
    /// RecordNameStrategy gives it), dependencies first, and the schemas using it refer to it
    /// by name with a `references` entry `{name, subject, version}`. Consumers assemble the
    /// parts again (this crate's [`Deserializer`] does).
    References,
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
            dependencies: Dependencies::Inline,
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
    /// The type's schema cannot be registered as asked (named types that use each other,
    /// registered as references).
    #[error("the schema of {type_name} cannot be registered: {message}")]
    Schema {
        /// The type's full name.
        type_name: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// Where a subject's values go: the id, and the translation to its schema when that is not
/// the type's own.
#[derive(Clone)]
pub(crate) struct Target {
    pub(crate) id: i32,
    translate: Option<Arc<ResolutionPlan>>,
    expires: Option<Instant>,
}

impl Target {
    /// Writes under `id` the type's own encoding, for good.
    pub(crate) fn own(id: i32) -> Self {
        Target {
            id,
            translate: None,
            expires: None,
        }
    }

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

/// Topic names (map keys) up to this long are kept in the per-thread [`Hot`] entry.
const HOT_TOPIC: usize = 48;

/// The warm path's per-thread entry: the last topic of one serializer whose target writes
/// the type's own encoding for good. Plain data without `Drop`, so reading it is a few loads
/// at a fixed thread-local address: no lazy initialization, no call, no reference count.
#[derive(Clone, Copy)]
struct Hot {
    /// The serializer's id; 0 for none.
    serializer: u64,
    id: i32,
    len: usize,
    key: [u8; HOT_TOPIC],
}

thread_local! {
    /// The type's own encoding, before translation to the latest schema's.
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
    static HOT: Cell<Hot> = const {
        Cell::new(Hot { serializer: 0, id: 0, len: 0, key: [0; HOT_TOPIC] })
    };
}

/// Whether two byte strings are equal, compared inline in overlapping words: topic names are
/// short, and a call to `memcmp` cost as much as the rest of the warm path.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().expect("8"));
    let half = |s: &[u8], at: usize| u32::from_ne_bytes(s[at..at + 4].try_into().expect("4"));
    match n {
        8.. => {
            let words_equal = (0..n / 8).all(|i| word(a, i * 8) == word(b, i * 8));
            words_equal && word(a, n - 8) == word(b, n - 8)
        }
        4.. => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => (0..n).all(|i| a[i] == b[i]),
    }
}

/// Tells serializers apart in [`LAST`] and [`HOT`]; 0 is no serializer.
static NEXT_SERIALIZER: AtomicU64 = AtomicU64::new(1);

/// Frames values of `T` for Kafka: `0x00`, the schema id, the Avro body, asking the registry
/// through the client `C` (`blocking::Client` or `nonblocking::Client`). Resolved ids are kept
/// per topic, so a warm serializer asks the registry nothing. Share it between threads.
pub struct Serializer<T, C> {
    id: u64,
    pub(crate) client: Arc<C>,
    pub(crate) config: SerializerConfig,
    targets: RwLock<HashMap<String, Target>>,
    _type: PhantomData<fn(&T)>,
}

impl<T: AvroSchema + AvroEncode, C> Serializer<T, C> {
    /// A serializer asking `client` for ids as `config` says.
    pub fn new(client: Arc<C>, config: SerializerConfig) -> Self {
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

    /// The schema id of `topic` when the thread's last target is this topic's and writes
    /// `T`'s own encoding for good: the warm path of `serialize_into`, which reads the
    /// thread's [`Hot`] entry (a whole [`Target`] passed through memory, a `RefCell` and a
    /// `memcmp` call cost more than the framing itself).
    #[inline]
    pub(crate) fn own_id(&self, topic: &str) -> Option<i32> {
        let key = self.topic_key(topic).as_bytes();
        let hot = HOT.get();
        let known = hot.serializer == self.id
            && hot.len == key.len()
            && same_bytes(&hot.key[..hot.len.min(HOT_TOPIC)], key);
        known.then_some(hot.id)
    }

    /// The target of `topic` without asking the registry: the thread's last one, when it is
    /// for this topic, else the shared map's.
    #[cold]
    #[inline(never)]
    pub(crate) fn known_target(&self, topic: &str) -> Option<Target> {
        let last = LAST.with_borrow(|last| {
            last.as_ref()
                .filter(|l| l.serializer == self.id && l.topic == topic && l.target.is_fresh())
                .map(|l| l.target.clone())
        });
        last.or_else(|| self.shared_target(topic))
    }

    /// The target of `topic` in the shared map, remembered as the thread's last.
    fn shared_target(&self, topic: &str) -> Option<Target> {
        let target = self
            .targets
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(self.topic_key(topic))
            .filter(|t| t.is_fresh())
            .cloned()?;
        self.remember_last(topic, &target);
        Some(target)
    }

    /// Keeps the target the registry gave for `topic`.
    pub(crate) fn remember(&self, topic: &str, target: &Target) {
        self.targets
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(self.topic_key(topic).to_owned(), target.clone());
        self.remember_last(topic, target);
    }

    fn remember_last(&self, topic: &str, target: &Target) {
        LAST.set(Some(Last {
            serializer: self.id,
            topic: topic.to_owned(),
            target: target.clone(),
        }));
        let key = self.topic_key(topic).as_bytes();
        let own = target.translate.is_none() && target.expires.is_none();
        if own && key.len() <= HOT_TOPIC {
            let mut hot = Hot {
                serializer: self.id,
                id: target.id,
                len: key.len(),
                key: [0; HOT_TOPIC],
            };
            hot.key[..key.len()].copy_from_slice(key);
            HOT.set(hot);
        }
    }

    /// Record-name subjects do not depend on the topic: one entry serves them all.
    #[inline]
    fn topic_key<'a>(&self, topic: &'a str) -> &'a str {
        match self.config.subject_strategy {
            SubjectNameStrategy::RecordName => "",
            _ => topic,
        }
    }

    pub(crate) fn registry_error(subject: &str) -> impl FnOnce(RegistryError) -> SerdeError + '_ {
        move |source| SerdeError::Registry {
            subject: subject.to_owned(),
            source,
        }
    }

    /// The parts to register: the type's schema alone, or its named types first.
    pub(crate) fn parts(&self) -> Result<Vec<Part>, SerdeError> {
        match self.config.dependencies {
            Dependencies::Inline => Ok(vec![Part {
                name: T::FULL_NAME.to_owned(),
                schema: T::SCHEMA_JSON.to_owned(),
                uses: Vec::new(),
            }]),
            Dependencies::References => {
                split(T::SCHEMA_JSON, T::FULL_NAME).map_err(|message| SerdeError::Schema {
                    type_name: T::FULL_NAME,
                    message,
                })
            }
        }
    }

    /// The target writing under the latest version `latest_id`, whose assembled schema is
    /// `json`; `ttl` is the client's time to live of latest versions.
    pub(crate) fn latest_target(
        subject: &str,
        latest_id: i32,
        json: &str,
        ttl: Option<Duration>,
    ) -> Result<Target, SerdeError> {
        let plan = plan_to::<T>(json).map_err(|source| SerdeError::Latest {
            subject: subject.to_owned(),
            source,
        })?;
        Ok(Target {
            id: latest_id,
            translate: (!plan.is_direct()).then(|| Arc::new(plan)),
            expires: ttl.map(|ttl| Instant::now() + ttl),
        })
    }
}

/// The schema of `part`, its uses referring to the versions registered earlier.
pub(crate) fn part_schema(part: &Part, versions: &HashMap<String, i32>) -> Schema {
    let references = part
        .uses
        .iter()
        .map(|name| SchemaReference {
            name: name.clone(),
            subject: name.clone(),
            version: versions[name],
        })
        .collect();
    Schema {
        references,
        ..Schema::avro(part.schema.clone())
    }
}

/// The steps of a [`Serializer`] that ask the registry, written once for both transports:
/// `serializer_methods!(async; .await)` expands them as async functions over the async
/// client, `serializer_methods!(;)` as blocking ones.
macro_rules! serializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// Writes the frame of `value` on `topic` to `out`, which is cleared first and can
        /// be reused between messages. The topic's schema id is found in a per-thread entry
        /// for the topic used last, else in a shared map; [`Self::for_topic`] keeps it in a
        /// handle.
        #[inline]
        pub $($async)? fn serialize_into(&self, topic: &str, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
            if let Some(id) = self.own_id(topic) {
                return crate::serdes::write_own(id, value, out);
            }
            let target = match self.known_target(topic) {
                Some(target) => target,
                None => self.resolve_target(topic) $($await)*?,
            };
            crate::serdes::write_frame(&target, value, out)
        }

        /// The frame of `value` on `topic`.
        pub $($async)? fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError> {
            let mut out = Vec::new();
            self.serialize_into(topic, value, &mut out) $($await)*?;
            Ok(out)
        }

        /// The schema id values on `topic` are written under.
        pub $($async)? fn schema_id(&self, topic: &str) -> Result<i32, SerdeError> {
            self.target(topic) $($await)* .map(|t| t.id)
        }

        /// The serializer of one topic: the schema id is resolved now and kept in the
        /// handle, so framing a value costs what `encode_confluent` costs. Make one per
        /// producing thread.
        pub $($async)? fn for_topic(&self, topic: &str) -> Result<TopicSerializer<'_, T>, SerdeError> {
            Ok(TopicSerializer {
                target: self.target(topic) $($await)*?,
                topic: topic.to_owned(),
                serializer: self,
            })
        }

        $($async)? fn target(&self, topic: &str) -> Result<crate::serdes::Target, SerdeError> {
            match self.known_target(topic) {
                Some(target) => Ok(target),
                None => self.resolve_target(topic) $($await)*,
            }
        }

        /// The target of `topic` from the registry, remembered.
        $($async)? fn resolve_target(&self, topic: &str) -> Result<crate::serdes::Target, SerdeError> {
            let subject = self.subject(topic);
            let target = self.resolve(&subject) $($await)*?;
            self.remember(topic, &target);
            Ok(target)
        }

        $($async)? fn resolve(&self, subject: &str) -> Result<crate::serdes::Target, SerdeError> {
            if let Some(id) = self.config.schema_id {
                return Ok(crate::serdes::Target::own(id));
            }
            if self.config.use_latest {
                match self.latest(subject) $($await)* {
                    Err(SerdeError::Latest { .. }) if !self.config.latest_strict => {}
                    found => return found,
                }
            }
            let parts = self.parts()?;
            let (own, dependencies) = parts.split_last().expect("the type's own part");
            let mut versions = std::collections::HashMap::new();
            for part in dependencies {
                let version = self.register_dependency(part, &versions) $($await)*?;
                versions.insert(part.name.clone(), version);
            }
            let schema = crate::serdes::part_schema(own, &versions);
            let normalize = self.config.normalize;
            let id = if self.config.auto_register {
                self.client.register(subject, &schema, normalize) $($await)*
            } else {
                self.client.id_of(subject, &schema, normalize) $($await)*
            }
            .map_err(Self::registry_error(subject))?;
            Ok(crate::serdes::Target::own(id))
        }

        /// Registers (when allowed) a named dependency under its full name and answers the
        /// version it has there.
        $($async)? fn register_dependency(&self, part: &crate::serdes::Part, versions: &std::collections::HashMap<String, i32>) -> Result<i32, SerdeError> {
            let schema = crate::serdes::part_schema(part, versions);
            let subject = part.name.as_str();
            let normalize = self.config.normalize;
            if self.config.auto_register {
                self.client.register(subject, &schema, normalize) $($await)*
                    .map_err(Self::registry_error(subject))?;
            }
            let found = self.client.lookup(subject, &schema, normalize) $($await)*;
            found.map(|v| v.version).map_err(Self::registry_error(subject))
        }

        $($async)? fn latest(&self, subject: &str) -> Result<crate::serdes::Target, SerdeError> {
            let latest = self.client.latest(subject) $($await)* .map_err(Self::registry_error(subject))?;
            let json = self.client.assembled(&latest.schema) $($await)* .map_err(Self::registry_error(subject))?;
            let ttl = self.client.settings().latest_ttl;
            Self::latest_target(subject, latest.id, &json, ttl)
        }
    };
}

/// The steps of a [`TopicSerializer`] that may ask the registry, for both transports.
macro_rules! topic_serializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// Writes the frame of `value` to `out`, which is cleared first.
        #[inline]
        pub $($async)? fn serialize_into(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
            if self.is_stale() {
                self.target = self.serializer.target(&self.topic) $($await)*?;
            }
            crate::serdes::write_frame(&self.target, value, out)
        }
    };
}

/// The steps of a [`Deserializer`] that ask the registry, for both transports.
macro_rules! deserializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The value in `frame`.
        pub $($async)? fn deserialize(&self, frame: &[u8]) -> Result<T, SerdeError> {
            match self.decode(frame) {
                Err(e) => match crate::serdes::not_fetched(&e) {
                    Some(id) => {
                        self.fetch_writer(id) $($await)*?;
                        self.decode(frame)
                    }
                    None => Err(e),
                },
                done => done,
            }
        }

        /// Fetches the writer schema of `id`, its references assembled into it.
        $($async)? fn fetch_writer(&self, id: i32) -> Result<(), SerdeError> {
            let lookup = |source: crate::RegistryError| {
                SerdeError::Decode(avdl2rs::resolve::ResolveError::Lookup { id, source: Box::new(source) })
            };
            let schema = self.client.schema_by_id(id) $($await)* .map_err(lookup)?;
            let json = self.client.assembled(&schema) $($await)* .map_err(lookup)?;
            self.writers.insert(id, json);
            Ok(())
        }
    };
}

pub(crate) use {deserializer_methods, serializer_methods, topic_serializer_methods};

/// Writes the frame of `value` under `id`, in `T`'s own encoding, to `out`, cleared first.
#[inline]
pub(crate) fn write_own<T: AvroEncode>(
    id: i32,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), SerdeError> {
    out.clear();
    wire::write_confluent_header(out, id);
    Ok(value.encode(out)?)
}

/// Writes the frame of `value` for `target` to `out`, cleared first.
#[inline]
pub(crate) fn write_frame<T: AvroEncode>(
    target: &Target,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), SerdeError> {
    let Some(plan) = &target.translate else {
        return write_own(target.id, value, out);
    };
    out.clear();
    wire::write_confluent_header(out, target.id);
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
/// `Serializer::for_topic`). With `use_latest`, the latest version is looked at again when
/// the client's `latest_ttl` has passed.
pub struct TopicSerializer<'a, T, C> {
    pub(crate) serializer: &'a Serializer<T, C>,
    pub(crate) topic: String,
    pub(crate) target: Target,
}

impl<T, C> TopicSerializer<'_, T, C> {
    /// The schema id values are written under.
    pub fn schema_id(&self) -> i32 {
        self.target.id
    }

    #[inline]
    pub(crate) fn is_stale(&self) -> bool {
        self.target.expires.is_some_and(|e| Instant::now() >= e)
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

/// The writer schemas a [`Deserializer`] has fetched, assembled: its consumer's lookup,
/// which asks nothing, so the fetching can be blocking or async outside it.
#[derive(Default)]
pub(crate) struct Writers(RwLock<HashMap<i32, Arc<str>>>);

impl Writers {
    pub(crate) fn insert(&self, id: i32, json: String) {
        let mut writers = self.0.write().unwrap_or_else(PoisonError::into_inner);
        writers.insert(id, Arc::from(json));
    }
}

/// The lookup's answer for a writer schema not fetched yet.
#[derive(Debug, thiserror::Error)]
#[error("schema not fetched yet")]
struct NotFetched;

impl SchemaLookup for Writers {
    fn schema_by_id(&self, id: i32) -> Result<Arc<str>, LookupError> {
        let writers = self.0.read().unwrap_or_else(PoisonError::into_inner);
        writers.get(&id).cloned().ok_or_else(|| NotFetched.into())
    }
}

/// The id of the writer schema to fetch, when `error` says it was not fetched yet.
pub(crate) fn not_fetched(error: &SerdeError) -> Option<i32> {
    match error {
        SerdeError::Decode(ResolveError::Lookup { id, source }) if source.is::<NotFetched>() => {
            Some(*id)
        }
        _ => None,
    }
}

/// Reads Confluent frames into `T`, whatever version of its schema wrote them: the writer
/// schema is fetched by id once, through the client `C`, and the resolution plan for each id
/// is cached.
pub struct Deserializer<T, C> {
    pub(crate) client: Arc<C>,
    pub(crate) writers: Arc<Writers>,
    consumer: Consumer<Arc<Writers>>,
    _type: PhantomData<fn() -> T>,
}

impl<T: AvroSchema + AvroDecode, C> Deserializer<T, C> {
    /// A deserializer fetching writer schemas through `client`.
    pub fn new(client: Arc<C>) -> Self {
        let writers = Arc::new(Writers::default());
        Deserializer {
            client,
            consumer: Consumer::new(Arc::clone(&writers)),
            writers,
            _type: PhantomData,
        }
    }

    /// Decodes with the writer schemas fetched so far.
    #[inline]
    pub(crate) fn decode(&self, frame: &[u8]) -> Result<T, SerdeError> {
        Ok(self.consumer.decode_confluent::<T>(frame)?)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_compare_by_content() {
        let names = [
            "",
            "a",
            "b",
            "ab",
            "abc",
            "abd",
            "orders",
            "orderz",
            "bench-orders",
            "bench-orderz",
            "xench-orders",
            "orders-of-sixteen",
            "orders-of-sixteex",
            "yrders-of-sixteen",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_bytes(a.as_bytes(), b.as_bytes()), a == b, "{a} {b}");
            }
        }
        let owned = "bench-orders".to_owned();
        assert!(same_bytes(b"bench-orders", owned.as_bytes()));
    }

    #[test]
    fn only_schemas_not_fetched_yet_are_fetched() {
        let writers = Writers::default();
        let lookup = |writers: &Writers, id| {
            let source = writers.schema_by_id(id).unwrap_err();
            not_fetched(&SerdeError::Decode(ResolveError::Lookup { id, source }))
        };
        assert_eq!(lookup(&writers, 3), Some(3));
        writers.insert(3, "\"int\"".to_owned());
        assert_eq!(&*writers.schema_by_id(3).unwrap(), "\"int\"");
        let other = ResolveError::Lookup {
            id: 4,
            source: "the registry is down".into(),
        };
        assert_eq!(not_fetched(&SerdeError::Decode(other)), None);
    }
}
