//! `invalid-default`, `missing-default`, `nullable-default`, `enum-default`: what a reader
//! falls back on when the writer's data lacks something.

use avdl2rs_schema::SchemaKind;
use serde_json::Value;

use super::Context;
use crate::document::{member, type_shape, DefKind, FieldSite, Origin, TypeShape};
use crate::finding::Subject;
use crate::rule::Rule;

pub(super) fn check(context: &mut Context<'_, '_>) {
    let doc = context.doc;
    for field in &doc.fields {
        // Borrowed, not copied: most fields have nothing to report.
        let record = doc.definitions[field.record].full_name.as_str();
        match member(field.json, "default") {
            None => context.report_with_help(
                Rule::MissingDefault,
                context.doc.pointers.child_text(field.path, "name"),
                Subject::Field(record.to_owned(), field.name.to_owned()),
                format!("field `{}` has no default", field.name),
                Some("without one it cannot be removed under FORWARD or FULL compatibility".into()),
            ),
            Some(default) => check_default(context, field, record, default),
        }
        nullable(context, field, record);
    }
    for definition in doc.definitions.iter().filter(|d| d.kind == DefKind::Enum) {
        if member(definition.json, "default").is_none() {
            context.report_with_help(
                Rule::EnumDefault,
                context.doc.pointers.child_text(definition.path, "name"),
                Subject::Type(definition.full_name.clone()),
                format!("enum `{}` has no default symbol", definition.full_name),
                Some("readers of this version fail on any symbol added later".into()),
            );
        }
    }
}

/// `invalid-default`: the default must fit the type, and a union's its first branch.
fn check_default(
    context: &mut Context<'_, '_>,
    field: &FieldSite<'_>,
    record: &str,
    default: &Value,
) {
    if is_plainly_valid(context, field, default) {
        return;
    }
    let (Some(set), Some(schema)) = (context.set(), context.field_schema(field)) else {
        return;
    };
    let message = if !set.is_valid_default(schema, default) {
        format!(
            "default {} of field `{}` does not match its type {}",
            short(default),
            field.name,
            short(&set.to_json(schema))
        )
    } else if let SchemaKind::Union(branches) = &schema.kind {
        match branches.first() {
            Some(first) if !set.is_valid_default(first, default) => format!(
                "default {} of field `{}` is not of the union's first branch {}",
                short(default),
                field.name,
                short(&set.to_json(first))
            ),
            _ => return,
        }
    } else {
        return;
    };
    let help = matches!(schema.kind, SchemaKind::Union(_))
        .then(|| "put the branch the default belongs to first in the union".to_owned());
    context.report_with_help(
        Rule::InvalidDefault,
        context.doc.pointers.child_text(field.path, "default"),
        Subject::Default(record.to_owned(), field.name.to_owned()),
        message,
        help,
    );
}

/// Whether a default is valid and of its union's first branch, without asking the schema
/// model: the compiler has checked every default of compiled IDL against its type by the
/// model's rule, which leaves only a union's first branch, and a `null` one takes `null`.
fn is_plainly_valid(context: &Context<'_, '_>, field: &FieldSite<'_>, default: &Value) -> bool {
    if context.origin != Origin::Idl {
        return false;
    }
    match member(field.json, "type").map(type_shape) {
        Some(TypeShape::Union(branches)) => {
            default.is_null()
                && branches.first().map(type_shape) == Some(TypeShape::Primitive("null"))
        }
        _ => true,
    }
}

/// `nullable-default`: an optional field is `null` first and `null` by default. With `null`
/// first there is nothing to say here: without a default `missing-default` speaks, and a
/// default other than `null` is not of the first branch, which is `invalid-default`'s.
fn nullable(context: &mut Context<'_, '_>, field: &FieldSite<'_>, record: &str) {
    let Some(TypeShape::Union(branches)) = member(field.json, "type").map(type_shape) else {
        return;
    };
    let null = |branch| type_shape(branch) == TypeShape::Primitive("null");
    if matches!(branches.iter().position(null), None | Some(0)) {
        return;
    }
    context.report_with_help(
        Rule::NullableDefault,
        context.doc.pointers.child_text(field.path, "type"),
        Subject::FieldType(record.to_owned(), field.name.to_owned()),
        format!(
            "`null` is not the first branch of optional field `{}`",
            field.name
        ),
        Some("write the type `null` first and the default `null`".into()),
    );
}

/// Longer JSON than this is cut in messages.
const SHORT: usize = 60;

/// `value` as compact JSON, cut with `…` when long.
pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= SHORT {
        return text;
    }
    let cut: String = text.chars().take(SHORT).collect();
    format!("{cut}…")
}
