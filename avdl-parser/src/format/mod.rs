//! The formatter of IDL files (`avdl2rs fmt`): the text of a file laid out as Java's IDL
//! writer (`IdlUtils`, [`crate::idl_writer`]) lays out the IDL it writes from JSON, with
//! every comment kept where it was in the token stream and the meaning unchanged: the
//! compiler reads the same schema from the formatted text as from the original.
//!
//! ```
//! use avdl_parser::format::{format, FormatOptions};
//!
//! let text = "protocol P{record R{string?  name=null;// who\n}}";
//! let formatted = format(text, "p.avdl", &FormatOptions::default()).unwrap();
//! assert_eq!(formatted, "protocol P {\n  record R {\n    string? name = null; // who\n  }\n}\n");
//! ```
//!
//! The layout, where the text does not fix it:
//! - a protocol's and a declaration's annotations each on a line of their own, a field's,
//!   a variable's and a type's inline;
//! - one field per line; an enum's symbols on one line, and a message's parameters in its
//!   parentheses, unless a comment lies among them: then one per line (Java's writer does so
//!   for documented parameters);
//! - exactly one blank line around named type declarations and after a schema file's
//!   `namespace` and `schema` lines (as Java's writer writes them); elsewhere (between
//!   fields, messages, imports) one blank line where the author left one or more, none after
//!   an opening or before a closing bracket;
//! - JSON values on one line, their literals as written;
//! - comments keep their place among the tokens and their line: one at the end of a line
//!   stays there, one on a line of its own keeps a line of its own, indented as what follows
//!   it, and a block comment written right before a token on its line stays right before it
//!   (`/* id */ int b`, `A /* a */,`); a doc comment always stands on its own line above what it documents, and one whose
//!   doc is one line becomes `/** doc */` (only when the compiler reads back the same doc);
//! - line breaks are written as `\n` (those inside comments as they were, since a doc keeps
//!   its line breaks), and no line ends in spaces; a byte order mark is dropped, as the
//!   compiler ignores it.
//!
//! The text is first checked with the compiler's own grammar, so a file that does not parse
//! gives the compiler's located syntax error and no output. Imports are not read: formatting
//! looks at one file. The output is a fixed point: formatting it again changes nothing.

mod comments;
mod gap;
mod items;
mod out;
mod tokens;
mod types;

use std::sync::Arc;

use crate::error::Error;
use crate::grammar::{self, FilePieces};
use crate::idl_writer::Indent;
use crate::source::Sources;

use out::Out;
use tokens::Tokens;

/// How to lay out the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// Spaces per level of nesting (2 by default, as in Avro's own IDL files).
    pub indent: Indent,
}

/// The formatted text of the IDL file `text`; `display_name` names it in errors. A file the
/// compiler's grammar rejects is its located syntax error.
pub fn format(text: &str, display_name: &str, options: &FormatOptions) -> Result<String, Error> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    check_syntax(text, display_name)?;
    let mut printer = Printer {
        tokens: Tokens::new(text),
        out: Out::new(options.indent, text.len() + text.len() / 8),
    };
    printer.file();
    let mut formatted = printer.out.text;
    if let Some(tail) = printer.tokens.eof_tail() {
        formatted.push_str(tail);
    }
    Ok(formatted)
}

/// [`format()`] of a file's bytes: bytes that are not UTF-8 are an error at the first bad one.
pub fn format_bytes(
    bytes: &[u8],
    display_name: &str,
    options: &FormatOptions,
) -> Result<String, Error> {
    let mut sources = Sources::default();
    let file = sources.add_bytes(display_name.to_owned(), None, bytes.to_vec())?;
    let text = sources.get(file).text.clone();
    format(&text, display_name, options)
}

/// The compiler's syntax error for `text`, if its grammar rejects it.
fn check_syntax(text: &str, display_name: &str) -> Result<(), Error> {
    let mut sources = Sources::default();
    let file = sources.add(display_name.to_owned(), None, Arc::from(text));
    let (_, grammar_text) = crate::lexical::scan(text).map_err(|e| e.into_error(&sources, file))?;
    let syntax_error = |e| crate::syntax_error::from_pest(&e, &grammar_text, &sources, file);
    let pieces = match grammar::file_pieces(&grammar_text) {
        FilePieces::Protocol(_, pieces) | FilePieces::Schema(pieces) => pieces,
    };
    for piece in pieces {
        piece.map_err(syntax_error)?;
    }
    Ok(())
}

/// The walk over a file's tokens, writing the formatted text.
struct Printer<'a> {
    tokens: Tokens<'a>,
    out: Out,
}
