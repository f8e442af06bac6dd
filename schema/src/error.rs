//! Errors of reading a schema from JSON, located by a JSON Pointer into the input.

/// A schema could not be read: what is wrong and where (a JSON Pointer such as
/// `/types/3/fields/2/type`; empty for the whole document).
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaError {
    /// The JSON Pointer of the offending value.
    pub path: String,
    /// What is wrong.
    pub kind: SchemaErrorKind,
}

/// What is wrong with a schema.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchemaErrorKind {
    /// The text is not JSON.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// A value has the wrong JSON shape or a required attribute is missing.
    #[error("{0}")]
    Malformed(String),
    /// A reference names no type defined before it.
    #[error("unknown type {0:?}")]
    UnknownType(String),
    /// Two different definitions of one full name.
    #[error("{0:?} is defined twice, differently")]
    DuplicateName(String),
    /// A type name, namespace, field name or enum symbol breaks the naming rules.
    #[error("invalid name: {0}")]
    InvalidName(String),
    /// Two fields of a record have the same name.
    #[error("duplicate field {0:?}")]
    DuplicateField(String),
    /// Two symbols of an enum are the same.
    #[error("duplicate enum symbol {0:?}")]
    DuplicateSymbol(String),
    /// An enum default that is not one of its symbols.
    #[error("enum default {0:?} is not one of the symbols")]
    UnknownEnumDefault(String),
    /// Two union branches of the same type (same name for named types).
    #[error("duplicate union branch {0:?}")]
    DuplicateUnionBranch(String),
    /// A union directly inside a union.
    #[error("a union may not directly contain a union")]
    NestedUnion,
    /// A fixed size that is not a non-negative integer.
    #[error("invalid fixed size {0}")]
    InvalidFixedSize(String),
    /// A default value that does not match the field's type.
    #[error("default {default} does not match type {schema}")]
    InvalidDefault {
        /// The default, as written.
        default: String,
        /// The part of the type it fails to match, as JSON.
        schema: String,
    },
}

impl SchemaError {
    pub(crate) fn new(path: impl Into<String>, kind: SchemaErrorKind) -> Self {
        SchemaError {
            path: path.into(),
            kind,
        }
    }

    pub(crate) fn malformed(path: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaError::new(path, SchemaErrorKind::Malformed(message.into()))
    }
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "invalid schema at {path}: {}", self.kind)
    }
}

impl std::error::Error for SchemaError {}

/// The JSON Pointer of `segment` inside `path`, escaped as RFC 6901 requires.
pub(crate) fn child(path: &str, segment: impl std::fmt::Display) -> String {
    let segment = segment.to_string().replace('~', "~0").replace('/', "~1");
    format!("{path}/{segment}")
}
