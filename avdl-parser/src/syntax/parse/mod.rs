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
mod json;
mod types;

use rowan::{Checkpoint, GreenNode, GreenNodeBuilder, TextRange, TextSize};

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
    parser.builder.start_node(SourceFile.into());
    file::source_file(&mut parser);
    parser.finish()
}

/// The state of a parse: the tokens, where the parse is in them, the tree being built.
pub(crate) struct Parser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Indices in `tokens` of the tokens that are not trivia.
    significant: Vec<usize>,
    /// The next significant token, as an index into `significant`.
    next: usize,
    /// The next token not yet in the tree (trivia included), as an index into `tokens`.
    emitted: usize,
    /// Whether the trivia before the next significant token were already split into those
    /// that stay outside the next node and those that go inside it.
    leading_split: bool,
    /// Open brackets less closed brackets, as the compiler's scan counts them.
    depth: usize,
    too_deep_reported: bool,
    builder: GreenNodeBuilder<'static>,
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
            leading_split: false,
            depth: 0,
            too_deep_reported: false,
            builder: GreenNodeBuilder::new(),
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
    pub(crate) fn nth(&self, n: usize) -> Option<SyntaxKind> {
        self.nth_token(n).map(|t| t.kind)
    }

    /// The kind of the next significant token.
    pub(crate) fn current(&self) -> Option<SyntaxKind> {
        self.nth(0)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == Some(kind)
    }

    pub(crate) fn at_any(&self, kinds: &[SyntaxKind]) -> bool {
        self.current().is_some_and(|k| kinds.contains(&k))
    }

    pub(crate) fn at_end(&self) -> bool {
        self.current().is_none()
    }

    /// Whether the `n`-th token from here may be a name: any name or keyword, and the words
    /// `NaN` and `Infinity`, which are numbers only where a value is expected.
    pub(crate) fn nth_is_name(&self, n: usize) -> bool {
        self.nth_token(n).is_some_and(|t| {
            t.kind.is_name() || t.kind == Float && matches!(&self.text[t.range], "NaN" | "Infinity")
        })
    }

    /// Whether a record, enum, fixed, error or import declaration starts here, which ends an
    /// unclosed body: the keyword, then what can only follow it in a declaration.
    pub(crate) fn at_declaration(&self) -> bool {
        match self.current() {
            Some(RecordKw | ErrorKw | EnumKw) => self.nth_is_name(1) && self.nth(2) == Some(LBrace),
            Some(FixedKw) => self.nth_is_name(1) && self.nth(2) == Some(LParen),
            Some(ImportKw) => {
                matches!(self.nth(1), Some(IdlKw | ProtocolKw | SchemaKw))
                    && self.nth(2) == Some(String)
            }
            _ => false,
        }
    }

    /// The position of the parse, to tell whether a step consumed anything.
    pub(crate) fn position(&self) -> usize {
        self.next
    }

    /// Open brackets less closed ones so far, which bounds the recursion of the parser.
    pub(crate) fn too_deep(&self) -> bool {
        self.depth > MAX_NESTING
    }

    // ---- building -----------------------------------------------------------------------------

    /// Adds the next significant token (and the trivia before it) to the current node.
    pub(crate) fn bump(&mut self) {
        let Some(&index) = self.significant.get(self.next) else {
            return;
        };
        self.emit_trivia(index);
        let token = self.tokens[index];
        self.builder
            .token(token.kind.into(), &self.text[token.range]);
        self.emitted = index + 1;
        self.next += 1;
        self.leading_split = false;
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
    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        let found = self.at(kind);
        if found {
            self.bump();
        }
        found
    }

    /// Bumps the next token if it is of `kind`, else reports that `what` is missing.
    pub(crate) fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        let found = self.eat(kind);
        if !found {
            self.error_expected(what);
        }
        found
    }

    /// Bumps a name (a keyword counts as one), else reports it missing.
    pub(crate) fn expect_name(&mut self, what: &str) -> bool {
        let found = self.nth_is_name(0);
        if found {
            self.bump();
        } else {
            self.error_expected(what);
        }
        found
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.split_leading_trivia();
        self.builder.start_node(kind.into());
    }

    pub(crate) fn finish_node(&mut self) {
        self.builder.finish_node();
    }

    /// A point where a node can be started later, once what it is becomes known (a
    /// declaration after its annotations, a nullable type after its `?`).
    pub(crate) fn checkpoint(&mut self) -> Checkpoint {
        self.split_leading_trivia();
        self.builder.checkpoint()
    }

    pub(crate) fn start_node_at(&mut self, checkpoint: Checkpoint, kind: SyntaxKind) {
        self.builder.start_node_at(checkpoint, kind.into());
    }

    /// Adds to the tree the trivia that stay outside the node about to start: those up to the
    /// first line break after the previous token (its trailing comment), and any blank lines
    /// before the first comment after it. The rest go inside, with the node's first token.
    fn split_leading_trivia(&mut self) {
        if self.leading_split {
            return;
        }
        self.leading_split = true;
        let end = self
            .significant
            .get(self.next)
            .copied()
            .unwrap_or(self.tokens.len());
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
    fn emit_trivia(&mut self, end: usize) {
        for token in &self.tokens[self.emitted..end] {
            self.builder
                .token(token.kind.into(), &self.text[token.range]);
            if let Some(error) = token.error {
                self.errors.push(SyntaxError {
                    message: error.message().to_owned(),
                    range: token.range,
                });
            }
        }
        self.emitted = self.emitted.max(end);
    }

    // ---- errors and recovery ------------------------------------------------------------------

    pub(crate) fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        self.errors.push(SyntaxError {
            message: message.into(),
            range,
        });
    }

    /// Reports `message` at the next token (or at the end of the text).
    pub(crate) fn error(&mut self, message: impl Into<String>) {
        let range = match self.nth_token(0) {
            Some(token) => token.range,
            None => TextRange::empty(TextSize::of(self.text)),
        };
        self.error_at(range, message);
    }

    /// Reports that `what` was expected at the next token.
    pub(crate) fn error_expected(&mut self, what: &str) {
        let found = match self.nth_token(0) {
            Some(token) => format!("`{}`", &self.text[token.range]),
            None => "the end of the file".to_owned(),
        };
        self.error(format!("expected {what}, found {found}"));
    }

    /// Wraps tokens in an `Error` node up to where reading may resume: a token of `stops`, a
    /// declaration, `;` or a closing bracket at the level it started, or the end. Brackets
    /// opened inside are skipped whole, so a broken block is skipped as one. Consumes at
    /// least one token when `at_least_one` (a loop that made no progress must).
    pub(crate) fn skip_until(&mut self, stops: Stops<'_>, at_least_one: bool) {
        let mut open = 0usize;
        let mut started = false;
        while let Some(kind) = self.current() {
            let first = !started && at_least_one;
            if !first && self.resumes_here(kind, stops, open) {
                break;
            }
            if !started {
                self.start_node(Error);
                started = true;
            }
            match kind {
                LBrace | LBracket | LParen | LAngle => open += 1,
                RBrace | RBracket | RParen | RAngle => open = open.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
        if started {
            self.finish_node();
        }
    }

    /// Whether skipping stops before the token of kind `kind`, with `open` brackets opened
    /// while skipping.
    fn resumes_here(&self, kind: SyntaxKind, stops: Stops<'_>, open: usize) -> bool {
        if self.at_declaration() {
            return true;
        }
        open == 0
            && (stops.kinds.contains(&kind)
                || stops.names && self.nth_is_name(0)
                || matches!(kind, Semicolon | RBrace | RBracket | RParen | RAngle))
    }

    /// Reports an unexpected token and wraps it (and what follows, up to where reading may
    /// resume at `stops`) in an `Error` node.
    pub(crate) fn error_and_skip(&mut self, message: &str, stops: Stops<'_>) {
        self.error_expected(message);
        self.skip_until(stops, true);
    }

    /// Items separated by commas, up to `close` (which is left for the caller). `item` parses
    /// one; a trailing comma, a missing comma and (unless `may_be_empty`) an empty list are
    /// reported.
    pub(crate) fn comma_list(
        &mut self,
        close: SyntaxKind,
        may_be_empty: bool,
        what: &str,
        item: fn(&mut Parser<'t>),
    ) {
        if self.at(close) || self.at_end() {
            if !may_be_empty {
                self.error_expected(what);
            }
            return;
        }
        loop {
            let before = self.position();
            item(self);
            if self.position() == before {
                self.skip_until(Stops::kinds(&[Comma, close]), false);
            }
            if self.at(close) || self.at_end() {
                return;
            }
            if self.eat(Comma) {
                if self.at(close) {
                    self.error_expected(what);
                    return;
                }
                continue;
            }
            self.error_expected(&format!("`,` or `{}`", close_text(close)));
            self.skip_until(Stops::kinds(&[Comma, close]), false);
            if !self.eat(Comma) {
                return;
            }
        }
    }
}

/// Where skipping stops, besides declarations, `;` and closing brackets.
#[derive(Clone, Copy)]
pub(crate) struct Stops<'k> {
    kinds: &'k [SyntaxKind],
    /// Whether any name stops it (where a type, so a field or a message, may start).
    names: bool,
}

impl<'k> Stops<'k> {
    /// Stops at the tokens of `kinds`.
    pub(crate) const fn kinds(kinds: &'k [SyntaxKind]) -> Stops<'k> {
        Stops {
            kinds,
            names: false,
        }
    }
}

/// Where skipping stops at the top of a schema file: the start of any declaration.
pub(crate) const TOP_LEVEL: Stops<'static> = Stops::kinds(&[At, NamespaceKw, SchemaKw, ProtocolKw]);

/// Where skipping stops in a protocol or record body: annotations and names (a field, a
/// message or a declaration may start there).
pub(crate) const IN_BODY: Stops<'static> = Stops {
    kinds: &[At],
    names: true,
};

/// The text of a closing bracket, for messages.
fn close_text(kind: SyntaxKind) -> &'static str {
    match kind {
        RBrace => "}",
        RBracket => "]",
        RParen => ")",
        RAngle => ">",
        _ => "end",
    }
}

#[cfg(test)]
mod tests;
