//! Conversion between [`GenericValue`]s and `apache_avro`'s values, for programs that hand
//! data on to code written against `apache_avro`, or take data from it.
//!
//! A logical value becomes its base value (a `date` an `Int`), as the generic value holds
//! it: apache-avro's writer refuses such a value where its schema has a logical type (it
//! wants its `Date`, `Decimal`... variants there), so a converted value of such a schema is
//! for code that inspects it, not for apache-avro's writer.

use std::collections::HashMap;
use std::sync::Arc;

use apache_avro::types::Value;

use super::value::{GenericEnum, GenericRecord, GenericValue};
use super::GenericSchema;
use crate::error::EncodeError;
use crate::schema::{Field, Name, NamedKind, NamedSchema, Schema, SchemaKind};

/// The `apache_avro` value of a generic value: records as their named fields, enums as
/// index and symbol, fixed values with their size.
///
/// ```
/// use avdl2rs::generic::{GenericSchema, GenericValue};
/// let schema = GenericSchema::new(
///     r#"{"type":"record","name":"P","fields":[{"name":"x","type":["null","int"]}]}"#)?;
/// let value = apache_avro::types::Value::from(&schema.decode(&[2, 4])?);
/// assert_eq!(value, apache_avro::types::Value::Record(vec![(
///     "x".into(),
///     apache_avro::types::Value::Union(1, Box::new(apache_avro::types::Value::Int(2))),
/// )]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl From<&GenericValue> for Value {
    fn from(value: &GenericValue) -> Self {
        match value {
            GenericValue::Null => Value::Null,
            GenericValue::Boolean(v) => Value::Boolean(*v),
            GenericValue::Int(v) => Value::Int(*v),
            GenericValue::Long(v) => Value::Long(*v),
            GenericValue::Float(v) => Value::Float(*v),
            GenericValue::Double(v) => Value::Double(*v),
            GenericValue::Bytes(v) => Value::Bytes(v.clone()),
            GenericValue::String(v) => Value::String(v.clone()),
            GenericValue::Record(record) => record_value(record),
            // An enum's index comes from its symbol list, whose length a JSON array bounds.
            GenericValue::Enum(symbol) => {
                Value::Enum(symbol.index() as u32, symbol.symbol().to_owned())
            }
            GenericValue::Fixed(v) => Value::Fixed(v.len(), v.clone()),
            GenericValue::Array(items) => Value::Array(items.iter().map(Value::from).collect()),
            GenericValue::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|(key, value)| (key.clone(), Value::from(value)))
                    .collect(),
            ),
            GenericValue::Union(index, value) => {
                Value::Union(*index, Box::new(Value::from(value.as_ref())))
            }
        }
    }
}

/// Takes `value` apart as [`From<&GenericValue>`] does.
///
/// ```
/// let value = apache_avro::types::Value::from(avdl2rs::generic::GenericValue::Long(3));
/// assert_eq!(value, apache_avro::types::Value::Long(3));
/// ```
impl From<GenericValue> for Value {
    fn from(value: GenericValue) -> Self {
        Value::from(&value)
    }
}

fn record_value(record: &GenericRecord) -> Value {
    let fields = match &record.schema().kind {
        NamedKind::Record { fields, .. } => fields.as_slice(),
        _ => &[],
    };
    Value::Record(
        fields
            .iter()
            .zip(record.fields())
            .map(|(field, value)| (field.name.clone(), Value::from(value)))
            .collect(),
    )
}

impl GenericSchema {
    /// The generic value of `value`, an `apache_avro` value of this schema (as
    /// `apache_avro::from_avro_datum` reads it, or as built for its writer), for programs that
    /// take data from code written against `apache_avro`. A `Value` alone does not carry its
    /// schema: records take their named type from this one.
    ///
    /// Logical values become their base values (a `Date` an `Int`, a `Decimal` its bytes, a
    /// `Uuid` its text or its 16 bytes); record fields are matched by name; a value not
    /// wrapped in `Union` (as a program may build it) goes to the first branch it fits. apache-avro's `BigDecimal` is refused: its encoding is apache-avro's own. A value
    /// that does not fit the schema is an error naming its path in the datum.
    ///
    /// ```
    /// use apache_avro::types::Value;
    /// use avdl2rs::generic::GenericSchema;
    /// let schema = GenericSchema::new(r#"{"type":"record","name":"P","fields":[
    ///     {"name":"tags","type":{"type":"array","items":"string"}}]}"#)?;
    /// let value = Value::Record(vec![("tags".into(), Value::Array(vec![Value::String("a".into())]))]);
    /// assert_eq!(schema.encode(&schema.from_apache(&value)?)?, [2, 2, b'a', 0]);
    /// let wrong = Value::Record(vec![("tags".into(), Value::Array(vec![Value::Int(1)]))]);
    /// assert_eq!(schema.from_apache(&wrong).unwrap_err().path(), "tags[0]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_apache(&self, value: &Value) -> Result<GenericValue, EncodeError> {
        FromApache { named: &self.named }.value(self.root(), value)
    }
}

