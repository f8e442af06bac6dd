//! The checks that need every definition: references must name defined types (forward
//! references included), and defaults must match their types.

use serde_json::Value;

use crate::ast::{Field, NamedKind, TypeExpr};
use crate::error::{Error, ErrorKind};
use crate::names;
use crate::source::Sources;
use crate::table::Definitions;
use crate::writer;

/// Resolves every reference in `defs` and `main`, then validates every default.
pub(crate) fn resolve(
    defs: &mut Definitions,
    main: Option<&mut TypeExpr>,
    sources: &Sources,
) -> Result<(), Error> {
    let mut types = std::mem::take(&mut defs.types);
    let mut messages = std::mem::take(&mut defs.messages);
    let mut result = Ok(());
    'walk: {
        for named in &mut types {
            if let NamedKind::Record { fields, .. } = &mut named.kind {
                for field in fields {
                    if let Err(e) = resolve_type(&mut field.ty, defs, sources) {
                        result = Err(e);
                        break 'walk;
                    }
                }
            }
        }
        for (_, message) in &mut messages {
            let errors = message.errors.iter_mut().flatten();
            let params = message.request.iter_mut().map(|f| &mut f.ty);
            for ty in params
                .chain(std::iter::once(&mut message.response))
                .chain(errors)
            {
                if let Err(e) = resolve_type(ty, defs, sources) {
                    result = Err(e);
                    break 'walk;
                }
            }
        }
        if let Some(main) = main {
            result = resolve_type(main, defs, sources);
        }
    }
    defs.types = types;
    defs.messages = messages;
    result?;
    check_defaults(defs, sources)
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
            Err(match names::closest(name, defs.names()) {
                Some(close) => error.with_help(format!("did you mean `{close}`?")),
                None => error,
            })
        }
    }
}

fn check_defaults(defs: &Definitions, sources: &Sources) -> Result<(), Error> {
    let record_fields = defs.types.iter().flat_map(|t| match &t.kind {
        NamedKind::Record { fields, .. } => fields.as_slice(),
        _ => &[],
    });
    let params = defs.messages.iter().flat_map(|(_, m)| m.request.iter());
    for field in record_fields.chain(params) {
        check_default(field, defs, sources)?;
    }
    Ok(())
}

fn check_default(field: &Field, defs: &Definitions, sources: &Sources) -> Result<(), Error> {
    let Some(default) = &field.default else {
        return Ok(());
    };
    if is_valid(default, &field.ty, defs) {
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
/// exactly `size` long). The reference checks neither symbols nor sizes.
fn is_valid(value: &Value, ty: &TypeExpr, defs: &Definitions) -> bool {
    match ty {
        TypeExpr::Primitive { name, .. } => is_valid_primitive(value, name),
        TypeExpr::Array { items, .. } => value
            .as_array()
            .is_some_and(|a| a.iter().all(|v| is_valid(v, items, defs))),
        TypeExpr::Map { values, .. } => value
            .as_object()
            .is_some_and(|o| o.values().all(|v| is_valid(v, values, defs))),
        TypeExpr::Union { branches } => branches.iter().any(|b| is_valid(value, b, defs)),
        TypeExpr::Named { name, .. } => match defs.lookup(name).map(|i| &defs.types[i].kind) {
            Some(NamedKind::Enum { symbols, .. }) => value
                .as_str()
                .is_some_and(|s| symbols.iter().any(|symbol| symbol == s)),
            Some(NamedKind::Fixed { size, .. }) => value
                .as_str()
                .is_some_and(|s| latin1_len(s).is_some_and(|n| n as u64 == *size)),
            Some(NamedKind::Record { fields, .. }) => value.as_object().is_some_and(|obj| {
                fields.iter().all(|f| match obj.get(&f.name) {
                    Some(v) => is_valid(v, &f.ty, defs),
                    None => f.default.is_some(),
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
