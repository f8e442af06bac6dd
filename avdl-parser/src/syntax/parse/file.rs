//! The file level: a protocol, or a schema file's namespace, main schema, imports and
//! declarations.

use super::green::Checkpoint;
use super::recovery::{IN_BODY, TOP_LEVEL};
use super::{declarations, json, types, Parser};
use crate::syntax::SyntaxKind::*;

/// The whole file, inside the `SourceFile` node already started.
pub(super) fn source_file(p: &mut Parser<'_>) {
    let checkpoint = p.checkpoint();
    let annotated = json::annotations(p);
    if p.at(ProtocolKw) {
        protocol(p, checkpoint);
        rest_after_protocol(p);
    } else {
        let stage = if annotated {
            schema_item(p, checkpoint, true);
            Stage::Body
        } else {
            Stage::Start
        };
        schema_file(p, stage);
    }
}

/// Which of a schema file's declarations may still come.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// The namespace, the main schema or the first declaration.
    Start,
    /// After the namespace: the main schema or a declaration.
    Namespaced,
    /// Declarations and imports only.
    Body,
}

/// The declarations of a schema file, in the order the grammar allows them (order mistakes
/// are reported, and the declaration is read all the same).
fn schema_file(p: &mut Parser<'_>, mut stage: Stage) {
    while !p.at_end() {
        let before = p.position();
        let checkpoint = p.checkpoint();
        let annotated = json::annotations(p);
        match p.current() {
            Some(NamespaceKw) if !annotated => {
                if stage > Stage::Start {
                    p.error("the namespace must be the first declaration of the file");
                }
                namespace_decl(p);
                stage = stage.max(Stage::Namespaced);
            }
            Some(SchemaKw) if !annotated => {
                if stage > Stage::Namespaced {
                    p.error("the `schema` declaration must come before the other declarations");
                }
                schema_decl(p);
                stage = Stage::Body;
            }
            Some(ProtocolKw) => {
                p.error("a protocol must be the only declaration of its file");
                protocol(p, checkpoint);
            }
            _ => {
                schema_item(p, checkpoint, annotated);
                stage = Stage::Body;
            }
        }
        if p.position() == before {
            p.error_and_skip("a declaration", TOP_LEVEL);
        }
    }
}

/// An import or a named type declaration of a schema file, whose annotations (if
/// `annotated`) were read since `checkpoint`.
fn schema_item(p: &mut Parser<'_>, checkpoint: Checkpoint, annotated: bool) {
    match p.current() {
        Some(ImportKw) => {
            if annotated {
                p.error("an import takes no annotations");
            }
            import(p);
        }
        Some(RecordKw | ErrorKw | EnumKw | FixedKw) => {
            declarations::named_decl(p, checkpoint);
        }
        _ if annotated => p.error_expected("a declaration after the annotations"),
        _ => {}
    }
}

/// `protocol P { … }`, whose annotations were read since `checkpoint`.
fn protocol(p: &mut Parser<'_>, checkpoint: Checkpoint) {
    p.start_node_at(checkpoint, Protocol);
    p.bump();
    p.expect_name("the protocol's name");
    if p.at(LBrace) {
        protocol_body(p);
    } else {
        p.error_expected("`{`");
    }
    p.finish_node();
}

fn protocol_body(p: &mut Parser<'_>) {
    p.start_node(ProtocolBody);
    p.bump();
    while !p.at_end() {
        if p.at(RBrace) {
            // A `}` followed by a declaration or a message is a stray one: the protocol's
            // own ends the file.
            let stray = p.declaration_at(1) || p.message_at(1) || p.nth(1) == Some(At);
            if !stray {
                break;
            }
            p.error("unmatched `}`");
            p.skip_until(IN_BODY, true);
            continue;
        }
        let before = p.position();
        protocol_item(p);
        if p.position() == before {
            p.error_and_skip("a declaration or a message", IN_BODY);
        }
    }
    p.expect(RBrace, "`}`");
    p.finish_node();
}

/// An import, a named type or a message. The grammar tries them in that order; the keyword
/// and the tokens after it tell them apart (`record R {` declares, `record r(` is a message
/// returning a type named `record`).
fn protocol_item(p: &mut Parser<'_>) {
    let checkpoint = p.checkpoint();
    let annotated = json::annotations(p);
    let message_ahead = p.nth_is_name(1) && p.nth(2) == Some(LParen);
    match p.current() {
        Some(ImportKw) if matches!(p.nth(1), Some(IdlKw | ProtocolKw | SchemaKw)) => {
            if annotated {
                p.error("an import takes no annotations");
            }
            import(p);
        }
        Some(RecordKw | ErrorKw | EnumKw) if !message_ahead => {
            declarations::named_decl(p, checkpoint)
        }
        Some(FixedKw) if !message_ahead || p.nth(3) == Some(Int) => {
            declarations::named_decl(p, checkpoint)
        }
        _ if p.nth_is_name(0) => declarations::message(p, checkpoint),
        _ if annotated => p.error_expected("a declaration or a message after the annotations"),
        _ => {}
    }
}

/// Whatever follows a protocol's closing brace: nothing but trivia is allowed.
fn rest_after_protocol(p: &mut Parser<'_>) {
    if p.at_end() {
        return;
    }
    p.error("unexpected text after the protocol");
    p.start_node(Error);
    while !p.at_end() {
        p.bump();
    }
    p.finish_node();
}

/// `import idl|protocol|schema "path";`
fn import(p: &mut Parser<'_>) {
    p.start_node(Import);
    p.bump();
    if p.at_any(&[IdlKw, ProtocolKw, SchemaKw]) {
        p.bump();
    } else {
        p.error_expected("`idl`, `protocol` or `schema`");
    }
    p.expect(String, "the imported file's path (a string)");
    p.expect(Semicolon, "`;`");
    p.finish_node();
}

/// `namespace a.b;`
fn namespace_decl(p: &mut Parser<'_>) {
    p.start_node(NamespaceDecl);
    p.bump();
    p.expect_name("the namespace");
    p.expect(Semicolon, "`;`");
    p.finish_node();
}

/// `schema T;`
fn schema_decl(p: &mut Parser<'_>) {
    p.start_node(SchemaDecl);
    p.bump();
    types::ty(p);
    p.expect(Semicolon, "`;`");
    p.finish_node();
}
