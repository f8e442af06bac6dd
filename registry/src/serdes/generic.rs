//! Generic records ([`avdl2rs::generic`]) through the registry, for programs without a
//! generated type for the data: [`GenericDeserializer`] reads Confluent frames of any schema
//! into [`GenericValue`]s, [`GenericSerializer`] frames the values of one schema known at run
//! time. The steps that ask the registry are macros each transport expands, blocking or
//! async, as for the typed serializers.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use avdl2rs::generic::{GenericResolver, GenericSchema, GenericValue};
use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use avdl2rs::schema::{SchemaError, SchemaKind};
use avdl2rs::{wire, EncodeError};

use super::dependencies::{split, Part};
use super::target::Target;
use super::{SchemaReferences, SerdeError, SerializerConfig};
use crate::error::RegistryError;
use crate::rules::ReadRules;
use crate::types::Schema;

/// Reads Confluent frames into [`GenericValue`]s, through the client `C`: the writer schema
/// of each id is fetched once and kept, ready to read (and, with a reader schema, the
/// resolution from it), so a warm deserializer asks the registry nothing.
pub struct GenericDeserializer<C> {
    pub(crate) client: Arc<C>,
    reader: Option<GenericSchema>,
    /// The Parsing Canonical Form of `reader`, against which migration rules apply.
    reader_canonical: Option<String>,
    readings: RwLock<HashMap<i32, Arc<Reading>>>,
    pub(crate) rules: ReadRules,
    ignored_rule_types: BTreeSet<String>,
}

/// How the values written under one schema id are read. Kept behind an `Arc`, one per id, so
/// the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Reading {
    /// As values of their writer schema.
    Writer(GenericSchema),
    /// As values of the deserializer's reader schema.
    Resolved(GenericResolver),
}

impl Reading {
    /// The reading of values written with `writer_json`, as values of `reader` if given.
    fn new(writer_json: &str, reader: Option<&GenericSchema>) -> Result<Self, ResolveError> {
        let writer = GenericSchema::new(writer_json).map_err(ResolveError::WriterSchema)?;
        Ok(match reader {
            None => Reading::Writer(writer),
            Some(reader) => Reading::Resolved(reader.resolving(&writer)?),
        })
    }

    /// The value of the Avro `body`; bad bytes are bad writer data.
    fn decode(&self, body: &[u8]) -> Result<GenericValue, ResolveError> {
        match self {
            Reading::Writer(schema) => schema.decode(body).map_err(ResolveError::Translate),
            Reading::Resolved(resolver) => resolver.decode(body),
        }
    }

    /// The schema the values read are values of: the writer's, or the reader's.
    fn schema(&self) -> &GenericSchema {
        match self {
            Reading::Writer(schema) => schema,
            Reading::Resolved(resolver) => resolver.reader(),
        }
    }
}

impl<C> GenericDeserializer<C> {
    /// A deserializer reading every frame as a value of its writer schema.
    pub fn new(client: Arc<C>) -> Self {
        GenericDeserializer {
            client,
            reader: None,
            reader_canonical: None,
            readings: RwLock::default(),
            rules: ReadRules::default(),
            ignored_rule_types: BTreeSet::new(),
        }
    }

    /// A deserializer reading every frame as a value of `reader` (Avro schema resolution);
    /// a writer schema `reader` cannot read is refused ([`ResolveError::Incompatible`]).
    pub fn with_reader(client: Arc<C>, reader: GenericSchema) -> Self {
        let reader_ref = reader.schema_ref();
        GenericDeserializer {
            reader_canonical: Some(reader_ref.set.canonical_form(reader_ref.schema)),
            reader: Some(reader),
            ..GenericDeserializer::new(client)
        }
    }

    /// Skipping the rules of these types (`ENCRYPT`, `CEL`...) instead of running them or
    /// refusing to read: values are then handed out without what those rules would do.
    pub fn ignore_rule_types(mut self, types: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.ignored_rule_types = types.into_iter().map(Into::into).collect();
        self
    }

