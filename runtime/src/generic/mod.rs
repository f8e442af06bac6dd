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
//! the schema, else the error names the path of the value that does not. Encoding recurses
//! over the value, so a value built by hand nested far deeper than a decode allows
//! ([`crate::codec::DecodeLimits::max_depth`]) can exhaust the stack, as dropping it can;
//! decoded values never are.
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

use crate::avro_json::{AvroJson, JsonError};
use crate::codec::Reader;
use crate::compat::SchemaRef;
use crate::error::{DecodeError, EncodeError};
use crate::resolve::{ResolutionPlan, ResolveError};
use crate::schema::{Name, NamedSchema, Schema, SchemaError, SchemaSet};
use program::Program;

#[cfg(feature = "apache-avro")]
mod apache;
#[cfg(any(feature = "chrono", feature = "time"))]
mod date_time;
mod decode;
mod decode_into;
mod encode;
mod program;
mod serialize;
mod value;

#[cfg(any(feature = "chrono", feature = "time"))]
pub use date_time::DateTimeValue;
pub use value::{GenericEnum, GenericRecord, GenericValue};

/// A schema, ready to read and write its values as [`GenericValue`]s.
#[derive(Debug, Clone)]
pub struct GenericSchema {
    /// Every named type of the schema by full name, shared with the values that use it.
    named: HashMap<Name, Arc<NamedSchema>>,
    /// The schema flattened for decoding.
    program: Program,
    /// The schema and its named types, also for the Avro JSON encoding and resolution.
    json: AvroJson,
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
        Ok(Self::from_schema(set, root))
    }

    /// Takes `root`, a schema already parsed into `set`. A reference to a type `set` does not
    /// hold, which only a schema built by hand can have, is an error when a value reaches it.
    ///
    /// ```
    /// use avdl2rs::schema::{Schema, SchemaKind, SchemaSet};
    /// let schema = avdl2rs::generic::GenericSchema::from_schema(
    ///     SchemaSet::new(), Schema::new(SchemaKind::Int));
    /// assert_eq!(schema.encode(&avdl2rs::generic::GenericValue::Int(-1))?, [1]);
    /// # Ok::<(), avdl2rs::EncodeError>(())
    /// ```
    pub fn from_schema(set: SchemaSet, root: Schema) -> Self {
        let named = set
            .iter()
            .map(|named| (named.name.clone(), Arc::new(named.clone())))
            .collect();
        let program = Program::new(&root, &named);
        let json = AvroJson::from_schema(set, root);
        GenericSchema {
            named,
            program,
            json,
        }
    }

    /// The schema's root node.
    ///
    /// ```
    /// let schema = avdl2rs::generic::GenericSchema::new(r#""string""#)?;
    /// assert_eq!(schema.root().kind, avdl2rs::schema::SchemaKind::String);
    /// # Ok::<(), avdl2rs::schema::SchemaError>(())
    /// ```
    pub fn root(&self) -> &Schema {
        self.json.schema()
    }

    /// The schema with its named types, for the compatibility check
    /// ([`crate::compat`]) and resolution plans ([`ResolutionPlan::new`]).
    ///
    /// ```
    /// use avdl2rs::generic::GenericSchema;
    /// let long = GenericSchema::new(r#""long""#)?;
    /// let int = GenericSchema::new(r#""int""#)?;
    /// assert!(avdl2rs::resolve::ResolutionPlan::new(long.schema_ref(), int.schema_ref()).is_ok());
    /// # Ok::<(), avdl2rs::schema::SchemaError>(())
    /// ```
    pub fn schema_ref(&self) -> SchemaRef<'_> {
        SchemaRef::new(self.json.set(), self.root())
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

    /// Decodes the Avro binary `body` as [`GenericSchema::decode`] does, into `value`,
    /// reusing what `value` holds: the room of its strings and byte buffers, the fields of a
    /// record of the same type, the box of a union value, the items of an array. A consumer
    /// loop that keeps one value and decodes each message into it allocates next to nothing
    /// once the first has been read. Whatever `value` held, it ends as the value `decode`
    /// gives; on error it holds some mix of the old and the new value.
    ///
    /// ```
    /// use avdl2rs::generic::{GenericSchema, GenericValue};
    /// let schema = GenericSchema::new(r#"{"type":"record","name":"R","fields":[
    ///     {"name":"s","type":"string"}]}"#)?;
    /// let mut value = GenericValue::Null;
    /// for bytes in [&[6, b'a', b'b', b'c'][..], &[2, b'x']] {
    ///     schema.decode_into(bytes, &mut value)?;
    ///     assert_eq!(value, schema.decode(bytes)?);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode_into(&self, body: &[u8], value: &mut GenericValue) -> Result<(), DecodeError> {
        let mut reader = Reader::new(body);
        decode_into::value_into(&self.program, Program::ROOT, &mut reader, value)?;
        reader.finish()
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
        decode::value(&self.program, Program::ROOT, reader)
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
        let result = encode::Encoder::new(&self.named).value(self.root(), value, out);
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// The value in Avro's JSON encoding ([`crate::avro_json`]): unions wrapped in their
    /// branch's name, as Avro's own JSON encoders write it. This is not the JSON of
    /// `serde_json::to_value(value)`, which writes a union as its value alone.
    ///
    /// ```
    /// use avdl2rs::generic::{GenericSchema, GenericValue};
    /// let schema = GenericSchema::new(r#"["null","int"]"#)?;
    /// let value = GenericValue::Union(1, Box::new(GenericValue::Int(3)));
    /// assert_eq!(schema.to_avro_json(&value)?, serde_json::json!({"int": 3}));
    /// assert_eq!(serde_json::to_value(&value)?, serde_json::json!(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_avro_json(&self, value: &GenericValue) -> Result<serde_json::Value, EncodeError> {
        // Through the binary encoding, so that the JSON encoding's rules live in one place.
        let bytes = self.encode(value)?;
        self.json
            .decode(&bytes)
            .map_err(|e| EncodeError::custom(format!("the encoded value does not read back: {e}")))
    }

    /// The value whose Avro JSON encoding is `json`, read as [`AvroJson::encode`] reads it
    /// (record fields in any order, missing ones taking their default); the error names the
    /// JSON pointer of what does not fit the schema.
    ///
    /// ```
    /// use avdl2rs::generic::{GenericSchema, GenericValue};
    /// let schema = GenericSchema::new(r#"{"type":"record","name":"R","fields":[
    ///     {"name":"n","type":["null","long"],"default":null}]}"#)?;
    /// let value = schema.from_avro_json(&serde_json::json!({}))?;
    /// assert_eq!(value.as_record().unwrap().get("n"),
    ///     Some(&GenericValue::Union(0, Box::new(GenericValue::Null))));
    /// let error = schema.from_avro_json(&serde_json::json!({"n": {"int": 1}})).unwrap_err();
    /// assert!(error.to_string().starts_with("at /n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_avro_json(&self, json: &serde_json::Value) -> Result<GenericValue, JsonError> {
        let mut bytes = Vec::new();
        self.json.encode(json, &mut bytes)?;
        self.decode(&bytes)
            .map_err(|e| JsonError::new(format!("the encoded value does not read back: {e}")))
    }

    /// The way to read values written with `writer` as values of this schema, the reader's
    /// (Avro specification, "Schema Resolution"), refused when the compatibility check
    /// finds that this schema cannot read `writer`'s data.
    ///
    /// ```
    /// use avdl2rs::generic::{GenericSchema, GenericValue};
    /// let writer = GenericSchema::new(r#"{"type":"record","name":"R","fields":[
    ///     {"name":"n","type":"int"}]}"#)?;
    /// let reader = GenericSchema::new(r#"{"type":"record","name":"R","fields":[
    ///     {"name":"n","type":"double"},{"name":"s","type":"string","default":"x"}]}"#)?;
    /// let value = reader.resolving(&writer)?.decode(&[4])?;
    /// let record = value.as_record().unwrap();
    /// assert_eq!(record.fields(), [GenericValue::Double(2.0), GenericValue::String("x".into())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolving(&self, writer: &GenericSchema) -> Result<GenericResolver, ResolveError> {
        let plan = ResolutionPlan::new(self.schema_ref(), writer.schema_ref())?;
        Ok(GenericResolver {
            plan,
            writer: writer.clone(),
            reader: self.clone(),
        })
    }
}

