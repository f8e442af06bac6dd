//! Definition, references, workspace symbols, hover, completion, rename and code actions
//! through the protocol, on a copy of `examples/warehouse` and small files with non-ASCII
//! text (positions in UTF-16 code units).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, PrepareRenameRequest, References,
    Rename, WorkspaceSymbolRequest,
};
use lsp_types::{
    CodeActionContext, CodeActionOrCommand, CodeActionParams, CompletionParams, CompletionResponse,
    DocumentChangeOperation, DocumentChanges, GotoDefinitionParams, GotoDefinitionResponse,
    HoverContents, HoverParams, Location, Position, PrepareRenameResponse, Range, ReferenceContext,
    ReferenceParams, RenameParams, TextDocumentIdentifier, TextDocumentPositionParams,
    WorkspaceEdit, WorkspaceSymbolParams, WorkspaceSymbolResponse,
};

use crate::support::{uri, Client};

/// A folder holding the warehouse schemas (the include directory's file beside the main
/// one, as the test client passes no include directory) and the server started on it.
fn warehouse() -> (tempfile::TempDir, Client) {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/warehouse/schemas");
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in [
        ("warehouse.avdl", "warehouse.avdl"),
        ("shared/business_event.avdl", "business_event.avdl"),
        ("reference/locations.avdl", "reference/locations.avdl"),
    ] {
        let target = dir.path().join(to);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(schemas.join(from), target).unwrap();
    }
    let client = Client::start(Some(&std::fs::canonicalize(dir.path()).unwrap()));
    (dir, client)
}

/// Opens the file at `path` as it is on disk.
fn open(client: &Client, path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    client.open(&uri(path), &text);
    text
}

/// The LSP position (UTF-16 columns) of the `nth` `needle` in `text`, plus `within` bytes.
fn position(text: &str, needle: &str, nth: usize, within: usize) -> Position {
    let at = text.match_indices(needle).nth(nth).unwrap().0 + within;
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let line = text[..line_start].matches('\n').count();
    let column = text[line_start..at].encode_utf16().count();
    Position::new(line as u32, column as u32)
}

fn at(path: &Path, position: Position) -> TextDocumentPositionParams {
    TextDocumentPositionParams::new(TextDocumentIdentifier::new(uri(path)), position)
}

fn real(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    std::fs::canonicalize(dir.path()).unwrap().join(name)
}

/// The text edits of a workspace edit, by file URI, in order.
fn edits_by_file(edit: &WorkspaceEdit) -> BTreeMap<String, Vec<(Range, String)>> {
    let Some(DocumentChanges::Edits(files)) = &edit.document_changes else {
        panic!("{edit:?}");
    };
    let mut out = BTreeMap::new();
    for file in files {
        let edits = file.edits.iter().map(|e| match e {
            lsp_types::OneOf::Left(e) => (e.range, e.new_text.clone()),
            lsp_types::OneOf::Right(e) => (e.text_edit.range, e.text_edit.new_text.clone()),
        });
        out.insert(file.text_document.uri.as_str().to_owned(), edits.collect());
    }
    out
}

