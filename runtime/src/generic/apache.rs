//! Conversion of [`GenericValue`]s to `apache_avro`'s values, for programs that hand data
//! on to code written against `apache_avro`.
//!
//! A logical value becomes its base value (a `date` an `Int`), as the generic value holds
//! it: apache-avro's writer refuses such a value where its schema has a logical type (it
//! wants its `Date`, `Decimal`... variants there), so a converted value of such a schema is
//! for code that inspects it, not for apache-avro's writer.

use apache_avro::types::Value;

use super::value::{GenericRecord, GenericValue};
use crate::schema::NamedKind;

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
