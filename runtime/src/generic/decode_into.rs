//! Avro binary into a [`GenericValue`] that already holds a value of the schema, as a
//! consumer loop keeps one: a string, `bytes` or `fixed` is copied into the buffer already
//! there, a record of the same named type is read field by field into its fields, a union
//! value into its box, and array items and map values into the items and values of before.
//! What does not match (another union branch, a record of another type) is read afresh by
//! [`decode::value`], so the result is the value a fresh decode gives whatever the slot held.
//!
//! The walk takes the same nesting levels and array and map budgets of the reader as the
//! fresh decode, so the limits hold alike.

use std::sync::Arc;

use super::decode::{self, in_field};
use super::program::{Node, NodeId, Program};
use super::value::GenericValue;
use crate::codec::Reader;
use crate::error::DecodeError;
use crate::schema::NamedSchema;

/// Reads one value of the node `id` into `slot`. On error `slot` holds some mix of the old
/// value and the new one. As in [`decode::value`], the values that hold no others are read
/// inline (a number over a number of the same type, without dropping the old value first),
/// the others out of line, one nesting level deeper.
#[inline(always)]
pub(super) fn value_into(
    program: &Program,
    id: NodeId,
    reader: &mut Reader<'_>,
    slot: &mut GenericValue,
) -> Result<(), DecodeError> {
    match (program.node(id), slot) {
        (Node::Null, GenericValue::Null) => {}
        (Node::Boolean, GenericValue::Boolean(value)) => *value = reader.read_boolean()?,
        (Node::Int, GenericValue::Int(value)) => *value = reader.read_int()?,
        (Node::Long, GenericValue::Long(value)) => *value = reader.read_long()?,
        (Node::Float, GenericValue::Float(value)) => *value = reader.read_float()?,
        (Node::Double, GenericValue::Double(value)) => *value = reader.read_double()?,
        (Node::String, GenericValue::String(text)) => {
            let read = reader.read_string()?;
            text.clear();
            text.push_str(read);
        }
        (Node::Bytes, GenericValue::Bytes(bytes)) => copy_into(reader.read_bytes()?, bytes),
        (Node::Fixed(size), GenericValue::Fixed(bytes)) => {
            copy_into(reader.read_fixed_slice(*size)?, bytes)
        }
        (Node::Record(named, fields), GenericValue::Record(record))
            if Arc::ptr_eq(record.schema(), named) && record.fields().len() == fields.len() =>
        {
            record_into(program, named, fields, record.fields_mut(), reader)?
        }
        (Node::Union(branches), GenericValue::Union(index, inner)) => {
            union_into(program, branches, reader, index, inner)?
        }
        (Node::Array(items), GenericValue::Array(values)) => {
            array_into(program, *items, reader, values)?
        }
        (Node::Map(values), GenericValue::Map(entries)) => {
            map_into(program, *values, reader, entries)?
        }
        (_, slot) => *slot = decode::value(program, id, reader)?,
    }
    Ok(())
}

/// Replaces the bytes of `buffer` with `read`, in the room `buffer` has.
fn copy_into(read: &[u8], buffer: &mut Vec<u8>) {
    buffer.clear();
    buffer.extend_from_slice(read);
}

/// Reads the fields of the record `named` into `values`, one for each of `fields`, one
/// nesting level deeper.
#[inline(never)]
fn record_into(
    program: &Program,
    named: &NamedSchema,
    fields: &[NodeId],
    values: &mut [GenericValue],
    reader: &mut Reader<'_>,
) -> Result<(), DecodeError> {
    reader.nested(|reader| {
        for (index, (&field, slot)) in fields.iter().zip(values).enumerate() {
            value_into(program, field, reader, slot)
                .map_err(|error| in_field(error, named, index))?;
        }
        Ok(())
    })
}

/// Reads a union's branch index into `index` and the branch's value into `inner`, one
/// nesting level deeper.
#[inline(never)]
fn union_into(
    program: &Program,
    branches: &[NodeId],
    reader: &mut Reader<'_>,
    index: &mut u32,
    inner: &mut GenericValue,
) -> Result<(), DecodeError> {
    reader.nested(|reader| {
        let branch = reader.read_union_index(branches.len())?;
        // Below the union's length, which fits a `u32` (see `decode::union`).
        *index = branch as u32;
        value_into(program, branches[branch], reader, inner)
    })
}

/// Reads an array into `values`, each item into the item of before at its index, one
/// nesting level deeper. The array itself is collected anew, through the reader's item and
/// memory budgets.
#[inline(never)]
fn array_into(
    program: &Program,
    items: NodeId,
    reader: &mut Reader<'_>,
    values: &mut Vec<GenericValue>,
) -> Result<(), DecodeError> {
    let old = std::mem::take(values).into_iter();
    *values = reader.nested(|reader| reader.read_array(reusing(program, items, old)))?;
    Ok(())
}

/// Reads a map into `entries`, each value into the value of before at its index, as
/// [`array_into`] reads an array.
#[inline(never)]
fn map_into(
    program: &Program,
    values: NodeId,
    reader: &mut Reader<'_>,
    entries: &mut Vec<(String, GenericValue)>,
) -> Result<(), DecodeError> {
    let old = std::mem::take(entries).into_iter().map(|(_, value)| value);
    *entries = reader.nested(|reader| reader.read_map(reusing(program, values, old)))?;
    Ok(())
}

