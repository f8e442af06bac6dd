//! The checks that need every definition: references must name defined types (forward
//! references included), and defaults must match their types.

use serde_json::Value;

use crate::ast::{Field, NamedKind, TypeExpr};
use crate::error::{Error, ErrorKind};
use crate::names;
use crate::source::Sources;
use crate::table::Definitions;
use crate::writer;

/// How many errors of one pass are reported together.
pub(crate) const MAX_ERRORS: usize = 20;

/// Resolves every reference in `defs` and `main`, then, when they all resolve, validates
/// every default. Reports every error found, up to [`MAX_ERRORS`].
pub(crate) fn resolve(
    defs: &mut Definitions,
    main: Option<&mut TypeExpr>,
    sources: &Sources,
) -> Result<(), Error> {
    let mut types = std::mem::take(&mut defs.types);
    let mut messages = std::mem::take(&mut defs.messages);
    let mut found = Vec::new();
    {
        let fields = types.iter_mut().flat_map(|named| match &mut named.kind {
            NamedKind::Record { fields, .. } => fields.iter_mut().map(|f| &mut f.ty).collect(),
            _ => Vec::new(),
        });
        let in_messages = messages.iter_mut().flat_map(|(_, message)| {
            let params = message.request.iter_mut().map(|f| &mut f.ty);
            let errors = message.errors.iter_mut().flatten();
            params
                .chain(std::iter::once(&mut message.response))
                .chain(errors)
        });
        let all = fields.chain(in_messages).chain(main);
        let errors = all.filter_map(|ty| resolve_type(ty, defs, sources).err());
        found.extend(errors.take(MAX_ERRORS));
    }
    defs.types = types;
    defs.messages = messages;
    if found.is_empty() {
        found.extend(check_defaults(defs, sources).take(MAX_ERRORS));
    }
    Error::join(found).map_or(Ok(()), Err)
}

/// Points every reference of `ty` at its definition (a JSON schema's unqualified name may mean
/// the null namespace), or fails with the closest defined name as a hint.
fn resolve_type(ty: &mut TypeExpr, defs: &Definitions, sources: &Sources) -> Result<(), Error> {
    match ty {
        TypeExpr::Primitive { .. } => Ok(()),
        TypeExpr::Array { items: inner, .. } | TypeExpr::Map { values: inner, .. } => {
            resolve_type(inner, defs, sources)
        }
        TypeExpr::Union { branches } => branches
            .iter_mut()
            .try_for_each(|b| resolve_type(b, defs, sources)),
        TypeExpr::Named {
            name,
            fallback,
            span,
        } => {
            if defs.lookup(name).is_some() {
                return Ok(());
            }
            if let Some(fb) = fallback.take().filter(|fb| defs.lookup(fb).is_some()) {
                *name = fb;
                return Ok(());
            }
            let error = sources.error(
                ErrorKind::UndefinedName,
                *span,
                format!("Undefined schema: {name}"),
            );
            Err(match names::closest_type(name, defs.names()) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error,
            })
        }
    }
}

/// The errors of every default that does not match its type.
fn check_defaults<'a>(
    defs: &'a Definitions,
    sources: &'a Sources,
) -> impl Iterator<Item = Error> + 'a {
    let record_fields = defs.types.iter().flat_map(|t| match &t.kind {
        NamedKind::Record { fields, .. } => fields.as_slice(),
        _ => &[],
    });
    let params = defs.messages.iter().flat_map(|(_, m)| m.request.iter());
    record_fields
        .chain(params)
        .filter_map(move |field| check_default(field, defs, sources).err())
}

fn check_default(field: &Field, defs: &Definitions, sources: &Sources) -> Result<(), Error> {
    let Some(default) = &field.default else {
        return Ok(());
    };
    if is_valid(default, &field.ty, defs, &mut Vec::new()) {
        return Ok(());
    }
    let schema = writer::describe(&field.ty);
    let message = format!(
        "Invalid default for field {}: {default} not a {schema}",
        field.name
    );
    Err(sources.error(ErrorKind::InvalidDefault, field.default_span, message))
}

/// Avro's default rule (1.12), as the schema model checks it, so that what the parser accepts
/// code generation accepts too: union defaults may match any branch, an enum default is one
/// of its symbols, `bytes` and `fixed` defaults are strings of code points 0–255 (a fixed one
/// exactly `size` long), a record default takes a missing field from the field's default,
/// which may not lead back to itself (`[{}]` for a field `array<R> items` of `R` stands for
/// a value without end). The reference checks neither symbols, sizes nor nested defaults.
/// `expanding` holds the field defaults being expanded, by address.
fn is_valid<'d>(
    value: &Value,
    ty: &TypeExpr,
    defs: &'d Definitions,
    expanding: &mut Vec<&'d Value>,
) -> bool {
    match ty {
        TypeExpr::Primitive { name, .. } => is_valid_primitive(value, name),
        TypeExpr::Array { items, .. } => value
            .as_array()
            .is_some_and(|a| a.iter().all(|v| is_valid(v, items, defs, expanding))),
        TypeExpr::Map { values, .. } => value
            .as_object()
            .is_some_and(|o| o.values().all(|v| is_valid(v, values, defs, expanding))),
        TypeExpr::Union { branches } => {
            branches.iter().any(|b| is_valid(value, b, defs, expanding))
        }
        TypeExpr::Named { name, .. } => match defs.lookup(name).map(|i| &defs.types[i].kind) {
            Some(NamedKind::Enum { symbols, .. }) => value
                .as_str()
                .is_some_and(|s| symbols.iter().any(|symbol| symbol == s)),
            Some(NamedKind::Fixed { size, .. }) => value
                .as_str()
                .is_some_and(|s| latin1_len(s).is_some_and(|n| n as u64 == *size)),
            Some(NamedKind::Record { fields, .. }) => value.as_object().is_some_and(|obj| {
                fields.iter().all(|f| match (obj.get(&f.name), &f.default) {
                    (Some(v), _) => is_valid(v, &f.ty, defs, expanding),
                    (None, Some(default)) => {
                        if expanding.iter().any(|d| std::ptr::eq(*d, default)) {
                            return false;
                        }
                        expanding.push(default);
                        let valid = is_valid(default, &f.ty, defs, expanding);
                        expanding.pop();
                        valid
                    }
                    (None, None) => false,
                })
            }),
            None => false,
        },
    }
}

fn is_valid_primitive(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "int" => value.as_i64().is_some_and(|i| i32::try_from(i).is_ok()),
        "long" => value.is_i64(),
        // Non-finite IDL literals (NaN, Infinity) are written as strings.
        "float" | "double" => {
            value.is_number() || matches!(value.as_str(), Some("NaN" | "Infinity" | "-Infinity"))
        }
        "bytes" => value.as_str().and_then(latin1_len).is_some(),
        _ => value.is_string(),
    }
}

/// The number of bytes a `bytes` or `fixed` default stands for: one per character, each in
/// 0–255; `None` when a character is beyond.
fn latin1_len(text: &str) -> Option<usize> {
    text.chars()
        .try_fold(0, |n, c| (u32::from(c) <= 0xff).then_some(n + 1))
}
