//! The JSON encoding (and the JSON form of defaults) to Avro binary, by walking the schema
//! over a [`serde_json::Value`].

use serde_json::{Map, Value};

use super::error::JsonError;
use super::{branches, code_points, numbers};
use crate::codec::{self, DecodeLimits};
use crate::schema::{Field, Name, NamedKind, Schema, SchemaKind, SchemaSet};

/// The deepest nesting of records, arrays, maps and union values JSON input may have: the
/// default depth limit of a binary decode, counted over the same levels, so that every value
/// a decode writes can be encoded again.
pub const MAX_DEPTH: usize = DecodeLimits::DEFAULT_MAX_DEPTH;

/// How a JSON value stands for an Avro value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// The JSON encoding of a datum: a union value wraps its branch's value in an object
    /// naming the branch, and every key of a record object must be one of its fields.
    Datum,
    /// A field default as a schema writes it: a union default is the value of the first
    /// branch it fits, unwrapped, and keys that are not fields are ignored, as the schema
    /// model's check of defaults ignores them.
    Default,
}

/// Appends the binary encoding of `json`, the JSON encoding of a `schema` value; returns
/// the array items and map entries written.
pub(super) fn encode_datum(
    set: &SchemaSet,
    schema: &Schema,
    json: &Value,
    out: &mut Vec<u8>,
) -> Result<usize, JsonError> {
    let mut encoder = Encoder {
        set,
        depth: 0,
        items: 0,
    };
    encoder.value(schema, json, Form::Datum, out)?;
    Ok(encoder.items)
}

/// Appends the binary encoding of a field default, `json`, of `schema`: for the defaults a
/// resolution plan adds, encoded once when the plan is built.
pub(crate) fn encode_default(
    set: &SchemaSet,
    schema: &Schema,
    json: &Value,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    Encoder {
        set,
        depth: 0,
        items: 0,
    }
    .value(schema, json, Form::Default, out)
}

/// The walk over one value.
struct Encoder<'s> {
    set: &'s SchemaSet,
    /// Records, arrays, maps and union values entered and not left yet.
    depth: usize,
    /// Array items and map entries written, as a reader's item budget counts them.
    items: usize,
}

