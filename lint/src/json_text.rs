//! Schema JSON text with the byte span of every value, keyed by JSON Pointer, so that a
//! finding about `/types/2/fields/0/default` points at that default in the file.
//!
//! The linter places its findings with it; the language server indexes `.avsc` and `.avpr`
//! files with it (names, fields, references and their places).
//!
//! `//` and `/* */` comments are blanked first, as the schema model accepts them. The spans
//! are recorded by one pass over text serde_json has already accepted, with an explicit
//! stack rather than recursion, so no nesting depth can exhaust the call stack.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use avdl_parser::json_text::{offset_of, strip_comments};
use serde_json::Value;

/// Parsed JSON with the span of each value.
#[derive(Debug)]
pub struct JsonText {
    /// The document.
    pub value: Value,
    /// The bytes of each value, by JSON Pointer (`""` for the whole document).
    spans: HashMap<String, Range<usize>>,
}

/// JSON that does not parse: serde_json's message and the byte offset it names.
#[derive(Debug)]
pub struct JsonSyntax {
    /// serde_json's message.
    pub message: String,
    /// The byte offset of the problem.
    pub offset: usize,
}

impl JsonText {
    /// Parses `text`, recording spans.
    pub fn parse(text: &str) -> Result<JsonText, JsonSyntax> {
        let blank = strip_comments(text);
        let value: Value = serde_json::from_str(&blank).map_err(|e| JsonSyntax {
            message: e.to_string(),
            offset: offset_of(&blank, e.line(), e.column()),
        })?;
        let spans = record_spans(&blank);
        Ok(JsonText { value, spans })
    }

    /// The span of the value at `pointer`, or of its nearest ancestor that has one.
    pub fn span(&self, pointer: &str) -> Range<usize> {
        let mut pointer = pointer;
        loop {
            if let Some(span) = self.spans.get(pointer) {
                return span.clone();
            }
            match pointer.rfind('/') {
                Some(at) => pointer = &pointer[..at],
                None => return 0..0,
            }
        }
    }
}

/// `pointer` extended by one `segment`, escaped as RFC 6901 asks, in one allocation.
pub fn child(pointer: &str, segment: impl std::fmt::Display) -> String {
    let mut out = String::with_capacity(pointer.len() + 16);
    out.push_str(pointer);
    push_segment(&mut out, segment);
    out
}

/// Appends `/` and `segment`, escaped as RFC 6901 asks, to the pointer `out`.
pub(crate) fn push_segment(out: &mut String, segment: impl std::fmt::Display) {
    out.push('/');
    let _ = write!(Escaped(out), "{segment}");
}

/// Writes into a JSON Pointer, escaping `~` and `/`.
struct Escaped<'a>(&'a mut String);

impl std::fmt::Write for Escaped<'_> {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        for part in text.split_inclusive(['~', '/']) {
            match part.strip_suffix('~') {
                Some(head) => self.0.extend([head, "~0"]),
                None => match part.strip_suffix('/') {
                    Some(head) => self.0.extend([head, "~1"]),
                    None => self.0.push_str(part),
                },
            }
        }
        Ok(())
    }
}

/// A container being read: its pointer, where it starts, and the next member's place.
struct Open {
    pointer: String,
    start: usize,
    next: Member,
}

enum Member {
    /// An object: the key read and waiting for its value, if any.
    Key(Option<String>),
    /// An array: the index of the next element.
    Index(usize),
}

/// The span of every value of valid JSON `text`.
fn record_spans(text: &str) -> HashMap<String, Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = HashMap::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' | b',' | b':' => i += 1,
            b'}' | b']' => {
                if let Some(open) = stack.pop() {
                    spans.insert(open.pointer, open.start..i + 1);
                }
                i += 1;
            }
            b'"' => {
                let end = string_end(bytes, i);
                if let Some(Open {
                    next: Member::Key(key @ None),
                    ..
                }) = stack.last_mut()
                {
                    *key = Some(serde_json::from_str(&text[i..end]).unwrap_or_default());
                } else {
                    spans.insert(next_pointer(&mut stack), i..end);
                }
                i = end;
            }
            b'{' | b'[' => {
                let pointer = next_pointer(&mut stack);
                let next = if byte == b'{' {
                    Member::Key(None)
                } else {
                    Member::Index(0)
                };
                stack.push(Open {
                    pointer,
                    start: i,
                    next,
                });
                i += 1;
            }
            _ => {
                let end = bytes[i..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'))
                    .map_or(bytes.len(), |at| i + at);
                spans.insert(next_pointer(&mut stack), i..end);
                i = end;
            }
        }
    }
    spans
}

/// The pointer of the value about to be read, advancing the enclosing container.
fn next_pointer(stack: &mut [Open]) -> String {
    match stack.last_mut() {
        None => String::new(),
        Some(open) => match &mut open.next {
            Member::Key(key) => child(&open.pointer, key.take().unwrap_or_default()),
            Member::Index(index) => {
                *index += 1;
                child(&open.pointer, *index - 1)
            }
        },
    }
}

/// The offset just past the string literal starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_has_its_span() {
        let text = "{\"type\": \"record\", // a comment\n \"a/b\": [1, {\"x~\": null}],\n \
                    \"s\": \"q\\\"\"}";
        let json = JsonText::parse(text).unwrap();
        let at = |p: &str| &text[json.span(p)];
        assert_eq!(at(""), text);
        assert_eq!(at("/type"), "\"record\"");
        assert_eq!(at("/a~1b/0"), "1");
        assert_eq!(at("/a~1b/1/x~0"), "null");
        assert_eq!(at("/s"), "\"q\\\"\"");
        assert_eq!(at("/a~1b/7"), "[1, {\"x~\": null}]");
        assert_eq!(child("/p", "~/x~/"), "/p/~0~1x~0~1");
        assert_eq!(child("", 3), "/3");
    }

    #[test]
    fn a_syntax_error_has_its_offset() {
        // serde_json names the character where `tru` turned out not to be `true`.
        let error = JsonText::parse("{\n  \"a\": tru }").err().unwrap();
        assert_eq!(error.offset, 12, "{}", error.message);
        assert!(
            error.message.contains("line 2 column 11"),
            "{}",
            error.message
        );
    }
}
