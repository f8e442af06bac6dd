//! A misspelt keyword behind a syntax error. The grammar reads any word where a type or a
//! message's result type may stand, so `recrod OrderEvent {` in a protocol fails only at the
//! `{` (a message needs `(`), and `arary<int>` at `arary`: saying "expected `(`" there helps
//! nobody. When the statement's first word, or the word before a bracket, is a few edits away
//! from a keyword, the error names the word and the keyword instead.

use std::ops::Range;

use crate::names::edit_distance;

/// Keywords that begin a declaration.
const DECLARATION_KEYWORDS: [&str; 8] = [
    "protocol",
    "namespace",
    "schema",
    "import",
    "record",
    "error",
    "enum",
    "fixed",
];

/// Keywords of the types written with a bracket after the keyword.
const TYPE_KEYWORDS: [&str; 4] = ["array", "map", "union", "decimal"];

/// The other words that are keywords where a declaration or a type may stand; with the two
/// lists above, no word of these is a misspelling.
const OTHER_KEYWORDS: [&str; 5] = ["void", "oneway", "throws", "idl", "null"];

/// Whether `word` is a keyword where a declaration or a type may stand.
fn is_keyword(word: &str) -> bool {
    [&DECLARATION_KEYWORDS[..], &TYPE_KEYWORDS, &OTHER_KEYWORDS]
        .iter()
        .any(|keywords| keywords.contains(&word))
}

/// A word that is probably a misspelt keyword.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Misspelt<'t> {
    /// The word's bytes in the text.
    pub span: Range<usize>,
    /// The word as written.
    pub word: &'t str,
    /// The keyword it is closest to.
    pub keyword: &'static str,
}

/// The misspelt keyword that explains a syntax error at `pos` of the (comment-blanked)
/// `text`, if there is one.
pub(crate) fn find(text: &str, pos: usize) -> Option<Misspelt<'_>> {
    type_keyword(text, pos).or_else(|| declaration_keyword(text, pos))
}

/// `arary<int>`, `unoin {…}`, `decmal(9, 2)`: the word at the error, followed by a bracket.
fn type_keyword(text: &str, pos: usize) -> Option<Misspelt<'_>> {
    let token = tokens(text).find(|t| t.start >= pos)?;
    let next = text[token.end..].trim_start_matches(' ');
    if token.start != pos || !next.starts_with(['<', '{', '(']) {
        return None;
    }
    misspelt(text, token, &TYPE_KEYWORDS)
}

/// `recrod OrderEvent {`, `enmu Color {`, `fixd MD5(16)`, `imprt idl "x.avdl"`: a statement
/// whose first word is close to a declaration keyword, failing at that word or where a
/// declaration's brace, string or size would follow.
fn declaration_keyword(text: &str, pos: usize) -> Option<Misspelt<'_>> {
    let statement = statement_at(text, pos);
    let first = without_annotations(text, &statement)?;
    let at = statement[first..].iter().position(|t| t.start >= pos)?;
    let found = text[pos..].chars().next();
    let declaration_like = matches!(found, Some('{' | '"' | '0'..='9')) && (2..=3).contains(&at);
    if at != 0 && !declaration_like {
        return None;
    }
    misspelt(text, statement[first].clone(), &DECLARATION_KEYWORDS)
}

/// The closest of `keywords` to the plain word `token`, when it is a few edits away.
fn misspelt<'t>(
    text: &'t str,
    token: Range<usize>,
    keywords: &[&'static str],
) -> Option<Misspelt<'t>> {
    let word = &text[token.clone()];
    let plain = word.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !plain || is_keyword(word) {
        return None;
    }
    let limit = word.chars().count() / 3 + 1;
    let (distance, keyword) = keywords
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .min_by_key(|(distance, _)| *distance)?;
    (distance <= limit).then_some(Misspelt {
        span: token,
        word,
        keyword,
    })
}