/// Reads values written with one schema as [`GenericValue`]s of another, the reader's
/// ([`GenericSchema::resolving`]). It holds its own copies of both schemas, so that it can be
/// kept, as a consumer keeps one per writer schema id.
///
/// It is the runtime's [`ResolutionPlan`], which translates the writer's bytes into the
/// reader's encoding, followed by the generic decode of the reader schema, so generic values
/// resolve exactly as generated types do. The writer's bytes are checked against the writer
/// schema while translated; errors name the path in the datum.
#[derive(Debug)]
pub struct GenericResolver {
    plan: ResolutionPlan,
    writer: GenericSchema,
    reader: GenericSchema,
}

impl GenericResolver {
    /// Reads the writer value that spans all of `bytes` as a value of the reader schema.
    ///
    /// ```
    /// let writer = avdl2rs::generic::GenericSchema::new(r#"{"type":"array","items":"int"}"#)?;
    /// let reader = avdl2rs::generic::GenericSchema::new(r#"{"type":"array","items":"long"}"#)?;
    /// let error = reader.resolving(&writer)?.decode(&[4, 2]).unwrap_err();
    /// assert_eq!(error.to_string(), "bad writer data: cannot decode [1] at byte 2: \
    ///     unexpected end of input: needed 1 bytes, 0 left");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode(&self, bytes: &[u8]) -> Result<GenericValue, ResolveError> {
        let mut translated = Vec::new();
        let result = match self.plan.translate(bytes, &mut translated) {
            Ok(()) => self
                .reader
                .decode(&translated)
                .map_err(ResolveError::Decode),
            Err(error) => Err(ResolveError::Translate(error)),
        };
        result.map_err(|error| self.locate(bytes, error))
    }

    /// The reader schema, of which the values read are values.
    ///
    /// ```
    /// use avdl2rs::generic::GenericSchema;
    /// let reader = GenericSchema::new(r#""long""#)?;
    /// let resolver = reader.resolving(&GenericSchema::new(r#""int""#)?)?;
    /// assert_eq!(resolver.reader().root().kind, avdl2rs::schema::SchemaKind::Long);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reader(&self) -> &GenericSchema {
        &self.reader
    }

    /// The error of bad writer data, with the path and offset of the bad value in the
    /// writer's datum. The plan's steps know positions, not field names, and copy runs of
    /// values both schemas encode alike without reading them (so damage there shows only when
    /// the reader decodes the translation, at its offsets): the writer's bytes are read again
    /// with the writer schema, whose decode names the fields; only on this error path.
    #[cold]
    fn locate(&self, bytes: &[u8], error: ResolveError) -> ResolveError {
        match self.writer.decode(bytes) {
            Err(located) => ResolveError::Translate(located),
            Ok(_) => error,
        }
    }
}
