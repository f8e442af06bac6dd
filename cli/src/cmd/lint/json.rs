//! Findings for programs: one JSON object.

use serde_json::{json, Value};

use super::Outcome;

/// `{"errors": N, "warnings": N, "findings": [...], "unchecked": [...]}`: each finding with
/// its file, rule, level, message, help, JSON Pointer, line and column.
pub(super) fn report(outcome: &Outcome) -> Value {
    let findings: Vec<Value> = outcome
        .findings()
        .map(|(file, finding)| {
            json!({
                "file": file.name,
                "rule": finding.rule.id(),
                "level": finding.level.as_str(),
                "message": finding.message,
                "help": finding.help,
                "path": finding.path,
                "line": finding.line,
                "column": finding.column,
            })
        })
        .collect();
    let unchecked: Vec<Value> = outcome
        .unchecked
        .iter()
        .map(|file| {
            json!({
                "file": file.name,
                "error": file.message,
                "line": file.place.map(|p| p.0),
                "column": file.place.map(|p| p.1),
            })
        })
        .collect();
    let errors = outcome.errors();
    json!({
        "errors": errors,
        "warnings": findings.len() - errors,
        "findings": findings,
        "unchecked": unchecked,
    })
}
