//! # avdl2rs-schema
//!
//! The Avro schema model: schemas parsed from JSON, with named types kept in one table, written
//! back as JSON, in Parsing Canonical Form, and fingerprinted.
//!
//! Code generation, the `Avro` derive, compatibility checks and resolving decode all work on
//! this one model, so that they agree on names, defaults and logical types. It is a crate of its
//! own because the runtime (`avdl2rs`, which re-exports it as `avdl2rs::schema`), the code
//! generator and the derive macro all need it, and the runtime itself depends on the derive.
//!
//! A [`Schema`] is a tree of anonymous types; named types (records, errors, enums, fixed) live
//! in a [`SchemaSet`] and are referred to from the tree by full name ([`SchemaKind::Named`]).

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

use serde_json::{Map, Value};

pub mod fingerprint;

mod canonical;
mod default;
mod error;
mod json;
mod logical;
mod name;
mod parse;
mod pointer;
mod protocol;

/// The JSON Pointer of `segment` inside `path`, escaped as RFC 6901 requires. Only the
/// parser's error paths need it; this was never meant for callers.
#[deprecated(note = "internal to the parser; will become private")]
#[doc(hidden)]
pub fn child(path: &str, segment: impl std::fmt::Display) -> String {
    error::child(path, segment)
}
pub use error::{SchemaError, SchemaErrorKind};
pub use parse::MAX_JSON_DEPTH;
pub use protocol::{Message, Protocol};

/// Custom (non-reserved) properties of a schema, field or named type, in the order written.
pub type Props = Map<String, Value>;

/// A full Avro name: a simple name and an optional namespace.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name {
    /// The simple name (the part after the last dot).
    pub name: String,
    /// The namespace; `None` for the null namespace.
    pub namespace: Option<String>,
}

/// A schema node: a type plus the attributes that may sit beside it in JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    /// What kind of type this is.
    pub kind: SchemaKind,
    /// The logical type, when `logicalType` names one that is valid for `kind`; an unknown or
    /// invalid `logicalType` stays in `props` and the node reads as its base type.
    pub logical_type: Option<LogicalType>,
    /// Other properties written beside `type` (always empty for [`SchemaKind::Named`]).
    pub props: Props,
}

/// The kinds of anonymous schema nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaKind {
    /// `null`
    Null,
    /// `boolean`
    Boolean,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `bytes`
    Bytes,
    /// `string`
    String,
    /// `{"type": "array", "items": ...}`
    Array(Box<Schema>),
    /// `{"type": "map", "values": ...}`
    Map(Box<Schema>),
    /// `[...]`
    Union(Vec<Schema>),
    /// A reference, by full name, to a named type of the [`SchemaSet`].
    Named(Name),
}

/// Logical types this crate understands (Avro specification, "Logical Types").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogicalType {
    /// `decimal` on `bytes` or `fixed`.
    Decimal {
        /// Total number of digits.
        precision: u32,
        /// Digits after the decimal point.
        scale: u32,
    },
    /// `big-decimal` on `bytes`.
    BigDecimal,
    /// `uuid` on `string` or `fixed(16)`.
    Uuid,
    /// `date` on `int`: days since 1970-01-01.
    Date,
    /// `time-millis` on `int`: milliseconds after midnight.
    TimeMillis,
    /// `time-micros` on `long`: microseconds after midnight.
    TimeMicros,
    /// `timestamp-millis` on `long`: an instant, milliseconds since the Unix epoch, UTC.
    TimestampMillis,
    /// `timestamp-micros` on `long`.
    TimestampMicros,
    /// `timestamp-nanos` on `long`.
    TimestampNanos,
    /// `local-timestamp-millis` on `long`: a wall-clock time, no time zone.
    LocalTimestampMillis,
    /// `local-timestamp-micros` on `long`.
    LocalTimestampMicros,
    /// `local-timestamp-nanos` on `long`.
    LocalTimestampNanos,
    /// `duration` on `fixed(12)`: months, days, milliseconds.
    Duration,
}

/// A named type: record, error, enum or fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedSchema {
    /// The full name.
    pub name: Name,
    /// Aliases, resolved to full names against the type's namespace.
    pub aliases: Vec<Name>,
    /// The `doc` string.
    pub doc: Option<String>,
    /// What the named type is.
    pub kind: NamedKind,
    /// The logical type of a `fixed` (decimal, uuid, duration), when valid.
    pub logical_type: Option<LogicalType>,
    /// Other properties of the named type, in the order written.
    pub props: Props,
}

/// The kinds of named types.
#[derive(Debug, Clone, PartialEq)]
pub enum NamedKind {
    /// A record, or an error when `is_error` (protocols only).
    Record {
        /// The fields, in schema order (which is the encoding order).
        fields: Vec<Field>,
        /// `"type": "error"` rather than `"record"`.
        is_error: bool,
    },
    /// An enum.
    Enum {
        /// The symbols; a symbol's position is its encoded index.
        symbols: Vec<String>,
        /// The default symbol a reader uses for writer symbols it does not know.
        default: Option<String>,
    },
    /// A fixed-size byte string.
    Fixed {
        /// The size in bytes.
        size: usize,
    },
}

