//! Avro binary to the JSON encoding, by walking the schema over a [`Reader`].

use serde_json::{Map, Value};

use super::{branches, code_points, numbers};
use crate::codec::Reader;
use crate::error::DecodeError;
use crate::schema::{Field, Name, NamedKind, Schema, SchemaKind, SchemaSet};

/// Reads values of the schemas of one set.
pub(super) struct Decoder<'s> {
    set: &'s SchemaSet,
}

impl<'s> Decoder<'s> {
    pub(super) fn new(set: &'s SchemaSet) -> Self {
        Decoder { set }
    }

    /// Reads one `schema` value. Every record, array, map and union value is read one
    /// nesting level deeper ([`Reader::nested`]), so that neither recursive data nor a deeply
    /// nested schema can take more than the reader's depth and stack limits; arrays and maps
    /// are collected through the reader's item and memory budgets.
    ///
    /// Each kind of value has a function of its own, so that the frames of a nesting level
    /// hold only what that level needs (in a debug build a function's frame has room for the
    /// temporaries of all its branches): more levels fit in the stack limit.
    pub(super) fn value(
        &self,
        schema: &Schema,
        reader: &mut Reader<'_>,
    ) -> Result<Value, DecodeError> {
        match &schema.kind {
            SchemaKind::Array(items) => reader.nested(|reader| self.array(items, reader)),
            SchemaKind::Map(values) => reader.nested(|reader| self.map(values, reader)),
            SchemaKind::Union(branches) => reader.nested(|reader| self.union(branches, reader)),
            SchemaKind::Named(name) => self.named(name, reader),
            scalar => scalar_value(scalar, reader),
        }
    }

    /// An array's items, counted against the item budget as they are read. Their slots are
    /// not taken from the memory budget: a `Value` is larger (72 bytes) than the 64 bytes of
    /// slot memory a byte of input allows, so an `array<int>` of small numbers as written by
    /// [`super::AvroJson::encode`] would be refused. The `Vec` grows with the items actually
    /// read, which the item budget bounds linearly in the input.
    fn array(&self, items: &Schema, reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        let mut values = Vec::new();
        reader.read_blocks(|reader, index| {
            values.push(self.value(items, reader).map_err(|e| e.at_index(index))?);
            Ok(())
        })?;
        Ok(Value::Array(values))
    }

    fn map(&self, values: &Schema, reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        let map: Map<String, Value> = reader.read_map(|reader| self.value(values, reader))?;
        Ok(Value::Object(map))
    }

    /// A union value: `null` for the null branch, else `{"<branch>": value}`.
    fn union(&self, branches: &[Schema], reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        let branch = &branches[reader.read_union_index(branches.len())?];
        if matches!(branch.kind, SchemaKind::Null) {
            return Ok(Value::Null);
        }
        let value = self.value(branch, reader)?;
        let mut wrapper = Map::new();
        wrapper.insert(branches::branch_name(branch), value);
        Ok(Value::Object(wrapper))
    }

    fn named(&self, name: &Name, reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        let Some(named) = self.set.get(&name.full_name()) else {
            let message = format!("the schema refers to {name}, a type it does not define");
            return Err(DecodeError::custom(message, reader.position()));
        };
        match &named.kind {
            NamedKind::Record { fields, .. } => reader.nested(|reader| self.record(fields, reader)),
            NamedKind::Enum { symbols, .. } => {
                let index = reader.read_enum_index(symbols.len())?;
                Ok(Value::String(symbols[index].clone()))
            }
            NamedKind::Fixed { size } => Ok(code_points::to_json(reader.read_fixed_slice(*size)?)),
        }
    }

    fn record(&self, fields: &[Field], reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
        let mut object = Map::new();
        for field in fields {
            let value = self.value(&field.schema, reader);
            let value = value.map_err(|e| e.in_field(field.name.clone()))?;
            object.insert(field.name.clone(), value);
        }
        Ok(Value::Object(object))
    }
}

/// A value of a kind that holds no other values ([`Decoder::value`] reads the others).
fn scalar_value(kind: &SchemaKind, reader: &mut Reader<'_>) -> Result<Value, DecodeError> {
    Ok(match kind {
        SchemaKind::Boolean => Value::Bool(reader.read_boolean()?),
        SchemaKind::Int => Value::from(reader.read_int()?),
        SchemaKind::Long => Value::from(reader.read_long()?),
        SchemaKind::Float => numbers::from_float(reader.read_float()?),
        SchemaKind::Double => numbers::from_double(reader.read_double()?),
        SchemaKind::Bytes => code_points::to_json(reader.read_bytes()?),
        SchemaKind::String => Value::String(reader.read_string()?.to_owned()),
        // `null`, which takes no bytes.
        _ => Value::Null,
    })
}
