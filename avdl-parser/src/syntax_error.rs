//! Syntax errors in words: what was expected at the furthest point the grammar reached, and
//! what was found there.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pest::error::{ErrorVariant, InputLocation};

use crate::error::{Error, ErrorKind};
use crate::grammar::{describe, Rule};
use crate::source::{Sources, Span};

/// A located syntax error for the pest error `error` on `text`.
///
/// The position is the furthest point any alternative of the grammar reached. Literal tokens
/// (`;`, `record`, …) are only tracked by pest's detailed mode, so the text is parsed a second
/// time with it, which costs something only when there is an error.
pub(crate) fn from_pest(
    error: &pest::error::Error<Rule>,
    text: &str,
    sources: &Sources,
    file: u32,
) -> Error {
    let mut pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    let mut expected: Vec<String> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &error.variant {
        expected.extend(positives.iter().map(|r| describe(*r).to_owned()));
    }
    if let Some((literal_pos, literals)) = expected_literals(text) {
        if literal_pos > pos {
            pos = literal_pos;
            expected.clear();
        }
        if literal_pos == pos {
            expected.extend(literals);
        }
    }
    if let Some(typo) = crate::misspelt_keyword::find(text, pos) {
        let message = format!(
            "unknown keyword `{}`; did you mean `{}`?",
            typo.word, typo.keyword
        );
        let span = Span {
            file,
            start: typo.span.start as u32,
            end: typo.span.end as u32,
        };
        return sources.error(ErrorKind::Syntax, span, message);
    }
    expected.sort();
    expected.dedup();
    simplify(&mut expected);
    let found = found_at(text, pos);
    let message = match expected.len() {
        0 => format!("unexpected {found}"),
        _ => format!("expected {}, found {found}", join_alternatives(&expected)),
    };
    let original = &sources.get(file).text;
    let span = match end_of_previous_line(text, original, pos) {
        // A missing `;` is forgotten at the end of a line, not at the next line's token: point
        // there, as rustc does.
        Some(end) if expected.iter().any(|e| e == "`;`") => end..end,
        _ => pos..pos + text[pos..].chars().next().map_or(0, char::len_utf8),
    };
    sources.error(
        ErrorKind::Syntax,
        Span {
            file,
            start: span.start as u32,
            end: span.end as u32,
        },
        message,
    )
}

/// The end of the last token before `pos`, when a line break separates the two. `text` is
/// what the grammar read (comments and blanks as spaces), `original` the file as written.
fn end_of_previous_line(text: &str, original: &str, pos: usize) -> Option<usize> {
    let end = text[..pos].trim_end().len();
    (end > 0 && original.get(end..pos)?.contains('\n')).then_some(end)
}

/// The furthest position reached and the literal tokens expected there.
fn expected_literals(text: &str) -> Option<(usize, Vec<String>)> {
    let detailed = DetailedParse::begin();
    let error = crate::grammar::parse_file(text).err();
    drop(detailed);
    let attempts = error?.parse_attempts()?;
    let tokens: Vec<String> = attempts
        .expected_tokens()
        .into_iter()
        .map(|t| t.to_string())
        .collect();
    let words = tokens
        .iter()
        .filter(|t| t.chars().all(|c| c.is_ascii_alphabetic()))
        .count();
    // A long list of keywords (every type keyword…) says less than the rule names do.
    let keep_words = words <= 4;
    let tokens: Vec<String> = tokens
        .into_iter()
        .filter(|t| is_punctuation(t) || (keep_words && t.chars().all(|c| c.is_ascii_alphabetic())))
        .map(|t| format!("`{t}`"))
        .collect();
    (!tokens.is_empty()).then_some((attempts.max_position, tokens))
}

/// Pest's detailed mode for one parse on this thread.
///
/// Pest offers the mode only as a process-wide switch, read when a parse starts. Detailed
/// parses therefore take turns: without the lock, one thread switching the mode off just before
/// another's detailed parse starts would cost that parse its literal tokens, and the same bad
/// input would get a different message depending on what ran beside it. An ordinary parse that
/// starts while the switch is on only records more; its tree and its error position are the
/// same. The switch goes off again when the guard drops, even if the parse panics.
struct DetailedParse {
    _turn: MutexGuard<'static, ()>,
}

static DETAILED_PARSE: Mutex<()> = Mutex::new(());

impl DetailedParse {
    fn begin() -> Self {
        // A panic during another detailed parse leaves nothing to repair: the guard of that
        // parse has switched the mode off.
        let guard = DETAILED_PARSE
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        pest::set_error_detail(true);
        DetailedParse { _turn: guard }
    }
}

impl Drop for DetailedParse {
    fn drop(&mut self) {
        pest::set_error_detail(false);
    }
}

/// "a JSON value" already says `{`, `[`, a string, a number, `true`…
fn simplify(expected: &mut Vec<String>) {
    const JSON_PARTS: [&str; 8] = [
        "`[`",
        "`{`",
        "`true`",
        "`false`",
        "`null`",
        "a number",
        "a string",
        "an integer",
    ];
    if expected.iter().any(|e| e == "a JSON value") {
        expected.retain(|e| !JSON_PARTS.contains(&e.as_str()));
    }
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
