//! Named types (records and errors, enums, fixed) with their fields, and messages with their
//! parameters.

use super::green::Checkpoint;
use super::recovery::IN_BODY;
use super::{json, types, Parser};
use crate::syntax::SyntaxKind::*;

/// A record, error, enum or fixed declaration at its keyword, whose annotations were read
/// since `checkpoint`.
pub(super) fn named_decl(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    match p.current() {
        Some(EnumKw) => enumeration(p, checkpoint),
        Some(FixedKw) => fixed(p, checkpoint),
        _ => record(p, checkpoint),
    }
}

/// `record R { fields }` or `error E { fields }`.
fn record(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, Record);
    p.bump();
    p.expect_name("the record's name");
    if p.expect(LBrace, "`{`") {
        fields(p);
    }
    p.finish_node();
}

/// A record's fields up to its `}`. A declaration where a field should be ends the record
/// (its `}` is missing), so that the declarations after a broken record stay intact.
fn fields(p: &mut Parser<'_>) {
    while !p.at(RBrace) && !p.at_end() && !p.at_declaration() {
        let before = p.position();
        field(p);
        if p.position() == before {
            p.error_and_skip("a field", IN_BODY);
        }
    }
    p.expect(RBrace, "`}`");
}

/// `type name = default, other;`
fn field(p: &mut Parser<'_>) {
    if !p.at(At) && !p.nth_is_name(0) {
        return;
    }
    p.start_node(Field);
    types::ty(p);
    variable(p);
    while p.eat(Comma) {
        variable(p);
    }
    p.expect(Semicolon, "`;`");
    p.finish_node();
}

/// A name declared by a field or a parameter: annotations, name, `= default`.
fn variable(p: &mut Parser<'_>) {
    p.start_node(Variable);
    json::annotations(p);
    if p.expect_name("a name") && p.eat(Eq) {
        json::value(p);
    }
    p.finish_node();
}

/// `enum E { A, B } = A;` (the default and its `;` are optional together).
fn enumeration(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, Enum);
    p.bump();
    p.expect_name("the enum's name");
    if p.at(LBrace) {
        p.start_node(EnumSymbols);
        p.bump();
        p.comma_list(RBrace, true, "an enum symbol", enum_symbol);
        p.expect(RBrace, "`}`");
        p.finish_node();
    } else {
        p.error_expected("`{`");
    }
    if p.at(Eq) {
        p.start_node(EnumDefault);
        p.bump();
        p.expect_name("the default symbol");
        p.expect(Semicolon, "`;`");
        p.finish_node();
    }
    p.finish_node();
}

fn enum_symbol(p: &mut Parser<'_>) {
    if !p.at(At) && !p.nth_is_name(0) {
        p.error_expected("an enum symbol");
        return;
    }
    p.start_node(EnumSymbol);
    json::annotations(p);
    p.expect_name("an enum symbol");
    p.finish_node();
}

/// `fixed F(16);`
fn fixed(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, Fixed);
    p.bump();
    p.expect_name("the fixed type's name");
    p.expect(LParen, "`(`");
    p.expect(Int, "the size in bytes");
    p.expect(RParen, "`)`");
    p.expect(Semicolon, "`;`");
    p.finish_node();
}

/// `result name(params) throws E | oneway;`, whose annotations were read since
/// `checkpoint`.
pub(super) fn message(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, Message);
    if p.at(VoidKw) {
        p.start_node(PrimitiveType);
        p.bump();
        p.finish_node();
    } else {
        types::plain_type(p);
    }
    p.expect_name("the message's name");
    if p.at(LParen) {
        p.start_node(ParamList);
        p.bump();
        p.comma_list(RParen, true, "a parameter", param);
        p.expect(RParen, "`)`");
        p.finish_node();
    } else {
        p.error_expected("`(`");
    }
    if !p.eat(OnewayKw) && p.at(ThrowsKw) {
        throws(p);
    }
    p.expect(Semicolon, "`;`");
    p.finish_node();
}

fn param(p: &mut Parser<'_>) {
    if !p.at(At) && !p.nth_is_name(0) {
        p.error_expected("a parameter");
        return;
    }
    p.start_node(Param);
    types::ty(p);
    variable(p);
    p.finish_node();
}

/// `throws E1, E2`
fn throws(p: &mut Parser<'_>) {
    p.start_node(Throws);
    p.bump();
    p.expect_name("an error type");
    while p.eat(Comma) {
        p.expect_name("an error type");
    }
    p.finish_node();
}
