//! `decimal` and `logical-type`: logical types that Avro ignores, so that the data reads as
//! its base type. Whether a logical type is valid is asked of the schema model, by parsing
//! the annotated node alone: the model keeps the one table of logical types and their rules.

use avdl2rs_schema::{SchemaKind, SchemaSet};
use serde_json::{json, Map, Value};

use super::Context;
use crate::document::member;
use crate::rule::Rule;

/// The base types a logical type may annotate, as the model is asked about them: a fixed
/// of 12 bytes stands for `duration`'s, one of 16 for `uuid`'s.
const BASES: [(&str, Option<usize>); 6] = [
    ("int", None),
    ("long", None),
    ("string", None),
    ("bytes", None),
    ("fixed", Some(12)),
    ("fixed", Some(16)),
];

pub(super) fn check(context: &mut Context<'_, '_>) {
    let doc = context.doc;
    let mut answers = Answers::default();
    for node in &doc.nodes {
        let Value::Object(object) = node.json else {
            continue;
        };
        let Some(name) = member(object, "logicalType").and_then(Value::as_str) else {
            continue;
        };
        let base = member(object, "type").and_then(Value::as_str).unwrap_or("");
        let size = member(object, "size")
            .and_then(Value::as_u64)
            .map(|s| s as usize);
        if answers.recognised(base, size, name, object) {
            continue;
        }
        let path = context.doc.pointers.child_text(node.path, "logicalType");
        if name == "decimal" {
            let message = decimal_problem(base, size, object);
            let subject = context.node_subject(node);
            context.report(Rule::Decimal, path, subject, message);
            continue;
        }
        let applies: Vec<String> = BASES
            .iter()
            .filter(|(b, s)| recognised(b, *s, name, object))
            .map(|(b, s)| s.map_or(b.to_string(), |s| format!("fixed({s})")))
            .collect();
        // A name no base type takes is a custom logical type, which Avro allows.
        if applies.is_empty() {
            continue;
        }
        let shown = match size {
            Some(size) if base == "fixed" => format!("fixed({size})"),
            _ => base.to_owned(),
        };
        let subject = context.node_subject(node);
        context.report_with_help(
            Rule::LogicalType,
            path,
            subject,
            format!("logical type `{name}` does not apply to `{shown}`: Avro ignores it"),
            Some(format!("`{name}` applies to {}", applies.join(", "))),
        );
    }
}

/// What decides the model's answer: base type, fixed size, logical type, precision, scale.
type Probe<'v> = (
    &'v str,
    Option<usize>,
    &'v str,
    Option<&'v Value>,
    Option<&'v Value>,
);

/// The model's answers to [`recognised`] so far: a file repeats the same few logical types
/// (a timestamp on every record), and asking the model builds a schema each time. Only the
/// first [`Answers::KEPT`] kinds are kept, so a file of ever new parameters costs no more
/// than without.
#[derive(Default)]
struct Answers<'v> {
    known: Vec<(Probe<'v>, bool)>,
}

impl<'v> Answers<'v> {
    const KEPT: usize = 32;

    /// [`recognised`], answered from the earlier answers when it can be.
    fn recognised(
        &mut self,
        base: &'v str,
        size: Option<usize>,
        name: &'v str,
        node: &'v Map<String, Value>,
    ) -> bool {
        let probe = (
            base,
            size,
            name,
            member(node, "precision"),
            member(node, "scale"),
        );
        if let Some((_, answer)) = self.known.iter().find(|(known, _)| *known == probe) {
            return *answer;
        }
        let answer = recognised(base, size, name, node);
        if self.known.len() < Self::KEPT {
            self.known.push((probe, answer));
        }
        answer
    }
}

/// Whether the schema model takes `name` as a logical type of `base` with the node's
/// parameters.
fn recognised(base: &str, size: Option<usize>, name: &str, node: &Map<String, Value>) -> bool {
    let mut probe = json!({"type": base, "logicalType": name});
    for key in ["precision", "scale"] {
        if let Some(value) = node.get(key) {
            probe[key] = value.clone();
        }
    }
    let mut set = SchemaSet::new();
    if base == "fixed" {
        probe["name"] = "Probe".into();
        probe["size"] = size.unwrap_or(0).into();
        return set.parse_value(&probe).is_ok()
            && set
                .get("Probe")
                .is_some_and(|named| named.logical_type.is_some());
    }
    set.parse_value(&probe).is_ok_and(|schema| {
        schema.logical_type.is_some() && !matches!(schema.kind, SchemaKind::Named(_))
    })
}

/// Why a decimal the model does not take is wrong.
fn decimal_problem(base: &str, size: Option<usize>, node: &Map<String, Value>) -> String {
    let precision = member(node, "precision").and_then(Value::as_u64);
    let scale = member(node, "scale").map_or(Some(0), Value::as_u64);
    match (base, precision, scale, size) {
        (b, _, _, _) if b != "bytes" && b != "fixed" => {
            format!("decimal on `{b}`: only bytes and fixed can be decimals, Avro ignores it")
        }
        (_, None | Some(0), _, _) => "decimal without a positive integer precision".to_owned(),
        (_, _, None, _) => "decimal with a scale that is not a non-negative integer".to_owned(),
        (_, Some(p), Some(s), _) if s > p => {
            format!("decimal scale {s} is greater than its precision {p}")
        }
        (_, Some(p), _, Some(size)) => format!(
            "decimal precision {p} does not fit in fixed({size}), which holds at most {} digits",
            max_digits(size)
        ),
        _ => "decimal parameters Avro does not accept".to_owned(),
    }
}

/// The most decimal digits a two's-complement number of `size` bytes always holds.
fn max_digits(size: usize) -> u64 {
    let bits = (size * 8).saturating_sub(1) as f64;
    (bits * std::f64::consts::LOG10_2).floor() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_of_fixed_sizes() {
        // 2^31 - 1 = 2147483647 (10 digits, not all 10-digit numbers fit): 9.
        assert_eq!(max_digits(4), 9);
        assert_eq!(max_digits(8), 18);
        assert_eq!(max_digits(1), 2);
    }
}
