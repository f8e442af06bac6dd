//! Docs that rustc would refuse in a doc comment (a lone carriage return, text-direction
//! controls) come out as code that parses, with the words around them kept.

use std::path::Path;

use avdl2rs_codegen::{Generator, Options};

/// The doc comments of `code`, one `///` line each, without the marker.
fn doc_lines(code: &str) -> Vec<&str> {
    code.lines()
        .filter_map(|line| line.trim_start().strip_prefix("///"))
        .map(str::trim)
        .collect()
}

/// Parses `code` as a Rust file (proc-macro2's lexer refuses a bare CR in a doc comment as
/// rustc does) and checks that `words` are doc lines in this order.
fn assert_parses_with_docs(code: &str, words: &[&str]) {
    assert!(!code.contains('\r'), "a carriage return in\n{code}");
    if let Err(e) = syn::parse_file(code) {
        panic!("generated code does not parse: {e}\n{code}");
    }
    let docs = doc_lines(code);
    let mut rest = docs.as_slice();
    for word in words {
        let at = rest
            .iter()
            .position(|line| line == word)
            .unwrap_or_else(|| panic!("no doc line {word:?} in order in {docs:?}"));
        rest = &rest[at + 1..];
    }
}

#[test]
fn a_bare_cr_in_an_idl_doc_comment_ends_a_line() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile/codegen-bare-cr-in-doc.avdl");
    assert!(std::fs::read_to_string(&input).unwrap().contains("t\re"));
    let mut generator = Generator::new(Options::default());
    generator.add_file(&input, &[]).unwrap();
    assert_parses_with_docs(&generator.generate().unwrap(), &["t", "e"]);
}

#[test]
fn a_bare_cr_in_a_json_doc_ends_a_line() {
    let schema = r#"{"type":"record","name":"R","doc":"a\rb","fields":[
        {"name":"f","type":"int","doc":"one\r\ntwo\rthree"}]}"#;
    let mut generator = Generator::new(Options::default());
    generator.add_schema_json(schema, "r.avsc").unwrap();
    let code = generator.generate().unwrap();
    assert_parses_with_docs(&code, &["a", "b", "one", "two", "three"]);
}

#[test]
fn text_direction_controls_are_escaped() {
    let schema = r#"{"type":"enum","name":"E","symbols":["A"],"doc":"left\u202eright"}"#;
    let mut generator = Generator::new(Options::default());
    generator.add_schema_json(schema, "e.avsc").unwrap();
    let code = generator.generate().unwrap();
    assert_parses_with_docs(&code, &["left\\u{202e}right"]);
    assert!(!code.contains('\u{202e}'), "{code}");
}
