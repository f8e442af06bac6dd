//! `textDocument/documentSymbol`: the outline, with UTF-16 ranges.

use lsp_types::request::DocumentSymbolRequest;
use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, Position, Range, SymbolKind,
    TextDocumentIdentifier,
};

use crate::support::{file_uri, Client};

const IDL: &str = "/** Café orders 😀. */
protocol Shop {
  /** An order 😀. */ record Order { long id; string name = \"é\", note; }
  enum Status { NEW, DONE }
  fixed Hash(16);
  Order place(Order order);
}
";

fn outline(client: &mut Client, uri: &lsp_types::Uri) -> Vec<DocumentSymbol> {
    let params = DocumentSymbolParams {
        text_document: TextDocumentIdentifier::new(uri.clone()),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    match client.request::<DocumentSymbolRequest>(params).unwrap() {
        Some(DocumentSymbolResponse::Nested(symbols)) => symbols,
        other => panic!("{other:?}"),
    }
}

fn names(symbols: &[DocumentSymbol]) -> Vec<(&str, SymbolKind)> {
    symbols.iter().map(|s| (s.name.as_str(), s.kind)).collect()
}

#[test]
fn the_outline_nests_types_fields_symbols_and_messages() {
    let mut client = Client::start(None);
    let uri = file_uri("/w/shop.avdl");
    client.open(&uri, IDL);
    let symbols = outline(&mut client, &uri);
    assert_eq!(names(&symbols), [("Shop", SymbolKind::MODULE)]);
    let shop = symbols[0].children.as_ref().unwrap();
    let expected = [
        ("Order", SymbolKind::STRUCT),
        ("Status", SymbolKind::ENUM),
        ("Hash", SymbolKind::STRUCT),
        ("place", SymbolKind::METHOD),
    ];
    assert_eq!(names(shop), expected);
    let fields = shop[0].children.as_ref().unwrap();
    let field_names: Vec<_> = fields
        .iter()
        .map(|f| (f.name.as_str(), f.detail.as_deref()))
        .collect();
    assert_eq!(
        field_names,
        [
            ("id", Some("long")),
            ("name", Some("string")),
            ("note", Some("string"))
        ]
    );
    let symbols_of_status = names(shop[1].children.as_ref().unwrap());
    assert_eq!(
        symbols_of_status,
        [
            ("NEW", SymbolKind::ENUM_MEMBER),
            ("DONE", SymbolKind::ENUM_MEMBER)
        ]
    );
    assert_eq!(shop[2].detail.as_deref(), Some("fixed(16)"));
    // UTF-16 columns: "  /** An order 😀. */ record " is 29 units ("😀" counts 2).
    assert_eq!(
        shop[0].selection_range,
        Range::new(Position::new(2, 29), Position::new(2, 34))
    );
    // The range starts at the doc comment, which belongs to the declaration.
    assert_eq!(shop[0].range.start, Position::new(2, 2));
    client.shutdown();
}

#[test]
fn a_broken_file_still_has_an_outline() {
    let mut client = Client::start(None);
    let uri = file_uri("/w/broken.avdl");
    client.open(
        &uri,
        "protocol P {\n  record A { long\n  enum E { X }\n  record B { int b; }\n",
    );
    let symbols = outline(&mut client, &uri);
    let children = names(symbols[0].children.as_ref().unwrap());
    assert!(
        children.contains(&("B", SymbolKind::STRUCT)),
        "{children:?}"
    );
    client.shutdown();
}
