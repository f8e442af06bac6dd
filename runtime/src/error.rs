//! Errors of encoding and decoding.
//!
//! Both error types are one pointer wide (the payload is boxed), because they sit in the
//! `Result` of every generated encode and decode call, and building one allocates only on the
//! error path.
//!
//! Both carry a *path* into the datum, such as `OrderEvent.items[3].sku`, built while the
//! error travels outwards: generated code adds the field it was reading ([`DecodeError::in_field`]),
//! the array and map helpers of [`crate::codec`] add the index or key, and the outermost record
//! names its type ([`DecodeError::in_type`]). A type name is shown only at the root of the path:
//! as soon as an enclosing field, index or key is added, the field name takes its place.

use std::borrow::Cow;
use std::fmt;

/// One step of a path into a datum, stored innermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// A record field: a name of generated code, or of a schema read at run time.
    Field(Cow<'static, str>),
    /// An array item.
    Index(usize),
    /// A map entry.
    Key(Box<str>),
    /// The full name of the type being read or written (shown only at the root).
    Type(&'static str),
}

/// A path into a datum, innermost step first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Path(Vec<Segment>);

impl Path {
    /// Adds an enclosing step; a type name at the current root gives way to it.
    fn push(&mut self, segment: Segment) {
        if matches!(self.0.last(), Some(Segment::Type(_))) {
            self.0.pop();
        }
        self.0.push(segment);
    }

    /// Renders the path outermost first, e.g. `OrderEvent.items[3].sku` or `["k"].price`.
    fn render(&self) -> String {
        let mut out = String::new();
        for segment in self.0.iter().rev() {
            match segment {
                Segment::Field(name) => push_name(&mut out, name),
                Segment::Type(name) => push_name(&mut out, name),
                Segment::Index(index) => {
                    out.push_str(&format!("[{index}]"));
                }
                Segment::Key(key) => {
                    out.push_str(&format!("[{key:?}]"));
                }
            }
        }
        out
    }
}

/// Appends a field or type name to a rendered path, after a dot unless it comes first.
fn push_name(out: &mut String, name: &str) {
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(name);
}

/// Implements the path-building methods shared by both error types.
macro_rules! path_methods {
    () => {
        /// Adds the record field `name` that was being read or written around the failure:
        /// a `&'static str` (the names generated code knows) is kept without a copy, a
        /// `String` (a field of a schema read at run time) is moved in.
        #[cold]
        #[must_use]
        pub fn in_field(mut self, name: impl Into<Cow<'static, str>>) -> Self {
            self.0.path.push(Segment::Field(name.into()));
            self
        }

        /// Adds the array index `index` that was being read or written around the failure.
        #[cold]
        #[must_use]
        pub fn at_index(mut self, index: usize) -> Self {
            self.0.path.push(Segment::Index(index));
            self
        }

        /// Adds the map key `key` whose value was being read or written around the failure.
        #[cold]
        #[must_use]
        pub fn at_key(mut self, key: &str) -> Self {
            self.0.path.push(Segment::Key(key.into()));
            self
        }

        /// Names the type (its full name) being read or written; shown only when nothing
        /// encloses it, so the path starts at the outermost record.
        #[cold]
        #[must_use]
        pub fn in_type(mut self, full_name: &'static str) -> Self {
            if let Some(Segment::Type(_)) = self.0.path.0.last() {
                self.0.path.0.pop();
            }
            self.0.path.0.push(Segment::Type(full_name));
            self
        }

        /// The path into the datum, outermost first (`OrderEvent.items[3].sku`); empty when
        /// the failure is at the top level of a value without a name.
        pub fn path(&self) -> String {
            self.0.path.render()
        }
    };
}

/// Why bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended while `needed` more bytes were expected and only `remaining` were left.
    UnexpectedEof {
        /// Bytes the value needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A variable-length integer ran past 10 bytes or past 64 bits.
    VarintTooLong,
    /// An `int` was encoded with a value outside `i32`.
    IntOverflow(i64),
    /// A `bytes` or `string` length was negative.
    NegativeLength(i64),
    /// A `bytes` or `string` length was larger than the rest of the input.
    LengthTooLarge {
        /// The length read.
        length: i64,
        /// Bytes that were left after it.
        remaining: usize,
    },
    /// An array or map block announced more items than the decode's item budget has left
    /// ([`crate::codec::DecodeLimits::max_items`], shared by all arrays and maps).
    TooManyItems {
        /// The item count read (its absolute value, for the negative-count form).
        count: u64,
        /// The item budget of the whole decode.
        limit: usize,
    },
    /// The items of the arrays and maps read so far would take more memory than the decode's
    /// budget ([`crate::codec::DecodeLimits::max_memory`]).
    TooMuchMemory {
        /// The memory budget of the whole decode, in bytes.
        limit: usize,
    },
    /// Records (or union enums) nested deeper than the decode's limit
    /// ([`crate::codec::DecodeLimits::max_depth`]).
    TooDeep {
        /// The nesting limit.
        limit: usize,
    },
    /// The nested levels of the decode took more stack than its limit
    /// ([`crate::codec::DecodeLimits::max_stack`]) before reaching the depth limit.
    TooMuchStack {
        /// The stack limit, in bytes.
        limit: usize,
        /// The nesting depth reached.
        depth: usize,
    },
    /// The byte size of a negative-count block was negative or beyond the input.
    BadBlockSize(i64),
    /// A `string` (or map key) was not valid UTF-8.
    InvalidUtf8,
    /// A `boolean` byte was neither 0 nor 1.
    InvalidBoolean(u8),
    /// A union branch index outside the union.
    UnionIndexOutOfRange {
        /// The index read.
        index: i32,
        /// The number of branches of the union.
        branches: usize,
    },
    /// An enum symbol index outside the enum.
    EnumIndexOutOfRange {
        /// The index read.
        index: i32,
        /// The number of symbols of the enum.
        symbols: usize,
    },
    /// A value was complete but bytes were left after it.
    TrailingBytes(usize),
    /// The encoded value is not a valid value of its logical type (a date out of the
    /// calendar's range, a time of day of 24 hours or more, a malformed UUID...).
    InvalidLogicalValue {
        /// The logical type, as named in the specification (`date`, `time-millis`...).
        logical_type: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// Any other reason, described in words.
    Custom(String),
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEof { needed, remaining } => write!(
                f,
                "unexpected end of input: needed {needed} bytes, {remaining} left"
            ),
            Self::VarintTooLong => f.write_str("variable-length integer longer than 10 bytes"),
            Self::IntOverflow(value) => write!(f, "int value {value} overflows 32 bits"),
            Self::NegativeLength(length) => write!(f, "negative length {length}"),
            Self::LengthTooLarge { length, remaining } => write!(
                f,
                "length {length} is larger than the {remaining} bytes left"
            ),
            Self::TooManyItems { count, limit } => write!(
                f,
                "block count {count} goes past the budget of {limit} array items and map entries of this decode"
            ),
            Self::TooMuchMemory { limit } => write!(
                f,
                "array items and map entries would take more than the {limit} bytes this decode may commit"
            ),
            Self::TooDeep { limit } => {
                write!(f, "values nested deeper than the limit of {limit} levels")
            }
            Self::TooMuchStack { limit, depth } => write!(
                f,
                "values nested {depth} levels deep take more than the {limit} bytes of stack this decode may use"
            ),
            Self::BadBlockSize(size) => write!(f, "bad block byte size {size}"),
            Self::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            Self::InvalidBoolean(byte) => write!(f, "boolean byte {byte:#04x} is neither 0 nor 1"),
            Self::UnionIndexOutOfRange { index, branches } => write!(
                f,
                "union index {index} out of range for {branches} branches"
            ),
            Self::EnumIndexOutOfRange { index, symbols } => {
                write!(f, "enum index {index} out of range for {symbols} symbols")
            }
            Self::TrailingBytes(count) => write!(f, "{count} trailing bytes after the value"),
            Self::InvalidLogicalValue {
                logical_type,
                detail,
            } => write!(f, "invalid {logical_type} value: {detail}"),
            Self::Custom(message) => f.write_str(message),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct DecodeErrorInner {
    kind: DecodeErrorKind,
    offset: usize,
    path: Path,
}

/// Bytes could not be read as a value of the schema: what went wrong, the byte offset where
/// it was found, and the path into the datum.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeErrorInner>);

impl DecodeError {
    /// An error of `kind` found at byte `offset` of the input.
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self(Box::new(DecodeErrorInner {
            kind,
            offset,
            path: Path::default(),
        }))
    }

    /// An error described in words, found at byte `offset`.
    #[cold]
    pub fn custom(message: impl Into<String>, offset: usize) -> Self {
        Self::new(DecodeErrorKind::Custom(message.into()), offset)
    }

    /// A value of `logical_type` that its Rust type cannot hold, found at byte `offset`.
    #[cold]
    pub fn invalid_logical(
        logical_type: &'static str,
        detail: impl Into<String>,
        offset: usize,
    ) -> Self {
        Self::new(
            DecodeErrorKind::InvalidLogicalValue {
                logical_type,
                detail: detail.into(),
            },
            offset,
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.0.kind
    }

    /// The byte offset in the decoded input (the Avro body) where the problem was found.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    path_methods!();
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot decode")?;
        let path = self.path();
        if !path.is_empty() {
            write!(f, " {path}")?;
        }
        write!(f, " at byte {}: {}", self.0.offset, self.0.kind)
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for DecodeError {}

/// Why a value could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The value does not fit the schema's representation (a timestamp beyond `i64`
    /// nanoseconds, a time of day of 24 hours or more, a date beyond `i32` days...).
    OutOfRange {
        /// The logical type or Avro type being written.
        logical_type: &'static str,
        /// What is wrong with the value.
        detail: String,
    },
    /// A decimal needs more bytes than its `fixed` has.
    DecimalTooWide {
        /// The size of the `fixed`.
        size: usize,
        /// The bytes the unscaled value needs.
        needed: usize,
    },
    /// A decimal has more fraction digits than the schema's scale, and dropping them would
    /// round it.
    DecimalScaleTooLarge {
        /// The value, in plain notation.
        value: String,
        /// The schema's scale.
        scale: u32,
    },
    /// A decimal, at the schema's scale, has more digits than the schema's precision.
    DecimalPrecisionTooLarge {
        /// The value, in plain notation.
        value: String,
        /// The schema's precision.
        precision: u32,
    },
    /// A map's entries did not number what was announced for its block.
    MapLengthMismatch {
        /// The announced length.
        announced: usize,
        /// The entries actually written.
        written: usize,
    },
    /// Any other reason, described in words.
    Custom(String),
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutOfRange {
                logical_type,
                detail,
            } => write!(f, "{logical_type} value out of range: {detail}"),
            Self::DecimalTooWide { size, needed } => {
                write!(f, "decimal needs {needed} bytes but its fixed has {size}")
            }
            Self::DecimalScaleTooLarge { value, scale } => write!(
                f,
                "decimal {value} has more than {scale} fraction digits: writing it at scale {scale} would round it"
            ),
            Self::DecimalPrecisionTooLarge { value, precision } => write!(
                f,
                "decimal {value} has more than the {precision} digits of its schema's precision"
            ),
            Self::MapLengthMismatch { announced, written } => write!(
                f,
                "map announced {announced} entries but {written} were written"
            ),
            Self::Custom(message) => f.write_str(message),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct EncodeErrorInner {
    kind: EncodeErrorKind,
    path: Path,
}

/// A value could not be written in its schema's binary encoding: why, and the path into the
/// datum.
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<EncodeErrorInner>);

impl EncodeError {
    /// An error of `kind`.
    #[cold]
    pub fn new(kind: EncodeErrorKind) -> Self {
        Self(Box::new(EncodeErrorInner {
            kind,
            path: Path::default(),
        }))
    }

    /// A value of `logical_type` (or Avro type) outside what the encoding can hold.
    #[cold]
    pub fn out_of_range(logical_type: &'static str, detail: impl Into<String>) -> Self {
        Self::new(EncodeErrorKind::OutOfRange {
            logical_type,
            detail: detail.into(),
        })
    }

    /// An error described in words.
    #[cold]
    pub fn custom(message: impl Into<String>) -> Self {
        Self::new(EncodeErrorKind::Custom(message.into()))
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.0.kind
    }

    path_methods!();
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode")?;
        let path = self.path();
        if !path.is_empty() {
            write!(f, " {path}")?;
        }
        write!(f, ": {}", self.0.kind)
    }
}

impl fmt::Debug for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_reads_outermost_first_and_types_give_way_to_fields() {
        let error = DecodeError::new(DecodeErrorKind::InvalidUtf8, 17)
            .in_field("sku")
            .in_type("shop.LineItem")
            .at_index(3)
            .in_field("items")
            .in_type("shop.OrderEvent");
        assert_eq!(error.path(), "shop.OrderEvent.items[3].sku");
        assert_eq!(
            error.to_string(),
            "cannot decode shop.OrderEvent.items[3].sku at byte 17: string is not valid UTF-8"
        );
    }

    #[test]
    fn map_keys_are_quoted() {
        let error = EncodeError::custom("x").at_key("a\"b").in_field("prices");
        assert_eq!(error.path(), r#"prices["a\"b"]"#);
    }

    #[test]
    fn errors_are_one_pointer_wide() {
        assert_eq!(
            std::mem::size_of::<DecodeError>(),
            std::mem::size_of::<usize>()
        );
        assert_eq!(
            std::mem::size_of::<EncodeError>(),
            std::mem::size_of::<usize>()
        );
    }
}
