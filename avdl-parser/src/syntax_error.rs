//! Syntax errors in words: what was expected at the furthest point the grammar reached, and
//! what was found there.

use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

use crate::error::{Error, ErrorKind};
use crate::grammar::{describe, IdlGrammar, Rule};
use crate::source::{Sources, Span};

/// A located syntax error for the pest error `error` on `text`.
pub(crate) fn from_pest(
    error: &pest::error::Error<Rule>,
    text: &str,
    sources: &Sources,
    file: u32,
) -> Error {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    let mut expected: Vec<String> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &error.variant {
        expected.extend(positives.iter().map(|r| describe(*r).to_owned()));
    }
    expected.extend(expected_literals(text, pos));
    expected.sort();
    expected.dedup();
    let found = found_at(text, pos);
    let message = match expected.len() {
        0 => format!("unexpected {found}"),
        _ => format!("expected {}, found {found}", join_alternatives(&expected)),
    };
    let len = text[pos..].chars().next().map_or(0, char::len_utf8);
    sources.error(
        ErrorKind::Syntax,
        Span {
            file,
            start: pos as u32,
            end: (pos + len) as u32,
        },
        message,
    )
}

/// Punctuation the grammar would have accepted at `pos`. Needs a second, detailed parse,
/// which is paid for only when there is an error.
fn expected_literals(text: &str, pos: usize) -> Vec<String> {
    pest::set_error_detail(true);
    let detailed = IdlGrammar::parse(Rule::idl_file, text).err();
    pest::set_error_detail(false);
    let Some(attempts) = detailed.as_ref().and_then(|e| e.parse_attempts()) else {
        return Vec::new();
    };
    if attempts.max_position != pos {
        return Vec::new();
    }
    attempts
        .expected_tokens()
        .into_iter()
        .map(|token| token.to_string())
        .filter(|token| is_punctuation(token))
        .map(|token| format!("`{token}`"))
        .collect()
}

fn is_punctuation(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| "(){}[]<>;,:=@?".contains(c))
}

/// `a`, `a or b`, `a, b or c`.
fn join_alternatives(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What stands at `pos`: a word, a character, or the end of the file.
fn found_at(text: &str, pos: usize) -> String {
    let rest = &text[pos..];
    let Some(c) = rest.chars().next() else {
        return "the end of the file".to_owned();
    };
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .take(40)
            .collect();
        return format!("`{word}`");
    }
    if c.is_control() {
        return format!("the character U+{:04X}", c as u32);
    }
    format!("`{c}`")
}
