//! `textDocument/formatting` and `textDocument/rangeFormatting` with the formatter of
//! `avdl2rs fmt`, at the `[fmt] indent` of the file's `avdl2rs.toml`.
//!
//! A file that does not parse is refused (an error response, no edit), as `fmt` refuses it.
//! A range is widened to the declarations, imports and messages it touches: the formatter
//! lays out whole files, so the whole file is formatted and those items are taken from the
//! result (formatting keeps the items and their order); the lines between items are left as
//! they are.

use std::ops::Range;

use avdl_parser::format::{format, FormatOptions};
use avdl_parser::idl_writer::Indent;
use avdl_parser::syntax::{self, ast::AstNode, SyntaxNode};
use lsp_types::{DocumentFormattingParams, DocumentRangeFormattingParams, TextEdit};

use super::{document, HandlerError, HandlerResult};
use crate::documents::{Document, Language};
use crate::state::State;

/// The edit that formats the whole document (none when it is formatted already).
pub fn format_document(
    state: &mut State,
    params: DocumentFormattingParams,
) -> HandlerResult<Option<Vec<TextEdit>>> {
    let formatted = formatted(state, &params.text_document.uri)?;
    let document = document(state, &params.text_document.uri)?;
    Ok(Some(edits(document, 0..document.text.len(), &formatted)))
}

/// The edit that formats the items the range touches.
pub fn format_range(
    state: &mut State,
    params: DocumentRangeFormattingParams,
) -> HandlerResult<Option<Vec<TextEdit>>> {
    let formatted = formatted(state, &params.text_document.uri)?;
    let document = document(state, &params.text_document.uri)?;
    let range = document.offsets(params.range);
    let Some((old, new)) = matching_items(&document.text, &formatted, range) else {
        return Ok(Some(edits(document, 0..document.text.len(), &formatted)));
    };
    Ok(Some(edits(document, old, &formatted[new])))
}

/// The formatted text of the document at `uri`.
fn formatted(state: &mut State, uri: &lsp_types::Uri) -> HandlerResult<String> {
    let path = document(state, uri)?.path.clone();
    let config = state
        .workspace
        .config(path.as_deref())
        .map_err(|e| HandlerError::failed(e.to_string()))?;
    let document = document(state, uri)?;
    if document.language != Language::Idl {
        return Err(HandlerError::failed("only IDL files are formatted"));
    }
    let options = FormatOptions {
        indent: Indent {
            width: config.fmt.indent,
        },
    };
    format(&document.text, uri.as_str(), &options).map_err(|e| HandlerError::failed(e.to_string()))
}

/// The edit replacing bytes `old` of the document by `new`, trimmed to the part that
/// changes (so the editor keeps the cursor and marks outside it); none when nothing does.
fn edits(document: &Document, old: Range<usize>, new: &str) -> Vec<TextEdit> {
    let before = &document.text[old.clone()];
    let prefix = common_prefix(before, new);
    let suffix = common_suffix(&before[prefix..], &new[prefix..]);
    if prefix == before.len() && prefix == new.len() {
        return Vec::new();
    }
    let changed = old.start + prefix..old.end - suffix;
    let text = new[prefix..new.len() - suffix].to_owned();
    vec![TextEdit::new(document.range(changed), text)]
}

/// The length of the longest common prefix of `a` and `b`, at a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at)
}

/// The length of the longest common suffix of `a` and `b`, at a character boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    let same = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y);
    same.map(|(x, _)| x.len_utf8()).sum()
}

/// The bytes of the items `range` touches in `old`, widened to the start of their first
/// line, and the bytes of the same items in `new`; `None` when the range touches no item or
/// the two texts do not have the same items.
fn matching_items(
    old: &str,
    new: &str,
    range: Range<usize>,
) -> Option<(Range<usize>, Range<usize>)> {
    let old_items = items(old);
    let new_items = items(new);
    if old_items.len() != new_items.len() {
        return None;
    }
    let touched = |item: &Range<usize>| item.start <= range.end && range.start <= item.end;
    let first = old_items.iter().position(touched)?;
    let last = old_items.iter().rposition(touched)?;
    let old_span = line_start(old, old_items[first].start)..old_items[last].end;
    let new_span = line_start(new, new_items[first].start)..new_items[last].end;
    Some((old_span, new_span))
}

/// The byte ranges of the items of a file: the declarations, imports and messages of its
/// protocol, or the top-level declarations of a schema file.
fn items(text: &str) -> Vec<Range<usize>> {
    let file = syntax::parse(text).tree();
    let container: SyntaxNode = match file.protocol() {
        Some(protocol) => match protocol.body() {
            Some(body) => body.syntax().clone(),
            None => return Vec::new(),
        },
        None => file.syntax().clone(),
    };
    container
        .children()
        .map(|node| node.text_range().into())
        .collect()
}

/// `offset`, moved back to the start of its line when only spaces precede it there.
fn line_start(text: &str, offset: usize) -> usize {
    let start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    if text[start..offset].trim().is_empty() {
        start
    } else {
        offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ends_stop_at_character_boundaries() {
        assert_eq!(common_prefix("aéb", "aéc"), 3);
        // "é" (c3 a9) and "ê" (c3 aa) share a first byte but not a character.
        assert_eq!(common_prefix("é", "ê"), 0);
        assert_eq!(common_suffix("xé", "yé"), 2);
        assert_eq!(common_suffix("é", "ê"), 0);
        assert_eq!(common_prefix("ab", "abc"), 2);
    }
}
