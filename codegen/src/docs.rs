//! Schema docs as rustdoc: IDL doc comments and `doc` attributes are Markdown in practice,
//! so inline code, links and emphasis are kept. Only what rustdoc would misread is changed:
//! code blocks become `text` blocks (an untagged or Rust block would run as a doctest),
//! HTML-looking tags are escaped, stray brackets (broken intra-doc links) are escaped, and
//! bare URLs are put in angle brackets (rustdoc's `bare_urls` lint).
//!
//! What rustc itself refuses in a doc comment never reaches the output: a lone carriage
//! return (a line break of old Mac text) ends a line like `\n` does, since in a `///` comment
//! it is the error "bare CR not allowed in doc-comment"; the Unicode controls that change the
//! visible direction of text (denied by rustc's `text_direction_codepoint_in_comment` lint)
//! are written as `\u{…}` escapes instead. No doc is written as a block comment
//! (each line is its own attribute), so `*/` in a doc needs no care.

use proc_macro2::TokenStream;
use quote::quote;

/// One `#[doc]` per line of `doc`, as rustdoc-safe Markdown.
pub(crate) fn doc_attrs(doc: Option<&str>) -> TokenStream {
    let Some(doc) = doc else {
        return TokenStream::new();
    };
    let lines = markdown_lines(doc).into_iter().map(|line| {
        let text = if line.is_empty() {
            line
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #text])
    });
    quote!(#(#lines)*)
}

/// The lines of a doc, code blocks fenced as `text` and the rest made safe line by line.
fn markdown_lines(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    let mut indented = false;
    let mut after_blank = true;
    for line in doc_lines(doc) {
        let line = line.as_str();
        if let Some(marker) = &fence {
            if line.trim_start().starts_with(marker.as_str()) {
                fence = None;
            }
            out.push(line.to_owned());
            continue;
        }
        if let Some((marker, info)) = opening_fence(line) {
            let info = if info.is_empty() || info.contains("rust") {
                "text"
            } else {
                info
            };
            out.push(format!("{marker}{info}"));
            fence = Some(marker);
            after_blank = false;
            continue;
        }
        let is_code = line.starts_with("    ") || line.starts_with('\t');
        if indented && !is_code && !line.is_empty() {
            close_indented(&mut out);
            indented = false;
        }
        if !indented && is_code && after_blank {
            out.push("```text".to_owned());
            indented = true;
        }
        if indented {
            let code = line
                .strip_prefix("    ")
                .or_else(|| line.strip_prefix('\t'));
            out.push(code.unwrap_or(line).to_owned());
        } else {
            out.push(inline(line));
        }
        after_blank = line.is_empty();
    }
    if indented {
        close_indented(&mut out);
    }
    if let Some(marker) = fence {
        // An unclosed fence would swallow the generated docs after it.
        out.push(marker);
    }
    out
}

/// The lines of `doc`, ended by `\r\n`, `\n` or a lone `\r`, without trailing whitespace
/// and with the characters rustc refuses in comments escaped.
fn doc_lines(doc: &str) -> Vec<String> {
    doc.replace("\r\n", "\n")
        .replace('\r', "\n")
        .lines()
        .map(|line| escape_direction_controls(line.trim_end()))
        .collect()
}

/// `line` with every bidirectional control character (U+202A to U+202E, U+2066 to U+2069)
/// written as the `\u{…}` escape rustc suggests.
fn escape_direction_controls(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if avdl2rs_emit::changes_text_direction(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// Ends an indented block turned into a fence, leaving its trailing blank lines after it.
fn close_indented(out: &mut Vec<String>) {
    let blanks = out.iter().rev().take_while(|l| l.is_empty()).count();
    out.truncate(out.len() - blanks);
    out.push("```".to_owned());
    out.extend(std::iter::repeat_n(String::new(), blanks));
}

/// The marker (three or more backticks or tildes) and info string of a fence opening.
fn opening_fence(line: &str) -> Option<(String, &str)> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let mark = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let count = trimmed.chars().take_while(|&c| c == mark).count();
    (count >= 3).then(|| {
        let marker: String = std::iter::repeat_n(mark, count).collect();
        (marker, trimmed[count..].trim())
    })
}

/// One line of text: code spans kept as written, the text between them made safe.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        let ticks = rest[open..].chars().take_while(|&c| c == '`').count();
        let marker = &rest[open..open + ticks];
        let Some(close) = rest[open + ticks..].find(marker) else {
            break;
        };
        let end = open + ticks + close + ticks;
        out.push_str(&text(&rest[..open]));
        out.push_str(&rest[open..end]);
        rest = &rest[end..];
    }
    out.push_str(&text(rest));
    out
}

/// Text outside code spans: links and autolinks kept, bare URLs put in angle brackets, tags
/// and other brackets escaped.
fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let c = rest.chars().next().unwrap_or_default();
        if let Some(len) = link_len(rest).or_else(|| autolink_len(rest)) {
            out.push_str(&rest[..len]);
            i += len;
        } else if let Some(len) = bare_url_len(rest, &text[..i]) {
            out.push('<');
            out.push_str(&rest[..len]);
            out.push('>');
            i += len;
        } else if c == '\\' && rest.len() > 1 {
            // An escape the author wrote: keep it with the character it escapes.
            let next = rest[1..].chars().next().unwrap_or_default();
            out.push('\\');
            out.push(next);
            i += 1 + next.len_utf8();
        } else {
            if matches!(c, '[' | ']') || (c == '<' && is_tag_start(&rest[1..])) {
                out.push('\\');
            }
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of a Markdown link `[text](target)` at the start of `s`.
fn link_len(s: &str) -> Option<usize> {
    let label = s.strip_prefix('[')?;
    let close = label.find(']')?;
    if label[..close].contains('[') {
        return None;
    }
    let target = label[close + 1..].strip_prefix('(')?;
    let end = target.find(')')?;
    // `[`, the label, `](`, the target, `)`.
    Some(close + end + 4)
}

/// The length of an autolink `<scheme:...>` at the start of `s`.
fn autolink_len(s: &str) -> Option<usize> {
    let inner = s.strip_prefix('<')?;
    let end = inner.find('>')?;
    let url = &inner[..end];
    (url_scheme_len(url).is_some() && !url.contains(char::is_whitespace)).then_some(end + 2)
}

/// The length of a bare URL at the start of `s` (not right after `<`, `(` or `"`, where it
/// belongs to markup already), without trailing punctuation.
fn bare_url_len(s: &str, before: &str) -> Option<usize> {
    if before.ends_with(['<', '(', '"', '\'', '/']) || before.ends_with(char::is_alphanumeric) {
        return None;
    }
    let scheme = url_scheme_len(s)?;
    let end = s.find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"'));
    let url = &s[..end.unwrap_or(s.len())];
    let url = url.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']']);
    (url.len() > scheme).then_some(url.len())
}

