//! Going on after an error: skipping what fits nowhere into `Error` nodes up to where reading
//! can resume, and comma-separated lists that survive a missing or extra comma.

use super::Parser;
use crate::syntax::SyntaxKind::{self, *};

impl<'t> Parser<'t> {
    /// Wraps tokens in an `Error` node up to where reading may resume: a token of `stops`, a
    /// declaration, `;` (or just after it) or a closing bracket at the level it started, or
    /// the end. Brackets opened inside are skipped whole, so a broken block is skipped as one.
    /// Consumes at least one token when `at_least_one` (a loop that made no progress must).
    pub(super) fn skip_until(&mut self, stops: Stops<'_>, at_least_one: bool) {
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
            if kind == Semicolon && open == 0 && stops.statements {
                break;
            }
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
                || kind == Semicolon && !stops.statements
                || matches!(kind, RBrace | RBracket | RParen | RAngle))
    }

    /// Reports an unexpected token and wraps it (and what follows, up to where reading may
    /// resume at `stops`) in an `Error` node.
    pub(super) fn error_and_skip(&mut self, message: &str, stops: Stops<'_>) {
        self.error_expected(message);
        self.skip_until(stops, true);
    }

    /// Items separated by commas, up to `close` (which is left for the caller). `item` parses
    /// one; a trailing comma, a missing comma and (unless `may_be_empty`) an empty list are
    /// reported.
    pub(super) fn comma_list(
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
pub(super) struct Stops<'k> {
    kinds: &'k [SyntaxKind],
    /// Whether any name stops it (where a type, so a field or a message, may start).
    names: bool,
    /// Whether it skips statements: a `;` is then the end of the broken one and is skipped
    /// with it, rather than left for the statement being read.
    statements: bool,
}

impl<'k> Stops<'k> {
    /// Stops at the tokens of `kinds`.
    pub(super) const fn kinds(kinds: &'k [SyntaxKind]) -> Stops<'k> {
        Stops {
            kinds,
            names: false,
            statements: false,
        }
    }
}

/// Where skipping stops at the top of a schema file: the start of any declaration.
pub(super) const TOP_LEVEL: Stops<'static> = Stops {
    kinds: &[At, NamespaceKw, SchemaKw, ProtocolKw],
    names: false,
    statements: true,
};

/// Where skipping stops in a protocol or record body: annotations and names (a field, a
/// message or a declaration may start there).
pub(super) const IN_BODY: Stops<'static> = Stops {
    kinds: &[At],
    names: true,
    statements: true,
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
