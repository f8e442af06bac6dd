//! `textDocument/formatting` and `rangeFormatting`: the layout of `avdl2rs fmt` at the
//! configured indent, refused on a file that does not parse.

use lsp_server::ErrorCode;
use lsp_types::request::{Formatting, RangeFormatting};
use lsp_types::{
    DocumentFormattingParams, DocumentRangeFormattingParams, FormattingOptions, Position, Range,
    TextDocumentIdentifier, TextEdit, Uri,
};

use crate::support::{apply, file_uri, uri, Client};

fn options() -> FormattingOptions {
    FormattingOptions {
        tab_size: 8,
        insert_spaces: true,
        ..FormattingOptions::default()
    }
}

fn format(client: &mut Client, uri: &Uri) -> Result<Option<Vec<TextEdit>>, (i32, String)> {
    client.request::<Formatting>(DocumentFormattingParams {
        text_document: TextDocumentIdentifier::new(uri.clone()),
        options: options(),
        work_done_progress_params: Default::default(),
    })
}

#[test]
fn the_whole_file_at_the_configured_indent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("avdl2rs.toml"), "[fmt]\nindent = 4\n").unwrap();
    let path = dir.path().join("shop.avdl");
    let text = "/** Café 😀. */\nprotocol Shop{record Order{long id;// the key\nstring? note=null;}\n\n\n enum S{A,B}}";
    std::fs::write(&path, text).unwrap();
    let uri = uri(&path.canonicalize().unwrap());
    let mut client = Client::start(Some(dir.path()));
    client.open(&uri, text);
    let edits = format(&mut client, &uri).unwrap().unwrap();
    let expected = "/** Café 😀. */\nprotocol Shop {\n    record Order {\n        long id; // the key\n        string? note = null;\n    }\n\n    enum S {\n        A, B\n    }\n}\n";
    assert_eq!(apply(text, &edits), expected);
    // Only what changes is replaced: the doc comment line is left alone.
    assert!(edits.iter().all(|e| e.range.start.line >= 1), "{edits:?}");
    client.shutdown();
}

#[test]
fn a_formatted_file_needs_no_edit_and_a_broken_one_is_refused() {
    let mut client = Client::start(None);
    let uri = file_uri("/nowhere/p.avdl");
    client.open(&uri, "protocol P {\n  record R {\n    int a;\n  }\n}\n");
    assert_eq!(format(&mut client, &uri), Ok(Some(Vec::new())));
    let broken = file_uri("/nowhere/broken.avdl");
    client.open(&broken, "protocol P {\n  record R { int }\n}\n");
    let (code, message) = format(&mut client, &broken).unwrap_err();
    assert_eq!(code, ErrorCode::RequestFailed as i32);
    assert!(message.contains(":2:"), "{message}");
    client.shutdown();
}

#[test]
fn a_range_formats_the_declarations_it_touches() {
    let mut client = Client::start(None);
    let uri = file_uri("/nowhere/p.avdl");
    let text =
        "protocol P {\n  record A {int a;}\n      record B {int b;}\n  record C {int c;}\n}\n";
    client.open(&uri, text);
    let range = Range::new(Position::new(2, 14), Position::new(2, 15));
    let edits = client
        .request::<RangeFormatting>(DocumentRangeFormattingParams {
            text_document: TextDocumentIdentifier::new(uri.clone()),
            range,
            options: options(),
            work_done_progress_params: Default::default(),
        })
        .unwrap()
        .unwrap();
    // B alone, re-indented; A, C and the lines between them stay as they were.
    let expected = "protocol P {\n  record A {int a;}\n  record B {\n    int b;\n  }\n  record C {int c;}\n}\n";
    assert_eq!(apply(text, &edits), expected);
    client.shutdown();
}