    /// The reading of schema id `id`, when it was fetched already.
    pub(crate) fn known(&self, id: i32) -> Option<Arc<Reading>> {
        let readings = self.readings.read().unwrap_or_else(PoisonError::into_inner);
        readings.get(&id).cloned()
    }

    /// Prepares and keeps the reading of the writer schema `schema` of `id`, assembled as
    /// `json`, and its rules.
    pub(crate) fn keep(
        &self,
        id: i32,
        schema: &Schema,
        json: &str,
    ) -> Result<Arc<Reading>, SerdeError> {
        let reading = Arc::new(Reading::new(json, self.reader.as_ref())?);
        // Without a reader schema values are read as written, so nothing migrates.
        let unchanged = |writer: &str| self.reader_canonical.as_deref().is_none_or(|r| r == writer);
        self.rules
            .insert(id, schema, json, unchanged, &self.ignored_rule_types);
        let mut readings = self
            .readings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        readings.insert(id, Arc::clone(&reading));
        Ok(reading)
    }
}

/// Reads the Avro `body` of a frame with `reading`.
pub(crate) fn read(reading: &Reading, body: &[u8]) -> Result<GenericValue, SerdeError> {
    Ok(reading.decode(body)?)
}

/// Reads the Avro `body` of a frame with `reading`, as Avro JSON.
pub(crate) fn read_avro_json(
    reading: &Reading,
    body: &[u8],
) -> Result<serde_json::Value, SerdeError> {
    let value = reading.decode(body)?;
    Ok(reading.schema().to_avro_json(&value)?)
}

/// The steps of a [`GenericDeserializer`] that ask the registry, for both transports.
macro_rules! generic_deserializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// The value in `frame`, read with the writer schema its id names (fetched on the
        /// first frame of the id), resolved to the reader schema if there is one.
        pub $($async)? fn deserialize(&self, frame: &[u8]) -> Result<avdl2rs::generic::GenericValue, SerdeError> {
            let (id, body) = avdl2rs::wire::split_confluent(frame)
                .map_err(avdl2rs::resolve::ResolveError::Wire)?;
            self.deserialize_body(id, body) $($await)*
        }

        /// The value in `body`, the part of a Confluent frame after its header, written under
        /// schema `id`: for callers that have split the frame already.
        pub $($async)? fn deserialize_body(&self, id: i32, body: &[u8]) -> Result<avdl2rs::generic::GenericValue, SerdeError> {
            let reading = self.reading(id) $($await)*?;
            let value = crate::serdes::generic::read(&reading, body)?;
            self.rules.check(id, body)?;
            Ok(value)
        }

        /// The value in `frame`, read as [`deserialize`](Self::deserialize) reads it, in
        /// Avro's JSON encoding ([`avdl2rs::generic::GenericSchema::to_avro_json`]), for
        /// programs that show or pass on the values as text.
        pub $($async)? fn deserialize_avro_json(&self, frame: &[u8]) -> Result<serde_json::Value, SerdeError> {
            let (id, body) = avdl2rs::wire::split_confluent(frame)
                .map_err(avdl2rs::resolve::ResolveError::Wire)?;
            self.deserialize_avro_json_body(id, body) $($await)*
        }

        /// [`deserialize_avro_json`](Self::deserialize_avro_json) of a frame split already.
        pub $($async)? fn deserialize_avro_json_body(&self, id: i32, body: &[u8]) -> Result<serde_json::Value, SerdeError> {
            let reading = self.reading(id) $($await)*?;
            let value = crate::serdes::generic::read_avro_json(&reading, body)?;
            self.rules.check(id, body)?;
            Ok(value)
        }

        /// The reading of schema id `id`, fetched on its first frame.
        $($async)? fn reading(&self, id: i32) -> Result<std::sync::Arc<crate::serdes::generic::Reading>, SerdeError> {
            let known = self.known(id);
            crate::metrics::writer_lookup(known.is_some());
            match known {
                Some(reading) => Ok(reading),
                None => self.fetch_reading(id) $($await)*,
            }
        }

        /// Fetches the writer schema of `id`, its references assembled into it, and keeps
        /// its reading.
        $($async)? fn fetch_reading(&self, id: i32) -> Result<std::sync::Arc<crate::serdes::generic::Reading>, SerdeError> {
            let lookup = |source: crate::RegistryError| {
                SerdeError::Decode(avdl2rs::resolve::ResolveError::Lookup { id, source: Box::new(source) })
            };
            let schema = self.client.schema_by_id(id) $($await)* .map_err(lookup)?;
            let json = self.client.assembled(&schema) $($await)* .map_err(lookup)?;
            self.keep(id, &schema, &json)
        }
    };
}

