//! The Avro JSON encoding (Avro specification, "JSON Encoding"), read and written for any
//! schema given at run time, for when no generated type exists: a file or message shown to a
//! person (`avdl2rs cat`), or JSON from a person or another tool turned into Avro binary.
//!
//! The encoding is the one of field defaults except for unions:
//!
//! * a union value is `null` for its `null` branch, else an object of one key naming the
//!   branch, `{"<branch>": value}`: a named type by its full name, any other type by its type
//!   name (`"int"`, `"array"`, `"map"`, ...);
//! * `bytes` and `fixed` are strings of one code point per byte, U+0000 to U+00FF;
//! * an enum is its symbol, a record an object of its fields, a map an object, an array an
//!   array;
//! * a logical type is its underlying type (a `date` is its `int`);
//! * a `float` or `double` that is not finite, which JSON cannot hold, is the string `"NaN"`,
//!   `"Infinity"` or `"-Infinity"`, as Java's `JsonEncoder` writes it.
//!
//! Written JSON ([`AvroJson::decode`]) has record fields in schema order and floats in the
//! shortest decimal that reads back as the same `float`, as Java writes them. Read JSON
//! ([`AvroJson::encode`]) is taken as Java's `JsonDecoder` takes it: record fields in any
//! order, a missing one taking its schema default (a default is in the default form, where a
//! union default is unwrapped, as the specification writes defaults); numbers with a fraction
//! or exponent for `int` and `long` when their value is whole (`1.0`, `1e3`), any number for
//! `float` and `double`, rounded to the nearest `float` for a `float` (beyond its range, to an
//! infinity), and the three strings above; `{"null": null}` for a `null` branch. It refuses
//! what the schema does not describe: a key that is not a field of its record, a number out of
//! the range of its `int` or `long`, a code point above U+00FF in `bytes` or `fixed`, a symbol
//! or union branch the schema does not have, each with the JSON pointer of the value
//! ([`JsonError`]).
//!
//! Both directions are bounded against hostile input. Binary input is read through a
//! [`Reader`] and its budgets ([`crate::codec::DecodeLimits`]): a length beyond the input is an
//! error before anything is allocated, and every record, array, map and union value is one
//! nesting level of the reader's depth and stack limits. JSON input may nest at most
//! [`MAX_DEPTH`] levels, counted the same way, so whatever a decode writes can be encoded
//! again. (A [`Value`] nested deeper than serde_json's own parsing limit must have been built
//! with that limit disabled; dropping such a value is the caller's concern.)
//!
//! ```
//! use avdl2rs::avro_json::AvroJson;
//! use serde_json::json;
//!
//! let json = AvroJson::new(r#"{"type":"record","name":"shop.Line","fields":[
//!     {"name":"sku","type":"string"},
//!     {"name":"qty","type":["null","int"],"default":null}]}"#)?;
//! let mut binary = Vec::new();
//! json.encode(&json!({"sku": "tea", "qty": {"int": 3}}), &mut binary)?;
//! assert_eq!(binary, [6, b't', b'e', b'a', 2, 6]);
//! // `qty` is missing: it takes its default, the union's null branch.
//! binary.clear();
//! json.encode(&json!({"sku": "tea"}), &mut binary)?;
//! assert_eq!(json.decode(&binary)?, json!({"sku": "tea", "qty": null}));
//!
//! let error = json.encode(&json!({"sku": "tea", "qty": {"int": "3"}}), &mut binary);
//! assert_eq!(error.unwrap_err().to_string(), r#"at /qty/int: expected int, found "3""#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::Value;

use crate::codec::{DecodeLimits, Reader};
use crate::error::DecodeError;
use crate::schema::{Schema, SchemaError, SchemaSet};

mod branches;
mod code_points;
mod error;
mod from_json;
mod numbers;
mod to_json;
mod typed;

pub use error::JsonError;
pub use from_json::MAX_DEPTH;

pub(crate) use from_json::encode_default;
pub(crate) use typed::{from_json, to_json};

/// A schema, ready to read and write its values in the Avro JSON encoding.
#[derive(Debug, Clone)]
pub struct AvroJson {
    set: SchemaSet,
    schema: Schema,
}

impl AvroJson {
    /// Parses and validates `schema_json` (an `.avsc`).
    pub fn new(schema_json: &str) -> Result<Self, SchemaError> {
        let mut set = SchemaSet::new();
        let schema = set.parse_str(schema_json)?;
        Ok(AvroJson { set, schema })
    }

    /// Takes a schema already parsed into `set`. A reference to a type `set` does not hold,
    /// which only a schema built by hand can have, is an error when a value reaches it.
    pub fn from_schema(set: SchemaSet, schema: Schema) -> Self {
        AvroJson { set, schema }
    }

    /// The named types of the schema.
    pub(crate) fn set(&self) -> &SchemaSet {
        &self.set
    }

    /// The schema's root node.
    pub(crate) fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Decodes the Avro binary `body`, which must hold one value and nothing after it, into
    /// its JSON encoding, with the default budgets of a [`Reader`] of its length.
    pub fn decode(&self, body: &[u8]) -> Result<Value, DecodeError> {
        let mut reader = Reader::new(body);
        let value = self.decode_from(&mut reader)?;
        reader.finish()?;
        Ok(value)
    }

    /// Decodes one value from `reader` into its JSON encoding, leaving the reader just past
    /// it (for the records of a container block, one after another), within the reader's
    /// budgets.
    pub fn decode_from(&self, reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        to_json::Decoder::new(&self.set).value(&self.schema, reader)
    }

    /// Appends the Avro binary encoding of `value`, read as the JSON encoding of a value of
    /// the schema, to `out`, and returns the array items and map entries it holds. On error
    /// `out` is left as it was.
    ///
    /// What is written can be read back by [`AvroJson::decode`] with the default budget of
    /// its length: a value with more items than [`DecodeLimits::for_input_len`] allows for
    /// its encoding (only items that take no bytes, like `null`, can be that many) is
    /// refused, naming the limit. A container writer adds the returned count to its block's,
    /// which the readers of container files budget as a whole.
    pub fn encode(&self, value: &Value, out: &mut Vec<u8>) -> Result<usize, JsonError> {
        let start = out.len();
        let result = from_json::encode_datum(&self.set, &self.schema, value, out)
            .and_then(|items| within_item_budget(items, out.len() - start));
        if result.is_err() {
            out.truncate(start);
        }
        result
    }
}

/// `items` when a reader of a datum of `len` bytes may take that many, an error naming the
/// limit otherwise.
fn within_item_budget(items: usize, len: usize) -> Result<usize, JsonError> {
    let limit = DecodeLimits::for_input_len(len).max_items;
    if items > limit {
        return Err(JsonError::new(format!(
            "{items} array items and map entries in {len} bytes of Avro binary: more than the \
             {limit} a reader of {len} bytes takes (DecodeLimits::for_input_len: 8 a byte, at \
             least 65,536)"
        )));
    }
    Ok(items)
}
