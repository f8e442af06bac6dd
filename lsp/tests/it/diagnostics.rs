//! Diagnostics published on open, change and save: syntax errors, compile errors, lint
//! findings at their configured levels, JSON errors, and importers checked again when an
//! imported file changes.

use std::path::Path;

use lsp_types::notification::{DidChangeTextDocument, DidSaveTextDocument, PublishDiagnostics};
use lsp_types::{
    DiagnosticSeverity, DidChangeTextDocumentParams, DidSaveTextDocumentParams, NumberOrString,
    Position, PublishDiagnosticsParams, Range, TextDocumentContentChangeEvent,
    TextDocumentIdentifier, Uri, VersionedTextDocumentIdentifier,
};

use crate::support::{file_uri, uri, Client};

/// The diagnostics next published for `uri` (others skipped).
fn diagnostics_of(client: &mut Client, uri: &Uri) -> PublishDiagnosticsParams {
    loop {
        let published = client.expect::<PublishDiagnostics>();
        if &published.uri == uri {
            return published;
        }
    }
}

/// Replaces `range` of the document by `text`, as version `version`.
fn edit(client: &Client, uri: &Uri, version: i32, range: Option<Range>, text: &str) {
    let params = DidChangeTextDocumentParams {
        text_document: VersionedTextDocumentIdentifier::new(uri.clone(), version),
        content_changes: vec![TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.to_owned(),
        }],
    };
    client.notify::<DidChangeTextDocument>(params);
}

fn write(dir: &Path, name: &str, text: &str) -> Uri {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    uri(&path.canonicalize().unwrap())
}

fn codes(published: &PublishDiagnosticsParams) -> Vec<(String, DiagnosticSeverity)> {
    let code = |c: &Option<NumberOrString>| match c {
        Some(NumberOrString::String(s)) => s.clone(),
        _ => String::new(),
    };
    published
        .diagnostics
        .iter()
        .map(|d| (code(&d.code), d.severity.unwrap()))
        .collect()
}

#[test]
fn syntax_errors_are_placed_in_utf16_columns_and_go_away_when_fixed() {
    let mut client = Client::start(None);
    let uri = file_uri("/nowhere/p.avdl");
    // "é" is 1 UTF-16 unit, "😀" 2: `P` is at column 11 of line 0, the stray `%` at 15.
    client.open(&uri, "/** é😀 */ P { % }\n");
    let published = diagnostics_of(&mut client, &uri);
    assert_eq!(published.version, Some(1));
    assert!(!published.diagnostics.is_empty());
    let places: Vec<_> = published
        .diagnostics
        .iter()
        .map(|d| (d.range, d.severity))
        .collect();
    let at = |column| Range::new(Position::new(0, column), Position::new(0, column + 1));
    let error = Some(DiagnosticSeverity::ERROR);
    assert_eq!(places, [(at(11), error), (at(15), error)]);
    edit(&client, &uri, 2, None, "/** é😀 */ protocol P { }\n");
    let published = diagnostics_of(&mut client, &uri);
    assert_eq!(published.version, Some(2));
    assert_eq!(published.diagnostics, []);
    client.shutdown();
}

#[test]
fn compile_errors_and_lint_findings_at_their_configured_levels() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("avdl2rs.toml"),
        "[lint]\nfloat-money = \"error\"\nmissing-doc = \"allow\"\n",
    )
    .unwrap();
    let text = "@namespace(\"shop\")\nprotocol P {\n  record A { Missing m; }\n}\n";
    let uri = write(dir.path(), "p.avdl", text);
    let mut client = Client::start(Some(dir.path()));
    client.open(&uri, text);
    let published = diagnostics_of(&mut client, &uri);
    let undefined = &published.diagnostics[0];
    assert_eq!(undefined.message, "Undefined schema: shop.Missing");
    assert_eq!(
        undefined.range,
        Range::new(Position::new(2, 13), Position::new(2, 20))
    );
    // Fixed in the editor only: the unsaved text is what is checked.
    let fixed = "@namespace(\"shop\")\nprotocol P {\n  record A { double amount = 0; }\n}\n";
    edit(&client, &uri, 2, None, fixed);
    let published = diagnostics_of(&mut client, &uri);
    let codes = codes(&published);
    assert!(
        codes.contains(&("float-money".to_owned(), DiagnosticSeverity::ERROR)),
        "{codes:?}"
    );
    assert!(
        !codes.iter().any(|(code, _)| code == "missing-doc"),
        "{codes:?}"
    );
    let money = &published.diagnostics[codes.iter().position(|(c, _)| c == "float-money").unwrap()];
    assert_eq!(money.range.start, Position::new(2, 13));
    assert_eq!(money.source.as_deref(), Some("avdl2rs-lint"));
    client.shutdown();
}

