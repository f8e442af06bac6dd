//! `textDocument/completion`: the analysis's proposals, each replacing the word typed.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    InsertTextFormat, TextEdit,
};

use super::navigation::{place, synced, Places};
use super::HandlerResult;
use crate::analysis::completion::{complete, Completion, CompletionKind};
use crate::state::State;

/// `textDocument/completion`.
pub fn completion(
    state: &mut State,
    params: CompletionParams,
) -> HandlerResult<Option<CompletionResponse>> {
    let (path, offset) = place(state, &params.text_document_position)?;
    let index = synced(state);
    let mut places = Places::new(index);
    let items = complete(index, &path, offset)
        .into_iter()
        .filter_map(|c| {
            let range = places.range(&path, &c.replace)?;
            Some(item(c, range))
        })
        .collect();
    Ok(Some(CompletionResponse::Array(items)))
}

fn item(completion: Completion, range: lsp_types::Range) -> CompletionItem {
    CompletionItem {
        kind: Some(match completion.kind {
            CompletionKind::Type => CompletionItemKind::STRUCT,
            CompletionKind::Primitive => CompletionItemKind::TYPE_PARAMETER,
            CompletionKind::Keyword => CompletionItemKind::KEYWORD,
            CompletionKind::Annotation => CompletionItemKind::PROPERTY,
            CompletionKind::File => CompletionItemKind::FILE,
            CompletionKind::Folder => CompletionItemKind::FOLDER,
        }),
        detail: completion.detail,
        insert_text_format: Some(match completion.snippet {
            true => InsertTextFormat::SNIPPET,
            false => InsertTextFormat::PLAIN_TEXT,
        }),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
            range,
            new_text: completion.insert,
        })),
        label: completion.label,
        ..CompletionItem::default()
    }
}