pub(crate) use generic_deserializer_methods;

/// Frames [`GenericValue`]s of one schema for Kafka: `0x00`, the schema id, the Avro body.
/// The id is found through the client `C` as [`SerializerConfig`] says, the subject named
/// from the topic and the schema's full name (the type name of a schema that is not a named
/// type) by its strategy, and kept per topic.
pub struct GenericSerializer<C> {
    pub(crate) client: Arc<C>,
    pub(crate) config: SerializerConfig,
    schema: GenericSchema,
    /// The schema as given, the text registered.
    json: String,
    /// The root's full name, for the subject and the registered parts.
    full_name: String,
    targets: RwLock<HashMap<String, Target>>,
}

impl<C> GenericSerializer<C> {
    /// A serializer of values of `schema_json` (an `.avsc`), asking `client` for ids as
    /// `config` says.
    pub fn new(
        client: Arc<C>,
        schema_json: &str,
        config: SerializerConfig,
    ) -> Result<Self, SchemaError> {
        let schema = GenericSchema::new(schema_json)?;
        let full_name = match &schema.root().kind {
            SchemaKind::Named(name) => name.full_name(),
            kind => kind.primitive_name().unwrap_or(kind_name(kind)).to_owned(),
        };
        Ok(GenericSerializer {
            client,
            config,
            schema,
            json: schema_json.to_owned(),
            full_name,
            targets: RwLock::default(),
        })
    }

    /// The schema values are written with, to build them and to read them back.
    pub fn schema(&self) -> &GenericSchema {
        &self.schema
    }

    /// The subject the values on `topic` are registered under.
    pub fn subject(&self, topic: &str) -> String {
        self.config
            .subject_strategy
            .subject(topic, self.config.part, &self.full_name)
    }

    /// The target of `topic` found before and still fresh.
    pub(crate) fn known_target(&self, topic: &str) -> Option<Target> {
        let targets = self.targets.read().unwrap_or_else(PoisonError::into_inner);
        targets.get(topic).filter(|t| t.is_fresh()).cloned()
    }

    /// Keeps the target the registry gave for `topic`.
    pub(crate) fn remember(&self, topic: &str, target: &Target) {
        let mut targets = self.targets.write().unwrap_or_else(PoisonError::into_inner);
        targets.insert(topic.to_owned(), target.clone());
    }

    /// Writes the frame of `value` for `target` to `out`, cleared first.
    pub(crate) fn write(
        &self,
        target: &Target,
        value: &GenericValue,
        out: &mut Vec<u8>,
    ) -> Result<(), SerdeError> {
        out.clear();
        wire::write_confluent_header(out, target.id);
        match &target.translate {
            None => self.schema.encode_into(value, out)?,
            Some(plan) => {
                let own = self.schema.encode(value)?;
                plan.translate(&own, out)
                    .map_err(|e| SerdeError::Decode(ResolveError::Translate(e)))?;
            }
        }
        match &target.rules {
            None => Ok(()),
            Some(rules) => crate::serdes::check_written(rules, out),
        }
    }

