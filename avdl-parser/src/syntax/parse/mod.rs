//! The parser of the syntax tree: a hand-written recursive descent over the tokens of
//! [`lex`](super::lex) that builds a rowan green tree and never fails.
//!
//! It reads the grammar of `grammar.pest`. On a token it does not expect, it reports a
//! [`SyntaxError`] and moves on: a missing token is only reported; tokens that fit nowhere are
//! wrapped in an `Error` node up to the next point where reading can resume (a declaration,
//! a type at the start of a field, the `}` closing the current body). Every loop consumes a
//! token or stops, and nesting is bounded, so any text gives a tree in linear time without
//! exhausting the stack.
//!
//! Trivia are placed as rust-analyzer places them: comments (doc comments included) on the
//! lines before a declaration, and what lies between them and it, go inside its node, so the
//! formatter and the linter find a declaration's comments with it; a comment after a token on
//! the same line stays outside, with that token.

mod declarations;
mod file;
mod green;
mod json;
mod recovery;
mod types;

use rowan::{GreenNode, TextRange, TextSize};

use self::green::{Builder, Checkpoint};

use super::lex::{lex, Token};
use super::{SyntaxKind, SyntaxNode};
use crate::lexical::MAX_NESTING;
use SyntaxKind::*;
// The `String` token kind must not hide the type (an explicit import wins over the glob).
use std::string::String;

/// A problem found while building the tree: message and the bytes it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong, in the words of a diagnostic.
    pub message: String,
    /// The bytes concerned (empty at a place where something is missing).
    pub range: TextRange,
}

/// The tree of a file and the syntax errors found in it.
#[derive(Clone, Debug)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
}

impl Parse {
    /// The root node (a `SourceFile`), from which the whole text can be walked and printed.
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The typed view of the root node.
    pub fn tree(&self) -> super::ast::SourceFile {
        super::ast::SourceFile::from_root(self.syntax())
    }

    /// The syntax errors in the order of the text; empty when the file follows the grammar.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// The green tree: immutable, cheap to clone and to share between threads.
    pub fn green(&self) -> &GreenNode {
        &self.green
    }
}

/// Builds the syntax tree of `text`, whatever it holds. Imports are not followed: that is the
/// compiler's job.
pub fn parse(text: &str) -> Parse {
    let mut parser = Parser::new(text);
    parser.builder.start_node(SourceFile);
    file::source_file(&mut parser);
    parser.finish()
}

