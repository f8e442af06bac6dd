//! `textDocument/hover`: the analysis's description of a type or field, as Markdown.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use super::navigation::{place, synced, Places};
use super::HandlerResult;
use crate::analysis::hover;
use crate::state::State;

/// `textDocument/hover`.
pub fn hover(state: &mut State, params: HoverParams) -> HandlerResult<Option<Hover>> {
    let (path, offset) = place(state, &params.text_document_position_params)?;
    let index = synced(state);
    let Some(found) = hover::hover(index, &path, offset) else {
        return Ok(None);
    };
    Ok(Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: found.markdown,
        }),
        range: Places::new(index).range(&path, &found.span),
    }))
}
