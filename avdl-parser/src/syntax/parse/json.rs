//! Annotations and the JSON values of annotations and defaults.

use super::recovery::Stops;
use super::Parser;
use crate::syntax::SyntaxKind::*;

/// The annotations at the next token; whether there was any.
pub(super) fn annotations(p: &mut Parser<'_>) -> bool {
    let mut any = false;
    while p.at(At) {
        annotation(p);
        any = true;
    }
    any
}

/// `@name(value)`
fn annotation(p: &mut Parser<'_>) {
    p.start_node(Annotation);
    p.bump();
    p.expect_name("the annotation's name");
    if p.expect(LParen, "`(`") {
        value(p);
        p.expect(RParen, "`)`");
    }
    p.finish_node();
}

/// A JSON value: a literal, an object or an array.
pub(super) fn value(p: &mut Parser<'_>) {
    if p.too_deep() {
        // Reported where the brackets went too deep; skipped flat, without recursing.
        p.skip_until(Stops::kinds(&[]), true);
        return;
    }
    match p.current() {
        Some(String | Int | Float | NullKw | TrueKw | FalseKw) => {
            p.start_node(JsonValue);
            p.bump();
            p.finish_node();
        }
        Some(LBrace) => {
            p.start_node(JsonValue);
            p.start_node(JsonObject);
            p.bump();
            p.comma_list(RBrace, true, "an object member", member);
            p.expect(RBrace, "`}`");
            p.finish_node();
            p.finish_node();
        }
        Some(LBracket) => {
            p.start_node(JsonValue);
            p.start_node(JsonArray);
            p.bump();
            p.comma_list(RBracket, true, "a value", value);
            p.expect(RBracket, "`]`");
            p.finish_node();
            p.finish_node();
        }
        _ => p.error_expected("a JSON value"),
    }
}

/// `"key": value`
fn member(p: &mut Parser<'_>) {
    if !p.at(String) {
        p.error_expected("an object member (a string, then `:`)");
        return;
    }
    p.start_node(JsonMember);
    p.bump();
    p.expect(Colon, "`:`");
    value(p);
    p.finish_node();
}
