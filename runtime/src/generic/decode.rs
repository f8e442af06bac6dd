//! Avro binary to [`GenericValue`], by walking the schema's [`Program`] over a [`Reader`].

use std::sync::Arc;

use super::program::{Node, NodeId, Program};
use super::value::{GenericEnum, GenericRecord, GenericValue};
use crate::codec::Reader;
use crate::error::DecodeError;
use crate::schema::{Name, NamedKind, NamedSchema};

/// Reads one value of the node `id`. Every record, array, map and union value is read one
/// nesting level deeper ([`Reader::nested`]), so that neither recursive data nor a deeply
/// nested schema can take more than the reader's depth and stack limits; arrays and maps are
/// collected through the reader's item and memory budgets.
///
/// The values that hold no others are read here, inlined into the loops over a record's
/// fields and an array's items, which is most of a decode; the others each have a function
/// of their own, out of line and called straight from the one dispatch on the node, so that
/// a nesting level's stack frame holds only what that kind needs.
#[inline(always)]
pub(super) fn value(
    program: &Program,
    id: NodeId,
    reader: &mut Reader<'_>,
) -> Result<GenericValue, DecodeError> {
    Ok(match program.node(id) {
        Node::Null => GenericValue::Null,
        Node::Boolean => GenericValue::Boolean(reader.read_boolean()?),
        Node::Int => GenericValue::Int(reader.read_int()?),
        Node::Long => GenericValue::Long(reader.read_long()?),
        Node::Float => GenericValue::Float(reader.read_float()?),
        Node::Double => GenericValue::Double(reader.read_double()?),
        Node::Bytes => GenericValue::Bytes(reader.read_bytes()?.to_vec()),
        Node::String => GenericValue::String(reader.read_string()?.to_owned()),
        Node::Enum(named, symbols) => {
            let index = reader.read_enum_index(*symbols)?;
            GenericValue::Enum(GenericEnum::from_parts(Arc::clone(named), index))
        }
        Node::Fixed(size) => GenericValue::Fixed(reader.read_fixed_slice(*size)?.to_vec()),
        Node::Record(named, fields) => return record(program, named, fields, reader),
        Node::Union(branches) => return union(program, branches, reader),
        Node::Array(items) => return array(program, *items, reader),
        Node::Map(values) => return map(program, *values, reader),
        Node::Undefined(name) => return Err(undefined(name, reader)),
    })
}

/// The error of a value that reaches a type the schema does not define.
#[cold]
fn undefined(name: &Name, reader: &Reader<'_>) -> DecodeError {
    let message = format!("the schema refers to {name}, a type it does not define");
    DecodeError::custom(message, reader.position())
}

/// Reads a record, one nesting level deeper.
#[inline(never)]
fn record(
    program: &Program,
    named: &Arc<NamedSchema>,
    fields: &[NodeId],
    reader: &mut Reader<'_>,
) -> Result<GenericValue, DecodeError> {
    reader.nested(|reader| {
        let mut values = Vec::with_capacity(fields.len());
        for &field in fields {
            match value(program, field, reader) {
                Ok(value) => values.push(value),
                Err(error) => return Err(in_field(error, named, values.len())),
            }
        }
        Ok(GenericValue::Record(GenericRecord::new(
            Arc::clone(named),
            values,
        )))
    })
}

/// `error`, of the field at `index` of the record `named`, with the field's name in its path.
#[cold]
pub(super) fn in_field(error: DecodeError, named: &NamedSchema, index: usize) -> DecodeError {
    match &named.kind {
        NamedKind::Record { fields, .. } => error.in_field(fields[index].name.clone()),
        _ => error,
    }
}

/// Reads a union value, one nesting level deeper.
#[inline(never)]
fn union(
    program: &Program,
    branches: &[NodeId],
    reader: &mut Reader<'_>,
) -> Result<GenericValue, DecodeError> {
    reader.nested(|reader| {
        let index = reader.read_union_index(branches.len())?;
        let value = value(program, branches[index], reader)?;
        // `read_union_index` checked the index against the union's length, a `usize` that
        // came from a JSON array; a union of more than `u32::MAX` branches cannot be parsed.
        Ok(GenericValue::Union(index as u32, Box::new(value)))
    })
}

/// Reads an array, one nesting level deeper.
#[inline(never)]
fn array(
    program: &Program,
    items: NodeId,
    reader: &mut Reader<'_>,
) -> Result<GenericValue, DecodeError> {
    reader.nested(|reader| {
        let items = reader.read_array(|reader| value(program, items, reader))?;
        Ok(GenericValue::Array(items))
    })
}

/// Reads a map, one nesting level deeper.
#[inline(never)]
fn map(
    program: &Program,
    values: NodeId,
    reader: &mut Reader<'_>,
) -> Result<GenericValue, DecodeError> {
    reader.nested(|reader| {
        let entries = reader.read_map(|reader| value(program, values, reader))?;
        Ok(GenericValue::Map(entries))
    })
}
