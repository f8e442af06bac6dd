//! LSP positions to byte offsets and back. LSP counts columns in UTF-16 code units (the
//! default `positionEncoding`, the only one this server announces); the syntax tree, the
//! compiler and the linter count bytes. [`LineIndex`] does the counting.
//!
//! A position past the end of its line means the end of that line, and a line past the end
//! of the text means the end of the text, as the protocol asks; a column between the two
//! halves of a surrogate pair means the start of that character.

use std::ops::Range;

use avdl_parser::syntax::{LineIndex, Position as LinePosition, TextSize};
use lsp_types::{Position, Range as LspRange};

/// The byte offset in `text` (indexed by `index`) of an LSP position.
pub fn offset(index: &LineIndex, text: &str, at: Position) -> usize {
    let wide = LinePosition {
        line: at.line,
        column: at.character,
    };
    if let Some(offset) = index.offset_utf16(wide) {
        return usize::from(offset);
    }
    let start = LinePosition {
        line: at.line,
        column: 0,
    };
    let Some(line_start) = index.offset(start).map(usize::from) else {
        return text.len();
    };
    clamp_in_line(&text[line_start..], at.character) + line_start
}

/// The byte length of the first `units` UTF-16 code units of `line`, stopping at its line
/// break and at the start of a character that `units` ends inside.
fn clamp_in_line(line: &str, units: u32) -> usize {
    let mut counted = 0;
    for (at, c) in line.char_indices() {
        let width = c.len_utf16() as u32;
        if c == '\n' || line[at..].starts_with("\r\n") || counted + width > units {
            return at;
        }
        counted += width;
    }
    line.len()
}

/// The byte range in `text` of an LSP range (an end before the start is the start).
pub fn offsets(index: &LineIndex, text: &str, range: LspRange) -> Range<usize> {
    let start = offset(index, text, range.start);
    let end = offset(index, text, range.end).max(start);
    start..end
}

/// The LSP position of byte `offset` in `text` (moved back to the start of the character it
/// falls in, and to the end of the text if past it).
pub fn position(index: &LineIndex, text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let at = u32::try_from(offset).map(TextSize::from).ok();
    at.and_then(|at| index.position_utf16(at))
        .map_or_else(Position::default, |wide| {
            Position::new(wide.line, wide.column)
        })
}

/// The LSP range of the bytes `span` of `text`.
pub fn range(index: &LineIndex, text: &str, span: Range<usize>) -> LspRange {
    LspRange::new(
        position(index, text, span.start),
        position(index, text, span.end),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn utf16_columns_on_non_ascii_doc_comments() {
        // "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units.
        let text = "/** é😀 */\nrecord R {}\r\nx";
        let index = LineIndex::new(text);
        let star = text.find(" */").unwrap();
        assert_eq!(position(&index, text, star), at(0, 7));
        assert_eq!(offset(&index, text, at(0, 7)), star);
        let record = text.find("record").unwrap();
        assert_eq!(position(&index, text, record), at(1, 0));
        assert_eq!(offset(&index, text, at(1, 0)), record);
        // Between the halves of "😀": the start of the character.
        let smile = text.find('😀').unwrap();
        assert_eq!(offset(&index, text, at(0, 6)), smile);
    }

    #[test]
    fn positions_outside_the_text_are_clamped() {
        let text = "ab\r\ncd\né";
        let index = LineIndex::new(text);
        // Past the end of a line: before its line break (`\r\n` or `\n`).
        assert_eq!(offset(&index, text, at(0, 9)), 2);
        assert_eq!(offset(&index, text, at(1, 9)), 6);
        // Past the last line and past the end of the text.
        assert_eq!(offset(&index, text, at(2, 9)), text.len());
        assert_eq!(offset(&index, text, at(7, 0)), text.len());
        assert_eq!(position(&index, text, 99), at(2, 1));
        // Inside "é": the start of the character.
        assert_eq!(position(&index, text, text.len() - 1), at(2, 0));
        let backwards = LspRange::new(at(1, 1), at(0, 0));
        assert_eq!(offsets(&index, text, backwards), 5..5);
    }
}
