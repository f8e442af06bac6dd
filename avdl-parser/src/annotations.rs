//! `@name(value)` annotations: which names are special where they are written, which are
//! reserved, and how the rest become properties.

use serde_json::Value;

use crate::ast::Props;
use crate::error::ErrorKind;
use crate::source::Span;

/// One annotation as written.
#[derive(Clone, Debug)]
pub(crate) struct Annotation {
    pub name: String,
    pub value: Value,
    /// The annotation's value, for errors about it.
    pub value_span: Span,
}

/// Where an annotation list is written; decides the special and reserved names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Protocol,
    NamedType { is_enum: bool },
    Type,
    Field,
    Message,
}

impl Place {
    /// The keys IDL itself writes at this place, which no annotation can give; the IDL
    /// writer refuses a schema property of these names for the same reason.
    pub(crate) fn reserved(self) -> &'static [&'static str] {
        const SCHEMA: &[&str] = &[
            "doc", "fields", "items", "name", "size", "symbols", "values", "type",
        ];
        match self {
            Place::Protocol => &["protocol", "doc", "messages", "types", "errors"],
            Place::NamedType { is_enum: false } => SCHEMA,
            Place::NamedType { is_enum: true } => &[
                "doc", "fields", "items", "name", "size", "symbols", "values", "type", "default",
            ],
            Place::Type => &[
                "doc",
                "fields",
                "items",
                "name",
                "size",
                "symbols",
                "values",
                "type",
                "namespace",
                "aliases",
            ],
            Place::Field => &["default", "doc", "name", "type"],
            Place::Message => &["doc", "response", "request", "errors", "one-way"],
        }
    }

    fn special(self) -> &'static [&'static str] {
        match self {
            Place::Protocol => &["namespace"],
            Place::NamedType { .. } => &["namespace", "aliases"],
            Place::Field => &["order", "aliases"],
            Place::Type | Place::Message => &[],
        }
    }
}

/// A mistake in an annotation: kind, where, and message.
pub(crate) type AnnotationError = (ErrorKind, Span, String);

/// Annotations split into the special ones (last occurrence of each name wins) and properties
/// (last value wins, at the position of the first occurrence).
#[derive(Debug, Default)]
pub(crate) struct Split {
    special: Vec<Annotation>,
    pub props: Props,
}

impl Split {
    /// Splits `annotations` written at `place`.
    pub fn new(annotations: Vec<Annotation>, place: Place) -> Result<Split, AnnotationError> {
        let mut split = Split::default();
        for a in annotations {
            if place.reserved().contains(&a.name.as_str()) {
                let message = format!("Can't set reserved property: {}", a.name);
                return Err((ErrorKind::InvalidAnnotation, a.value_span, message));
            }
            if place.special().contains(&a.name.as_str()) {
                split.special.retain(|s| s.name != a.name);
                split.special.push(a);
            } else {
                split.props.insert(a.name, a.value);
            }
        }
        Ok(split)
    }

    fn take(&mut self, name: &str) -> Option<Annotation> {
        let i = self.special.iter().position(|a| a.name == name)?;
        Some(self.special.remove(i))
    }

    /// `@namespace("x")`: `Some(None)` for `""`, `None` when absent.
    pub fn namespace(&mut self) -> Result<Option<Option<String>>, AnnotationError> {
        let Some(a) = self.take("namespace") else {
            return Ok(None);
        };
        match a.value {
            Value::String(s) if s.is_empty() => Ok(Some(None)),
            Value::String(s) => Ok(Some(Some(s))),
            _ => Err(invalid(&a, "@namespace(...) must contain a String value")),
        }
    }

    /// `@aliases(["a", "b"])`.
    pub fn aliases(&mut self) -> Result<Option<Vec<String>>, AnnotationError> {
        let Some(a) = self.take("aliases") else {
            return Ok(None);
        };
        let strings = match &a.value {
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => None,
        };
        strings
            .map(Some)
            .ok_or_else(|| invalid(&a, "@aliases(...) must contain an array of String values"))
    }

    /// `@order("descending")` (case-insensitive); ascending is the default and gives `None`.
    pub fn order(&mut self) -> Result<Option<&'static str>, AnnotationError> {
        let Some(a) = self.take("order") else {
            return Ok(None);
        };
        let Value::String(s) = &a.value else {
            return Err(invalid(&a, "@order(...) must contain a String value"));
        };
        match s.to_ascii_uppercase().as_str() {
            "ASCENDING" => Ok(None),
            "DESCENDING" => Ok(Some("descending")),
            "IGNORE" => Ok(Some("ignore")),
            _ => Err(invalid(
                &a,
                "@order(...) must contain \"ASCENDING\", \"DESCENDING\" or \"IGNORE\"",
            )),
        }
    }
}

fn invalid(a: &Annotation, message: &str) -> AnnotationError {
    (
        ErrorKind::InvalidAnnotation,
        a.value_span,
        message.to_owned(),
    )
}

/// Adds annotation properties to a type's existing properties (those of a logical-type
/// keyword); changing an existing property is an error, as in the reference.
pub(crate) fn merge_props(
    existing: &mut Props,
    added: Props,
    span: Span,
) -> Result<(), AnnotationError> {
    for (name, value) in added {
        match existing.get(&name) {
            Some(old) if *old != value => {
                let message = format!("Can't overwrite property: {name}");
                return Err((ErrorKind::InvalidAnnotation, span, message));
            }
            _ => {
                existing.insert(name, value);
            }
        }
    }
    Ok(())
}

/// A valid `@logicalType("decimal")` without `@scale` gets `"scale": 0`, as the reference's
/// logical-type parsing adds it; invalid combinations stay plain properties.
pub(crate) fn complete_decimal(props: &mut Props, base: &str, fixed_size: Option<u64>) {
    if props.get("logicalType").and_then(Value::as_str) != Some("decimal")
        || props.contains_key("scale")
    {
        return;
    }
    let Some(precision) = props.get("precision").and_then(Value::as_i64) else {
        return;
    };
    let fits = match (base, fixed_size) {
        ("bytes", _) => true,
        ("fixed", Some(size)) => precision <= max_decimal_digits(size),
        _ => false,
    };
    if fits && precision > 0 && precision <= i64::from(i32::MAX) {
        props.insert("scale".into(), Value::from(0));
    }
}

/// The most decimal digits a signed two's-complement number of `size` bytes always holds.
fn max_decimal_digits(size: u64) -> i64 {
    if size == 0 {
        return 0;
    }
    let bits = (size.saturating_mul(8) - 1) as f64;
    (bits * std::f64::consts::LOG10_2).floor() as i64
}
