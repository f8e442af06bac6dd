//! String and number literals, following `string_lit`, `int_lit` and `float_lit` of the
//! grammar.

use super::{continue_len, LexError, Lexed};
use crate::syntax::SyntaxKind;

/// The string literal at the start of `rest` (which starts with `"`). It ends at its closing
/// quote, or unterminated before the line break or at the end of the text: a string cannot
/// span lines, and stopping at the line break keeps the next lines readable.
pub(super) fn string(rest: &str) -> Lexed {
    let bytes = rest.as_bytes();
    let mut error = None;
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let error = error.or_else(|| unpaired_surrogate(&rest[..=i]));
                return (SyntaxKind::String, i + 1, error);
            }
            b'\n' | b'\r' => break,
            b'\\' => match escape_len(&bytes[i + 1..]) {
                Some(len) => i += 1 + len,
                None => {
                    error = Some(LexError::InvalidEscape);
                    i += 1;
                }
            },
            0x08 | b'\t' | 0x0C => {
                error = Some(LexError::ControlCharacterInString);
                i += 1;
            }
            _ => i += 1,
        }
    }
    (SyntaxKind::String, i, Some(LexError::UnterminatedString))
}

/// The error of a string whose escapes are each well formed but that the compiler still
/// refuses: a `\u` escape of half a surrogate pair without the other half.
fn unpaired_surrogate(literal: &str) -> Option<LexError> {
    let refused = literal.contains("\\u") && crate::literal::unescape(literal).is_err();
    refused.then_some(LexError::InvalidEscape)
}

/// Length of the escape after a backslash (`n`, `u0041`, `101`…), if it is one the grammar
/// knows.
fn escape_len(after: &[u8]) -> Option<usize> {
    let octal = |from: usize, max: usize| {
        after[from..]
            .iter()
            .take(max)
            .take_while(|b| matches!(b, b'0'..=b'7'))
            .count()
    };
    match *after.first()? {
        b'u' if after.len() >= 5 && after[1..5].iter().all(u8::is_ascii_hexdigit) => Some(5),
        b'0'..=b'3' => Some(1 + octal(1, 2)),
        b'4'..=b'7' => Some(1 + octal(1, 1)),
        b'n' | b'r' | b'b' | b'f' | b't' | b'\\' | b'\'' | b'"' => Some(1),
        _ => None,
    }
}

/// Whether a number literal starts `rest`: a digit, or `.`, `+` or `-` before a digit, or a
/// sign before `NaN` or `Infinity` (alone, those two words are lexed as names are).
pub(super) fn starts_number(rest: &str) -> bool {
    let unsigned = rest.strip_prefix(['+', '-']).unwrap_or(rest);
    let digit_at = |i: usize| unsigned.as_bytes().get(i).is_some_and(u8::is_ascii_digit);
    digit_at(0)
        || unsigned.starts_with('.') && digit_at(1)
        || unsigned.len() < rest.len()
            && (unsigned.starts_with("NaN") || unsigned.starts_with("Infinity"))
}

/// The number literal at the start of `rest` (where [`starts_number`] holds). A literal the
/// grammar rejects, including one run into a name (`12ab`), is one error token.
pub(super) fn number(rest: &str) -> Lexed {
    let bytes = rest.as_bytes();
    let signed = matches!(bytes[0], b'+' | b'-');
    let sign = usize::from(signed);
    let unsigned = &rest[sign..];
    let shape = if let Some(word) = ["NaN", "Infinity"]
        .into_iter()
        .find(|w| unsigned.starts_with(w))
    {
        Some((SyntaxKind::Float, word.len()))
    } else if unsigned.starts_with("0x") || unsigned.starts_with("0X") {
        hex_number(&unsigned.as_bytes()[2..]).map(|(kind, len)| (kind, 2 + len))
    } else {
        decimal_number(unsigned.as_bytes())
    };
    let (kind, len) = match shape {
        // `+` is allowed before a float only.
        Some((SyntaxKind::Int, _)) if bytes[0] == b'+' => (SyntaxKind::Error, 0),
        Some((kind, len)) => (kind, len),
        None => (SyntaxKind::Error, 0),
    };
    let end = sign + len;
    let tail = name_tail_len(&rest[end..]);
    if kind == SyntaxKind::Error || tail > 0 {
        let end = end.max(sign + digits_len(unsigned.as_bytes()));
        let end = end + name_tail_len(&rest[end..]);
        return (SyntaxKind::Error, end.max(1), Some(LexError::InvalidNumber));
    }
    (kind, end, None)
}