    /// The schema text values are written in, which write rules are read against.
    pub(crate) fn own_json(&self) -> &str {
        &self.json
    }

    pub(crate) fn registry_error(subject: &str) -> impl FnOnce(RegistryError) -> SerdeError + '_ {
        move |source| SerdeError::Registry {
            subject: subject.to_owned(),
            source,
        }
    }

    /// The parts to register: the schema alone, or its named types first.
    pub(crate) fn parts(&self) -> Result<Vec<Part>, SerdeError> {
        match self.config.references {
            SchemaReferences::Inline => Ok(vec![Part {
                name: self.full_name.clone(),
                schema: self.json.clone(),
                uses: Vec::new(),
            }]),
            SchemaReferences::Registered => split(&self.json, &self.full_name).map_err(|message| {
                EncodeError::custom(format!(
                    "the schema of {} cannot be registered: {message}",
                    self.full_name
                ))
                .into()
            }),
        }
    }

    /// The target writing under the latest version `latest_id`, whose assembled schema is
    /// `json`, which must be able to read this schema's data; `ttl` is the client's time to
    /// live of latest versions.
    pub(crate) fn latest_target(
        &self,
        subject: &str,
        latest_id: i32,
        json: &str,
        ttl: Option<Duration>,
    ) -> Result<Target, SerdeError> {
        let refused = |source| SerdeError::Latest {
            subject: subject.to_owned(),
            source,
        };
        let latest =
            GenericSchema::new(json).map_err(|e| refused(ResolveError::ReaderSchema(e)))?;
        let plan =
            ResolutionPlan::new(latest.schema_ref(), self.schema.schema_ref()).map_err(refused)?;
        Ok(Target {
            id: latest_id,
            translate: (!plan.is_direct()).then(|| Arc::new(plan)),
            expires: ttl.map(|ttl| Instant::now() + ttl),
            rules: None,
        })
    }
}

/// The name of a schema that is neither primitive nor named.
fn kind_name(kind: &SchemaKind) -> &'static str {
    match kind {
        SchemaKind::Array(_) => "array",
        SchemaKind::Map(_) => "map",
        _ => "union",
    }
}

/// The steps of a [`GenericSerializer`] that ask the registry, for both transports.
macro_rules! generic_serializer_methods {
    ($($async:ident)?; $($await:tt)*) => {
        /// Writes the frame of `value` on `topic` to `out`, which is cleared first and can
        /// be reused between messages. A value that does not match the schema is refused
        /// with its path.
        pub $($async)? fn serialize_into(&self, topic: &str, value: &avdl2rs::generic::GenericValue, out: &mut Vec<u8>) -> Result<(), SerdeError> {
            let target = self.target(topic) $($await)*?;
            self.write(&target, value, out)
        }

        /// The frame of `value` on `topic`.
        pub $($async)? fn serialize(&self, topic: &str, value: &avdl2rs::generic::GenericValue) -> Result<Vec<u8>, SerdeError> {
            let mut out = Vec::new();
            self.serialize_into(topic, value, &mut out) $($await)*?;
            Ok(out)
        }

        /// The schema id values on `topic` are written under.
        pub $($async)? fn schema_id(&self, topic: &str) -> Result<i32, SerdeError> {
            self.target(topic) $($await)* .map(|t| t.id)
        }

        /// The target of `topic`: known, or found through the registry.
        pub(crate) $($async)? fn target(&self, topic: &str) -> Result<crate::serdes::Target, SerdeError> {
            if let Some(target) = self.known_target(topic) {
                return Ok(target);
            }
            let subject = self.subject(topic);
            let target = self.resolve(&subject) $($await)*?;
            self.remember(topic, &target);
            Ok(target)
        }

        crate::serdes::registration_methods!($($async)?; $($await)*);
    };
}

pub(crate) use generic_serializer_methods;
