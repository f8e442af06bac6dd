//! A finding: which rule, how grave, what, and where — as a JSON Pointer into the schema JSON
//! and, once located, as a span of the source file with its line and column.

use std::ops::Range;

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

/// The 1-based line and character column of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}