/// The tokens of the statement that holds `pos`, up to the first token at or after it: those
/// after the last `;`, `{` or `}` outside parentheses.
fn statement_at(text: &str, pos: usize) -> Vec<Range<usize>> {
    let mut statement = Vec::new();
    let mut depth = 0usize;
    for token in tokens(text) {
        let last = token.start >= pos;
        match &text[token.clone()] {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            ";" | "{" | "}" if depth == 0 && !last => {
                statement.clear();
                continue;
            }
            _ => {}
        }
        statement.push(token);
        if last {
            break;
        }
    }
    statement
}

/// The index of the first token of `statement` after its annotations (`@name(…)`).
fn without_annotations(text: &str, statement: &[Range<usize>]) -> Option<usize> {
    let mut at = 0;
    while text.get(statement.get(at)?.clone())? == "@" {
        at += 2;
        if text.get(statement.get(at)?.clone())? == "(" {
            let mut depth = 0usize;
            loop {
                match text.get(statement.get(at)?.clone())? {
                    "(" => depth += 1,
                    ")" => depth -= 1,
                    _ => {}
                }
                at += 1;
                if depth == 0 {
                    break;
                }
            }
        }
    }
    (at < statement.len()).then_some(at)
}

/// The tokens of `text`: words (with `.`, `-` and backticks), string literals, and any other
/// character alone. Blanks are spaces only, as the grammar reads the text.
fn tokens(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        pos += text[pos..].len() - text[pos..].trim_start_matches(' ').len();
        let rest = &text[pos..];
        let first = rest.chars().next()?;
        let is_word = |c: char| c.is_alphanumeric() || "_.-`".contains(c);
        let len = if first == '"' {
            string_length(rest)
        } else if is_word(first) {
            rest.find(|c: char| !is_word(c)).unwrap_or(rest.len())
        } else {
            first.len_utf8()
        };
        let token = pos..pos + len;
        pos += len;
        Some(token)
    })
}

/// The length of the string literal `rest` starts with (the rest of the text if unclosed).
fn string_length(rest: &str) -> usize {
    let mut escaped = false;
    for (at, c) in rest.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return at + 1,
            _ => escaped = false,
        }
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The misspelt word and keyword for an error at the first occurrence of `at`.
    fn found(text: &str, at: &str) -> Option<(String, &'static str)> {
        let pos = text.find(at).unwrap();
        find(text, pos).map(|m| (m.word.to_owned(), m.keyword))
    }

    #[test]
    fn declarations_and_types() {
        let cases = [
            (
                "protocol P { recrod OrderEvent { } }",
                "{ }",
                "recrod",
                "record",
            ),
            (
                "protocol P { @a(\"x;{\") enmu Color { A } }",
                "{ A",
                "enmu",
                "enum",
            ),
            ("protocol P { fixd MD5(16); }", "16", "fixd", "fixed"),
            (
                "protocol P { imprt idl \"x.avdl\"; }",
                "\"x",
                "imprt",
                "import",
            ),
            ("namespace n; recrod R { }", "recrod", "recrod", "record"),
            (
                "protocol P { record R { arary<int> xs; } }",
                "arary",
                "arary",
                "array",
            ),
            (
                "protocol P { record R { decmal(9,2) d; } }",
                "decmal",
                "decmal",
                "decimal",
            ),
        ];
        for (text, at, word, keyword) in cases {
            assert_eq!(found(text, at), Some((word.to_owned(), keyword)), "{text}");
        }
    }

    #[test]
    fn other_errors_are_left_alone() {
        for (text, at) in [
            // A message with a mistake further on.
            ("protocol P { Record get(int x; }", ";"),
            // A word far from every keyword.
            ("protocol P { Shipment OrderEvent { } }", "{ }"),
            // A keyword spelt right.
            ("protocol P { record R { int x } }", "}"),
        ] {
            assert_eq!(found(text, at), None, "{text}");
        }
    }
}
