//! Generic records: Avro values of a schema known only at run time, for the programs that
//! pass data along without a generated type for it (routers, sinks, audit tools), as
//! Confluent's `GenericRecord` serves Java programs.
//!
//! A [`GenericSchema`] is a parsed schema ready to read and write [`GenericValue`]s in the
//! Avro binary encoding. A record value holds a reference-counted link to its named type
//! ([`GenericRecord::schema`]), so field names are shared by all values of the schema rather
//! than copied into each. A logical type (a `date`, a `decimal`...) is held as its base value
//! (an `int`, `bytes`...), as written on the wire.
//!
//! Decoding is bounded like every other decode of the runtime: it reads through a
//! [`Reader`] and its budgets ([`crate::codec::DecodeLimits`]), so a length beyond the input
//! is refused before anything is allocated, arrays and maps take from the item and memory
//! budgets, and every record, array, map and union value is one nesting level of the depth and
//! stack limits. Errors name the path in the datum (`Order.items[2].sku`).
//!
//! Encoding writes what decoding read, byte for byte, for any input in the form the Avro
//! writers produce (arrays and maps in one block with a positive count); the value must match
//! the schema, else the error names the path of the value that does not.
//!
//! ```
//! use avdl2rs::generic::{GenericSchema, GenericValue};
//!
//! let schema = GenericSchema::new(r#"{"type":"record","name":"shop.Line","fields":[
//!     {"name":"sku","type":"string"},
//!     {"name":"qty","type":["null","int"]}]}"#)?;
//! let bytes = [6, b't', b'e', b'a', 2, 6];
//! let value = schema.decode(&bytes)?;
//! let record = value.as_record().unwrap();
//! assert_eq!(record.get("sku"), Some(&GenericValue::String("tea".into())));
//! assert_eq!(record.field(1), Some(&GenericValue::Union(1, Box::new(GenericValue::Int(3)))));
//! assert_eq!(schema.encode(&value)?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use crate::codec::Reader;
use crate::error::{DecodeError, EncodeError};
use crate::schema::{NamedSchema, Schema, SchemaError, SchemaSet};

mod decode;
mod encode;
mod value;

pub use value::{GenericEnum, GenericRecord, GenericValue};

/// A schema, ready to read and write its values as [`GenericValue`]s.
#[derive(Debug, Clone)]
pub struct GenericSchema {
    /// Every named type of the schema by full name, shared with the values that use it.
    named: HashMap<String, Arc<NamedSchema>>,
    root: Schema,
}

impl GenericSchema {
    /// Parses and validates `schema_json` (an `.avsc`).
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#"["null","long"]"#)?;
    /// assert_eq!(schema.decode(&[2, 4])?, avdl2rs::generic::GenericValue::Union(
    ///     1, Box::new(avdl2rs::generic::GenericValue::Long(2))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(schema_json: &str) -> Result<Self, SchemaError> {
        let mut set = SchemaSet::new();
        let root = set.parse_str(schema_json)?;
        Ok(Self::from_schema(&set, root))
    }

    /// Takes `root`, a schema already parsed into `set`. A reference to a type `set` does not
    /// hold, which only a schema built by hand can have, is an error when a value reaches it.
    ///
    /// ```
    /// use avdl2rs::schema::{Schema, SchemaKind, SchemaSet};
    /// let schema = avdl2rs::generic::GenericSchema::from_schema(
    ///     &SchemaSet::new(), Schema::new(SchemaKind::Int));
    /// assert_eq!(schema.encode(&avdl2rs::generic::GenericValue::Int(-1))?, [1]);
    /// # Ok::<(), avdl2rs::EncodeError>(())
    /// ```
    pub fn from_schema(set: &SchemaSet, root: Schema) -> Self {
        let named = set
            .iter()
            .map(|named| (named.name.full_name(), Arc::new(named.clone())))
            .collect();
        GenericSchema { named, root }
    }

    /// The schema's root node.
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#""string""#)?;
    /// assert_eq!(schema.root().kind, avdl2rs::schema::SchemaKind::String);
    /// # Ok::<(), avdl2rs::schema::SchemaError>(())
    /// ```
    pub fn root(&self) -> &Schema {
        &self.root
    }

    /// Decodes the Avro binary `body`, which must hold one value and nothing after it, with
    /// the default budgets of a [`Reader`] of its length.
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#"{"type":"array","items":"int"}"#)?;
    /// let error = schema.decode(&[4, 2]).unwrap_err();
    /// assert_eq!(error.path(), "[1]");
    /// # Ok::<(), avdl2rs::schema::SchemaError>(())
    /// ```
    pub fn decode(&self, body: &[u8]) -> Result<GenericValue, DecodeError> {
        let mut reader = Reader::new(body);
        let value = self.decode_from(&mut reader)?;
        reader.finish()?;
        Ok(value)
    }

    /// Decodes one value from `reader`, leaving the reader just past it, within the reader's
    /// budgets.
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#""boolean""#)?;
    /// let mut reader = avdl2rs::codec::Reader::new(&[1, 0]);
    /// assert_eq!(schema.decode_from(&mut reader)?, avdl2rs::generic::GenericValue::Boolean(true));
    /// assert_eq!(reader.remaining(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_from(&self, reader: &mut Reader<'_>) -> Result<GenericValue, DecodeError> {
        decode::Decoder::new(&self.named).value(&self.root, reader)
    }

    /// The Avro binary encoding of `value`, which must be a value of this schema.
    ///
    /// ```
    /// use avdl2rs::generic::{GenericSchema, GenericValue};
    /// let schema = GenericSchema::new(r#"{"type":"map","values":"long"}"#)?;
    /// let value = GenericValue::Map(vec![("a".into(), GenericValue::Int(1))]);
    /// let error = schema.encode(&value).unwrap_err();
    /// assert_eq!(error.to_string(), r#"cannot encode ["a"]: expected long, found int"#);
    /// # Ok::<(), avdl2rs::schema::SchemaError>(())
    /// ```
    pub fn encode(&self, value: &GenericValue) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::new();
        self.encode_into(value, &mut out)?;
        Ok(out)
    }

    /// Appends the Avro binary encoding of `value` to `out`; on error `out` is left as it was.
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#""string""#)?;
    /// let mut out = vec![9];
    /// schema.encode_into(&avdl2rs::generic::GenericValue::String("a".into()), &mut out)?;
    /// assert_eq!(out, [9, 2, b'a']);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode_into(&self, value: &GenericValue, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = out.len();
        let result = encode::Encoder::new(&self.named).value(&self.root, value, out);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }
}
