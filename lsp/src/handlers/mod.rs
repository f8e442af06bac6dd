//! What the server can do and which handler answers each method.
//!
//! A handler is a function from the [`State`] and the method's parameters to its result;
//! adding a method is one line in [`request`] or [`notification`] (and its capability in
//! [`capabilities`]). [`dispatch`] does the decoding, the error responses and the catching of
//! panics for all of them.

mod code_action;
mod compat;
mod completion;
mod dispatch;
mod formatting;
mod hover;
mod navigation;
mod rename;
mod semantic_tokens;
mod symbols;
mod text_sync;

use lsp_server::{Notification, Request, Response};
use lsp_types::notification as n;
use lsp_types::request as r;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, OneOf, RenameOptions, SemanticTokensFullOptions,
    SemanticTokensOptions, SemanticTokensServerCapabilities, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, WorkDoneProgressOptions,
};

use crate::documents::Document;
use crate::state::State;
use dispatch::{NotificationRouter, RequestRouter};

pub use dispatch::{HandlerError, HandlerResult};

/// The capabilities announced in the `initialize` response.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        document_symbol_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["@".into(), "\"".into(), "/".into(), ".".into()]),
            ..CompletionOptions::default()
        }),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            ..CodeActionOptions::default()
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// Answers `request`: the response of its handler, or an error response (unknown method,
/// invalid parameters, a failed or panicking handler).
pub fn request(state: &mut State, request: Request) -> Response {
    RequestRouter::new(state, request)
        .on::<r::DocumentSymbolRequest>(symbols::document_symbols)
        .on::<r::GotoDefinition>(navigation::definition)
        .on::<r::References>(navigation::references)
        .on::<r::WorkspaceSymbolRequest>(navigation::workspace_symbols)
        .on::<r::HoverRequest>(hover::hover)
        .on::<r::Completion>(completion::completion)
        .on::<r::PrepareRenameRequest>(rename::prepare)
        .on::<r::Rename>(rename::rename_symbol)
        .on::<r::CodeActionRequest>(code_action::code_actions)
        .on::<r::Formatting>(formatting::format_document)
        .on::<r::RangeFormatting>(formatting::format_range)
        .on::<r::SemanticTokensFullRequest>(semantic_tokens::full)
        .finish()
}

/// Handles `notification`; unknown ones are ignored, as the protocol asks.
pub fn notification(state: &mut State, notification: Notification) {
    NotificationRouter::new(state, notification)
        .on::<n::DidOpenTextDocument>(text_sync::did_open)
        .on::<n::DidChangeTextDocument>(text_sync::did_change)
        .on::<n::DidSaveTextDocument>(text_sync::did_save)
        .on::<n::DidCloseTextDocument>(text_sync::did_close)
        .finish();
}

/// The open document at `uri`, or the error response for a document the client did not open.
pub fn document<'s>(state: &'s State, uri: &lsp_types::Uri) -> HandlerResult<&'s Document> {
    state.documents.get(uri).ok_or_else(|| not_open(uri))
}

/// The error of a request about a document the client did not open.
pub fn not_open(uri: &lsp_types::Uri) -> HandlerError {
    HandlerError::failed(format!("{} is not open", uri.as_str()))
}