/// The state of a parse: the tokens, where the parse is in them, the tree being built.
struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Indices in `tokens` of the tokens that are not trivia.
    significant: Vec<usize>,
    /// The next significant token, as an index into `significant`.
    next: usize,
    /// The next token not yet in the tree (trivia included), as an index into `tokens`.
    emitted: usize,
    /// Open brackets less closed brackets, as the compiler's scan counts them.
    depth: usize,
    too_deep_reported: bool,
    builder: Builder,
    errors: Vec<SyntaxError>,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Parser<'t> {
        let tokens = lex(text);
        let significant = (0..tokens.len())
            .filter(|&i| !tokens[i].kind.is_trivia())
            .collect();
        Parser {
            text,
            tokens,
            significant,
            next: 0,
            emitted: 0,
            depth: 0,
            too_deep_reported: false,
            builder: Builder::new(text.len()),
            errors: Vec::new(),
        }
    }

    fn finish(mut self) -> Parse {
        self.emit_trivia(self.tokens.len());
        self.builder.finish_node();
        self.errors
            .sort_by_key(|e| (e.range.start(), e.range.end()));
        Parse {
            green: self.builder.finish(),
            errors: self.errors,
        }
    }

    // ---- looking ahead ------------------------------------------------------------------------

    /// The `n`-th significant token from here.
    fn nth_token(&self, n: usize) -> Option<&Token> {
        let index = *self.significant.get(self.next + n)?;
        Some(&self.tokens[index])
    }

    /// The kind of the `n`-th significant token from here; `None` at the end of the text.
    fn nth(&self, n: usize) -> Option<SyntaxKind> {
        self.nth_token(n).map(|t| t.kind)
    }

    /// The kind of the next significant token.
    fn current(&self) -> Option<SyntaxKind> {
        self.nth(0)
    }

    fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == Some(kind)
    }

    fn at_any(&self, kinds: &[SyntaxKind]) -> bool {
        self.current().is_some_and(|k| kinds.contains(&k))
    }

    fn at_end(&self) -> bool {
        self.current().is_none()
    }

    /// Whether the `n`-th token from here may be a name: any name or keyword, and the words
    /// `NaN` and `Infinity`, which are numbers only where a value is expected.
    fn nth_is_name(&self, n: usize) -> bool {
        self.nth_token(n).is_some_and(|t| {
            t.kind.is_name() || t.kind == Float && matches!(&self.text[t.range], "NaN" | "Infinity")
        })
    }

    /// Whether a record, enum, fixed, error or import declaration starts here, which ends an
    /// unclosed body: the keyword, then what can only follow it in a declaration.
    fn at_declaration(&self) -> bool {
        self.declaration_at(0)
    }

    /// Whether a declaration starts at the `n`-th token from here (see
    /// [`at_declaration`](Parser::at_declaration)).
    fn declaration_at(&self, n: usize) -> bool {
        match self.nth(n) {
            Some(RecordKw | ErrorKw | EnumKw) => {
                self.nth_is_name(n + 1) && self.nth(n + 2) == Some(LBrace)
            }
            Some(FixedKw) => self.nth_is_name(n + 1) && self.nth(n + 2) == Some(LParen),
            Some(ImportKw) => {
                matches!(self.nth(n + 1), Some(IdlKw | ProtocolKw | SchemaKw))
                    && self.nth(n + 2) == Some(String)
            }
            _ => false,
        }
    }

    /// Whether a message with a simple result type (`T name(`) starts at the `n`-th token.
    fn message_at(&self, n: usize) -> bool {
        self.nth_is_name(n) && self.nth_is_name(n + 1) && self.nth(n + 2) == Some(LParen)
    }

    /// The position of the parse, to tell whether a step consumed anything.
    fn position(&self) -> usize {
        self.next
    }

    /// Open brackets less closed ones so far, which bounds the recursion of the parser.
    fn too_deep(&self) -> bool {
        self.depth > MAX_NESTING
    }

    // ---- building -----------------------------------------------------------------------------

    /// Adds the next significant token (and the trivia before it) to the current node.
    fn bump(&mut self) {
        let Some(&index) = self.significant.get(self.next) else {
            return;
        };
        self.emit_trivia(index);
        let token = self.tokens[index];
        self.builder.token(token.kind, &self.text[token.range]);
        self.emitted = index + 1;
        self.next += 1;
        if let Some(error) = token.error {
            self.error_at(token.range, error.message());
        }
        self.count_bracket(token);
    }

    /// Keeps the bracket depth as the compiler's scan does, and reports once when it goes
    /// past the compiler's bound.
    fn count_bracket(&mut self, token: Token) {
        match token.kind {
            LBrace | LBracket | LParen | LAngle => {
                self.depth += 1;
                if self.too_deep() && !self.too_deep_reported {
                    self.too_deep_reported = true;
                    let message = format!("brackets nested more than {MAX_NESTING} levels deep");
                    self.error_at(token.range, message);
                }
            }
            RBrace | RBracket | RParen | RAngle => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// Bumps the next token if it is of `kind`.
    fn eat(&mut self, kind: SyntaxKind) -> bool {
        let found = self.at(kind);
        if found {
            self.bump();
        }
        found
    }

    /// Bumps the next token if it is of `kind`, else reports that `what` is missing.
    fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        let found = self.eat(kind);
        if !found {
            self.error_expected(what);
        }
        found
    }

    /// Bumps a name (a keyword counts as one), else reports it missing. The keyword of a
    /// declaration (`record R {`) is not taken: no name is followed by that, and leaving it
    /// lets the declaration be read.
    fn expect_name(&mut self, what: &str) -> bool {
        let found = self.nth_is_name(0) && !self.at_declaration();
        if found {
            self.bump();
        } else {
            self.error_expected(what);
        }
        found
    }

    fn start_node(&mut self, kind: SyntaxKind) {
        self.emit_outside_trivia();
        self.builder.start_node(kind);
        self.emit_trivia(self.next_significant());
    }

    fn finish_node(&mut self) {
        self.builder.finish_node();
    }

    /// A point where a node can be started later, once what it is becomes known (a
    /// declaration after its annotations, a nullable type after its `?`).
    fn checkpoint(&mut self) -> Checkpoint {
        self.emit_outside_trivia();
        let checkpoint = self.builder.checkpoint();
        // The node's own comments go in now, before any child node can start and take them.
        self.emit_trivia(self.next_significant());
        checkpoint
    }

    /// The index in `tokens` of the next significant token (the number of tokens at the end).
    fn next_significant(&self) -> usize {
        self.significant
            .get(self.next)
            .copied()
            .unwrap_or(self.tokens.len())
    }

    fn start_node_at(&mut self, checkpoint: Checkpoint, kind: SyntaxKind) {
        self.builder.start_node_at(checkpoint, kind);
    }

    /// Adds to the tree the trivia that stay outside the node about to start: those up to the
    /// first line break after the previous token (its trailing comment), and any blank lines
    /// before the first comment after it. The rest go inside, as the node's first children.
    fn emit_outside_trivia(&mut self) {
        let end = self.next_significant();
        let pending = &self.tokens[self.emitted..end];
        let after_line = match pending.iter().position(|t| t.kind == Newline) {
            Some(i) if self.emitted > 0 => i + 1,
            _ => 0,
        };
        let attached = pending[after_line..]
            .iter()
            .position(|t| t.kind.is_comment())
            .map_or(pending.len(), |i| after_line + i);
        self.emit_trivia(self.emitted + attached);
    }

    /// Adds the tokens not yet in the tree up to `end` (all trivia) to the current node.
    /// Inlined where it is called, most often with nothing to add.
    #[inline]
    fn emit_trivia(&mut self, end: usize) {
        if self.emitted < end {
            self.emit_tokens(end);
        }
    }

    /// Adds the tokens from `emitted` up to `end` (more than `emitted`) to the current node.
    fn emit_tokens(&mut self, end: usize) {
        for index in self.emitted..end {
            let token = self.tokens[index];
            self.builder.token(token.kind, &self.text[token.range]);
            if let Some(error) = token.error {
                self.error_at(token.range, error.message());
            }
        }
        self.emitted = end;
    }

    // ---- errors ---------------------------------------------------------------------------------

    /// Reports `message` about `range`, unless an error was just reported where `range`
    /// starts: the first error at a place says the most, the rest would be echoes of it
    /// (a missing name, then the missing `;` after it, then a field that cannot start there).
    fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        if self
            .errors
            .last()
            .is_some_and(|e| e.range.start() == range.start())
        {
            return;
        }
        self.errors.push(SyntaxError {
            message: message.into(),
            range,
        });
    }

    /// Reports `message` at the next token (or at the end of the text). A token the lexer
    /// found malformed is reported as such, which says more than what was expected there.
    fn error(&mut self, message: impl Into<String>) {
        match self.nth_token(0) {
            Some(&Token {
                range,
                error: Some(error),
                ..
            }) => self.error_at(range, error.message()),
            Some(token) => self.error_at(token.range, message),
            None => self.error_at(TextRange::empty(TextSize::of(self.text)), message),
        }
    }

    /// Reports that `what` was expected at the next token.
    fn error_expected(&mut self, what: &str) {
        let found = match self.nth_token(0) {
            Some(token) => format!("`{}`", &self.text[token.range]),
            None => "the end of the file".to_owned(),
        };
        self.error(format!("expected {what}, found {found}"));
    }
}

#[cfg(test)]
mod tests;
