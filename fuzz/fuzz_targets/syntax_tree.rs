//! Any text through the lossless syntax tree (`avdl_parser::syntax`): the lexer, the parser
//! with its error recovery, the typed accessors and the line index must never panic, and the
//! tree must print the text back byte for byte.
//!
//! Input: the text (inputs that are not UTF-8 are skipped: the tree is built from `&str`).
#![no_main]

use avdl_parser::syntax::ast::{AstNode, Documented, HasAnnotations, NamedDecl, Type};
use avdl_parser::syntax::{self, LineIndex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let tokens = syntax::lex(text);
    let relexed: String = tokens.iter().map(|t| &text[t.range]).collect();
    assert_eq!(relexed, text, "the tokens cover the text");

    let parse = syntax::parse(text);
    assert_eq!(parse.syntax().to_string(), text, "the tree prints the text back");

    let index = LineIndex::new(text);
    for error in parse.errors() {
        let start = error.range.start();
        let at = index.position_utf16(start).expect("errors start on a character");
        assert_eq!(index.offset_utf16(at), Some(start));
        assert!(usize::from(error.range.end()) <= text.len());
    }

    // Every accessor answers on whatever tree recovery built.
    for node in parse.syntax().descendants() {
        if let Some(decl) = NamedDecl::cast(node.clone()) {
            let _ = (decl.name(), decl.doc(), decl.leading_comments());
            let _ = decl.annotations().count();
        }
        if let Some(ty) = Type::cast(node) {
            let _ = ty.annotations().count();
        }
    }
});