fn definition(client: &mut Client, path: &Path, position: Position) -> Option<Location> {
    let params = GotoDefinitionParams {
        text_document_position_params: at(path, position),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    match client.request::<GotoDefinition>(params).unwrap() {
        Some(GotoDefinitionResponse::Scalar(location)) => Some(location),
        None => None,
        other => panic!("{other:?}"),
    }
}

#[test]
fn definition_references_and_symbols_across_files() {
    let (dir, mut client) = warehouse();
    let main = real(&dir, "warehouse.avdl");
    let locations = real(&dir, "reference/locations.avdl");
    let text = open(&client, &main);
    let theirs = std::fs::read_to_string(&locations).unwrap();
    let found = definition(&mut client, &main, position(&text, "reference.Sku", 0, 12)).unwrap();
    let start = position(&theirs, "record Sku", 0, 7);
    assert_eq!(found.uri, uri(&locations));
    assert_eq!(
        found.range,
        Range::new(start, Position::new(start.line, start.character + 3))
    );
    // The import's file name opens the file.
    let found = definition(
        &mut client,
        &main,
        position(&text, "\"business_event", 0, 2),
    )
    .unwrap();
    assert_eq!(found.uri, uri(&real(&dir, "business_event.avdl")));

    let params = ReferenceParams {
        text_document_position: at(&main, position(&text, "reference.Location from", 0, 12)),
        context: ReferenceContext {
            include_declaration: true,
        },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    let found = client.request::<References>(params).unwrap().unwrap();
    let mut files: Vec<String> = found.iter().map(|l| l.uri.as_str().to_owned()).collect();
    files.sort();
    let expected = [uri(&locations), uri(&main), uri(&main)];
    let mut expected: Vec<String> = expected.iter().map(|u| u.as_str().to_owned()).collect();
    expected.sort();
    assert_eq!(files, expected);

    let params = WorkspaceSymbolParams {
        query: "busev".to_owned(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    // The server sends `WorkspaceSymbol`s; their JSON reads back as either variant.
    let names: Vec<String> = match client.request::<WorkspaceSymbolRequest>(params).unwrap() {
        Some(WorkspaceSymbolResponse::Nested(symbols)) => {
            symbols.into_iter().map(|s| s.name).collect()
        }
        Some(WorkspaceSymbolResponse::Flat(symbols)) => {
            symbols.into_iter().map(|s| s.name).collect()
        }
        None => panic!("no symbols"),
    };
    assert_eq!(names, ["com.example.shared.BusinessEvent"]);
    client.shutdown();
}

#[test]
fn hover_and_definition_count_utf16_columns() {
    let dir = tempfile::tempdir().unwrap();
    let text = "protocol P {\n  /** Prix en € 😀. */ record Prix { long montant; } /* 😀 */ record R { Prix p; }\n}\n";
    let path = real(&dir, "p.avdl");
    std::fs::write(&path, text).unwrap();
    let mut client = Client::start(Some(&std::fs::canonicalize(dir.path()).unwrap()));
    client.open(&uri(&path), text);
    let reference = position(text, "Prix p", 0, 2);
    let found = definition(&mut client, &path, reference).unwrap();
    assert_eq!(found.range.start, position(text, "Prix {", 0, 0));
    let params = HoverParams {
        text_document_position_params: at(&path, reference),
        work_done_progress_params: Default::default(),
    };
    let hover = client.request::<HoverRequest>(params).unwrap().unwrap();
    let HoverContents::Markup(markup) = hover.contents else {
        panic!("{hover:?}");
    };
    assert!(markup.value.contains("record Prix"), "{}", markup.value);
    assert!(markup.value.contains("Prix en € 😀."), "{}", markup.value);
    assert!(
        markup.value.contains("Fingerprint (CRC-64-AVRO)"),
        "{}",
        markup.value
    );
    let start = position(text, "Prix p", 0, 0);
    assert_eq!(
        hover.range,
        Some(Range::new(
            start,
            Position::new(start.line, start.character + 4)
        ))
    );
    client.shutdown();
}

/// A protocol of 500 records: more types than one answer holds, so the list comes marked
/// incomplete with the types that contain what is typed, and the editor asks again as more
/// is typed.
#[test]
fn a_long_completion_list_is_cut_to_what_is_typed_and_marked_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let records: String = (0..500)
        .map(|i| format!("  record Item{i} {{ int n; }}\n"))
        .collect();
    let text = format!("protocol Big {{\n{records}  record Use {{ Item4 x; }}\n}}\n");
    let main = dir.path().join("big.avdl");
    std::fs::write(&main, &text).unwrap();
    let main = std::fs::canonicalize(main).unwrap();
    let mut client = crate::support::Client::start(Some(main.parent().unwrap()));
    client.open(&uri(&main), &text);
    let params = CompletionParams {
        // Just after `Item4` in `Use`.
        text_document_position: at(&main, position(&text, "Item4 x", 0, 5)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    };
    let Some(CompletionResponse::List(list)) = client.request::<Completion>(params).unwrap() else {
        panic!("not an incomplete list");
    };
    assert!(list.is_incomplete);
    let labels: Vec<&str> = list.items.iter().map(|i| i.label.as_str()).collect();
    // Item4, Item40…Item49 and Item400…Item499: 111 of the 500, all of them sent.
    assert_eq!(labels.len(), 111, "{labels:?}");
    assert!(labels.iter().all(|l| l.to_lowercase().contains("item4")));
    assert!(labels.contains(&"Item4") && labels.contains(&"Item499"));
    client.shutdown();
}

#[test]
fn completion_offers_types_in_scope() {
    let (dir, mut client) = warehouse();
    let main = real(&dir, "warehouse.avdl");
    let text = open(&client, &main);
    let params = CompletionParams {
        text_document_position: at(&main, position(&text, "int quantity", 0, 1)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    };
    let Some(CompletionResponse::Array(items)) = client.request::<Completion>(params).unwrap()
    else {
        panic!("no completions");
    };
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    for expected in [
        "MovementLine",
        "com.example.reference.Sku",
        "timestamp_ms",
        "record",
    ] {
        assert!(labels.contains(&expected), "{expected} not in {labels:?}");
    }
    client.shutdown();
}

#[test]
fn rename_edits_every_file_and_keeps_an_alias() {
    let (dir, mut client) = warehouse();
    let main = real(&dir, "warehouse.avdl");
    let locations = real(&dir, "reference/locations.avdl");
    let text = open(&client, &main);
    let place = at(&main, position(&text, "reference.Location from", 0, 12));
    let prepared = client
        .request::<PrepareRenameRequest>(place.clone())
        .unwrap();
    let Some(PrepareRenameResponse::RangeWithPlaceholder { placeholder, .. }) = prepared else {
        panic!("{prepared:?}");
    };
    assert_eq!(placeholder, "Location");
    let params = RenameParams {
        text_document_position: place,
        new_name: "Place".to_owned(),
        work_done_progress_params: Default::default(),
    };
    let edit = client.request::<Rename>(params).unwrap().unwrap();
    let changes = edits_by_file(&edit);
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[uri(&main).as_str()].len(), 2);
    let theirs: Vec<&str> = changes[uri(&locations).as_str()]
        .iter()
        .map(|(_, text)| text.as_str())
        .collect();
    assert_eq!(
        theirs,
        ["@aliases([\"com.example.reference.Location\"]) ", "Place"]
    );
    // A name that is not an Avro name is refused with a message.
    let params = RenameParams {
        text_document_position: at(&main, position(&text, "reference.Location from", 0, 12)),
        new_name: "a-b".to_owned(),
        work_done_progress_params: Default::default(),
    };
    let (_, message) = client.request::<Rename>(params).unwrap_err();
    assert!(message.contains("not an Avro name"), "{message}");
    client.shutdown();
}

#[test]
fn code_actions_fix_findings_and_convert_json_to_idl() {
    let dir = tempfile::tempdir().unwrap();
    let idl = "@namespace(\"shop\")\nprotocol P {\n  /** An order. */\n  record Order {\n    /** A note. */\n    string? note = \"none\";\n  }\n}\n";
    let avsc = r#"{"type": "enum", "name": "Size", "namespace": "shop", "doc": "A size.", "symbols": ["S", "M"]}"#;
    std::fs::write(dir.path().join("p.avdl"), idl).unwrap();
    std::fs::write(dir.path().join("size.avsc"), avsc).unwrap();
    let mut client = Client::start(Some(&std::fs::canonicalize(dir.path()).unwrap()));
    let path = real(&dir, "p.avdl");
    client.open(&uri(&path), idl);
    let actions = |client: &mut Client, path: &Path, range: Range| {
        let params = CodeActionParams {
            text_document: TextDocumentIdentifier::new(uri(path)),
            range,
            context: CodeActionContext::default(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        client
            .request::<CodeActionRequest>(params)
            .unwrap()
            .unwrap_or_default()
    };
    // The finding is on the type: `null` is not its first branch.
    let note = position(idl, "string?", 0, 1);
    let found = actions(&mut client, &path, Range::new(note, note));
    let [CodeActionOrCommand::CodeAction(fix)] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert_eq!(
        fix.title,
        "Make `note` optional: `null` first and by default"
    );
    let edits = edits_by_file(fix.edit.as_ref().unwrap());
    let start = position(idl, "\"none\"", 0, 0);
    let end = Position::new(start.line, start.character + 6);
    assert_eq!(
        edits[uri(&path).as_str()],
        [(Range::new(start, end), "null".to_owned())]
    );

    let json = real(&dir, "size.avsc");
    client.open(&uri(&json), avsc);
    let name = position(avsc, "Size", 0, 1);
    let found = actions(&mut client, &json, Range::new(name, name));
    let titles: Vec<&str> = found
        .iter()
        .map(|a| match a {
            CodeActionOrCommand::CodeAction(a) => a.title.as_str(),
            CodeActionOrCommand::Command(c) => c.title.as_str(),
        })
        .collect();
    assert_eq!(
        titles,
        [
            "Add the default symbol `S`",
            "Add the default symbol `M`",
            "Convert to IDL (size.avdl)"
        ]
    );
    let CodeActionOrCommand::CodeAction(convert) = &found[2] else {
        panic!();
    };
    let changes = convert
        .edit
        .as_ref()
        .unwrap()
        .document_changes
        .as_ref()
        .unwrap();
    let DocumentChanges::Operations(operations) = changes else {
        panic!("{changes:?}");
    };
    let [DocumentChangeOperation::Op(_), DocumentChangeOperation::Edit(insert)] =
        operations.as_slice()
    else {
        panic!("{operations:?}");
    };
    let lsp_types::OneOf::Left(edit) = &insert.edits[0] else {
        panic!();
    };
    let compiled =
        avdl_parser::parse_str(&edit.new_text, "size.avdl", &Default::default()).unwrap();
    assert!(compiled
        .to_json_string(false)
        .contains("\"symbols\":[\"S\",\"M\"]"));
    client.shutdown();
}

#[test]
fn compat_diagnostics_are_published_with_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let v1 = "@namespace(\"shop\")\nprotocol P {\n  /** An order. */\n  record Order {\n    /** Its id. */\n    long id;\n  }\n}\n";
    std::fs::write(dir.path().join("order.avdl"), v1).unwrap();
    std::fs::write(
        dir.path().join("avdl2rs.toml"),
        "[lsp]\ncompat = { level = \"BACKWARD\", against = \"HEAD\" }\n",
    )
    .unwrap();
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(dir.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .status()
            .unwrap();
        assert!(status.success());
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "v1"]);
    let mut client = Client::start(Some(&std::fs::canonicalize(dir.path()).unwrap()));
    let path = real(&dir, "order.avdl");
    let v2 = v1.replace("long id;", "string id;");
    client.open(&uri(&path), &v2);
    let published = loop {
        let published = client.expect::<lsp_types::notification::PublishDiagnostics>();
        if published.uri == uri(&path) {
            break published;
        }
    };
    let compat: Vec<_> = published
        .diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some("avdl2rs-compat"))
        .collect();
    assert_eq!(compat.len(), 1, "{:?}", published.diagnostics);
    let start = position(&v2, "id;", 0, 0);
    assert_eq!(
        compat[0].range,
        Range::new(start, Position::new(start.line, start.character + 2))
    );
    assert_eq!(
        compat[0].code,
        Some(lsp_types::NumberOrString::String(
            "TYPE_MISMATCH".to_owned()
        ))
    );
    assert!(compat[0]
        .message
        .starts_with("BACKWARD compatibility: this version cannot read data written at HEAD"));
    client.shutdown();
}
