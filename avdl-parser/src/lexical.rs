//! A single linear scan before the grammar runs: finds doc comments and which token each one
//! precedes, blanks out comments (so the grammar skips only whitespace between tokens, which
//! makes it much faster), and bounds bracket nesting so the recursive-descent parser cannot
//! exhaust the stack.

use crate::error::{Error, ErrorKind};
use crate::source::{Sources, Span};

/// Deepest bracket nesting (`{ [ ( <` together) a file may use.
pub(crate) const MAX_NESTING: usize = 100;

/// What the scan learned about a file.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Byte offset of a token and byte range of the inside of the doc comment right before it
    /// (the last one, when several are stacked), in the order of the tokens (a sorted list
    /// looks up faster than a hash map, which would hash every token asked about).
    docs: Vec<(u32, (u32, u32))>,
}

impl Scan {
    /// The byte range of the inside of the doc comment right before the token at `token`.
    pub fn doc_before(&self, token: u32) -> Option<(u32, u32)> {
        let i = self.docs.binary_search_by_key(&token, |&(at, _)| at).ok()?;
        Some(self.docs[i].1)
    }
}

/// Why a file was rejected by the scan: message and byte offset.
#[derive(Debug)]
pub(crate) struct ScanError {
    pub message: String,
    pub offset: usize,
}

impl ScanError {
    /// The located error, in file `file` of `sources`.
    pub fn into_error(self, sources: &Sources, file: u32) -> Error {
        let span = Span {
            file,
            start: self.offset as u32,
            end: self.offset as u32 + 1,
        };
        let kind = if self.message.starts_with("brackets") {
            ErrorKind::TooDeep
        } else {
            ErrorKind::Syntax
        };
        sources.error(kind, span, self.message)
    }
}

/// Scans `text`. Strings and backtick names are skipped so that comment markers inside them
/// do not count; `/**/` is an empty comment, not a doc comment.
///
/// Also returns the text the grammar reads: `text` with every comment and every blank outside
/// strings and backtick names replaced by a space, so byte offsets are unchanged and the
/// grammar skips only spaces between tokens (one comparison per character). After an
/// unterminated string nothing more is replaced, so the grammar still sees the line break
/// that ends it.
pub(crate) fn scan(text: &str) -> Result<(Scan, String), ScanError> {
    let bytes = text.as_bytes();
    let mut scan = Scan::default();
    let mut blanked = bytes.to_vec();
    // Cleared by an unterminated string.
    let mut blank = true;
    let mut pending: Option<(u32, u32)> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' => {
                i += 1;
                continue;
            }
            b'\t' | b'\n' | b'\r' | 0x0C => {
                if blank {
                    blanked[i] = b' ';
                }
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = line_end(bytes, i);
                blanked[i..end].fill(b' ');
                i = end;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map(|e| i + 2 + e)
                    .ok_or(ScanError {
                        message: "unterminated comment: `/*` without `*/`".into(),
                        offset: i,
                    })?;
                let is_doc = bytes.get(i + 2) == Some(&b'*') && end > i + 2;
                if is_doc {
                    pending = Some((offset(i + 3), offset(end)));
                }
                blanked[i..end + 2].fill(b' ');
                i = end + 2;
                continue;
            }
            0x1A => break,
            _ => {}
        }
        if let Some(doc) = pending.take() {
            scan.docs.push((offset(i), doc));
        }
        match b {
            b'"' => {
                let (end, closed) = skip_string(bytes, i);
                blank &= closed;
                i = end;
            }
            b'`' => {
                i = bytes[i + 1..]
                    .iter()
                    .position(|&c| c == b'`')
                    .map_or(bytes.len(), |p| i + 2 + p)
            }
            b'{' | b'[' | b'(' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ScanError {
                        message: format!("brackets nested more than {MAX_NESTING} levels deep"),
                        offset: i,
                    });
                }
                i += 1;
            }
            b'}' | b']' | b')' | b'>' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ if b.is_ascii() => i += 1,
            _ => i = skip_token_char(text, i),
        }
    }
    // Only whole UTF-8 sequences were replaced, each by ASCII spaces.
    let blanked = String::from_utf8(blanked).unwrap_or_else(|_| text.to_owned());
    Ok((scan, blanked))
}

fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Index of the line break ending the line comment starting at `i` (or the end of input).
fn line_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map_or(bytes.len(), |p| i + p)
}

/// Index just after the string literal starting at `i`, and whether it is closed; an
/// unterminated string ends at the line break, where the grammar will report it.
fn skip_string(bytes: &[u8], mut i: usize) -> (usize, bool) {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return (i + 1, true),
            b'\n' | b'\r' => return (i, false),
            _ => i += 1,
        }
    }
    (bytes.len(), false)
}

/// Index after one ordinary character (a whole UTF-8 sequence).
fn skip_token_char(text: &str, i: usize) -> usize {
    i + text[i..].chars().next().map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_are_keyed_by_the_next_token_and_the_last_one_wins() {
        let text = "/** a */ /** b */ // c\n /* d */ record";
        let (scan, grammar_text) = scan(text).unwrap();
        let at = text.find("record").unwrap() as u32;
        let (from, to) = scan.doc_before(at).unwrap();
        assert_eq!(&text[from as usize..to as usize], " b ");
        assert_eq!(grammar_text.trim_start_matches(' '), "record");
        assert_eq!(grammar_text.len(), text.len());
    }

    #[test]
    fn empty_comments_and_strings_are_not_docs() {
        let text = "/**/ x \"/** no */\" /***/ y";
        let (scan, grammar_text) = scan(text).unwrap();
        assert_eq!(scan.docs.len(), 1);
        let at = text.find('y').unwrap() as u32;
        let (from, to) = scan.doc_before(at).unwrap();
        assert_eq!(from, to);
        assert!(grammar_text.contains("\"/** no */\""));
    }

    #[test]
    fn blanks_become_spaces_outside_strings_and_names() {
        let text = "a\t\r\n\u{0C}\u{0B}\"\t\" `x\ny` \u{A0}z";
        let (_, grammar_text) = scan(text).unwrap();
        assert_eq!(grammar_text, "a    \u{0B}\"\t\" `x\ny` \u{A0}z");
        // The line break ending an unterminated string stays, and so does every later one.
        let (_, grammar_text) = scan("\"ab\n\tc\nd").unwrap();
        assert_eq!(grammar_text, "\"ab\n\tc\nd");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(MAX_NESTING + 1);
        let e = scan(&deep).unwrap_err();
        assert_eq!(e.offset, MAX_NESTING);
        assert!(scan(&"[".repeat(MAX_NESTING)).is_ok());
        assert!(scan("\"[[[[\"").is_ok());
    }
}
