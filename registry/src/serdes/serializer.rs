//! The [`Serializer`]: the schema id of each topic, found once through the registry (the
//! steps written once in `serializer_methods!` for both transports) and kept, and the
//! framing of values.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use avdl2rs::{wire, AvroEncode, AvroSchema, SubjectNameStrategy};

use super::dependencies::{split, Part};
use super::target::Target;
use super::warm::{Last, HOT, LAST, NEXT_SERIALIZER, SCRATCH};
use super::{SchemaReferences, SerdeError, SerializerConfig};
use crate::error::RegistryError;
use crate::rules::{Conditions, Direction};
use crate::types::{Schema, SchemaReference};

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
    /// `T`'s own encoding for good: the warm path of `write_known`, which reads the
    /// thread's `Hot` entry.
    #[inline]
    fn own_id(&self, topic: &str) -> Option<i32> {
        let key = self.topic_key(topic).as_bytes();
        HOT.with(|hot| hot.id_of(self.id, key))
    }

    /// Writes the frame of `value` on `topic` to `out` with the schema id or target already
    /// known for the topic, asking the registry nothing: `None` when none is known yet. The
    /// warm path of every serializer that writes `T` (its own, and a [`super::OneOfSerializer`]'s
    /// for a variant of type `T`).
    #[inline]
    pub(crate) fn write_known(
        &self,
        topic: &str,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Option<Result<(), SerdeError>> {
        if let Some(id) = self.own_id(topic) {
            return Some(write_own(id, value, out));
        }
        let target = self.known_target(topic)?;
        Some(write_frame(&target, value, out))
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
        let own = target.translate.is_none() && target.expires.is_none() && target.rules.is_none();
        if own {
            HOT.with(|hot| hot.keep(self.id, key, target.id));
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

    /// The schema text values are written in, which write rules are read against.
    pub(crate) fn own_json(&self) -> &'static str {
        T::SCHEMA_JSON
    }

    /// The parts to register: the type's schema alone, or its named types first.
    pub(crate) fn parts(&self) -> Result<Vec<Part>, SerdeError> {
        match self.config.references {
            SchemaReferences::Inline => Ok(vec![Part {
                name: T::FULL_NAME.to_owned(),
                schema: T::SCHEMA_JSON.to_owned(),
                uses: Vec::new(),
            }]),
            SchemaReferences::Registered => {
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
        &self,
        subject: &str,
        latest_id: i32,
        json: &str,
        ttl: Option<Duration>,
    ) -> Result<Target, SerdeError> {
        let plan = ResolutionPlan::writing::<T>(json).map_err(|source| SerdeError::Latest {
            subject: subject.to_owned(),
            source,
        })?;
        Ok(Target {
            id: latest_id,
            translate: (!plan.is_direct()).then(|| Arc::new(plan)),
            expires: ttl.map(|ttl| Instant::now() + ttl),
            rules: None,
        })
    }
}

/// The conditions to run on values written under `schema`, whose assembled text is `json`,
/// or the refusal of a rule that cannot be run; the rule types `config` ignores are skipped.
pub(crate) fn write_rules(
    config: &SerializerConfig,
    schema: &Schema,
    json: &str,
) -> Result<Option<Arc<Conditions>>, SerdeError> {
    let rule_set = schema.rule_set.as_ref();
    let ignored = &config.ignored_rule_types;
    Ok(Conditions::of(rule_set, Direction::Write, ignored, json)?)
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
        /// be reused between messages. A value a rule stops with the action `DLQ` stays in
        /// `out`, framed, for the dead-letter topic. The topic's schema id is found in a per-thread entry
        /// for the topic used last, else in a shared map; [`Self::for_topic`] keeps it in a
        /// handle.
        #[inline]
        pub $($async)? fn serialize_into(&self, topic: &str, value: &T, out: &mut Vec<u8>) -> Result<(), SerdeError> {
            if let Some(written) = self.write_known(topic, value, out) {
                return written;
            }
            let target = self.resolve_target(topic) $($await)*?;
            crate::serdes::write_frame(&target, value, out)
        }

        /// The frame of `value` on `topic`.
        /// The buffer is sized from `T`'s recent encodings, so it is allocated once.
        pub $($async)? fn serialize(&self, topic: &str, value: &T) -> Result<Vec<u8>, SerdeError> {
            let header = avdl2rs::wire::CONFLUENT_HEADER_LEN;
            let mut out = Vec::with_capacity(header + avdl2rs::size_hint::capacity_for::<T>());
            self.serialize_into(topic, value, &mut out) $($await)*?;
            avdl2rs::size_hint::record_for::<T>(out.len() - header);
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

        /// The target of `topic`: known, or found through the registry.
        pub(crate) $($async)? fn target(&self, topic: &str) -> Result<crate::serdes::Target, SerdeError> {
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

        crate::serdes::registration_methods!($($async)?; $($await)*);
    };
}

/// The steps that find a subject's schema id in the registry (registering the schema and
/// its references, or looking them up, or taking the latest version), written once for the
/// serializers of generated types and of generic values: the serializer has the `config` and
/// `client` fields, and the `own_json`, `parts`, `latest_target` and `registry_error` functions.
macro_rules! registration_methods {
    ($($async:ident)?; $($await:tt)*) => {
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
            // The rules are those the registry keeps with the id, inherited ones included.
            let registered = self.client.schema_by_id(id) $($await)* .map_err(Self::registry_error(subject))?;
            let rules = crate::serdes::write_rules(&self.config, &registered, self.own_json())?;
            Ok(crate::serdes::Target::own(id).with_rules(rules))
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
            let rules = crate::serdes::write_rules(&self.config, &latest.schema, &json)?;
            Ok(self.latest_target(subject, latest.id, &json, ttl)?.with_rules(rules))
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

pub(crate) use {registration_methods, serializer_methods, topic_serializer_methods};

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
    match &target.translate {
        None => write_own(target.id, value, out)?,
        Some(plan) => write_translated(target.id, plan, value, out)?,
    }
    match &target.rules {
        None => Ok(()),
        Some(rules) => check_written(rules, out),
    }
}

/// Runs `rules` on the frame just written to `out`, which is cleared when they stop it, but
/// for a dead-letter topic (the action `DLQ`), which gets the frame as written.
#[inline(never)]
pub(crate) fn check_written(rules: &Conditions, out: &mut Vec<u8>) -> Result<(), SerdeError> {
    let checked = rules.check(&out[wire::CONFLUENT_HEADER_LEN..]);
    if checked.as_ref().is_err_and(|e| !e.is_dead_letter()) {
        out.clear();
    }
    Ok(checked?)
}

/// Writes the frame of `value` under `id` in the encoding `plan` translates `T`'s into.
/// Out of line: the warm path of the type's own encoding should not carry it.
#[inline(never)]
fn write_translated<T: AvroEncode>(
    id: i32,
    plan: &ResolutionPlan,
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), SerdeError> {
    out.clear();
    wire::write_confluent_header(out, id);
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
