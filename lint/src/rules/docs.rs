//! `missing-doc`: records, enums, fixed and fields say what they are for.

use serde_json::Value;

use super::Context;
use crate::document::{member, DefKind};
use crate::finding::Subject;
use crate::rule::Rule;

pub(super) fn check(context: &mut Context<'_, '_>) {
    if !context.runs(Rule::MissingDoc) {
        return;
    }
    let doc = context.doc;
    for definition in &doc.definitions {
        if !has_doc(member(definition.json, "doc")) {
            let kind = match definition.kind {
                DefKind::Record => "record",
                DefKind::Enum => "enum",
                DefKind::Fixed => "fixed",
            };
            context.report(
                Rule::MissingDoc,
                context.doc.pointers.child_text(definition.path, "name"),
                Subject::Type(definition.full_name.clone()),
                format!("{kind} `{}` has no documentation", definition.full_name),
            );
        }
    }
    for field in &doc.fields {
        if !has_doc(member(field.json, "doc")) {
            let record = context.record_name(field);
            context.report(
                Rule::MissingDoc,
                context.doc.pointers.child_text(field.path, "name"),
                Subject::Field(record.clone(), field.name.to_owned()),
                format!("field `{}` of `{record}` has no documentation", field.name),
            );
        }
    }
}

/// Whether a `doc` value says anything.
fn has_doc(doc: Option<&Value>) -> bool {
    doc.and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}