/// Reads one value of the node `id` into the next of the `old` values, or afresh once they
/// run out.
fn reusing<'p>(
    program: &'p Program,
    id: NodeId,
    mut old: impl Iterator<Item = GenericValue> + 'p,
) -> impl FnMut(&mut Reader<'_>) -> Result<GenericValue, DecodeError> + 'p {
    move |reader| {
        let mut value = old.next().unwrap_or(GenericValue::Null);
        value_into(program, id, reader, &mut value)?;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use apache_avro::types::Value;
    use apache_avro::writer::datum::GenericDatumWriter;

    use crate::generic::{GenericSchema, GenericValue};

    const SCHEMA: &str = r#"{"type":"record","name":"Node","fields":[
        {"name":"s","type":"string"},
        {"name":"b","type":"bytes"},
        {"name":"f","type":{"type":"fixed","name":"Two","size":2}},
        {"name":"u","type":["null","string","Node"]},
        {"name":"a","type":{"type":"array","items":"long"}},
        {"name":"m","type":{"type":"map","values":["int","string"]}},
        {"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}}]}"#;

    /// A `Node` as apache-avro's value.
    fn node(s: &str, u: Value, a: &[i64], m: &[(&str, Value)]) -> Value {
        Value::Record(vec![
            ("s".into(), Value::String(s.into())),
            ("b".into(), Value::Bytes(s.as_bytes().to_vec())),
            ("f".into(), Value::Fixed(2, vec![s.len() as u8, 7])),
            ("u".into(), u),
            (
                "a".into(),
                Value::Array(a.iter().map(|&n| Value::Long(n)).collect()),
            ),
            (
                "m".into(),
                Value::Map(m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()),
            ),
            (
                "e".into(),
                Value::Enum(s.len() as u32 % 2, ["X", "Y"][s.len() % 2].into()),
            ),
        ])
    }

    /// The bytes apache-avro writes for `value`.
    fn written(schema: &apache_avro::Schema, value: &Value) -> Vec<u8> {
        let writer = GenericDatumWriter::builder(schema).build().unwrap();
        let mut out = Vec::new();
        writer.write_value_ref(&mut out, value).unwrap();
        out
    }

    /// Messages of every shape in turn: union branches switching, a nested record coming and
    /// going, arrays and maps growing and shrinking, strings longer and shorter.
    fn messages() -> Vec<Value> {
        let leaf = |s: &str| node(s, Value::Union(0, Box::new(Value::Null)), &[], &[]);
        vec![
            node(
                "first",
                Value::Union(1, Box::new(Value::String("x".into()))),
                &[1, 2, 3],
                &[("k", Value::Union(0, Box::new(Value::Int(1))))],
            ),
            node(
                "",
                Value::Union(2, Box::new(leaf("inner"))),
                &[],
                &[
                    ("k", Value::Union(1, Box::new(Value::String("v".into())))),
                    ("l", Value::Union(0, Box::new(Value::Int(-2)))),
                ],
            ),
            node(
                "a much longer string than before",
                Value::Union(2, Box::new(leaf("in"))),
                &[-1, 4, 5, 6, 7],
                &[],
            ),
            leaf("last"),
        ]
    }

    #[test]
    fn decoding_into_one_value_gives_what_apache_avro_wrote_whatever_it_held_before() {
        let schema = GenericSchema::new(SCHEMA).unwrap();
        let apache = apache_avro::Schema::parse_str(SCHEMA).unwrap();
        let other = GenericSchema::new(r#"{"type":"record","name":"Node","fields":[]}"#)
            .unwrap()
            .decode(&[])
            .unwrap();
        for start in [GenericValue::Null, GenericValue::Int(1), other] {
            let mut value = start;
            for message in messages().into_iter().chain(messages().into_iter().rev()) {
                let bytes = written(&apache, &message);
                schema.decode_into(&bytes, &mut value).unwrap();
                assert_eq!(Value::from(&value), message);
                assert_eq!(value, schema.decode(&bytes).unwrap());
                assert_eq!(schema.encode(&value).unwrap(), bytes);
            }
        }
    }

    #[test]
    fn a_bad_message_is_the_error_a_fresh_decode_gives_and_the_next_one_reads_cleanly() {
        let schema = GenericSchema::new(SCHEMA).unwrap();
        let apache = apache_avro::Schema::parse_str(SCHEMA).unwrap();
        let good = written(&apache, &messages()[1]);
        let mut value = schema.decode(&good).unwrap();
        for cut in 0..good.len() {
            let bad = &good[..cut];
            let error = schema.decode_into(bad, &mut value).unwrap_err();
            assert_eq!(
                error.to_string(),
                schema.decode(bad).unwrap_err().to_string()
            );
        }
        schema.decode_into(&good, &mut value).unwrap();
        assert_eq!(value, schema.decode(&good).unwrap());
    }

    #[test]
    fn nesting_beyond_the_depth_limit_is_refused_as_a_fresh_decode_refuses_it() {
        let schema = GenericSchema::new(SCHEMA).unwrap();
        // Each level: empty s and b, the fixed, then branch 2 (zig-zag 4), a nested Node.
        let levels = 600;
        let mut bytes = [0, 0, 1, 1, 4].repeat(levels);
        bytes.extend([0, 0, 1, 1, 0]);
        bytes.extend([0, 0, 0].repeat(levels + 1));
        let mut value = GenericValue::Null;
        let error = schema.decode_into(&bytes, &mut value).unwrap_err();
        assert_eq!(
            error.to_string(),
            schema.decode(&bytes).unwrap_err().to_string()
        );
        assert!(error.to_string().contains("512"), "{error}");
    }
}
