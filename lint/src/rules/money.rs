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
        if is_float && is_money_name(field.name) {
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

/// Whether a word of `name` means an amount of money, in any case.
fn is_money_name(name: &str) -> bool {
    words(name).any(|word| {
        MONEY_WORDS
            .iter()
            .any(|money| money.eq_ignore_ascii_case(word))
    })
}

/// The words of a camelCase or snake_case name as written, borrowed from it: a word ends
/// before an uppercase letter, `_` or `-`.
fn words(name: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut chars = name.char_indices();
    std::iter::from_fn(move || loop {
        let (word, next) = match chars.next() {
            Some((i, '_' | '-')) => (&name[start..i], i + 1),
            Some((i, c)) if c.is_uppercase() => (&name[start..i], i),
            Some(_) => continue,
            None => (&name[start..], name.len()),
        };
        start = next;
        if !word.is_empty() {
            return Some(word);
        }
        if next == name.len() {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        let split: Vec<&str> = words("totalPrice_usd").collect();
        assert_eq!(split, ["total", "Price", "usd"]);
        let split: Vec<&str> = words("__aB-CD_").collect();
        assert_eq!(split, ["a", "B", "C", "D"]);
        assert_eq!(words("").count(), 0);
        assert!(
            is_money_name("unitPrice")
                && is_money_name("Tax")
                && !is_money_name("TAX")
                && is_money_name("net_fee")
        );
        assert!(!is_money_name("costume") && !is_money_name("priceless"));
    }
}
