//! A lossless syntax tree of one IDL file, for tools that work on the text as written: the
//! formatter, the linter, an editor's language server.
//!
//! The compiler (the rest of this crate) reads a file to produce its JSON and stops at the
//! first error; it forgets comments and layout. This tree keeps every byte, trivia included,
//! so that it prints back the exact text it was built from, and it is built for any text,
//! broken files included: what cannot be read becomes an `Error` token or node, and the
//! problems are listed beside the tree. Imports are not followed.
//!
//! ```
//! use avdl_parser::syntax::{self, ast::Documented};
//!
//! let text = "protocol P {\n  /** An order. */\n  record Order { long id; }\n}\n";
//! let parse = syntax::parse(text);
//! assert!(parse.errors().is_empty());
//! assert_eq!(parse.syntax().to_string(), text);
//! let body = parse.tree().protocol().unwrap().body().unwrap();
//! let order = body.declarations().next().unwrap();
//! assert_eq!(order.name().unwrap().text(), "Order");
//! assert_eq!(order.doc().unwrap().text(), "An order.");
//! ```
//!
//! - [`lex`] splits the text into [`Token`]s of a [`SyntaxKind`];
//! - [`parse`] builds the tree ([`Parse`]: a rowan tree of [`SyntaxNode`]s and the
//!   [`SyntaxError`]s found);
//! - [`ast`] views the nodes as typed declarations, fields, types and values;
//! - [`green_view`] reads the same shapes off the green tree, cheaper for reading every node
//!   of a file once;
//! - [`LineIndex`] turns byte offsets into lines and columns (bytes or UTF-16) and back.

pub mod ast;
pub mod green_view;
mod kind;
mod lex;
mod line_index;
mod parse;

pub use kind::{AvdlLanguage, SyntaxKind};
pub use lex::{lex, LexError, Token};
pub use line_index::{LineIndex, Position};
pub use parse::{parse, Parse, SyntaxError};
pub use rowan::{TextRange, TextSize};

/// A node of the tree (rowan's red node: knows its parent and its position in the text).
pub type SyntaxNode = rowan::SyntaxNode<AvdlLanguage>;
/// A token of the tree.
pub type SyntaxToken = rowan::SyntaxToken<AvdlLanguage>;
/// A node or a token.
pub type SyntaxElement = rowan::SyntaxElement<AvdlLanguage>;

/// The range of `node` from its first token that is not trivia: a node's own range includes
/// the comments and blank lines the parser attached before it, which is right for moving it
/// and wrong for pointing at it (a finding, a definition, a rename).
pub fn code_range(node: &SyntaxNode) -> TextRange {
    let whole = node.text_range();
    let first = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia());
    match first {
        Some(token) => TextRange::new(token.text_range().start(), whole.end()),
        None => whole,
    }
}
