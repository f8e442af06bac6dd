//! A lossless syntax tree of one IDL file, for tools that work on the text as written: the
//! formatter, the linter, an editor's language server.
//!
//! The compiler (the rest of this crate) reads a file to produce its JSON and stops at the
//! first error; it forgets comments and layout. This tree keeps every byte, trivia included,
//! so that it prints back the exact text it was built from, and it is built for any text,
//! broken files included: what cannot be read becomes an `Error` token or node, and the
//! problems are listed beside the tree.
//!
//! - [`lex`] splits the text into [`Token`]s of a [`SyntaxKind`];
//! - [`SyntaxKind`] names both tokens and nodes; [`AvdlLanguage`] ties it to rowan.

mod kind;
mod lex;

pub use kind::{AvdlLanguage, SyntaxKind};
pub use lex::{lex, LexError, Token};
pub use rowan::{TextRange, TextSize};
