//! [`JsonReader`]: any file's records in the Avro JSON encoding, driven by the file's own
//! schema, for when no generated type exists (the `avdl2rs cat` command).

use std::io::Read;

use avdl2rs::codec::Reader as Cursor;
use avdl2rs::schema::{NamedKind, Schema, SchemaKind, SchemaSet};
use avdl2rs::DecodeError;
use serde_json::{Map, Number, Value};

use crate::blocks::Blocks;
use crate::decode;
use crate::error::{Damage, Error};
use crate::header::Header;
use crate::records::{RecordDecoder, Records};

/// The deepest nesting of records, arrays, maps and unions a record may have.
const MAX_DEPTH: usize = 512;

/// Reads the records of any container file as JSON values in the Avro JSON encoding
/// (Avro specification, "JSON Encoding"): an iterator of `Result<Value, Error>`.
///
/// * a union value is `null` for its `null` branch, else `{"<branch type name>": value}`,
///   named types by full name;
/// * `bytes` and `fixed` are strings with one code point (U+0000 to U+00FF) per byte;
/// * enums are their symbol, records and maps objects, arrays arrays;
/// * logical types are shown as their underlying type;
/// * a `float` or `double` that is not finite, which JSON cannot hold, is the string `"NaN"`,
///   `"Infinity"` or `"-Infinity"`, as Java's JSON encoder writes it.
///
/// Memory and errors are as for [`crate::Reader`].
#[derive(Debug)]
pub struct JsonReader<R> {
    records: Records<R, Generic>,
}

impl<R: Read> JsonReader<R> {
    /// Reads the header of `reader` and parses its schema.
    pub fn new(reader: R) -> Result<Self, Error> {
        let blocks = Blocks::open(reader)?;
        let mut set = SchemaSet::new();
        let schema = set
            .parse_str(blocks.header().schema_json())
            .map_err(Error::Schema)?;
        Ok(JsonReader {
            records: Records::new(blocks, Generic { set, schema }),
        })
    }

    /// The file's header: writer schema, codec, metadata and sync marker.
    pub fn header(&self) -> &Header {
        self.records.header()
    }

    /// After an error, moves to the next block, as [`crate::Reader::skip_damaged`] does.
    pub fn skip_damaged(&mut self) -> Result<u64, Error> {
        self.records.recover()
    }
}

impl<R: Read> Iterator for JsonReader<R> {
    type Item = Result<Value, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.records.next_record()
    }
}

/// Decodes records by walking the writer schema.
#[derive(Debug)]
struct Generic {
    set: SchemaSet,
    schema: Schema,
}

impl RecordDecoder for Generic {
    type Item = Value;

    fn load(&mut self, data: &mut Vec<u8>, _count: u64) -> Result<(usize, usize), Damage> {
        Ok((0, data.len()))
    }

    fn decode(&self, bytes: &[u8]) -> Result<(Value, usize), DecodeError> {
        let mut cursor = decode::cursor(bytes);
        let value = self.value(&self.schema, &mut cursor, 0)?;
        Ok((value, cursor.position()))
    }
}

impl Generic {
    fn value(
        &self,
        schema: &Schema,
        cursor: &mut Cursor<'_>,
        depth: usize,
    ) -> Result<Value, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError::custom(
                format!("values nested deeper than {MAX_DEPTH} levels"),
                cursor.position(),
            ));
        }
        Ok(match &schema.kind {
            SchemaKind::Null => Value::Null,
            SchemaKind::Boolean => Value::Bool(cursor.read_boolean()?),
            SchemaKind::Int => Value::from(cursor.read_int()?),
            SchemaKind::Long => Value::from(cursor.read_long()?),
            SchemaKind::Float => number(f64::from(cursor.read_float()?)),
            SchemaKind::Double => number(cursor.read_double()?),
            SchemaKind::Bytes => code_points(cursor.read_bytes()?),
            SchemaKind::String => Value::String(cursor.read_string()?.to_owned()),
            SchemaKind::Array(items) => {
                let mut values = Vec::new();
                cursor.read_blocks(|cursor, index| {
                    let item = self.value(items, cursor, depth + 1);
                    values.push(item.map_err(|e| e.at_index(index))?);
                    Ok(())
                })?;
                Value::Array(values)
            }
            SchemaKind::Map(values) => {
                let mut map = Map::new();
                cursor.read_blocks(|cursor, index| {
                    let key = cursor.read_string().map_err(|e| e.at_index(index))?;
                    let value = self.value(values, cursor, depth + 1);
                    map.insert(key.to_owned(), value.map_err(|e| e.at_key(key))?);
                    Ok(())
                })?;
                Value::Object(map)
            }
            SchemaKind::Union(branches) => {
                let branch = &branches[cursor.read_union_index(branches.len())?];
                match &branch.kind {
                    SchemaKind::Null => Value::Null,
                    kind => {
                        let value = self.value(branch, cursor, depth + 1)?;
                        let mut wrapper = Map::new();
                        wrapper.insert(self.type_name(kind), value);
                        Value::Object(wrapper)
                    }
                }
            }
            SchemaKind::Named(name) => {
                let Some(named) = self.set.get(&name.full_name()) else {
                    return Err(DecodeError::custom(
                        format!("unknown type {}", name.full_name()),
                        cursor.position(),
                    ));
                };
                self.named(&named.kind, cursor, depth)?
            }
        })
    }

    fn named(
        &self,
        kind: &NamedKind,
        cursor: &mut Cursor<'_>,
        depth: usize,
    ) -> Result<Value, DecodeError> {
        Ok(match kind {
            NamedKind::Record { fields, .. } => {
                let mut object = Map::new();
                for field in fields {
                    let value = self.value(&field.schema, cursor, depth + 1);
                    let value = value.map_err(|e| e.in_field(intern(&field.name)))?;
                    object.insert(field.name.clone(), value);
                }
                Value::Object(object)
            }
            NamedKind::Enum { symbols, .. } => {
                Value::String(symbols[cursor.read_enum_index(symbols.len())?].clone())
            }
            NamedKind::Fixed { size } => code_points(cursor.read_fixed_slice(*size)?),
        })
    }

    /// The name a union branch is wrapped in.
    fn type_name(&self, kind: &SchemaKind) -> String {
        match kind {
            SchemaKind::Array(_) => "array".to_owned(),
            SchemaKind::Map(_) => "map".to_owned(),
            SchemaKind::Named(name) => name.full_name(),
            SchemaKind::Union(_) => "union".to_owned(),
            primitive => primitive.primitive_name().unwrap_or_default().to_owned(),
        }
    }
}

/// The field name for an error path, which takes `&'static str` (names known at compile time
/// in generated code). A schema read at run time has no such names, so each distinct name is
/// kept once for the life of the process: memory bounded by the names, not by the errors.
fn intern(name: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, PoisonError};
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    let names = names.get_or_insert_with(HashSet::new);
    match names.get(name) {
        Some(&kept) => kept,
        None => {
            let kept: &'static str = Box::leak(name.into());
            names.insert(kept);
            kept
        }
    }
}

/// A JSON number, or the string Java's JSON encoder writes for a value that is not finite.
fn number(value: f64) -> Value {
    match Number::from_f64(value) {
        Some(number) => Value::Number(number),
        None if value.is_nan() => Value::from("NaN"),
        None if value > 0.0 => Value::from("Infinity"),
        None => Value::from("-Infinity"),
    }
}

/// Bytes as a string of one code point per byte, as the JSON encoding writes them.
fn code_points(bytes: &[u8]) -> Value {
    Value::String(bytes.iter().map(|&b| char::from(b)).collect())
}
