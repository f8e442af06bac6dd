//! Findings silenced in place by a comment naming their rules:
//!
//! ```text
//! // avdl2rs-lint: allow(missing-doc, naming)
//! record legacy_row { … }
//! string note; // avdl2rs-lint: allow(missing-default)
//! ```
//!
//! A comment at the end of a line covers that line; a comment on a line of its own covers the
//! next line that holds code. Only IDL has comments; JSON files are configured in
//! `avdl2rs.toml` alone.

use std::collections::HashSet;

use avdl_parser::syntax::{lex, SyntaxKind};

use crate::finding::{Finding, Lines};

/// What a suppression comment starts with.
const MARKER: &str = "avdl2rs-lint: allow(";

/// Removes the findings a comment in `text` silences. A text without the marker has none,
/// so it is not lexed again.
pub(crate) fn apply(text: &str, lines: &Lines<'_>, findings: &mut Vec<Finding>) {
    if !text.contains(MARKER) {
        return;
    }
    let silenced = silenced_lines(text, lines);
    findings.retain(|finding| {
        let line = lines.line(finding.span.start);
        !silenced.contains(&(line, finding.rule.id().to_owned()))
    });
}

/// Every (line, rule id) a comment silences.
fn silenced_lines(text: &str, lines: &Lines<'_>) -> HashSet<(usize, String)> {
    let mut silenced = HashSet::new();
    // Comments on lines of their own wait for the next line of code.
    let mut waiting: Vec<String> = Vec::new();
    let mut code_line = 0;
    for token in lex(text) {
        let start = usize::from(token.range.start());
        let line = lines.line(start);
        match token.kind {
            SyntaxKind::LineComment | SyntaxKind::BlockComment => {
                let ids = rule_ids(&text[start..usize::from(token.range.end())]);
                if code_line == line {
                    silenced.extend(ids.into_iter().map(|id| (line, id)));
                } else {
                    waiting.extend(ids);
                }
            }
            kind if kind.is_trivia() => {}
            _ => {
                code_line = line;
                silenced.extend(waiting.drain(..).map(|id| (line, id)));
            }
        }
    }
    silenced
}

/// The rule ids of a suppression comment; none for any other comment.
fn rule_ids(comment: &str) -> Vec<String> {
    let Some(at) = comment.find(MARKER) else {
        return Vec::new();
    };
    let rest = &comment[at + MARKER.len()..];
    let list = rest.split(')').next().unwrap_or("");
    list.split(',')
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_and_leading_comments() {
        let text = "protocol P {\n  // avdl2rs-lint: allow(naming, missing-doc)\n\n  \
                    record r {\n    string a; // avdl2rs-lint: allow(missing-default)\n  }\n}\n";
        let silenced = silenced_lines(text, &Lines::new(text));
        let mut lines: Vec<_> = silenced.into_iter().collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                (4, "missing-doc".to_owned()),
                (4, "naming".to_owned()),
                (5, "missing-default".to_owned())
            ]
        );
    }
}
