//! The Avro schema model: schemas parsed from JSON, with named types kept in one table.
//!
//! Code generation, compatibility checks and resolving decode all work on this one model, so
//! that they agree on names, defaults and logical types.
//!
//! A [`Schema`] is a tree of anonymous types; named types (records, errors, enums, fixed) live
//! in a [`SchemaSet`] and are referred to from the tree by full name ([`SchemaKind::Named`]).

use serde_json::{Map, Value};

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
