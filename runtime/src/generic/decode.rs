//! Avro binary to [`GenericValue`], by walking the schema over a [`Reader`].

use std::collections::HashMap;
use std::sync::Arc;

use super::value::{GenericEnum, GenericRecord, GenericValue};
use crate::codec::Reader;
use crate::error::DecodeError;
use crate::schema::{Field, Name, NamedKind, NamedSchema, Schema, SchemaKind};

/// Reads values of the named types of one schema.
pub(super) struct Decoder<'s> {
    named: &'s HashMap<Name, Arc<NamedSchema>>,
}

impl<'s> Decoder<'s> {
    pub(super) fn new(named: &'s HashMap<Name, Arc<NamedSchema>>) -> Self {
        Decoder { named }
    }

    /// Reads one `schema` value. Every record, array, map and union value is read one
    /// nesting level deeper ([`Reader::nested`]), so that neither recursive data nor a deeply
    /// nested schema can take more than the reader's depth and stack limits; arrays and maps
    /// are collected through the reader's item and memory budgets. Each kind has a function
    /// of its own so that a nesting level's stack frame holds only what that kind needs.
    pub(super) fn value(
        &self,
        schema: &Schema,
        reader: &mut Reader<'_>,
    ) -> Result<GenericValue, DecodeError> {
        match &schema.kind {
            SchemaKind::Array(items) => reader.nested(|reader| {
                let items = reader.read_array(|reader| self.value(items, reader))?;
                Ok(GenericValue::Array(items))
            }),
            SchemaKind::Map(values) => reader.nested(|reader| {
                let entries = reader.read_map(|reader| self.value(values, reader))?;
                Ok(GenericValue::Map(entries))
            }),
            SchemaKind::Union(branches) => reader.nested(|reader| self.union(branches, reader)),
            SchemaKind::Named(name) => self.named(name, reader),
            scalar => scalar_value(scalar, reader),
        }
    }

    fn union(
        &self,
        branches: &[Schema],
        reader: &mut Reader<'_>,
    ) -> Result<GenericValue, DecodeError> {
        let index = reader.read_union_index(branches.len())?;
        let value = self.value(&branches[index], reader)?;
        // `read_union_index` checked the index against the union's length, a `usize` that
        // came from a JSON array; a union of more than `u32::MAX` branches cannot be parsed.
        Ok(GenericValue::Union(index as u32, Box::new(value)))
    }

    fn named(&self, name: &Name, reader: &mut Reader<'_>) -> Result<GenericValue, DecodeError> {
        let Some(named) = self.named.get(name) else {
            let message = format!("the schema refers to {name}, a type it does not define");
            return Err(DecodeError::custom(message, reader.position()));
        };
        match &named.kind {
            NamedKind::Record { fields, .. } => {
                reader.nested(|reader| self.record(named, fields, reader))
            }
            NamedKind::Enum { symbols, .. } => {
                let index = reader.read_enum_index(symbols.len())?;
                let schema = Arc::clone(named);
                Ok(GenericValue::Enum(GenericEnum::from_parts(schema, index)))
            }
            NamedKind::Fixed { size } => Ok(GenericValue::Fixed(
                reader.read_fixed_slice(*size)?.to_vec(),
            )),
        }
    }

    fn record(
        &self,
        named: &Arc<NamedSchema>,
        fields: &[Field],
        reader: &mut Reader<'_>,
    ) -> Result<GenericValue, DecodeError> {
        let mut values = Vec::with_capacity(fields.len());
        for field in fields {
            let value = self.value(&field.schema, reader);
            values.push(value.map_err(|e| e.in_field(field.name.clone()))?);
        }
        Ok(GenericValue::Record(GenericRecord::new(
            Arc::clone(named),
            values,
        )))
    }
}

/// A value of a kind that holds no other values ([`Decoder::value`] reads the others).
fn scalar_value(kind: &SchemaKind, reader: &mut Reader<'_>) -> Result<GenericValue, DecodeError> {
    Ok(match kind {
        SchemaKind::Boolean => GenericValue::Boolean(reader.read_boolean()?),
        SchemaKind::Int => GenericValue::Int(reader.read_int()?),
        SchemaKind::Long => GenericValue::Long(reader.read_long()?),
        SchemaKind::Float => GenericValue::Float(reader.read_float()?),
        SchemaKind::Double => GenericValue::Double(reader.read_double()?),
        SchemaKind::Bytes => GenericValue::Bytes(reader.read_bytes()?.to_vec()),
        SchemaKind::String => GenericValue::String(reader.read_string()?.to_owned()),
        // `null`, which takes no bytes.
        _ => GenericValue::Null,
    })
}
