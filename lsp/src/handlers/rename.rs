//! `textDocument/prepareRename` and `textDocument/rename`. Whether the old name is kept as
//! an alias is the `[lsp] rename-keeps-alias` setting of the file's `avdl2rs.toml` (true by
//! default: a rename then stays compatible with data written under the old name).

use lsp_types::{
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, PrepareRenameResponse,
    RenameParams, TextDocumentEdit, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
};

use super::navigation::{place, synced, Places};
use super::{HandlerError, HandlerResult};
use crate::analysis::rename::{prepare_rename, rename};
use crate::analysis::{FileEdits, Workspace};
use crate::state::State;
use crate::workspace::path_to_uri;

/// `textDocument/prepareRename`: the name that would be renamed, if any.
pub fn prepare(
    state: &mut State,
    params: TextDocumentPositionParams,
) -> HandlerResult<Option<PrepareRenameResponse>> {
    let (path, offset) = place(state, &params)?;
    let index = synced(state);
    let Some((span, placeholder)) = prepare_rename(index, &path, offset) else {
        return Ok(None);
    };
    let range = Places::new(index).range(&path, &span);
    Ok(range.map(|range| PrepareRenameResponse::RangeWithPlaceholder { range, placeholder }))
}

/// `textDocument/rename`: the edits across the workspace.
pub fn rename_symbol(
    state: &mut State,
    params: RenameParams,
) -> HandlerResult<Option<WorkspaceEdit>> {
    let (path, offset) = place(state, &params.text_document_position)?;
    let keep_alias = state
        .workspace
        .config(Some(&path))
        .map_err(|e| HandlerError::failed(e.to_string()))?
        .lsp
        .rename_keeps_alias;
    let index = synced(state);
    let edits =
        rename(index, &path, offset, &params.new_name, keep_alias).map_err(HandlerError::failed)?;
    Ok(Some(workspace_edit(index, &edits)))
}

/// `edits` as a workspace edit: one text document edit per file, in the order given.
pub(super) fn workspace_edit(index: &Workspace, edits: &[FileEdits]) -> WorkspaceEdit {
    let mut places = Places::new(index);
    let mut changes = Vec::new();
    for file in edits {
        let Some(uri) = path_to_uri(&file.path) else {
            continue;
        };
        let text_edits = file
            .edits
            .iter()
            .filter_map(|edit| {
                let range = places.range(&file.path, &edit.span)?;
                Some(OneOf::Left(TextEdit::new(range, edit.text.clone())))
            })
            .collect();
        changes.push(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
            edits: text_edits,
        });
    }
    WorkspaceEdit {
        document_changes: Some(DocumentChanges::Edits(changes)),
        ..WorkspaceEdit::default()
    }
}
