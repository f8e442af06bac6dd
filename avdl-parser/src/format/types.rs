//! The layout of what stands inside a line: types, variables, annotations and JSON values,
//! spaced as Java's IDL writer spaces them (`union{a, b}`, `array<T>`, `decimal(9,2)`,
//! `T?`, `@name(value)`), JSON values as [`json_text`](crate::idl_writer::layout::json_text)
//! writes them (`, ` between items, `:` between a key and its value), with the literals as
//! the author wrote them.

use crate::syntax::SyntaxKind::*;

use super::gap::Break;
use super::Printer;

impl Printer<'_> {
    /// A type with its annotations: the first token separated by `brk`, the rest by spaces.
    pub(super) fn full_type(&mut self, brk: Break) {
        let brk = self.inline_annotations(brk);
        self.plain_type(brk);
    }

    /// Annotations one space apart, the first separated by `brk`; returns the break of what
    /// follows them.
    fn inline_annotations(&mut self, brk: Break) -> Break {
        let mut brk = brk;
        while self.tokens.at(At) {
            self.annotation(brk);
            brk = Break::Space;
        }
        brk
    }

    /// A type without annotations: `array<…>`, `map<…>`, `union{…}`, `decimal(p,s)` or a
    /// name, each perhaps followed by `?`.
    pub(super) fn plain_type(&mut self, brk: Break) {
        match self.tokens.kind_at(0) {
            Some(ArrayKw | MapKw) if self.tokens.kind_at(1) == Some(LAngle) => {
                self.emit(brk);
                self.emit(Break::Glue);
                self.full_type(Break::Glue);
                self.emit(Break::Glue);
            }
            Some(UnionKw) if self.tokens.kind_at(1) == Some(LBrace) => {
                self.emit(brk);
                self.emit(Break::Glue);
                self.full_type(Break::Glue);
                while self.tokens.at(Comma) {
                    self.emit(Break::Glue);
                    self.full_type(Break::Space);
                }
                self.emit(Break::Glue);
            }
            Some(DecimalKw) if self.tokens.kind_at(1) == Some(LParen) => {
                self.emit(brk);
                while self.tokens.before(RParen) {
                    self.emit(Break::Glue);
                }
                self.emit(Break::Glue);
            }
            _ => self.emit(brk),
        }
        if self.tokens.at(Question) {
            self.emit(Break::Glue);
        }
    }

    /// A field's or parameter's variable: annotations, name, and `= default`.
    pub(super) fn variable(&mut self, brk: Break) {
        self.annotated_name(brk);
        if self.tokens.at(Eq) {
            self.emit(Break::Space);
            self.json(Break::Space);
        }
    }

    /// A name after its annotations (a variable's, an enum symbol's).
    pub(super) fn annotated_name(&mut self, brk: Break) {
        let brk = self.inline_annotations(brk);
        self.emit(brk);
    }

    /// `@name(value)`, its first token separated by `brk`.
    pub(super) fn annotation(&mut self, brk: Break) {
        self.emit(brk);
        self.emit(Break::Glue);
        self.emit(Break::Glue);
        self.json(Break::Glue);
        self.emit(Break::Glue);
    }

    /// A JSON value, its first token separated by `brk`.
    fn json(&mut self, brk: Break) {
        match self.tokens.kind_at(0) {
            Some(LBracket) => {
                self.emit(brk);
                self.json_items(RBracket, |p, brk| p.json(brk));
            }
            Some(LBrace) => {
                self.emit(brk);
                self.json_items(RBrace, |p, brk| {
                    p.emit(brk);
                    p.emit(Break::Glue);
                    p.json(Break::Glue);
                });
            }
            _ => self.emit(brk),
        }
    }

    /// The items of a JSON array or object up to `close`, each written by `item`, and `close`.
    fn json_items(&mut self, close: crate::syntax::SyntaxKind, item: fn(&mut Self, Break)) {
        let mut brk = Break::Glue;
        while self.tokens.before(close) {
            item(self, brk);
            if self.tokens.at(Comma) {
                self.emit(Break::Glue);
            }
            brk = Break::Space;
        }
        self.emit(Break::Glue);
    }
}
