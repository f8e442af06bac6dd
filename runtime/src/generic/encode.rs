//! [`GenericValue`] to Avro binary, by walking the schema beside the value, so that a value
//! that does not match its schema is refused with its path rather than written as bytes no
//! reader of the schema can read.

use std::collections::HashMap;
use std::sync::Arc;

use super::value::GenericValue;
use crate::codec;
use crate::error::EncodeError;
use crate::schema::{Field, Name, NamedKind, NamedSchema, Schema, SchemaKind};

/// Writes values of the named types of one schema.
pub(super) struct Encoder<'s> {
    named: &'s HashMap<Name, Arc<NamedSchema>>,
}

impl<'s> Encoder<'s> {
    pub(super) fn new(named: &'s HashMap<Name, Arc<NamedSchema>>) -> Self {
        Encoder { named }
    }

    /// Writes `value`, which must be a value of `schema`.
    pub(super) fn value(
        &self,
        schema: &Schema,
        value: &GenericValue,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        match (&schema.kind, value) {
            (SchemaKind::Null, GenericValue::Null) => {}
            (SchemaKind::Boolean, GenericValue::Boolean(v)) => codec::write_boolean(out, *v),
            (SchemaKind::Int, GenericValue::Int(v)) => codec::write_int(out, *v),
            (SchemaKind::Long, GenericValue::Long(v)) => codec::write_long(out, *v),
            (SchemaKind::Float, GenericValue::Float(v)) => codec::write_float(out, *v),
            (SchemaKind::Double, GenericValue::Double(v)) => codec::write_double(out, *v),
            (SchemaKind::Bytes, GenericValue::Bytes(v)) => codec::write_bytes(out, v),
            (SchemaKind::String, GenericValue::String(v)) => codec::write_string(out, v),
            (SchemaKind::Array(items), GenericValue::Array(values)) => {
                codec::write_array(out, values, |out, item| self.value(items, item, out))?;
            }
            (SchemaKind::Map(values), GenericValue::Map(entries)) => {
                let pairs = entries.iter().map(|(key, value)| (key, value));
                codec::write_map(out, entries.len(), pairs, |out, entry| {
                    self.value(values, entry, out)
                })?;
            }
            (SchemaKind::Union(branches), GenericValue::Union(index, branch)) => {
                self.union(branches, *index, branch, out)?;
            }
            (SchemaKind::Named(name), value) => self.named(name, value, out)?,
            (kind, value) => {
                let expected = kind.primitive_name().unwrap_or(match kind {
                    SchemaKind::Array(_) => "array",
                    SchemaKind::Map(_) => "map",
                    _ => "union",
                });
                return Err(mismatch(expected, value));
            }
        }
        Ok(())
    }

    fn union(
        &self,
        branches: &[Schema],
        index: u32,
        value: &GenericValue,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let Some(branch) = branches.get(index as usize) else {
            return Err(EncodeError::custom(format!(
                "union branch {index} out of range for {} branches",
                branches.len()
            )));
        };
        codec::write_long(out, i64::from(index));
        self.value(branch, value, out)
    }

    fn named(
        &self,
        name: &Name,
        value: &GenericValue,
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        let Some(named) = self.named.get(name) else {
            let message = format!("the schema refers to {name}, a type it does not define");
            return Err(EncodeError::custom(message));
        };
        match (&named.kind, value) {
            (NamedKind::Record { fields, .. }, GenericValue::Record(record))
                if Arc::ptr_eq(record.schema(), named) || record.schema().name == named.name =>
            {
                self.record(fields, record.fields(), out)
            }
            (NamedKind::Enum { symbols, .. }, GenericValue::Enum(symbol))
                if symbol.schema().name == named.name && symbol.index() < symbols.len() =>
            {
                codec::write_long(out, symbol.index() as i64);
                Ok(())
            }
            (NamedKind::Fixed { size }, GenericValue::Fixed(bytes)) if bytes.len() == *size => {
                codec::write_fixed(out, bytes);
                Ok(())
            }
            (NamedKind::Fixed { size }, GenericValue::Fixed(bytes)) => {
                Err(EncodeError::custom(format!(
                    "{name} is a fixed of {size} bytes, the value has {}",
                    bytes.len()
                )))
            }
            (kind, value) => Err(EncodeError::custom(format!(
                "expected {} {name}, found {}",
                kind.type_name(),
                describe(value)
            ))),
        }
    }

    fn record(
        &self,
        fields: &[Field],
        values: &[GenericValue],
        out: &mut Vec<u8>,
    ) -> Result<(), EncodeError> {
        if fields.len() != values.len() {
            return Err(EncodeError::custom(format!(
                "the record has {} fields, the value {}",
                fields.len(),
                values.len()
            )));
        }
        for (field, value) in fields.iter().zip(values) {
            self.value(&field.schema, value, out)
                .map_err(|e| e.in_field(field.name.clone()))?;
        }
        Ok(())
    }
}

/// The error of a value of another type than the schema's `expected`.
fn mismatch(expected: &str, value: &GenericValue) -> EncodeError {
    EncodeError::custom(format!("expected {expected}, found {}", describe(value)))
}

/// A value's type for an error message: a named type by its full name.
fn describe(value: &GenericValue) -> String {
    match value {
        GenericValue::Record(record) => format!("record {}", record.schema().name.full_name()),
        GenericValue::Enum(symbol) => format!("enum {}", symbol.schema().name.full_name()),
        other => other.type_name().to_owned(),
    }
}
