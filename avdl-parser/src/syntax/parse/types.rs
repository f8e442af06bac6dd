//! Types: primitive and logical-type keywords, references, `array<…>`, `map<…>`,
//! `union { … }`, `decimal(p, s)`, and `?` after a name or a decimal.

use super::green::Checkpoint;
use super::recovery::Stops;
use super::{json, Parser};
use crate::syntax::SyntaxKind::*;

/// A type with its annotations (`full_type` of the grammar).
pub(super) fn ty(p: &mut Parser<'_>) {
    if p.too_deep() {
        // Reported where the brackets went too deep; skipped flat, without recursing.
        p.skip_until(Stops::kinds(&[]), true);
        return;
    }
    let checkpoint = p.checkpoint();
    json::annotations(p);
    type_at(p, checkpoint);
}

/// A type without annotations (`plain_type`: a message's result type).
pub(super) fn plain_type(p: &mut Parser<'_>) {
    let checkpoint = p.checkpoint();
    type_at(p, checkpoint);
}

/// The type at the next token, whose node starts at `checkpoint` (before its annotations).
/// A type keyword followed by another token than its bracket is a name, as in the grammar.
fn type_at(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    match (p.current(), p.nth(1)) {
        (Some(ArrayKw), Some(LAngle)) => wrapper(p, checkpoint, ArrayType),
        (Some(MapKw), Some(LAngle)) => wrapper(p, checkpoint, MapType),
        (Some(UnionKw), Some(LBrace)) => union(p, checkpoint),
        (Some(DecimalKw), Some(LParen)) => {
            decimal(p, checkpoint);
            nullable(p, checkpoint);
        }
        (Some(kind), _) if p.nth_is_name(0) => {
            let node = if kind.is_type_keyword() {
                PrimitiveType
            } else {
                TypeRef
            };
            p.start_node_at(checkpoint, node);
            p.bump();
            p.finish_node();
            nullable(p, checkpoint);
        }
        _ => p.error_expected("a type"),
    }
}

/// `array<T>` or `map<T>`.
fn wrapper(p: &mut Parser<'_>, checkpoint: Checkpoint, kind: crate::syntax::SyntaxKind) {
    p.start_node_at(checkpoint, kind);
    p.bump();
    p.bump();
    ty(p);
    p.expect(RAngle, "`>`");
    p.finish_node();
}

/// `union { T, U }`: at least one branch.
fn union(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, UnionType);
    p.bump();
    p.bump();
    p.comma_list(RBrace, false, "a type", ty);
    p.expect(RBrace, "`}`");
    p.finish_node();
}

/// `decimal(precision)` or `decimal(precision, scale)`.
fn decimal(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, DecimalType);
    p.bump();
    p.bump();
    p.expect(Int, "the precision");
    if p.eat(Comma) {
        p.expect(Int, "the scale");
    }
    p.expect(RParen, "`)`");
    p.finish_node();
}

/// The `?` that makes the type since `checkpoint` nullable, if there is one.
fn nullable(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    if p.at(Question) {
        p.start_node_at(checkpoint, NullableType);
        p.bump();
        p.finish_node();
    }
}
