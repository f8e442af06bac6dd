//! Encoding a field's JSON default in the Avro binary encoding of its schema, once, when a
//! resolution plan is built.

use serde_json::Value;

use crate::codec;
use crate::schema::{NamedKind, Schema, SchemaKind, SchemaSet};

/// Appends the binary encoding of the JSON `value` as a `schema` value. The parser has
/// already checked the default (`SchemaSet::is_valid_default`); a default that still does
/// not fit is reported, not encoded wrongly.
pub(crate) fn encode_default(
    set: &SchemaSet,
    schema: &Schema,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let mismatch = || format!("default {value} does not match {}", set.to_json(schema));
    match (&schema.kind, value) {
        (SchemaKind::Null, Value::Null) => {}
        (SchemaKind::Boolean, Value::Bool(b)) => codec::write_boolean(out, *b),
        (SchemaKind::Int, _) => {
            let n = value.as_i64().and_then(|n| i32::try_from(n).ok());
            codec::write_int(out, n.ok_or_else(mismatch)?);
        }
        (SchemaKind::Long, _) => codec::write_long(out, value.as_i64().ok_or_else(mismatch)?),
        (SchemaKind::Float, _) => {
            codec::write_float(out, float(value).ok_or_else(mismatch)? as f32)
        }
        (SchemaKind::Double, _) => codec::write_double(out, float(value).ok_or_else(mismatch)?),
        (SchemaKind::String, Value::String(s)) => codec::write_string(out, s),
        (SchemaKind::Bytes, Value::String(s)) => {
            codec::write_bytes(out, &latin1(s).ok_or_else(mismatch)?)
        }
        (SchemaKind::Array(items), Value::Array(values)) => {
            write_count(out, values.len());
            for v in values {
                encode_default(set, items, v, out)?;
            }
            if !values.is_empty() {
                codec::write_long(out, 0);
            }
        }
        (SchemaKind::Map(values), Value::Object(map)) => {
            write_count(out, map.len());
            for (key, v) in map {
                codec::write_string(out, key);
                encode_default(set, values, v, out)?;
            }
            if !map.is_empty() {
                codec::write_long(out, 0);
            }
        }
        (SchemaKind::Union(branches), _) => {
            // Avro 1.12: the default may match any branch; the first that does is used.
            let index = branches
                .iter()
                .position(|b| set.is_valid_default(b, value))
                .ok_or_else(mismatch)?;
            codec::write_int(out, index as i32);
            encode_default(set, &branches[index], value, out)?;
        }
        (SchemaKind::Named(name), _) => {
            let named = set.get(&name.full_name()).ok_or_else(mismatch)?;
            encode_named(set, &named.kind, value, out).map_err(|()| mismatch())?;
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

fn encode_named(
    set: &SchemaSet,
    kind: &NamedKind,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), ()> {
    match (kind, value) {
        (NamedKind::Record { fields, .. }, Value::Object(object)) => {
            for field in fields {
                let v = object
                    .get(&field.name)
                    .or(field.default.as_ref())
                    .ok_or(())?;
                encode_default(set, &field.schema, v, out).map_err(drop)?;
            }
        }
        (NamedKind::Enum { symbols, .. }, Value::String(s)) => {
            let index = symbols.iter().position(|symbol| symbol == s).ok_or(())?;
            codec::write_int(out, index as i32);
        }
        (NamedKind::Fixed { size }, Value::String(s)) => {
            let bytes = latin1(s).filter(|b| b.len() == *size).ok_or(())?;
            codec::write_fixed(out, &bytes);
        }
        _ => return Err(()),
    }
    Ok(())
}

/// The block count of a non-empty array or map default (an empty one is just the end
/// marker).
fn write_count(out: &mut Vec<u8>, count: usize) {
    codec::write_long(out, count as i64);
}

/// A float default: a JSON number, or the string Java writes for a non-finite value.
fn float(value: &Value) -> Option<f64> {
    match value {
        Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => value.as_f64(),
    }
}

/// The bytes a `bytes`/`fixed` default string stands for: each code point 0–255 is a byte.
fn latin1(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}