impl Encoder<'_> {
    fn value(
        &mut self,
        schema: &Schema,
        json: &Value,
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        match (&schema.kind, json) {
            (SchemaKind::Null, Value::Null) => {}
            (SchemaKind::Boolean, Value::Bool(b)) => codec::write_boolean(out, *b),
            (SchemaKind::Int, _) => codec::write_int(out, numbers::to_int(json)?),
            (SchemaKind::Long, _) => codec::write_long(out, numbers::to_long(json)?),
            (SchemaKind::Float, _) => codec::write_float(out, numbers::to_float(json)?),
            (SchemaKind::Double, _) => codec::write_double(out, numbers::to_double(json)?),
            (SchemaKind::Bytes, Value::String(text)) => {
                codec::write_bytes(out, &code_points::from_json(text)?)
            }
            (SchemaKind::String, Value::String(text)) => codec::write_string(out, text),
            (SchemaKind::Array(items), Value::Array(values)) => {
                self.nested(|this| this.array(items, values, form, out))?
            }
            (SchemaKind::Map(schema), Value::Object(values)) => {
                self.nested(|this| this.map(schema, values, form, out))?
            }
            (SchemaKind::Union(branches), _) => self.union(branches, json, form, out)?,
            (SchemaKind::Named(name), _) => self.named(name, json, form, out)?,
            (kind, _) => return Err(JsonError::expected(branches::type_name(kind), json)),
        }
        Ok(())
    }

    /// Runs `encode` one nesting level deeper: an error past [`MAX_DEPTH`].
    fn nested(
        &mut self,
        encode: impl FnOnce(&mut Self) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        if self.depth >= MAX_DEPTH {
            return Err(JsonError::new(format!(
                "values nested deeper than the limit of {MAX_DEPTH} levels"
            )));
        }
        self.depth += 1;
        let result = encode(self);
        self.depth -= 1;
        result
    }

    /// An array as one block of all its items, then the end marker.
    fn array(
        &mut self,
        items: &Schema,
        values: &[Value],
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        if !values.is_empty() {
            codec::write_len(out, values.len());
        }
        self.items = self.items.saturating_add(values.len());
        for (index, value) in values.iter().enumerate() {
            self.value(items, value, form, out)
                .map_err(|e| e.at_index(index))?;
        }
        out.push(0);
        Ok(())
    }

    /// A map as one block of all its entries, then the end marker.
    fn map(
        &mut self,
        schema: &Schema,
        values: &Map<String, Value>,
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        if !values.is_empty() {
            codec::write_len(out, values.len());
        }
        self.items = self.items.saturating_add(values.len());
        for (key, value) in values {
            codec::write_string(out, key);
            self.value(schema, value, form, out)
                .map_err(|e| e.at_key(key))?;
        }
        out.push(0);
        Ok(())
    }

    /// A union value: its branch index, then the value as that branch.
    fn union(
        &mut self,
        branches: &[Schema],
        json: &Value,
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        let (index, value, label) = match form {
            Form::Datum => datum_branch(branches, json)?,
            Form::Default => {
                let fits = |branch: &Schema| self.set.is_valid_default(branch, json);
                let index = branches.iter().position(fits).ok_or_else(|| {
                    JsonError::new(format!("default {json} fits no branch of its union"))
                })?;
                (index, json, None)
            }
        };
        codec::write_long(out, index as i64);
        let branch = &branches[index];
        let result = self.nested(|this| this.value(branch, value, form, out));
        match label {
            Some(label) => result.map_err(|e| e.at_key(label)),
            None => result,
        }
    }

    fn named(
        &mut self,
        name: &Name,
        json: &Value,
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        let Some(named) = self.set.get(&name.full_name()) else {
            return Err(JsonError::new(format!(
                "the schema refers to {name}, a type it does not define"
            )));
        };
        match (&named.kind, json) {
            (NamedKind::Record { fields, .. }, Value::Object(object)) => {
                self.nested(|this| this.record(name, fields, object, form, out))
            }
            (NamedKind::Enum { symbols, .. }, Value::String(symbol)) => {
                let index = symbols.iter().position(|s| s == symbol).ok_or_else(|| {
                    JsonError::new(format!("{json} is not a symbol of enum {name}"))
                })?;
                codec::write_long(out, index as i64);
                Ok(())
            }
            (NamedKind::Fixed { size }, Value::String(text)) => {
                let bytes = code_points::from_json(text)?;
                if bytes.len() != *size {
                    return Err(JsonError::new(format!(
                        "fixed {name} takes {size} bytes, found {}",
                        bytes.len()
                    )));
                }
                codec::write_fixed(out, &bytes);
                Ok(())
            }
            (kind, _) => Err(JsonError::expected(
                format_args!("{} {name}", kind.type_name()),
                json,
            )),
        }
    }

    /// A record's fields in schema order, each from the object or, when it is missing, from
    /// its default.
    fn record(
        &mut self,
        name: &Name,
        fields: &[Field],
        object: &Map<String, Value>,
        form: Form,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        let mut found = 0;
        for field in fields {
            if let Some(value) = object.get(&field.name) {
                found += 1;
                let result = self.value(&field.schema, value, form, out);
                result.map_err(|e| e.at_key(&field.name))?;
            } else {
                self.missing(field, out)?;
            }
        }
        if form == Form::Datum && found < object.len() {
            let known = |key: &&String| fields.iter().any(|field| field.name == **key);
            if let Some(unknown) = object.keys().find(|key| !known(key)) {
                return Err(JsonError::new(format!(
                    "record {name} has no field {unknown:?}"
                )));
            }
        }
        Ok(())
    }

    /// A field the object does not have: its default, or an error when it has none.
    fn missing(&mut self, field: &Field, out: &mut Vec<u8>) -> Result<(), JsonError> {
        let Some(default) = &field.default else {
            return Err(JsonError::new(format!(
                "missing field {:?}, which has no default",
                field.name
            )));
        };
        let result = self.value(&field.schema, default, Form::Default, out);
        result.map_err(|e| {
            JsonError::new(format!(
                "missing field {:?}, whose default does not fit its schema: {e}",
                field.name
            ))
        })
    }
}

/// The branch a datum's union value names: its index, the value inside, and the key it was
/// found under (none for `null`).
fn datum_branch<'j>(
    branches: &[Schema],
    json: &'j Value,
) -> Result<(usize, &'j Value, Option<&'j str>), JsonError> {
    let (label, value, key) = match json {
        Value::Null => ("null", json, None),
        Value::Object(object) => {
            let mut entries = object.iter();
            match (entries.next(), entries.next()) {
                (Some((label, value)), None) => (label.as_str(), value, Some(label.as_str())),
                _ => return Err(not_a_union_value(json)),
            }
        }
        _ => return Err(not_a_union_value(json)),
    };
    match branches
        .iter()
        .position(|branch| branches::names(branch, label))
    {
        Some(index) => Ok((index, value, key)),
        None => {
            let names: Vec<String> = branches.iter().map(branches::branch_name).collect();
            Err(JsonError::new(format!(
                "{label:?} is not a branch of the union [{}]",
                names.join(", ")
            )))
        }
    }
}

#[cold]
fn not_a_union_value(json: &Value) -> JsonError {
    let what = "a union value, null or an object of one key naming the branch";
    match json {
        Value::Object(object) => JsonError::new(format!(
            "expected {what}, found an object of {} keys",
            object.len()
        )),
        _ => JsonError::expected(what, json),
    }
}