/// Length of the characters a number may not be followed by (name characters, backticks and
/// dots), which the grammar would read as a malformed number.
fn name_tail_len(text: &str) -> usize {
    let mut len = 0;
    loop {
        let rest = &text[len..];
        let run = continue_len(rest);
        if run > 0 {
            len += run;
        } else if rest.starts_with(['`', '.']) {
            len += 1;
        } else {
            return len;
        }
    }
}

/// Length of the run of ASCII digits (of any base) and letters at the start of `bytes`.
fn digits_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !b.is_ascii_alphanumeric())
        .unwrap_or(bytes.len())
}

fn count(bytes: &[u8], pred: impl Fn(&u8) -> bool) -> usize {
    bytes.iter().take_while(|b| pred(b)).count()
}

/// The hexadecimal integer or float after `0x`: `1F`, `1Fl`, `1.8p3`, `.8p-1d`.
fn hex_number(bytes: &[u8]) -> Option<(SyntaxKind, usize)> {
    let whole = count(bytes, u8::is_ascii_hexdigit);
    let mut i = whole;
    let dot = bytes.get(i) == Some(&b'.');
    let mut fraction = 0;
    if dot {
        fraction = count(&bytes[i + 1..], u8::is_ascii_hexdigit);
        i += 1 + fraction;
    }
    if matches!(bytes.get(i), Some(b'p' | b'P')) {
        if whole + fraction == 0 {
            return None;
        }
        i += 1 + usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        let exponent = count(&bytes[i.min(bytes.len())..], u8::is_ascii_digit);
        if exponent == 0 {
            return None;
        }
        i += exponent;
        i += usize::from(matches!(bytes.get(i), Some(b'f' | b'F' | b'd' | b'D')));
        return Some((SyntaxKind::Float, i));
    }
    if dot || whole == 0 {
        return None;
    }
    i += usize::from(matches!(bytes.get(i), Some(b'l' | b'L')));
    Some((SyntaxKind::Int, i))
}

/// The decimal integer or float: `12`, `12L`, `1.5`, `1.`, `.5e-3`, `2e8`, `3f`.
fn decimal_number(bytes: &[u8]) -> Option<(SyntaxKind, usize)> {
    let whole = count(bytes, u8::is_ascii_digit);
    let mut i = whole;
    let dot = bytes.get(i) == Some(&b'.');
    if dot {
        let fraction = count(&bytes[i + 1..], u8::is_ascii_digit);
        if whole + fraction == 0 {
            return None;
        }
        i += 1 + fraction;
    }
    let exponent = matches!(bytes.get(i), Some(b'e' | b'E'));
    if exponent {
        i += 1 + usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        let digits = count(&bytes[i.min(bytes.len())..], u8::is_ascii_digit);
        if digits == 0 {
            return None;
        }
        i += digits;
    }
    match bytes.get(i) {
        Some(b'f' | b'F' | b'd' | b'D') => Some((SyntaxKind::Float, i + 1)),
        Some(b'l' | b'L') if !dot && !exponent => Some((SyntaxKind::Int, i + 1)),
        _ if dot || exponent => Some((SyntaxKind::Float, i)),
        _ => Some((SyntaxKind::Int, i)),
    }
}