/// The length of `http://`, `https://` or `mailto:` at the start of `s`.
fn url_scheme_len(s: &str) -> Option<usize> {
    ["https://", "http://", "mailto:"]
        .iter()
        .find(|scheme| s.starts_with(*scheme))
        .map(|scheme| scheme.len())
}

/// Whether text after `<` would start an HTML tag, comment or declaration for rustdoc.
fn is_tag_start(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(doc: &str) -> Vec<String> {
        markdown_lines(doc)
    }

    #[test]
    fn inline_markdown_is_kept() {
        let line = "The `id` of a [record](https://avro.apache.org/docs/) is *unique*.";
        assert_eq!(md(line), [line]);
        assert_eq!(
            md("see <https://example.com/a>"),
            ["see <https://example.com/a>"]
        );
        assert_eq!(md("a `<b>` c"), ["a `<b>` c"]);
    }

    #[test]
    fn what_rustdoc_misreads_is_escaped() {
        assert_eq!(md("a <b> tag, 1 < 2"), ["a \\<b> tag, 1 < 2"]);
        assert_eq!(md("array[int] or [Foo]"), ["array\\[int\\] or \\[Foo\\]"]);
        assert_eq!(
            md("visit https://example.com."),
            ["visit <https://example.com>."]
        );
        assert_eq!(md("keep \\* this"), ["keep \\* this"]);
    }

    #[test]
    fn code_blocks_become_text_blocks() {
        assert_eq!(
            md("Example:\n\n    let x = 1;\n    x\n\nAfter."),
            [
                "Example:",
                "",
                "```text",
                "let x = 1;",
                "x",
                "```",
                "",
                "After."
            ]
        );
        assert_eq!(md("```\nfn f() {}\n```"), ["```text", "fn f() {}", "```"]);
        assert_eq!(md("```rust\n[a]\n```"), ["```text", "[a]", "```"]);
        assert_eq!(md("```json\n{}\n```"), ["```json", "{}", "```"]);
        assert_eq!(md("```\nnot closed"), ["```text", "not closed", "```"]);
        // A paragraph's indented continuation is no code block.
        assert_eq!(md("one\n    two"), ["one", "    two"]);
    }

    #[test]
    fn what_rustc_refuses_in_comments_never_reaches_them() {
        assert_eq!(md("t\re"), ["t", "e"]);
        assert_eq!(md("a\r\nb\r\rc\r"), ["a", "b", "", "c"]);
        assert_eq!(md("x\u{202e}y\u{2066}z"), ["x\\u{202e}y\\u{2066}z"]);
    }
}
