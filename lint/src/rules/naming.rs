//! `naming` (PascalCase types, one case style for fields, UPPER_SNAKE enum symbols) and
//! `missing-namespace`.

use serde_json::Value;

use super::Context;
use crate::document::{member, simple_name, DefKind};
use crate::finding::Subject;
use crate::json_text::child;
use crate::pointer::Pointer;
use crate::rule::Rule;
use crate::settings::FieldCase;

pub(super) fn check(context: &mut Context<'_, '_>) {
    namespaces(context);
    if !context.runs(Rule::Naming) {
        return;
    }
    let doc = context.doc;
    for definition in &doc.definitions {
        let name = simple_name(&definition.full_name);
        if !is_pascal(name) {
            context.report(
                Rule::Naming,
                context.doc.pointers.child_text(definition.path, "name"),
                Subject::Type(definition.full_name.clone()),
                format!("type name `{name}` is not PascalCase"),
            );
        }
        if definition.kind == DefKind::Enum {
            symbols(
                context,
                member(definition.json, "symbols"),
                definition.path,
                &definition.full_name,
            );
        }
    }
    let case = context
        .settings
        .options
        .field_case
        .unwrap_or_else(|| majority(doc.fields.iter().map(|f| f.name)));
    for field in &doc.fields {
        if !fits(field.name, case) {
            let record = context.record_name(field);
            context.report(
                Rule::Naming,
                context.doc.pointers.child_text(field.path, "name"),
                Subject::Field(record, field.name.to_owned()),
                format!("field name `{}` is not {}", field.name, case.as_str()),
            );
        }
    }
}

/// `naming` of an enum's symbols.
fn symbols(context: &mut Context<'_, '_>, symbols: Option<&Value>, path: Pointer, name: &str) {
    let Some(Value::Array(symbols)) = symbols else {
        return;
    };
    for (i, symbol) in symbols.iter().enumerate() {
        let Some(symbol) = symbol.as_str() else {
            continue;
        };
        if !is_upper_snake(symbol) {
            context.report(
                Rule::Naming,
                child(&context.doc.pointers.child_text(path, "symbols"), i),
                Subject::Symbol(name.to_owned(), symbol.to_owned()),
                format!("enum symbol `{symbol}` is not UPPER_SNAKE_CASE"),
            );
        }
    }
}

/// `missing-namespace`: every named type has a namespace.
fn namespaces(context: &mut Context<'_, '_>) {
    let doc = context.doc;
    for definition in doc.definitions.iter().filter(|d| d.namespace.is_none()) {
        context.report_with_help(
            Rule::MissingNamespace,
            context.doc.pointers.child_text(definition.path, "name"),
            Subject::Type(definition.full_name.clone()),
            format!("`{}` is in the null namespace", definition.full_name),
            Some("give it, or the protocol or file, a namespace".into()),
        );
    }
}

/// The style most of `names` use (camelCase on a tie): names of one lowercase word fit both.
fn majority<'a>(names: impl Iterator<Item = &'a str>) -> FieldCase {
    let (mut camel, mut snake) = (0, 0);
    for name in names {
        if name.contains('_') {
            snake += 1;
        } else if name.chars().any(|c| c.is_ascii_uppercase()) {
            camel += 1;
        }
    }
    if snake > camel {
        FieldCase::Snake
    } else {
        FieldCase::Camel
    }
}

fn fits(name: &str, case: FieldCase) -> bool {
    let starts_lower = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    starts_lower
        && match case {
            FieldCase::Camel => name.chars().all(|c| c.is_ascii_alphanumeric()),
            FieldCase::Snake => name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
        }
}

fn is_pascal(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_upper_snake(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles() {
        assert!(is_pascal("OrderLine") && !is_pascal("orderLine") && !is_pascal("Order_Line"));
        assert!(fits("orderId", FieldCase::Camel) && !fits("order_id", FieldCase::Camel));
        assert!(fits("order_id", FieldCase::Snake) && !fits("orderId", FieldCase::Snake));
        assert!(fits("id", FieldCase::Camel) && fits("id", FieldCase::Snake));
        assert!(is_upper_snake("IN_STOCK") && !is_upper_snake("InStock"));
        assert_eq!(majority(["a_b", "c_d", "eF"].into_iter()), FieldCase::Snake);
        assert_eq!(majority(["a_b", "eF", "id"].into_iter()), FieldCase::Camel);
    }
}
