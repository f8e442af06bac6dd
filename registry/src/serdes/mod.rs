//! Typed Kafka serializers for generated and derived types: [`Serializer`] finds the schema
//! id to write under (registering, looking up, or using the subject's latest version) and
//! frames values; [`Deserializer`] reads frames of any schema version into the type.
//! [`GenericSerializer`] and [`GenericDeserializer`] do the same for generic values
//! ([`avdl2rs::generic`]), whose schema is known only at run time. [`OneOfSerializer`] frames
//! values of a [`avdl2rs::OneOf`] enum, several record types in one topic, which
//! [`Deserializer`] reads.
//!
//! Both are generic over the client `C`: the state, the caches and the warm path are
//! written once; so are the steps that ask the registry, as macros each transport expands,
//! blocking or async, over its own client (`blocking::Serializer<T>` is
//! `Serializer<T, blocking::Client>`).

mod dependencies;
mod deserializer;
pub(crate) mod generic;
mod one_of;
mod serializer;
mod target;
mod warm;

use std::collections::BTreeSet;

use avdl2rs::resolve::ResolveError;
use avdl2rs::{EncodeError, SubjectNameStrategy, SubjectPart};

use crate::error::RegistryError;
use crate::rules::RuleError;

pub(crate) use dependencies::Part;
pub use deserializer::Deserializer;
pub(crate) use deserializer::{deserializer_methods, Decoding};
pub(crate) use generic::{generic_deserializer_methods, generic_serializer_methods};
pub use generic::{GenericDeserializer, GenericSerializer};
pub use one_of::OneOfSerializer;
pub(crate) use serializer::{check_written, write_frame, write_rules};
pub(crate) use serializer::{
    part_schema, registration_methods, serializer_methods, topic_serializer_methods,
};
pub use serializer::{Serializer, TopicSerializer};
pub(crate) use target::Target;

/// How a [`Serializer`] picks the schema id it writes.
///
/// Built from [`SerializerConfig::default`] through its setters, so that new settings can be
/// added without breaking callers:
///
/// ```
/// use avdl2rs_registry::{SchemaReferences, SerializerConfig};
/// let config = SerializerConfig::default()
///     .auto_register(false)
///     .references(SchemaReferences::Registered);
/// assert!(!config.auto_register);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// registered on their own and named in the schema's `references`.
    pub references: SchemaReferences,
    /// The rule types (`ENCRYPT`, `CEL`...) whose rules are skipped instead of refused or
    /// run (default: none); see [`crate::rules`].
    pub ignored_rule_types: BTreeSet<String>,
}

/// How the named types a schema uses (records, enums, fixed inside it) reach the registry:
/// inside the schema, or as the registry's schema references ([`crate::SchemaReference`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaReferences {
    /// One self-contained schema defines them all; the schema has no references.
    #[default]
    Inline,
    /// Each named type is registered on its own under its full name (the subject
    /// RecordNameStrategy gives it), referenced types first, and the schemas using it refer to
    /// it by name with a `references` entry `{name, subject, version}`. Consumers assemble the
    /// parts again (this crate's [`Deserializer`] does).
    Registered,
}

#[allow(non_upper_case_globals)]
impl SchemaReferences {
    /// Renamed to [`SchemaReferences::Registered`].
    #[deprecated(note = "renamed to `SchemaReferences::Registered`")]
    pub const References: SchemaReferences = SchemaReferences::Registered;
}

/// Renamed to [`SchemaReferences`], the registry's own word for how schemas name the types
/// they use.
#[deprecated(note = "renamed to `SchemaReferences`")]
pub type Dependencies = SchemaReferences;

impl SerializerConfig {
    /// Naming the subject from the topic and the type this way.
    pub fn subject_strategy(mut self, strategy: SubjectNameStrategy) -> Self {
        self.subject_strategy = strategy;
        self
    }

    /// Writing record keys or record values.
    pub fn part(mut self, part: SubjectPart) -> Self {
        self.part = part;
        self
    }

    /// Registering the type's schema when the subject does not have it yet (`true`), or only
    /// looking it up (`false`).
    pub fn auto_register(mut self, register: bool) -> Self {
        self.auto_register = register;
        self
    }

    /// Writing under the subject's latest version instead of the type's own schema.
    pub fn use_latest(mut self, latest: bool) -> Self {
        self.use_latest = latest;
        self
    }

    /// With `use_latest`: failing (`true`) rather than falling back to the type's own schema
    /// when the latest version cannot read the type's data.
    pub fn latest_strict(mut self, strict: bool) -> Self {
        self.latest_strict = strict;
        self
    }

    /// Always writing under this id, asking the registry nothing (`None`: ask it).
    pub fn schema_id(mut self, id: Option<i32>) -> Self {
        self.schema_id = id;
        self
    }

    /// Asking the registry to normalize the schema when registering or looking it up.
    pub fn normalize(mut self, normalize: bool) -> Self {
        self.normalize = normalize;
        self
    }

    /// Defining the named types the schema uses inside it, or registering them as references.
    pub fn references(mut self, references: SchemaReferences) -> Self {
        self.references = references;
        self
    }

    /// Skipping the rules of these types (`ENCRYPT`, `CEL`...) instead of running them or
    /// refusing to write: values are then written without what those rules would do.
    pub fn ignore_rule_types(mut self, types: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.ignored_rule_types = types.into_iter().map(Into::into).collect();
        self
    }
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
            references: SchemaReferences::Inline,
            ignored_rule_types: BTreeSet::new(),
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
    /// A rule of the schema stopped the value, or applies and cannot be run: the error names
    /// the rule.
    #[error(transparent)]
    Rule(#[from] RuleError),
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
