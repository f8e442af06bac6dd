//! The open documents kept in step with the editor: `didOpen`, `didChange`, `didSave`,
//! `didClose`.

use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams,
};

use super::{not_open, HandlerResult};
use crate::documents::Document;
use crate::server::State;

/// Keeps the opened document.
pub fn did_open(state: &mut State, params: DidOpenTextDocumentParams) -> HandlerResult<()> {
    let item = params.text_document;
    let document = Document::new(item.uri, &item.language_id, item.version, item.text);
    state.documents.open(document);
    Ok(())
}

/// Applies the changes to the document.
pub fn did_change(state: &mut State, params: DidChangeTextDocumentParams) -> HandlerResult<()> {
    let id = params.text_document;
    let open = state
        .documents
        .get_mut(&id.uri)
        .ok_or_else(|| not_open(&id.uri))?;
    open.apply(id.version, params.content_changes);
    Ok(())
}

/// A saved settings file applies from now on.
pub fn did_save(state: &mut State, params: DidSaveTextDocumentParams) -> HandlerResult<()> {
    if params.text_document.uri.as_str().ends_with("/avdl2rs.toml") {
        state.workspace.reload_configs();
    }
    Ok(())
}

/// Forgets the document.
pub fn did_close(state: &mut State, params: DidCloseTextDocumentParams) -> HandlerResult<()> {
    state.documents.close(&params.text_document.uri);
    Ok(())
}
