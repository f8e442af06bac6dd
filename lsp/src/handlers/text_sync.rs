//! The open documents kept in step with the editor (`didOpen`, `didChange`, `didSave`,
//! `didClose`), and their diagnostics published after each: those of the document, and of
//! the open documents whose last check read it (they import it).

use std::path::PathBuf;

use lsp_types::notification::PublishDiagnostics;
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, PublishDiagnosticsParams, Uri,
};

use super::{not_open, HandlerResult};
use crate::diagnostics;
use crate::documents::Document;
use crate::state::State;

/// Keeps the opened document and checks it.
pub fn did_open(state: &mut State, params: DidOpenTextDocumentParams) -> HandlerResult<()> {
    let item = params.text_document;
    let document = Document::new(item.uri, &item.language_id, item.version, item.text);
    let (uri, path) = (document.uri.clone(), document.path.clone());
    state.documents.open(document);
    check_with_importers(state, &uri, path);
    Ok(())
}

/// Applies the changes to the document and checks it and its importers.
pub fn did_change(state: &mut State, params: DidChangeTextDocumentParams) -> HandlerResult<()> {
    let id = params.text_document;
    let open = state
        .documents
        .get_mut(&id.uri)
        .ok_or_else(|| not_open(&id.uri))?;
    open.apply(id.version, params.content_changes);
    let path = open.path.clone();
    check_with_importers(state, &id.uri, path);
    Ok(())
}

/// Checks the document again; a saved settings file applies from now on, to every document.
pub fn did_save(state: &mut State, params: DidSaveTextDocumentParams) -> HandlerResult<()> {
    let uri = params.text_document.uri;
    if uri.as_str().ends_with("/avdl2rs.toml") {
        if state.workspace.reload_configs() {
            let include_dirs = state.workspace.include_dirs.clone();
            state.index.set_include_dirs(include_dirs);
        }
        let all: Vec<Uri> = state.documents.iter().map(|d| d.uri.clone()).collect();
        all.iter().for_each(|uri| publish(state, uri));
    } else if state.documents.get(&uri).is_some() {
        publish(state, &uri);
    }
    Ok(())
}

/// Forgets the document and its diagnostics; its importers read it from disk again.
pub fn did_close(state: &mut State, params: DidCloseTextDocumentParams) -> HandlerResult<()> {
    let uri = params.text_document.uri;
    let closed = state.documents.close(&uri);
    state.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(uri, Vec::new(), None));
    if let Some(path) = closed.and_then(|document| document.path) {
        importers(state, &path)
            .iter()
            .for_each(|uri| publish(state, uri));
    }
    Ok(())
}

/// Checks the document at `uri` (whose file is `path`), then the open documents that
/// import it.
fn check_with_importers(state: &mut State, uri: &Uri, path: Option<PathBuf>) {
    publish(state, uri);
    if let Some(path) = path {
        importers(state, &path)
            .iter()
            .filter(|importer| *importer != uri)
            .for_each(|importer| publish(state, importer));
    }
}

/// The open documents whose last check read the file at `path`.
fn importers(state: &State, path: &PathBuf) -> Vec<Uri> {
    state
        .documents
        .iter()
        .filter(|document| document.reads.contains(path))
        .map(|document| document.uri.clone())
        .collect()
}

/// Checks the open document at `uri` and publishes its diagnostics.
fn publish(state: &mut State, uri: &Uri) {
    let Some(document) = state.documents.get(uri) else {
        return;
    };
    let checked = diagnostics::check(document, &state.documents, &mut state.workspace);
    let mut found = checked.diagnostics;
    found.extend(super::compat::diagnostics(state, uri));
    let Some(document) = state.documents.get(uri) else {
        return;
    };
    let params = PublishDiagnosticsParams::new(uri.clone(), found, Some(document.version));
    if let Some(document) = state.documents.get_mut(uri) {
        document.reads = checked.reads;
    }
    state.notify::<PublishDiagnostics>(params);
}