/// Reads `apache_avro` values against the named types of one schema.
struct FromApache<'s> {
    named: &'s HashMap<Name, Arc<NamedSchema>>,
}

impl FromApache<'_> {
    fn value(&self, schema: &Schema, value: &Value) -> Result<GenericValue, EncodeError> {
        Ok(match (&schema.kind, value) {
            (SchemaKind::Null, Value::Null) => GenericValue::Null,
            (SchemaKind::Boolean, Value::Boolean(v)) => GenericValue::Boolean(*v),
            (SchemaKind::Int, Value::Int(v) | Value::Date(v) | Value::TimeMillis(v)) => {
                GenericValue::Int(*v)
            }
            (
                SchemaKind::Long,
                Value::Long(v)
                | Value::TimeMicros(v)
                | Value::TimestampMillis(v)
                | Value::TimestampMicros(v)
                | Value::TimestampNanos(v)
                | Value::LocalTimestampMillis(v)
                | Value::LocalTimestampMicros(v)
                | Value::LocalTimestampNanos(v),
            ) => GenericValue::Long(*v),
            (SchemaKind::Float, Value::Float(v)) => GenericValue::Float(*v),
            (SchemaKind::Double, Value::Double(v)) => GenericValue::Double(*v),
            (SchemaKind::Bytes, Value::Bytes(v)) => GenericValue::Bytes(v.clone()),
            (SchemaKind::Bytes, Value::Decimal(v)) => GenericValue::Bytes(decimal_bytes(v)?),
            (SchemaKind::String, Value::String(v)) => GenericValue::String(v.clone()),
            (SchemaKind::String, Value::Uuid(v)) => GenericValue::String(v.to_string()),
            (SchemaKind::Array(items), Value::Array(values)) => {
                let converted = values
                    .iter()
                    .enumerate()
                    .map(|(index, item)| self.value(items, item).map_err(|e| e.at_index(index)));
                GenericValue::Array(converted.collect::<Result<_, _>>()?)
            }
            (SchemaKind::Map(values), Value::Map(entries)) => {
                let converted = entries.iter().map(|(key, entry)| {
                    let entry = self.value(values, entry).map_err(|e| e.at_key(key))?;
                    Ok((key.clone(), entry))
                });
                GenericValue::Map(converted.collect::<Result<_, EncodeError>>()?)
            }
            (SchemaKind::Union(branches), value) => self.union(branches, value)?,
            (SchemaKind::Named(name), value) => self.named(name, value)?,
            (kind, value) => {
                let expected = kind.primitive_name().unwrap_or(match kind {
                    SchemaKind::Array(_) => "array",
                    _ => "map",
                });
                return Err(mismatch(expected, value));
            }
        })
    }

    fn union(&self, branches: &[Schema], value: &Value) -> Result<GenericValue, EncodeError> {
        if let Value::Union(index, inner) = value {
            let Some(branch) = branches.get(*index as usize) else {
                return Err(EncodeError::custom(format!(
                    "union branch {index} out of range for {} branches",
                    branches.len()
                )));
            };
            return Ok(GenericValue::Union(
                *index,
                Box::new(self.value(branch, inner)?),
            ));
        }
        (0u32..)
            .zip(branches)
            .find_map(|(index, branch)| {
                let inner = self.value(branch, value).ok()?;
                Some(GenericValue::Union(index, Box::new(inner)))
            })
            .ok_or_else(|| {
                let found = apache_kind(value);
                EncodeError::custom(format!("{found} fits no branch of the union"))
            })
    }

    fn named(&self, name: &Name, value: &Value) -> Result<GenericValue, EncodeError> {
        let Some(named) = self.named.get(name) else {
            let message = format!("the schema refers to {name}, a type it does not define");
            return Err(EncodeError::custom(message));
        };
        match (&named.kind, value) {
            (NamedKind::Record { fields, .. }, Value::Record(values)) => {
                self.record(named, fields, values)
            }
            (NamedKind::Enum { symbols, .. }, Value::Enum(_, symbol)) => {
                let Some(index) = symbols.iter().position(|s| s == symbol) else {
                    let message = format!("{symbol:?} is not a symbol of {name}");
                    return Err(EncodeError::custom(message));
                };
                Ok(GenericValue::Enum(GenericEnum::from_parts(
                    named.clone(),
                    index,
                )))
            }
            (NamedKind::Fixed { size }, value) => match fixed_bytes(value, *size) {
                Some(bytes) => fixed(name, *size, bytes?),
                None => Err(mismatch(&format!("fixed {name}"), value)),
            },
            (kind, value) => Err(mismatch(&format!("{} {name}", kind.type_name()), value)),
        }
    }

    /// The fields of `named` from `values`, matched by name: in schema order, as apache-avro
    /// reads and its record builder writes them, each is found at its own place.
    fn record(
        &self,
        named: &Arc<NamedSchema>,
        fields: &[Field],
        values: &[(String, Value)],
    ) -> Result<GenericValue, EncodeError> {
        if let Some((extra, _)) = values
            .iter()
            .find(|(value_name, _)| !fields.iter().any(|field| field.name == *value_name))
        {
            let message = format!("{} has no field {extra}", named.name);
            return Err(EncodeError::custom(message));
        }
        let converted = fields.iter().enumerate().map(|(index, field)| {
            let value = match values.get(index) {
                Some((value_name, value)) if *value_name == field.name => Some(value),
                _ => values
                    .iter()
                    .find(|(n, _)| *n == field.name)
                    .map(|(_, v)| v),
            };
            let value = value.ok_or_else(|| EncodeError::custom("the record has no value for it"));
            value
                .and_then(|value| self.value(&field.schema, value))
                .map_err(|e| e.in_field(field.name.clone()))
        });
        let converted = converted.collect::<Result<_, _>>()?;
        Ok(GenericValue::Record(GenericRecord::new(
            named.clone(),
            converted,
        )))
    }
}

