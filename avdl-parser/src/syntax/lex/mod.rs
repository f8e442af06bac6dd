//! The lexer of the syntax tree: splits any text into tokens that cover every byte exactly
//! once, trivia included, so the tree built from them prints the text back unchanged.
//!
//! It follows the token rules of the grammar (`grammar.pest`) and of the compiler's scan
//! (`lexical.rs`): `/**/` is an empty block comment, not a doc comment; a keyword is a whole
//! name (`records` and `record.x` are names); a string ends at the end of its line. It never
//! fails: bytes it cannot place become [`Error`](SyntaxKind::Error) tokens, and a malformed
//! token carries a [`LexError`]. Each byte is looked at a bounded number of times, so lexing
//! is linear.

mod literals;

use std::fmt;

use rowan::{TextRange, TextSize};

use super::SyntaxKind;

/// One token: its kind and its bytes in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: SyntaxKind,
    /// Its byte range in the text.
    pub range: TextRange,
    /// What is wrong with it, for a token the compiler would reject.
    pub error: Option<LexError>,
}

/// What is wrong with a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LexError {
    /// A character that starts no token.
    UnexpectedCharacter,
    /// A string literal without its closing `"` on the same line.
    UnterminatedString,
    /// A block or doc comment without its closing `*/`: it runs to the end of the text.
    UnterminatedComment,
    /// A backslash escape that the grammar does not know (`\q`, `\u12`).
    InvalidEscape,
    /// A tab, backspace or form feed written as such inside a string.
    ControlCharacterInString,
    /// A backticked name without its closing backtick, or not a name inside (`` `1` ``).
    InvalidQuotedName,
    /// A number literal the grammar does not accept (`1x`, `+1`, `0x`).
    InvalidNumber,
}

impl LexError {
    /// The message of the error, for a diagnostic.
    pub fn message(self) -> &'static str {
        match self {
            LexError::UnexpectedCharacter => "unexpected character",
            LexError::UnterminatedString => "unterminated string: no closing `\"` on its line",
            LexError::UnterminatedComment => "unterminated comment: `/*` without `*/`",
            LexError::InvalidEscape => "invalid escape sequence in string",
            LexError::ControlCharacterInString => {
                "tab, backspace or form feed in a string (write it as an escape)"
            }
            LexError::InvalidQuotedName => "invalid backticked name",
            LexError::InvalidNumber => "invalid number literal",
        }
    }
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Splits `text` into tokens. Their ranges are consecutive and cover all of `text`, so the
/// concatenation of the token texts is `text`. Positions are 32-bit, as in rowan: the text
/// must be shorter than 4 GiB.
pub fn lex(text: &str) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 4 + 1);
    let mut at = 0;
    if text.starts_with('\u{FEFF}') {
        tokens.push(Token {
            kind: SyntaxKind::Bom,
            range: TextRange::at(size(0), TextSize::of('\u{FEFF}')),
            error: None,
        });
        at = '\u{FEFF}'.len_utf8();
    }
    while at < text.len() {
        let (kind, len, error) = next_token(&text[at..]);
        // Every arm of `next_token` consumes at least one character.
        debug_assert!(len > 0 && text.is_char_boundary(at + len));
        tokens.push(Token {
            kind,
            range: TextRange::at(size(at), size(len)),
            error,
        });
        at += len;
    }
    tokens
}

/// A byte count as a text size; texts longer than 4 GiB are not supported by the tree.
fn size(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or(TextSize::from(u32::MAX))
}

/// A lexed token: kind, length in bytes, problem.
type Lexed = (SyntaxKind, usize, Option<LexError>);

/// The token at the start of `rest` (never empty), by its first byte.
fn next_token(rest: &str) -> Lexed {
    let bytes = rest.as_bytes();
    let punctuation = |kind| (kind, 1, None);
    match bytes[0] {
        // Names are the most frequent tokens; a letter or `_` never starts a number.
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => name_or_error(rest),
        b' ' | b'\t' | 0x0C => (SyntaxKind::Whitespace, blank_len(bytes), None),
        b'\r' if bytes.get(1) == Some(&b'\n') => (SyntaxKind::Newline, 2, None),
        b'\n' | b'\r' => (SyntaxKind::Newline, 1, None),
        b'@' => punctuation(SyntaxKind::At),
        b'{' => punctuation(SyntaxKind::LBrace),
        b'}' => punctuation(SyntaxKind::RBrace),
        b'(' => punctuation(SyntaxKind::LParen),
        b')' => punctuation(SyntaxKind::RParen),
        b'[' => punctuation(SyntaxKind::LBracket),
        b']' => punctuation(SyntaxKind::RBracket),
        b'<' => punctuation(SyntaxKind::LAngle),
        b'>' => punctuation(SyntaxKind::RAngle),
        b';' => punctuation(SyntaxKind::Semicolon),
        b',' => punctuation(SyntaxKind::Comma),
        b'=' => punctuation(SyntaxKind::Eq),
        b':' => punctuation(SyntaxKind::Colon),
        b'?' => punctuation(SyntaxKind::Question),
        b'/' if bytes.get(1) == Some(&b'/') => (SyntaxKind::LineComment, line_len(bytes), None),
        b'/' if bytes.get(1) == Some(&b'*') => block_comment(rest),
        0x1A => (SyntaxKind::EofTail, rest.len(), None),
        b'"' => literals::string(rest),
        _ if literals::starts_number(rest) => literals::number(rest),
        _ => name_or_error(rest),
    }
}

