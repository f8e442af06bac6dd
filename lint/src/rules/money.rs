//! `float-money`: amounts of money in binary floating point.

use super::Context;
use crate::document::{member, type_shape, TypeShape};
use crate::finding::Subject;
use crate::rule::Rule;

/// Words that, as a word of a field name, mean an amount of money.
const MONEY_WORDS: [&str; 16] = [
    "amount", "price", "cost", "balance", "total", "subtotal", "fee", "fees", "tax", "salary",
    "payment", "money", "revenue", "discount", "charge", "refund",
];

pub(super) fn check(context: &mut Context<'_, '_>) {
    let doc = context.doc;
    for field in &doc.fields {
        let Some(schema) = member(field.json, "type") else {
            continue;
        };
        let floating = |shape| matches!(shape, TypeShape::Primitive("float" | "double"));
        let is_float = match type_shape(schema) {
            TypeShape::Union(branches) => branches.iter().any(|b| floating(type_shape(b))),
            shape => floating(shape),
        };
        if is_float && words(field.name).any(|w| MONEY_WORDS.contains(&w.as_str())) {
            let record = context.record_name(field);
            context.report_with_help(
                Rule::FloatMoney,
                context.doc.pointers.child_text(field.path, "type"),
                Subject::FieldType(record, field.name.to_owned()),
                format!(
                    "`{}` looks like an amount of money but is a binary floating-point number",
                    field.name
                ),
                Some("use `decimal(precision, scale)`, which holds decimal amounts exactly".into()),
            );
        }
    }
}

/// The lowercase words of a camelCase or snake_case name.
fn words(name: &str) -> impl Iterator<Item = String> + '_ {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        let boundary = c == '_' || c == '-' || c.is_uppercase();
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c != '_' && c != '-' {
            current.extend(c.to_lowercase());
        }
    }
    words.push(current);
    words.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        let split: Vec<String> = words("totalPrice_usd").collect();
        assert_eq!(split, ["total", "price", "usd"]);
        assert!(!words("costume").any(|w| MONEY_WORDS.contains(&w.as_str())));
    }
}
