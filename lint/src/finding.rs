//! A finding: which rule, how grave, what, and where — as a JSON Pointer into the schema JSON
//! and, once located, as a span of the source file with its line and column.

use std::ops::Range;

use avdl_parser::syntax::{LineIndex, TextSize};

use crate::rule::{Level, Rule};

/// What a finding is about, by name, so that a source located by its syntax tree (IDL) can
/// find it as well as one located by JSON Pointer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A named type, by full name.
    Type(String),
    /// A field of a record: the record's full name and the field's name.
    Field(String, String),
    /// The default of a field.
    Default(String, String),
    /// The type of a field.
    FieldType(String, String),
    /// A symbol of an enum: the enum's full name and the symbol.
    Symbol(String, String),
    /// A message of a protocol, by name (a type in its parameters, response or errors).
    Message(String),
    /// The import at this index among the file's imports (IDL only).
    Import(usize),
    /// A type expression known only by its JSON Pointer.
    Node,
}

/// One finding of one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// Its level under the settings in force.
    pub level: Level,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, when there is more to say than the message.
    pub help: Option<String>,
    /// The JSON Pointer of what it is about in the schema JSON (for IDL, in the JSON the
    /// file compiles to).
    pub path: String,
    /// What it is about, by name.
    pub subject: Subject,
    /// The bytes of the source it points at.
    pub span: Range<usize>,
    /// The 1-based line of the span's start.
    pub line: usize,
    /// The 1-based column, in characters, of the span's start.
    pub column: usize,
}

/// Lines and columns of one text, found by binary search in its line starts, so placing
/// many findings stays linear in the text.
pub(crate) struct Lines<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The 1-based line of byte `offset`, without counting the characters before it.
    pub fn line(&self, offset: usize) -> usize {
        let at = u32::try_from(self.char_start(offset))
            .ok()
            .map(TextSize::from);
        at.and_then(|at| self.index.position(at))
            .map_or(1, |position| position.line as usize + 1)
    }

    /// `offset`, within the text, moved back to the start of the character it is in.
    fn char_start(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The 1-based line and character column of byte `offset` (as the compiler's messages
    /// count them).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = self.char_start(offset);
        let at = u32::try_from(offset).ok().map(TextSize::from);
        let Some(position) = at.and_then(|at| self.index.position(at)) else {
            return (1, 1);
        };
        let line_start = offset - position.column as usize;
        let column = self.text[line_start..offset].chars().count();
        (position.line as usize + 1, column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_character_columns() {
        let lines = Lines::new("ab\n\u{e9}x\n");
        assert_eq!(lines.line_column(0), (1, 1));
        assert_eq!(lines.line_column(3), (2, 1));
        assert_eq!(lines.line_column(5), (2, 2));
        assert_eq!(lines.line_column(4), (2, 1));
        assert_eq!(lines.line_column(7), (3, 1));
        assert_eq!(lines.line_column(99), (3, 1));
        assert_eq!(
            [0, 3, 4, 5, 7, 99].map(|at| lines.line(at)),
            [1, 2, 2, 2, 3, 3]
        );
    }
}