/// Length of the run of spaces, tabs and form feeds at the start of `bytes`.
fn blank_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | 0x0C))
        .unwrap_or(bytes.len())
}

/// Length of the line comment at the start of `bytes`: up to the line break.
fn line_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(bytes.len())
}

/// The block or doc comment at the start of `rest` (which starts with `/*`). Out of line,
/// to keep the lexer's loop over the common tokens small.
#[inline(never)]
fn block_comment(rest: &str) -> Lexed {
    let body = &rest.as_bytes()[2..];
    let doc = body.first() == Some(&b'*');
    match comment_end(body) {
        // `/**/` closes at once: an empty block comment, not a doc comment.
        Some(end) => {
            let kind = if doc && end > 0 {
                SyntaxKind::DocComment
            } else {
                SyntaxKind::BlockComment
            };
            (kind, end + 4, None)
        }
        None => {
            let kind = if doc {
                SyntaxKind::DocComment
            } else {
                SyntaxKind::BlockComment
            };
            (kind, rest.len(), Some(LexError::UnterminatedComment))
        }
    }
}

/// Where the first `*/` in `body` starts: each `*` is looked at once, and only it is
/// followed by a look at the next byte.
fn comment_end(body: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(star) = body[from..].iter().position(|&b| b == b'*') {
        let at = from + star;
        if body.get(at + 1) == Some(&b'/') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// A name (with its dotted or dashed parts), a keyword, `NaN`/`Infinity`, or one character
/// that starts no token.
fn name_or_error(rest: &str) -> Lexed {
    let bytes = rest.as_bytes();
    let Some(first) = name_part(rest) else {
        return bad_start(rest);
    };
    let mut len = first;
    let mut quoted = bytes[0] == b'`';
    // `a.b`, `a-b`: a separator counts only when a whole part follows it.
    while matches!(bytes.get(len), Some(b'.' | b'-')) {
        match name_part(&rest[len + 1..]) {
            Some(part) => {
                quoted |= bytes[len + 1] == b'`';
                len += 1 + part;
            }
            None => break,
        }
    }
    let word = &rest[..len];
    let kind = if quoted {
        SyntaxKind::QuotedIdent
    } else if let Some(keyword) = SyntaxKind::keyword(word) {
        keyword
    } else if word == "NaN" || word == "Infinity" {
        SyntaxKind::Float
    } else {
        SyntaxKind::Ident
    };
    (kind, len, None)
}

/// Length of the name part (`word` or `` `word` ``) at the start of `rest`, if one is there.
fn name_part(rest: &str) -> Option<usize> {
    let (open, inner) = match rest.strip_prefix('`') {
        Some(inner) => (1, inner),
        None => (0, rest),
    };
    let first = *inner.as_bytes().first()?;
    let start = if first.is_ascii() {
        (first.is_ascii_alphabetic() || first == b'_').then_some(1)?
    } else {
        inner
            .chars()
            .next()
            .filter(|&c| is_name_start(c))?
            .len_utf8()
    };
    let len = start + continue_len(&inner[start..]);
    if open == 0 {
        return Some(len);
    }
    inner[len..].starts_with('`').then_some(len + 2)
}

/// The bytes that continue a name by themselves: the ASCII letters, digits and `_`, which
/// are all the ASCII characters that continue an identifier.
const NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_';
        byte += 1;
    }
    table
};

/// Length of the run of identifier-continuing characters at the start of `text`. ASCII
/// bytes are looked up in [`NAME_BYTES`]; the Unicode tables are asked only from the first
/// non-ASCII byte on.
fn continue_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let ascii = bytes
        .iter()
        .position(|&b| !NAME_BYTES[usize::from(b)])
        .unwrap_or(bytes.len());
    if bytes.get(ascii).is_none_or(u8::is_ascii) {
        return ascii;
    }
    let rest = &text[ascii..];
    ascii
        + rest
            .char_indices()
            .find(|&(_, c)| !unicode_ident::is_xid_continue(c))
            .map_or(rest.len(), |(i, _)| i)
}

/// Whether `c` may start a name part, as the grammar's `ident_start`.
fn is_name_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

/// An error token at a character that starts no token: a malformed backticked name runs to
/// its closing backtick on the same line (so the name inside is not read as another token),
/// anything else is one character. Cold: a file that compiles has none.
#[cold]
fn bad_start(rest: &str) -> Lexed {
    if let Some(after) = rest.strip_prefix('`') {
        let inner = continue_len(after);
        let close = usize::from(after[inner..].starts_with('`'));
        return (
            SyntaxKind::Error,
            1 + inner + close,
            Some(LexError::InvalidQuotedName),
        );
    }
    let len = rest.chars().next().map_or(1, char::len_utf8);
    (SyntaxKind::Error, len, Some(LexError::UnexpectedCharacter))
}

#[cfg(test)]
mod tests;
