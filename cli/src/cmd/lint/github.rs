//! Findings as GitHub workflow commands, which the Actions runner shows as annotations on the
//! lines of the change: `::warning file=F,line=L,col=C,title=RULE::message`.

use avdl2rs_lint::Level;

use super::Outcome;

/// One command per finding and per file that could not be checked.
pub(super) fn report(outcome: &Outcome) -> String {
    let mut out = String::new();
    for (file, finding) in outcome.findings() {
        let command = match finding.level {
            Level::Error => "error",
            _ => "warning",
        };
        let text = match &finding.help {
            Some(help) => format!("{}\n{help}", finding.message),
            None => finding.message.clone(),
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},title={}::{}\n",
            property(&file.name),
            finding.line,
            finding.column,
            property(&format!("avdl2rs lint {}", finding.rule.id())),
            data(&text)
        ));
    }
    for file in &outcome.unchecked {
        let place = file
            .place
            .map(|(line, column)| format!(",line={line},col={column}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "::error file={}{place},title=avdl2rs lint::{}\n",
            property(&file.name),
            data(&file.message)
        ));
    }
    out
}

/// A command's message, escaped as the runner reads it back.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value, where `:` and `,` would end it.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(data("50%\nmore"), "50%25%0Amore");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
    }
}
