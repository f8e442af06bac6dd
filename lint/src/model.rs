//! The schema model of the document, for the questions only the specification's rules answer
//! (whether a default fits a type, what a previous version's field was). A JSON source's model
//! is built before any rule runs, since an invalid schema is an error of the check. An IDL
//! source's JSON comes from the compiler, which has already checked it by the same rules
//! (every default included), so its model is built only when a rule first asks, and on most
//! files none does.

use std::cell::OnceCell;

use avdl2rs_schema::{Field, NamedKind, Schema, SchemaError, SchemaErrorKind, SchemaSet};
use serde_json::Value;

use crate::document::{Document, FieldSite, Shape};

/// The model of one document, built at most once.
pub(crate) struct Model<'a, 'v> {
    value: &'v Value,
    doc: &'a Document<'v>,
    set: OnceCell<Option<SchemaSet>>,
}

impl<'a, 'v> Model<'a, 'v> {
    /// The model of `value`, built now: an invalid schema is the error.
    pub fn built(value: &'v Value, doc: &'a Document<'v>) -> Result<Self, SchemaError> {
        let set = build(value, doc)?;
        Ok(Model {
            value,
            doc,
            set: OnceCell::from(Some(set)),
        })
    }

    /// The model of `value`, built on first use; for JSON already known to be valid.
    pub fn lazy(value: &'v Value, doc: &'a Document<'v>) -> Self {
        Model {
            value,
            doc,
            set: OnceCell::new(),
        }
    }

    /// The model, `None` if the document is not a valid schema after all.
    pub fn set(&self) -> Option<&SchemaSet> {
        self.set
            .get_or_init(|| build(self.value, self.doc).ok())
            .as_ref()
    }

    /// The model's schema of a field.
    pub fn field_schema(&self, field: &FieldSite<'_>) -> Option<&Schema> {
        let record = &self.doc.definitions[field.record].full_name;
        let fields: &[Field] = match &self.set()?.get(record)?.kind {
            NamedKind::Record { fields, .. } => fields,
            _ => return None,
        };
        fields.get(field.index).map(|f| &f.schema)
    }
}

/// The schema model of the document. A wrong field default would fail the model's parse;
/// `invalid-default` checks defaults one by one, so then the model is built again without
/// them (the copy is made only for such a file).
pub(crate) fn build(value: &Value, doc: &Document<'_>) -> Result<SchemaSet, SchemaError> {
    match parse(value, doc.shape) {
        Err(error) if matches!(error.kind, SchemaErrorKind::InvalidDefault { .. }) => {
            let mut stripped = value.clone();
            for field in &doc.fields {
                if let Some(Value::Object(object)) =
                    stripped.pointer_mut(&doc.pointers.text(field.path))
                {
                    object.remove("default");
                }
            }
            parse(&stripped, doc.shape)
        }
        parsed => parsed,
    }
}

/// The schema model of schema JSON of the given shape.
fn parse(value: &Value, shape: Shape) -> Result<SchemaSet, SchemaError> {
    let mut set = SchemaSet::new();
    match value {
        Value::Array(types) if shape == Shape::Types => {
            for (i, named) in types.iter().enumerate() {
                set.parse_value(named).map_err(|mut error| {
                    error.path = format!("/{i}{}", error.path);
                    error
                })?;
            }
        }
        json => {
            set.parse_file_value(json)?;
        }
    }
    Ok(set)
}