#[test]
fn a_change_to_an_imported_file_checks_its_importers_again() {
    let dir = tempfile::tempdir().unwrap();
    let common = "@namespace(\"shop\")\nprotocol Common {\n  /** Money. */\n  record Money { long units = 0; }\n}\n";
    let main = "@namespace(\"shop\")\nprotocol Shop {\n  import idl \"common.avdl\";\n  /** An order. */\n  record Order { /** Total. */ Money total; }\n}\n";
    let common_uri = write(dir.path(), "common.avdl", common);
    let main_uri = write(dir.path(), "main.avdl", main);
    let mut client = Client::start(Some(dir.path()));
    client.open(&main_uri, main);
    let published = diagnostics_of(&mut client, &main_uri);
    assert!(
        published
            .diagnostics
            .iter()
            .all(|d| d.severity != Some(DiagnosticSeverity::ERROR)),
        "{published:?}"
    );
    client.open(&common_uri, common);
    diagnostics_of(&mut client, &common_uri);
    // Renaming Money in the open (unsaved) imported file breaks the importer.
    let name = Range::new(Position::new(3, 9), Position::new(3, 14));
    edit(&client, &common_uri, 2, Some(name), "Cash");
    diagnostics_of(&mut client, &common_uri);
    let published = diagnostics_of(&mut client, &main_uri);
    let messages: Vec<_> = published
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    let undefined = "Undefined schema: shop.Money\nhelp: did you mean `shop.Order`?";
    assert_eq!(messages, [undefined]);
    client.shutdown();
}

#[test]
fn json_files_get_their_syntax_errors_and_lint_findings() {
    let dir = tempfile::tempdir().unwrap();
    let broken = "{\"type\": \"record\",\n \"name\": }";
    let uri = write(dir.path(), "broken.avsc", broken);
    let mut client = Client::start(Some(dir.path()));
    client.open(&uri, broken);
    let published = diagnostics_of(&mut client, &uri);
    assert_eq!(published.diagnostics.len(), 1, "{published:?}");
    assert_eq!(published.diagnostics[0].range.start, Position::new(1, 9));
    let payment = "{\"type\": \"record\", \"name\": \"Payment\", \"namespace\": \"shop\", \"doc\": \"A payment.\",\n \"fields\": [{\"name\": \"amount\", \"type\": \"double\", \"doc\": \"How much.\", \"default\": 0}]}";
    edit(&client, &uri, 2, None, payment);
    let published = diagnostics_of(&mut client, &uri);
    assert_eq!(
        codes(&published),
        [("float-money".to_owned(), DiagnosticSeverity::WARNING)]
    );
    // At the type, `"double"`.
    assert_eq!(published.diagnostics[0].range.start, Position::new(1, 39));
    // Saving checks again (same text, same result).
    client.notify::<DidSaveTextDocument>(DidSaveTextDocumentParams {
        text_document: TextDocumentIdentifier::new(uri.clone()),
        text: None,
    });
    assert_eq!(codes(&diagnostics_of(&mut client, &uri)).len(), 1);
    client.shutdown();
}

#[test]
fn a_saved_settings_file_applies_to_the_open_documents() {
    let dir = tempfile::tempdir().unwrap();
    let text = "@namespace(\"shop\")\nprotocol P {\n  /** A. */\n  record A { /** Amount. */ double amount = 0; }\n}\n";
    let uri = write(dir.path(), "p.avdl", text);
    let mut client = Client::start(Some(dir.path()));
    client.open(&uri, text);
    let warning = ("float-money".to_owned(), DiagnosticSeverity::WARNING);
    assert_eq!(codes(&diagnostics_of(&mut client, &uri)), [warning]);
    let settings = write(
        dir.path(),
        "avdl2rs.toml",
        "[lint]\nfloat-money = \"error\"\n",
    );
    client.notify::<DidSaveTextDocument>(DidSaveTextDocumentParams {
        text_document: TextDocumentIdentifier::new(settings),
        text: None,
    });
    let error = ("float-money".to_owned(), DiagnosticSeverity::ERROR);
    assert_eq!(codes(&diagnostics_of(&mut client, &uri)), [error]);
    client.shutdown();
}