/// A field of a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The field name.
    pub name: String,
    /// The `doc` string.
    pub doc: Option<String>,
    /// The field's type.
    pub schema: Schema,
    /// The default value, as written in JSON.
    pub default: Option<Value>,
    /// The sort order.
    pub order: Order,
    /// Field aliases (simple names).
    pub aliases: Vec<String>,
    /// Other properties of the field, in the order written.
    pub props: Props,
}

/// A field's sort order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// `ascending` (the default).
    #[default]
    Ascending,
    /// `descending`
    Descending,
    /// `ignore`
    Ignore,
}

/// Named types in registration order, looked up by full name.
#[derive(Debug, Clone, Default)]
pub struct SchemaSet {
    named: Vec<NamedSchema>,
    by_full_name: std::collections::HashMap<String, usize>,
}

impl Schema {
    /// A node of `kind` with no logical type and no properties.
    pub fn new(kind: SchemaKind) -> Self {
        Schema {
            kind,
            logical_type: None,
            props: Props::new(),
        }
    }

    /// A reference to the named type `name`.
    pub fn named(name: Name) -> Self {
        Schema::new(SchemaKind::Named(name))
    }
}

impl SchemaKind {
    /// The Avro type name of a primitive kind (`"int"`, ...), `None` for complex kinds.
    pub fn primitive_name(&self) -> Option<&'static str> {
        Some(match self {
            SchemaKind::Null => "null",
            SchemaKind::Boolean => "boolean",
            SchemaKind::Int => "int",
            SchemaKind::Long => "long",
            SchemaKind::Float => "float",
            SchemaKind::Double => "double",
            SchemaKind::Bytes => "bytes",
            SchemaKind::String => "string",
            _ => return None,
        })
    }

    /// The primitive kind named `name`, if `name` is one of the eight primitive type names.
    pub fn primitive(name: &str) -> Option<SchemaKind> {
        Some(match name {
            "null" => SchemaKind::Null,
            "boolean" => SchemaKind::Boolean,
            "int" => SchemaKind::Int,
            "long" => SchemaKind::Long,
            "float" => SchemaKind::Float,
            "double" => SchemaKind::Double,
            "bytes" => SchemaKind::Bytes,
            "string" => SchemaKind::String,
            _ => return None,
        })
    }
}

impl NamedKind {
    /// The JSON `type` of this kind: `record`, `error`, `enum` or `fixed`.
    pub fn type_name(&self) -> &'static str {
        match self {
            NamedKind::Record {
                is_error: false, ..
            } => "record",
            NamedKind::Record { is_error: true, .. } => "error",
            NamedKind::Enum { .. } => "enum",
            NamedKind::Fixed { .. } => "fixed",
        }
    }
}

impl Order {
    /// Every sort order.
    pub const ALL: [Order; 3] = [Order::Ascending, Order::Descending, Order::Ignore];

    /// The order spelled `text` in a schema, if it is one.
    pub fn from_name(text: &str) -> Option<Order> {
        Order::ALL.into_iter().find(|order| order.as_str() == text)
    }

    /// The JSON spelling: `ascending`, `descending` or `ignore`.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Ascending => "ascending",
            Order::Descending => "descending",
            Order::Ignore => "ignore",
        }
    }
}

impl SchemaSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// The named type with this full name (`namespace.Name`, or `Name` in the null namespace).
    pub fn get(&self, full_name: &str) -> Option<&NamedSchema> {
        self.by_full_name.get(full_name).map(|&i| &self.named[i])
    }

    /// The named type a [`SchemaKind::Named`] node refers to; `None` for other nodes.
    pub fn resolve(&self, schema: &Schema) -> Option<&NamedSchema> {
        match &schema.kind {
            SchemaKind::Named(name) => self.get(&name.full_name()),
            _ => None,
        }
    }

    /// The named types in registration order: a type nested inside another comes before it,
    /// as the Java parser registers them, so every type appears after the types it uses
    /// (except through recursion).
    pub fn iter(&self) -> std::slice::Iter<'_, NamedSchema> {
        self.named.iter()
    }

    /// How many named types are registered.
    pub fn len(&self) -> usize {
        self.named.len()
    }

    /// Whether no named type is registered.
    pub fn is_empty(&self) -> bool {
        self.named.is_empty()
    }

    /// Adds a named type; the caller has checked that its full name is new.
    fn register(&mut self, named: NamedSchema) {
        self.by_full_name
            .insert(named.name.full_name(), self.named.len());
        self.named.push(named);
    }

    /// Forgets every type registered after the first `len`, so that a failed parse leaves the
    /// set as it was.
    fn truncate(&mut self, len: usize) {
        for named in self.named.drain(len..) {
            self.by_full_name.remove(&named.name.full_name());
        }
    }
}

impl<'a> IntoIterator for &'a SchemaSet {
    type Item = &'a NamedSchema;
    type IntoIter = std::slice::Iter<'a, NamedSchema>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
