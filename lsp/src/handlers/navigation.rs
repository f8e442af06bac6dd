//! `textDocument/definition`, `textDocument/references` and `workspace/symbol`: the
//! analysis's answers (byte offsets in indexed files) in protocol terms, and what the other
//! analysis handlers share: the index brought in step with the open documents, a request's
//! place as a file and offset, spans of any indexed file as LSP ranges.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use avdl_parser::syntax::LineIndex;
use lsp_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, OneOf, Range, ReferenceParams,
    SymbolKind, TextDocumentPositionParams, WorkspaceSymbol, WorkspaceSymbolParams,
    WorkspaceSymbolResponse,
};

use super::{document, HandlerError, HandlerResult};
use crate::analysis::navigation::{self, SymbolMatch};
use crate::analysis::{Span, TypeKind, Workspace};
use crate::position;
use crate::state::State;
use crate::workspace::path_to_uri;

/// `textDocument/definition`.
pub fn definition(
    state: &mut State,
    params: GotoDefinitionParams,
) -> HandlerResult<Option<GotoDefinitionResponse>> {
    let (path, offset) = place(state, &params.text_document_position_params)?;
    let index = synced(state);
    let found = navigation::definition(index, &path, offset);
    let mut places = Places::new(index);
    Ok(found
        .and_then(|l| places.location(&l.path, &l.span))
        .map(GotoDefinitionResponse::Scalar))
}

/// `textDocument/references`.
pub fn references(
    state: &mut State,
    params: ReferenceParams,
) -> HandlerResult<Option<Vec<Location>>> {
    let (path, offset) = place(state, &params.text_document_position)?;
    let index = synced(state);
    let include = params.context.include_declaration;
    let found = navigation::references(index, &path, offset, include);
    let mut places = Places::new(index);
    Ok(Some(
        found
            .iter()
            .filter_map(|l| places.location(&l.path, &l.span))
            .collect(),
    ))
}

/// `workspace/symbol`: the named types matching the query.
pub fn workspace_symbols(
    state: &mut State,
    params: WorkspaceSymbolParams,
) -> HandlerResult<Option<WorkspaceSymbolResponse>> {
    let index = synced(state);
    let mut places = Places::new(index);
    let symbols = navigation::workspace_symbols(index, &params.query)
        .into_iter()
        .filter_map(|found| symbol(&mut places, found))
        .collect();
    Ok(Some(WorkspaceSymbolResponse::Nested(symbols)))
}

fn symbol(places: &mut Places<'_>, found: SymbolMatch) -> Option<WorkspaceSymbol> {
    let location = places.location(&found.location.path, &found.location.span)?;
    let (container, _) = found.full_name.rsplit_once('.').unzip();
    Some(WorkspaceSymbol {
        name: found.full_name.clone(),
        kind: match found.kind {
            TypeKind::Enum => SymbolKind::ENUM,
            TypeKind::Record | TypeKind::Error | TypeKind::Fixed => SymbolKind::STRUCT,
        },
        tags: None,
        container_name: container.map(str::to_owned),
        location: OneOf::Left(location),
        data: None,
    })
}

/// The index, in step with the documents the editor has open.
pub(super) fn synced(state: &mut State) -> &Workspace {
    let open = state
        .documents
        .iter()
        .filter_map(|d| Some((d.path.as_deref()?, d.text.as_str())));
    state.index.sync_open(open);
    &state.index
}

/// The file and byte offset a request is about (an open document on disk).
pub(super) fn place(
    state: &State,
    at: &TextDocumentPositionParams,
) -> HandlerResult<(PathBuf, usize)> {
    let document = document(state, &at.text_document.uri)?;
    let path = document
        .path
        .clone()
        .ok_or_else(|| HandlerError::failed("the document is not a file"))?;
    Ok((path, document.offset(at.position)))
}

/// Turns spans of indexed files into LSP ranges, each file's line index built once.
pub(super) struct Places<'a> {
    index: &'a Workspace,
    lines: HashMap<PathBuf, LineIndex>,
}

impl<'a> Places<'a> {
    pub(super) fn new(index: &'a Workspace) -> Places<'a> {
        Places {
            index,
            lines: HashMap::new(),
        }
    }

    /// The range of `span` in the indexed text of `path`.
    pub(super) fn range(&mut self, path: &Path, span: &Span) -> Option<Range> {
        let file = self.index.file(path)?;
        let lines = self
            .lines
            .entry(file.path.clone())
            .or_insert_with(|| LineIndex::new(&file.text));
        Some(position::range(lines, &file.text, span.clone()))
    }

    /// The location of `span` in `path`.
    pub(super) fn location(&mut self, path: &Path, span: &Span) -> Option<Location> {
        let uri = path_to_uri(path)?;
        let range = match self.index.file(path) {
            Some(_) => self.range(path, span)?,
            // A file the index does not hold (an import of another kind): its start.
            None => Range::default(),
        };
        Some(Location { uri, range })
    }
}
