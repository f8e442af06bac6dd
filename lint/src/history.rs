//! The rules that compare a file with its previous version: `rename-without-alias` and
//! `removed-symbol`. Readers resolve old data by name, so a rename without an alias loses
//! the data under the old name, and a removed symbol fails the reader on old data.

use avdl2rs_schema::{Field, NamedKind, NamedSchema, SchemaSet};

use crate::document::{Definition, Document};
use crate::finding::Subject;
use crate::json_text::child;
use crate::rule::Rule;
use crate::rules::Context;

/// Compares the context's document with `old`, whose model is `old_set`.
pub(crate) fn check(context: &mut Context<'_, '_>, old: &Document<'_>, old_set: &SchemaSet) {
    let doc = context.doc;
    let Some(set) = context.set() else {
        return;
    };
    for definition in &doc.definitions {
        let Some(new) = set.get(&definition.full_name) else {
            continue;
        };
        match old_set.get(&definition.full_name) {
            Some(before) => {
                removed_symbols(context, definition, before, new);
                renamed_fields(context, definition, (old_set, before), (set, new));
            }
            None => renamed_type(context, definition, (old, old_set), (set, new)),
        }
    }
}

/// `removed-symbol`: symbols of the old enum the new one lacks.
fn removed_symbols(
    context: &mut Context<'_, '_>,
    definition: &Definition<'_>,
    before: &NamedSchema,
    new: &NamedSchema,
) {
    let (NamedKind::Enum { symbols: old, .. }, NamedKind::Enum { symbols, default }) =
        (&before.kind, &new.kind)
    else {
        return;
    };
    for symbol in old.iter().filter(|s| !symbols.contains(s)) {
        let help = match default {
            Some(default) => format!("readers of this version read it as the default `{default}`"),
            None => {
                "readers of this version fail on data with it; keep it, or give the enum a default"
                    .into()
            }
        };
        context.report_with_help(
            Rule::RemovedSymbol,
            context.doc.pointers.child_text(definition.path, "symbols"),
            Subject::Type(definition.full_name.clone()),
            format!(
                "symbol `{symbol}` was removed from enum `{}`",
                definition.full_name
            ),
            Some(help),
        );
    }
}

/// `rename-without-alias` of fields: an old field gone, a new one of the same type added,
/// and no alias on it naming the old.
fn renamed_fields(
    context: &mut Context<'_, '_>,
    definition: &Definition<'_>,
    (old_set, before): (&SchemaSet, &NamedSchema),
    (set, new): (&SchemaSet, &NamedSchema),
) {
    let (NamedKind::Record { fields: old, .. }, NamedKind::Record { fields, .. }) =
        (&before.kind, &new.kind)
    else {
        return;
    };
    // A field still there, or named by an alias of a new one, was not lost.
    let kept = |f: &Field| {
        fields
            .iter()
            .any(|g| g.name == f.name || g.aliases.contains(&f.name))
    };
    let mut added: Vec<(usize, &Field)> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !old.iter().any(|g| g.name == f.name))
        .collect();
    for gone in old.iter().filter(|f| !kept(f)) {
        let old_type = old_set.to_json(&gone.schema);
        let successor = added
            .iter()
            .position(|(_, f)| set.to_json(&f.schema) == old_type);
        if let Some((index, field)) = successor.map(|at| added.remove(at)) {
            let path = child(
                &child(
                    &context.doc.pointers.child_text(definition.path, "fields"),
                    index,
                ),
                "name",
            );
            context.report_with_help(
                Rule::RenameWithoutAlias,
                path,
                Subject::Field(definition.full_name.clone(), field.name.clone()),
                format!(
                    "field `{}` replaces `{}` of the same type without an alias",
                    field.name, gone.name
                ),
                Some(format!(
                    "add `@aliases([\"{}\"])` so that data written with the old name is read",
                    gone.name
                )),
            );
        }
    }
}

/// `rename-without-alias` of types: a new type shaped like an old one that is gone.
fn renamed_type(
    context: &mut Context<'_, '_>,
    definition: &Definition<'_>,
    (old, old_set): (&Document<'_>, &SchemaSet),
    (set, new): (&SchemaSet, &NamedSchema),
) {
    let aliased = |name: &str| new.aliases.iter().any(|a| a.full_name() == name);
    let gone = old.definitions.iter().find(|d| {
        d.kind == definition.kind
            && set.get(&d.full_name).is_none()
            && !aliased(&d.full_name)
            && old_set
                .get(&d.full_name)
                .is_some_and(|before| same_shape(old_set, before, set, new))
    });
    if let Some(gone) = gone {
        context.report_with_help(
            Rule::RenameWithoutAlias,
            context.doc.pointers.child_text(definition.path, "name"),
            Subject::Type(definition.full_name.clone()),
            format!(
                "`{}` replaces `{}`, of the same shape, without an alias",
                definition.full_name, gone.full_name
            ),
            Some(format!(
                "add `@aliases([\"{}\"])` so that data written with the old name is read",
                gone.full_name
            )),
        );
    }
}

/// Whether two named types have the same content whatever their names.
fn same_shape(old_set: &SchemaSet, old: &NamedSchema, set: &SchemaSet, new: &NamedSchema) -> bool {
    match (&old.kind, &new.kind) {
        (NamedKind::Record { fields: a, .. }, NamedKind::Record { fields: b, .. }) => {
            let shape = |s: &SchemaSet, f: &Field| (f.name.clone(), s.to_json(&f.schema));
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| shape(old_set, x) == shape(set, y))
        }
        (NamedKind::Enum { symbols: a, .. }, NamedKind::Enum { symbols: b, .. }) => a == b,
        (NamedKind::Fixed { size: a }, NamedKind::Fixed { size: b }) => a == b,
        _ => false,
    }
}
