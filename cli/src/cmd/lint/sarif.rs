//! Findings as SARIF 2.1.0, the format code scanning (GitHub's among others) uploads: one run
//! of the tool, its rules with their descriptions and default levels, one result per finding
//! at its file, line and column, and a notification per file that could not be checked.

use avdl2rs_lint::{Level, Rule};
use serde_json::{json, Value};

use super::Outcome;

/// The schema the log declares.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF log.
pub(super) fn report(outcome: &Outcome) -> Value {
    let rules: Vec<Value> = Rule::ALL
        .iter()
        .map(|rule| {
            json!({
                "id": rule.id(),
                "shortDescription": {"text": rule.description()},
                "defaultConfiguration": {"level": level(rule.default_level())},
            })
        })
        .collect();
    let results: Vec<Value> = outcome
        .findings()
        .map(|(file, finding)| {
            let index = Rule::ALL.iter().position(|r| *r == finding.rule);
            json!({
                "ruleId": finding.rule.id(),
                "ruleIndex": index,
                "level": level(finding.level),
                "message": {"text": match &finding.help {
                    Some(help) => format!("{} ({help})", finding.message),
                    None => finding.message.clone(),
                }},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(&file.name)},
                        "region": {"startLine": finding.line, "startColumn": finding.column},
                    },
                    "logicalLocations": [{"fullyQualifiedName": finding.path}],
                }],
            })
        })
        .collect();
    let notifications: Vec<Value> = outcome
        .unchecked
        .iter()
        .map(|file| {
            let mut notification = json!({
                "level": "error",
                "message": {"text": file.message},
            });
            if !file.name.is_empty() {
                let mut location = json!({"artifactLocation": {"uri": uri(&file.name)}});
                if let Some((line, column)) = file.place {
                    location["region"] = json!({"startLine": line, "startColumn": column});
                }
                notification["locations"] = json!([{"physicalLocation": location}]);
            }
            notification
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "avdl2rs lint",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": outcome.unchecked.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
        }],
    })
}

fn level(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Allow => "none",
    }
}

/// A path as a relative URI reference: `/` separators, and every byte outside the
/// characters a URI path may hold percent-encoded.
fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    let mut out = String::new();
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri("./schemas/my orders.avdl"), "schemas/my%20orders.avdl");
        assert_eq!(uri("a\\b.avsc"), "a/b.avsc");
    }
}
