//! Whether a JSON default value fits a schema (Avro specification, "field default values").

use serde_json::Value;

use super::{NamedKind, Schema, SchemaKind, SchemaSet};

impl SchemaSet {
    /// Whether `value` is a valid JSON default for `schema`. A union default may match any
    /// branch (Avro 1.12); `bytes` and `fixed` defaults are strings of code points 0–255 (a
    /// fixed one exactly `size` long); a record default needs every field, from the value or
    /// from the field's own default — which may not lead back to itself, as `[{}]` does for
    /// a field `array<R> items` of `R` (a value without end).
    pub fn is_valid_default(&self, schema: &Schema, value: &Value) -> bool {
        self.fits(schema, value, &mut Vec::new())
    }

    /// `is_valid_default`, with the field defaults being expanded (compared by address).
    fn fits<'s>(&'s self, schema: &Schema, value: &Value, expanding: &mut Vec<&'s Value>) -> bool {
        match &schema.kind {
            SchemaKind::Null => value.is_null(),
            SchemaKind::Boolean => value.is_boolean(),
            SchemaKind::Int => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            SchemaKind::Long => value.is_i64(),
            SchemaKind::Float | SchemaKind::Double => is_json_float(value),
            SchemaKind::String => value.is_string(),
            SchemaKind::Bytes => value.as_str().is_some_and(|s| latin1_len(s).is_some()),
            SchemaKind::Array(items) => value
                .as_array()
                .is_some_and(|values| values.iter().all(|v| self.fits(items, v, expanding))),
            SchemaKind::Map(values) => value
                .as_object()
                .is_some_and(|map| map.values().all(|v| self.fits(values, v, expanding))),
            SchemaKind::Union(branches) => branches.iter().any(|b| self.fits(b, value, expanding)),
            SchemaKind::Named(name) => match self.get(&name.full_name()) {
                Some(named) => self.fits_named(&named.kind, value, expanding),
                None => false,
            },
        }
    }

    fn fits_named<'s>(
        &'s self,
        kind: &'s NamedKind,
        value: &Value,
        expanding: &mut Vec<&'s Value>,
    ) -> bool {
        match kind {
            NamedKind::Record { fields, .. } => value.as_object().is_some_and(|object| {
                fields
                    .iter()
                    .all(|field| match (object.get(&field.name), &field.default) {
                        (Some(v), _) => self.fits(&field.schema, v, expanding),
                        (None, Some(default)) => {
                            if expanding.iter().any(|d| std::ptr::eq(*d, default)) {
                                return false;
                            }
                            expanding.push(default);
                            let fits = self.fits(&field.schema, default, expanding);
                            expanding.pop();
                            fits
                        }
                        (None, None) => false,
                    })
            }),
            NamedKind::Enum { symbols, .. } => value
                .as_str()
                .is_some_and(|s| symbols.iter().any(|symbol| symbol == s)),
            NamedKind::Fixed { size } => {
                value.as_str().is_some_and(|s| latin1_len(s) == Some(*size))
            }
        }
    }
}

/// A float or double default: any JSON number, or the strings Java writes for non-finite
/// values.
fn is_json_float(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::String(s) => matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity"),
        _ => false,
    }
}

/// The number of bytes a `bytes`/`fixed` default string stands for, when every code point is
/// at most 255.
fn latin1_len(s: &str) -> Option<usize> {
    s.chars()
        .try_fold(0, |n, c| (u32::from(c) <= 0xFF).then_some(n + 1))
}
