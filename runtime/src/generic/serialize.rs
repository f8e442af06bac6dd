//! `serde::Serialize` for [`GenericValue`]: a natural JSON for people and tools that do not
//! read Avro's JSON encoding.
//!
//! A record is an object of its fields, a map an object, an array an array, an enum its
//! symbol, and a union its branch's value alone (unlike the Avro JSON encoding, which wraps
//! it in the branch's name: use [`super::GenericSchema::to_avro_json`] for that). `bytes` and
//! `fixed` are strings of one code point per byte, U+0000 to U+00FF, as in the Avro JSON
//! encoding and in schema defaults, so that any JSON library reads them; a `float` or
//! `double` that is not finite, which JSON has no number for, is the string `"NaN"`,
//! `"Infinity"` or `"-Infinity"`, as Avro's JSON encoders write it. A logical value is its
//! base value.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::value::{GenericRecord, GenericValue};
use crate::schema::NamedKind;

impl Serialize for GenericValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            GenericValue::Null => serializer.serialize_unit(),
            GenericValue::Boolean(v) => serializer.serialize_bool(*v),
            GenericValue::Int(v) => serializer.serialize_i32(*v),
            GenericValue::Long(v) => serializer.serialize_i64(*v),
            GenericValue::Float(v) if v.is_finite() => serializer.serialize_f32(*v),
            GenericValue::Double(v) if v.is_finite() => serializer.serialize_f64(*v),
            GenericValue::Float(v) => serializer.serialize_str(non_finite(f64::from(*v))),
            GenericValue::Double(v) => serializer.serialize_str(non_finite(*v)),
            GenericValue::Bytes(bytes) | GenericValue::Fixed(bytes) => {
                let text: String = bytes.iter().map(|&byte| char::from(byte)).collect();
                serializer.serialize_str(&text)
            }
            GenericValue::String(v) => serializer.serialize_str(v),
            GenericValue::Record(record) => record.serialize(serializer),
            GenericValue::Enum(symbol) => serializer.serialize_str(symbol.symbol()),
            GenericValue::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                items
                    .iter()
                    .try_for_each(|item| seq.serialize_element(item))?;
                seq.end()
            }
            GenericValue::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            GenericValue::Union(_, value) => value.serialize(serializer),
        }
    }
}

/// A record as an object of its fields in schema order.
impl Serialize for GenericRecord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = match &self.schema().kind {
            NamedKind::Record { fields, .. } => fields.as_slice(),
            _ => &[],
        };
        let mut map = serializer.serialize_map(Some(self.fields().len()))?;
        for (field, value) in names.iter().zip(self.fields()) {
            map.serialize_entry(&field.name, value)?;
        }
        map.end()
    }
}

/// How Avro's JSON encoders spell a number that is not finite.
fn non_finite(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

#[cfg(test)]
mod tests {
    use crate::generic::GenericSchema;

    #[test]
    fn natural_json_unwraps_unions_and_spells_bytes_and_non_finite_numbers() {
        let schema = GenericSchema::new(
            r#"{"type":"record","name":"R","fields":[
                {"name":"u","type":["null","string"]},
                {"name":"b","type":"bytes"},
                {"name":"d","type":"double"},
                {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}},
                {"name":"m","type":{"type":"map","values":"float"}}]}"#,
        )
        .unwrap();
        let mut bytes = vec![2, 2, b'x', 4, 0x00, 0xe9];
        bytes.extend_from_slice(&f64::NEG_INFINITY.to_le_bytes());
        bytes.extend_from_slice(&[2, 2, 2, b'k']);
        bytes.extend_from_slice(&1.5f32.to_le_bytes());
        bytes.push(0);
        let value = schema.decode(&bytes).unwrap();
        assert_eq!(
            serde_json::to_value(&value).unwrap(),
            serde_json::json!({"u": "x", "b": "\u{0}é", "d": "-Infinity", "e": "B", "m": {"k": 1.5}})
        );
        assert_eq!(
            schema.to_avro_json(&value).unwrap(),
            serde_json::json!({"u": {"string": "x"}, "b": "\u{0}é", "d": "-Infinity", "e": "B", "m": {"k": 1.5}})
        );
        let back = schema.from_avro_json(&schema.to_avro_json(&value).unwrap());
        assert_eq!(schema.encode(&back.unwrap()).unwrap(), bytes);
    }
}