/// The value of the `fixed` `name` of `size` bytes, if `bytes` has that many.
fn fixed(name: &Name, size: usize, bytes: Vec<u8>) -> Result<GenericValue, EncodeError> {
    if bytes.len() != size {
        return Err(EncodeError::custom(format!(
            "{name} is a fixed of {size} bytes, the value has {}",
            bytes.len()
        )));
    }
    Ok(GenericValue::Fixed(bytes))
}

/// The bytes of a `fixed` of `size` that `value` holds, if it is a value a `fixed` can have:
/// a decimal sign-extended to the size, a uuid's 16 bytes, a duration's 12.
fn fixed_bytes(value: &Value, size: usize) -> Option<Result<Vec<u8>, EncodeError>> {
    Some(Ok(match value {
        Value::Fixed(_, bytes) => bytes.clone(),
        Value::Decimal(decimal) => {
            return Some(decimal_bytes(decimal).map(|bytes| sign_extend(bytes, size)));
        }
        Value::Uuid(uuid) => uuid.as_bytes().to_vec(),
        Value::Duration(duration) => <[u8; 12]>::from(duration).to_vec(),
        _ => return None,
    }))
}

/// A decimal's two's-complement big-endian bytes.
fn decimal_bytes(decimal: &apache_avro::Decimal) -> Result<Vec<u8>, EncodeError> {
    Vec::<u8>::try_from(decimal).map_err(|e| EncodeError::custom(format!("decimal: {e}")))
}

/// `bytes`, a two's-complement number, widened to `size` bytes by repeating its sign.
fn sign_extend(bytes: Vec<u8>, size: usize) -> Vec<u8> {
    let Some(missing) = size.checked_sub(bytes.len()).filter(|n| *n > 0) else {
        return bytes;
    };
    let sign = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0
    };
    let mut out = vec![sign; missing];
    out.extend(bytes);
    out
}

/// The error of an `apache_avro` value of another type than the schema's `expected`.
fn mismatch(expected: &str, value: &Value) -> EncodeError {
    EncodeError::custom(format!("expected {expected}, found {}", apache_kind(value)))
}

/// The kind of an `apache_avro` value, as apache-avro names it (`Long`, `Date`...).
fn apache_kind(value: &Value) -> String {
    format!("{:?}", apache_avro::schema::SchemaKind::from(value))
}
