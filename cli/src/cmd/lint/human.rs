//! Findings for people: each as the compiler writes a diagnostic (`warning[naming]: …`, the
//! place, the source line and a caret, the help), then one summary line.

use avdl2rs_lint::Level;
use avdl_parser::render::{Diagnostic, Place, Severity, Style};

use super::Outcome;

/// The report; the files that could not be checked are reported on stderr by the caller.
pub(super) fn report(outcome: &Outcome) -> String {
    let style = Style::for_stdout();
    let mut out = String::new();
    for (file, finding) in outcome.findings() {
        let severity = match finding.level {
            Level::Error => Severity::Error,
            _ => Severity::Warning,
        };
        // Only the lines of the span go to the renderer, which would scan the whole text.
        let text = &file.text;
        let start = text[..finding.span.start]
            .rfind('\n')
            .map_or(0, |at| at + 1);
        let end = text[finding.span.end..]
            .find('\n')
            .map_or(text.len(), |at| finding.span.end + at);
        let diagnostic = Diagnostic {
            severity,
            code: Some(finding.rule.id()),
            message: &finding.message,
            place: Some(Place {
                file: &file.name,
                text: &text[start..end],
                span: finding.span.start - start..finding.span.end - start,
            }),
            first_line: finding.line,
            help: finding.help.as_deref(),
        };
        out.push_str(&diagnostic.render(style));
        out.push('\n');
    }
    out.push_str(&summary(outcome));
    out
}

/// `N errors, M warnings in K files`, and the files not checked.
fn summary(outcome: &Outcome) -> String {
    let errors = outcome.errors();
    let warnings = outcome.findings().count() - errors;
    let files = outcome.checked.len();
    let mut line = format!(
        "{} checked: {errors} {}, {warnings} {}",
        plural(files, "file"),
        if errors == 1 { "error" } else { "errors" },
        if warnings == 1 { "warning" } else { "warnings" },
    );
    if !outcome.unchecked.is_empty() {
        line.push_str(&format!(
            "; {} could not be checked",
            plural(outcome.unchecked.len(), "file")
        ));
    }
    line.push('\n');
    line
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
