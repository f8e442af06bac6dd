//! `textDocument/semanticTokens/full`: classes from the tree, UTF-16 lengths, multi-line doc
//! comments split per line.

use lsp_types::request::SemanticTokensFullRequest;
use lsp_types::{
    SemanticTokensParams, SemanticTokensResult, SemanticTokensServerCapabilities,
    TextDocumentIdentifier,
};

use crate::support::{file_uri, Client};

const IDL: &str = "/** Café
 😀 orders. */
@namespace(\"shop\")
protocol Shop {
  record Order { long id = 1; Status s; }
  enum Status { A } = A;
  // note
  void ping(int n) throws Oops;
}
";

#[test]
fn every_token_gets_its_class_at_its_utf16_place() {
    let mut client = Client::start(None);
    let Some(SemanticTokensServerCapabilities::SemanticTokensOptions(options)) = client
        .initialized
        .capabilities
        .semantic_tokens_provider
        .clone()
    else {
        panic!("no semantic tokens");
    };
    let types: Vec<String> = options
        .legend
        .token_types
        .iter()
        .map(|t| t.as_str().to_owned())
        .collect();
    let modifiers: Vec<String> = options
        .legend
        .token_modifiers
        .iter()
        .map(|m| m.as_str().to_owned())
        .collect();
    let uri = file_uri("/nowhere/shop.avdl");
    client.open(&uri, IDL);
    let params = SemanticTokensParams {
        text_document: TextDocumentIdentifier::new(uri),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    let Some(SemanticTokensResult::Tokens(tokens)) =
        client.request::<SemanticTokensFullRequest>(params).unwrap()
    else {
        panic!("no tokens");
    };
    // Decoded to absolute places, with the legend's names.
    let (mut line, mut start) = (0, 0);
    let mut decoded = Vec::new();
    for token in &tokens.data {
        line += token.delta_line;
        start = if token.delta_line == 0 {
            start + token.delta_start
        } else {
            token.delta_start
        };
        let names: Vec<&str> = (0..modifiers.len())
            .filter(|i| token.token_modifiers_bitset & (1 << i) != 0)
            .map(|i| modifiers[i].as_str())
            .collect();
        decoded.push((
            line,
            start,
            token.length,
            types[token.token_type as usize].clone(),
            names.join(","),
        ));
    }
    let t = |line, start, length, kind: &str, modifiers: &str| {
        (line, start, length, kind.to_owned(), modifiers.to_owned())
    };
    let expected = vec![
        t(0, 0, 8, "comment", "documentation"),
        // " 😀 orders. */": "😀" is 2 UTF-16 units.
        t(1, 0, 14, "comment", "documentation"),
        t(2, 0, 1, "decorator", ""),
        t(2, 1, 9, "decorator", ""),
        t(2, 11, 6, "string", ""),
        t(3, 0, 8, "keyword", ""),
        t(3, 9, 4, "namespace", "declaration"),
        t(4, 2, 6, "keyword", ""),
        t(4, 9, 5, "struct", "declaration"),
        t(4, 17, 4, "type", "defaultLibrary"),
        t(4, 22, 2, "property", "declaration"),
        t(4, 27, 1, "number", ""),
        t(4, 30, 6, "type", ""),
        t(4, 37, 1, "property", "declaration"),
        t(5, 2, 4, "keyword", ""),
        t(5, 7, 6, "enum", "declaration"),
        t(5, 16, 1, "enumMember", "declaration"),
        t(5, 22, 1, "enumMember", ""),
        t(6, 2, 7, "comment", ""),
        t(7, 2, 4, "keyword", ""),
        t(7, 7, 4, "method", "declaration"),
        t(7, 12, 3, "type", "defaultLibrary"),
        t(7, 16, 1, "parameter", "declaration"),
        t(7, 19, 6, "keyword", ""),
        t(7, 26, 4, "type", ""),
    ];
    assert_eq!(decoded, expected);
    client.shutdown();
}
