//! `textDocument/completion`: the analysis's proposals, each replacing the word typed.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionParams, CompletionResponse,
    CompletionTextEdit, InsertTextFormat, TextEdit,
};

use super::navigation::{place, synced, Places};
use super::HandlerResult;
use crate::analysis::completion::{complete, Completion, CompletionKind};
use crate::analysis::Span;
use crate::state::State;

/// At most this many proposals are sent. Beyond it the list goes to the editor marked
/// incomplete, holding the proposals that contain what is typed, so that the editor asks again
/// as more is typed: a protocol of thousands of types would otherwise send them all at every
/// keystroke (editors cap their lists too).
const LIMIT: usize = 200;

/// `textDocument/completion`.
pub fn completion(
    state: &mut State,
    params: CompletionParams,
) -> HandlerResult<Option<CompletionResponse>> {
    let (path, offset) = place(state, &params.text_document_position)?;
    let index = synced(state);
    let mut proposals = complete(index, &path, offset);
    let is_incomplete = proposals.len() > LIMIT;
    if is_incomplete {
        let text = index.file(&path).map_or("", |file| &*file.text);
        proposals.retain(|c| contains_typed(&c.label, text.get(c.replace.clone())));
        proposals.truncate(LIMIT);
    }
    let mut places = Places::new(index);
    // The proposals of one request replace the same word: its range is worked out once.
    let mut last: Option<(Span, lsp_types::Range)> = None;
    let items = proposals
        .into_iter()
        .filter_map(|c| {
            let range = match &last {
                Some((span, range)) if *span == c.replace => *range,
                _ => {
                    let range = places.range(&path, &c.replace)?;
                    last = Some((c.replace.clone(), range));
                    range
                }
            };
            Some(item(c, range))
        })
        .collect();
    Ok(Some(match is_incomplete {
        true => CompletionResponse::List(CompletionList {
            is_incomplete,
            items,
        }),
        false => CompletionResponse::Array(items),
    }))
}

/// Whether `label` contains `typed`, the word the proposal replaces, ignoring case.
fn contains_typed(label: &str, typed: Option<&str>) -> bool {
    let typed = typed.unwrap_or_default().to_lowercase();
    typed.is_empty() || label.to_lowercase().contains(&typed)
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
