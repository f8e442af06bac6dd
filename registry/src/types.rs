//! The values the registry API exchanges, in Confluent's v7 JSON shapes.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::{Metadata, RuleSet};

/// The kind of a schema; the registry omits `schemaType` for Avro.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum SchemaType {
    /// An Avro schema (the default).
    #[default]
    Avro,
    /// A JSON Schema.
    Json,
    /// A Protocol Buffers schema.
    Protobuf,
}

/// A named type the schema uses, registered under another subject.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SchemaReference {
    /// The full name of the referenced type, as the schema uses it.
    pub name: String,
    /// The subject the referenced schema is registered under.
    pub subject: String,
    /// The version of that subject.
    pub version: i32,
}

/// A schema as the registry stores it: text, type and references, and the data contract
/// around it (metadata and rules), which registries without data contracts leave out.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Schema {
    /// The schema text (for Avro, its JSON).
    pub schema: String,
    /// The schema's type.
    #[serde(rename = "schemaType", default, skip_serializing_if = "is_avro")]
    pub schema_type: SchemaType,
    /// The other subjects' schemas this one refers to by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<SchemaReference>,
    /// Tags and properties of the schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
    /// The rules clients run on the schema's data; see [`crate::rules`].
    #[serde(rename = "ruleSet", default, skip_serializing_if = "Option::is_none")]
    pub rule_set: Option<RuleSet>,
}

fn is_avro(schema_type: &SchemaType) -> bool {
    *schema_type == SchemaType::Avro
}

impl Schema {
    /// A self-contained Avro schema.
    pub fn avro(json: impl Into<String>) -> Self {
        Schema {
            schema: json.into(),
            schema_type: SchemaType::Avro,
            references: Vec::new(),
            metadata: None,
            rule_set: None,
        }
    }
}

/// A schema registered under a subject: one version of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectVersion {
    /// The subject.
    pub subject: String,
    /// The version number within the subject.
    pub version: i32,
    /// The global schema id.
    pub id: i32,
    /// The schema.
    #[serde(flatten)]
    pub schema: Schema,
}

/// Which version of a subject a call is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// The newest version.
    Latest,
    /// One version number.
    Number(i32),
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Latest => f.write_str("latest"),
            Version::Number(n) => write!(f, "{n}"),
        }
    }
}

/// The registry's answer to a compatibility test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompatibilityReport {
    /// Whether the schema is compatible.
    pub is_compatible: bool,
    /// The registry's reasons, when it gave them (`verbose=true`).
    #[serde(default)]
    pub messages: Vec<String>,
}
