//! The `[lsp] include` folders of `avdl2rs.toml`: imports found through them by the
//! diagnostics and the index, at start and once the settings file is saved.

use std::path::{Path, PathBuf};

use lsp_types::notification::{DidSaveTextDocument, PublishDiagnostics};
use lsp_types::request::GotoDefinition;
use lsp_types::{
    DidSaveTextDocumentParams, GotoDefinitionParams, GotoDefinitionResponse, Position,
    TextDocumentIdentifier, TextDocumentPositionParams,
};

use crate::support::{uri, Client};

/// The warehouse schemas in their own layout (the shared envelope in `shared/`, imported by
/// its bare name, so only an include folder finds it), with `settings` as `avdl2rs.toml`.
fn warehouse(settings: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/warehouse/schemas");
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for file in [
        "warehouse.avdl",
        "shared/business_event.avdl",
        "reference/locations.avdl",
    ] {
        let target = root.join(file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(schemas.join(file), target).unwrap();
    }
    if let Some(settings) = settings {
        std::fs::write(root.join("avdl2rs.toml"), settings).unwrap();
    }
    (dir, root)
}

/// Opens `path` and returns the messages of the diagnostics first published for it.
fn open_and_check(client: &mut Client, path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    client.open(&uri(path), &text);
    next_messages(client, path)
}

/// The messages of the diagnostics next published for `path`.
fn next_messages(client: &mut Client, path: &Path) -> Vec<String> {
    loop {
        let published = client.expect::<PublishDiagnostics>();
        if published.uri == uri(path) {
            return published
                .diagnostics
                .into_iter()
                .map(|d| d.message)
                .collect();
        }
    }
}

/// The file the index gives as the definition of the name in `import idl
/// "business_event.avdl"` of `warehouse.avdl`.
fn import_target(client: &mut Client, main: &Path) -> Option<String> {
    let text = std::fs::read_to_string(main).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("\"business_event.avdl\""))
        .unwrap();
    let column = text
        .lines()
        .nth(line)
        .unwrap()
        .find("business_event")
        .unwrap();
    let params = GotoDefinitionParams {
        text_document_position_params: TextDocumentPositionParams::new(
            TextDocumentIdentifier::new(uri(main)),
            Position::new(line as u32, column as u32 + 2),
        ),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    match client.request::<GotoDefinition>(params).unwrap() {
        Some(GotoDefinitionResponse::Scalar(location)) => Some(location.uri.as_str().to_owned()),
        None => None,
        other => panic!("{other:?}"),
    }
}

fn mentions_import(messages: &[String]) -> bool {
    messages.iter().any(|m| m.contains("business_event.avdl"))
}

#[test]
fn imports_resolve_through_the_include_folders_of_the_settings() {
    let (_dir, root) = warehouse(Some("[lsp]\ninclude = [\"shared\"]\n"));
    let main = root.join("warehouse.avdl");
    let mut client = Client::start(Some(&root));
    let messages = open_and_check(&mut client, &main);
    assert!(!mentions_import(&messages), "{messages:?}");
    let shared = uri(&root.join("shared/business_event.avdl"));
    let found = import_target(&mut client, &main);
    assert_eq!(found.as_deref(), Some(shared.as_str()));
    client.shutdown();
}

#[test]
fn a_saved_include_setting_applies_to_the_open_documents_and_the_index() {
    let (_dir, root) = warehouse(None);
    let main = root.join("warehouse.avdl");
    let mut client = Client::start(Some(&root));
    let messages = open_and_check(&mut client, &main);
    assert!(mentions_import(&messages), "{messages:?}");
    assert_eq!(import_target(&mut client, &main), None);

    let settings = root.join("avdl2rs.toml");
    std::fs::write(&settings, "[lsp]\ninclude = [\"shared\"]\n").unwrap();
    client.notify::<DidSaveTextDocument>(DidSaveTextDocumentParams {
        text_document: TextDocumentIdentifier::new(uri(&settings)),
        text: None,
    });
    let messages = next_messages(&mut client, &main);
    assert!(!mentions_import(&messages), "{messages:?}");
    let shared = uri(&root.join("shared/business_event.avdl"));
    let found = import_target(&mut client, &main);
    assert_eq!(found.as_deref(), Some(shared.as_str()));
    client.shutdown();
}
