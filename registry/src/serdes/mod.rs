//! Typed Kafka serializers for generated and derived types: [`Serializer`] finds the schema
//! id to write under (registering, looking up, or using the subject's latest version) and
//! frames values; [`Deserializer`] reads frames of any schema version into the type.
//!
//! Both are generic over the client `C`: the state, the caches and the warm path are
//! written once; so are the steps that ask the registry, as macros each transport expands,
//! blocking or async, over its own client (`blocking::Serializer<T>` is
//! `Serializer<T, blocking::Client>`).

mod dependencies;
mod deserializer;
mod serializer;
mod warm;

use avdl2rs::resolve::ResolveError;
use avdl2rs::{EncodeError, SubjectNameStrategy, SubjectPart};

use crate::error::RegistryError;

pub(crate) use dependencies::Part;
pub use deserializer::Deserializer;
pub(crate) use deserializer::{deserializer_methods, not_fetched};
pub(crate) use serializer::{part_schema, serializer_methods, topic_serializer_methods};
pub(crate) use serializer::{write_frame, write_own, Target};
pub use serializer::{Serializer, TopicSerializer};

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
