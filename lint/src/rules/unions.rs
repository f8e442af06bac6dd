//! `union-size`: unions no wider than the settings allow.

use serde_json::Value;

use super::Context;
use crate::rule::Rule;

pub(super) fn check(context: &mut Context<'_, '_>) {
    let limit = context.settings.options.union_size;
    let doc = context.doc;
    for node in &doc.nodes {
        if let Value::Array(branches) = node.json {
            if branches.len() > limit {
                let subject = context.node_subject(node);
                context.report_with_help(
                    Rule::UnionSize,
                    context.doc.pointers.text(node.path),
                    subject,
                    format!("a union of {} branches, more than {limit}", branches.len()),
                    Some("a record with optional fields, or a wrapper record per case, evolves more easily".into()),
                );
            }
        }
    }
}
