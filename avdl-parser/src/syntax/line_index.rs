//! Byte offsets to lines and columns and back, in bytes and in UTF-16 code units: the tree
//! and its errors speak byte offsets, a language server speaks UTF-16 (line, character).
//!
//! Lines end at `\n` (so `\r\n` ends a line too, the `\r` being the last byte of its line),
//! as in the compiler's own error positions; a lone `\r` does not end a line.

use rowan::TextSize;

/// A zero-based line and column; the column counts bytes or UTF-16 code units, as the
/// method that gave or takes it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based column.
    pub column: u32,
}

/// The line starts and non-ASCII characters of a text, built once in linear time; each
/// conversion is then a binary search.
#[derive(Clone, Debug)]
pub struct LineIndex(line_index::LineIndex);

impl LineIndex {
    /// The index of `text` (at most 4 GiB, as the tree).
    pub fn new(text: &str) -> LineIndex {
        LineIndex(line_index::LineIndex::new(text))
    }

    /// Line and byte column of `offset`; `None` past the end or inside a character.
    pub fn position(&self, offset: TextSize) -> Option<Position> {
        let at = self.0.try_line_col(offset)?;
        Some(Position {
            line: at.line,
            column: at.col,
        })
    }

    /// Line and UTF-16 column of `offset`; `None` past the end or inside a character.
    pub fn position_utf16(&self, offset: TextSize) -> Option<Position> {
        let at = self.0.try_line_col(offset)?;
        let wide = self.0.to_wide(line_index::WideEncoding::Utf16, at)?;
        Some(Position {
            line: wide.line,
            column: wide.col,
        })
    }

    /// The offset at a line and byte column; `None` past the end of that line (its line
    /// break is its last position) or inside a character.
    pub fn offset(&self, at: Position) -> Option<TextSize> {
        let line = self.0.line(at.line)?;
        let offset = line.start().checked_add(TextSize::from(at.column))?;
        let last = if line.end() == self.0.len() && !self.ends_with_line_break(at.line) {
            line.end()
        } else {
            line.end() - TextSize::from(1)
        };
        (offset <= last && self.0.try_line_col(offset).is_some()).then_some(offset)
    }

    /// The offset at a line and UTF-16 column; `None` past the end of that line or between
    /// the two halves of a surrogate pair.
    pub fn offset_utf16(&self, at: Position) -> Option<TextSize> {
        let wide = line_index::WideLineCol {
            line: at.line,
            col: at.column,
        };
        let at = self.0.to_utf8(line_index::WideEncoding::Utf16, wide)?;
        let offset = self.offset(Position {
            line: at.line,
            column: at.col,
        })?;
        // A column inside a surrogate pair maps to a byte inside its character.
        (self.position_utf16(offset)?.column == wide.col).then_some(offset)
    }

    /// Whether line `line` ends with a `\n` (every line but the last does).
    fn ends_with_line_break(&self, line: u32) -> bool {
        self.0.line(line + 1).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    #[test]
    fn bytes_and_utf16_on_non_ascii_text_and_crlf() {
        // "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units.
        let text = "aé😀b\r\n\r\nx😀\ny";
        let index = LineIndex::new(text);
        let b = TextSize::from(text.find('b').unwrap() as u32);
        assert_eq!(index.position(b), Some(at(0, 7)));
        assert_eq!(index.position_utf16(b), Some(at(0, 4)));
        assert_eq!(index.offset(at(0, 7)), Some(b));
        assert_eq!(index.offset_utf16(at(0, 4)), Some(b));
        // `\r\n`: the `\r` is the end of its line, the next line starts after the `\n`.
        let cr = TextSize::from(text.find('\r').unwrap() as u32);
        assert_eq!(index.position_utf16(cr), Some(at(0, 5)));
        assert_eq!(index.position(cr + TextSize::from(2)), Some(at(1, 0)));
        let x = TextSize::from(text.find('x').unwrap() as u32);
        assert_eq!(index.position_utf16(x), Some(at(2, 0)));
        let y = TextSize::from(text.find('y').unwrap() as u32);
        assert_eq!(index.position_utf16(y), Some(at(3, 0)));
        assert_eq!(index.position_utf16(TextSize::of(text)), Some(at(3, 1)));
        assert_eq!(index.offset_utf16(at(3, 1)), Some(TextSize::of(text)));
    }

    #[test]
    fn positions_that_are_not_in_the_text() {
        let text = "é😀\nz";
        let index = LineIndex::new(text);
        // Inside "é", inside "😀" (bytes), between the halves of "😀" (UTF-16).
        assert_eq!(index.position(TextSize::from(1)), None);
        assert_eq!(index.position(TextSize::from(3)), None);
        assert_eq!(index.offset(at(0, 1)), None);
        assert_eq!(index.offset_utf16(at(0, 2)), None);
        assert_eq!(index.offset_utf16(at(0, 3)), Some(TextSize::from(6)));
        // Past the line break, past the last line, past the end.
        assert_eq!(index.offset_utf16(at(0, 5)), None);
        assert_eq!(index.offset(at(2, 0)), None);
        assert_eq!(index.offset(at(1, 2)), None);
        assert_eq!(index.position(TextSize::from(99)), None);
    }

    #[test]
    fn every_offset_round_trips() {
        let text = "protocol é {\r\n  /** 😀 */ record R {}\n}\n";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let offset = TextSize::from(offset as u32);
            let bytes = index.position(offset).unwrap();
            let wide = index.position_utf16(offset).unwrap();
            assert_eq!(index.offset(bytes), Some(offset));
            assert_eq!(index.offset_utf16(wide), Some(offset));
        }
    }
}
