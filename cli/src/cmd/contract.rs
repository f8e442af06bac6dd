//! A registered schema's data contract on the command line: the `--metadata` and
//! `--rule-set` files of `registry register`, and the lines `registry get` prints for them.

use std::fmt::Write as _;
use std::path::Path;

use avdl2rs_registry::{Metadata, Rule, RuleSet, Schema};
use serde::de::DeserializeOwned;

use crate::io::Failure;

/// Reads the JSON file `path` as a `T`; a mistake is located at its line and column.
pub fn json_file<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| {
        let at = avdl_parser::json_text::offset_of(&text, e.line(), e.column());
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(m, _)| m);
        Failure::Located {
            file: name,
            message: message.to_owned(),
            span: at..at,
            text,
        }
    })
}

/// The lines that show `schema`'s metadata and rules to people; empty without them.
pub fn text(schema: &Schema) -> String {
    let mut out = String::new();
    if let Some(metadata) = schema
        .metadata
        .as_ref()
        .filter(|m| **m != Metadata::default())
    {
        metadata_text(metadata, &mut out);
    }
    if let Some(rule_set) = schema.rule_set.as_ref().filter(|set| !set.is_empty()) {
        rules_text(rule_set, &mut out);
    }
    out
}

fn metadata_text(metadata: &Metadata, out: &mut String) {
    out.push_str("metadata:\n");
    for (key, value) in &metadata.properties {
        let secret = metadata.sensitive.contains(key);
        let value = if secret { "(sensitive)" } else { value };
        let _ = writeln!(out, "  property {key} = {value}");
    }
    for (path, tags) in &metadata.tags {
        let tags: Vec<_> = tags.iter().map(String::as_str).collect();
        let _ = writeln!(out, "  tags of {path}: {}", tags.join(", "));
    }
}

fn rules_text(rule_set: &RuleSet, out: &mut String) {
    out.push_str("rules:\n");
    let lists = [
        ("migration", &rule_set.migration_rules),
        ("domain", &rule_set.domain_rules),
        ("encoding", &rule_set.encoding_rules),
    ];
    for (list, rules) in lists {
        for rule in rules {
            let _ = writeln!(out, "  {list} {}", rule_line(rule));
        }
    }
}

/// One rule: kind, name, type and mode, then what it runs and does.
fn rule_line(rule: &Rule) -> String {
    let mut line = rule.to_string();
    if let Some(expr) = &rule.expr {
        let _ = write!(line, ": {expr}");
    }
    let actions = [
        ("onSuccess", &rule.on_success),
        ("onFailure", &rule.on_failure),
    ];
    for (name, action) in actions {
        if let Some(action) = action {
            let _ = write!(line, "; {name} {action}");
        }
    }
    if rule.disabled {
        line.push_str(" (disabled)");
    }
    line
}
