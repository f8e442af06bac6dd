//! `textDocument/codeAction`: quick fixes of the lint findings in the requested range, and
//! "Convert to IDL" for a `.avsc` or `.avpr` file (a new `.avdl` beside it, offered when
//! none is there yet).
//!
//! The findings are the linter's, with the file's `[lint]` settings; with `[lsp] compat`
//! set, the file at that revision is the previous version, so `rename-without-alias` has
//! findings to fix too.

use std::path::Path;

use avdl2rs_lint::{check, Finding, Source};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    CreateFile, CreateFileOptions, DocumentChangeOperation, DocumentChanges,
    OptionalVersionedTextDocumentIdentifier, Range, ResourceOp, TextDocumentEdit, TextEdit,
    WorkspaceEdit,
};

use super::navigation::synced;
use super::rename::workspace_edit;
use super::{document, HandlerError, HandlerResult};
use crate::analysis::code_action::{convert_to_idl, lint_fixes, NewFile};
use crate::analysis::{previous_json, FileKind};
use crate::state::State;
use crate::workspace::path_to_uri;

/// `textDocument/codeAction`.
pub fn code_actions(
    state: &mut State,
    params: CodeActionParams,
) -> HandlerResult<Option<CodeActionResponse>> {
    let document = document(state, &params.text_document.uri)?;
    let Some(path) = document.path.clone() else {
        return Ok(None);
    };
    let range = document.offsets(params.range);
    let text = document.text.clone();
    let config = state
        .workspace
        .config(Some(&path))
        .map_err(|e| HandlerError::failed(e.to_string()))?;
    let index = synced(state);
    let previous = config
        .lsp
        .compat
        .as_ref()
        .and_then(|compat| previous_json(index, &path, &compat.against));
    let findings = findings(index, &path, &text, &config.lint, previous.as_ref());
    let mut actions = Vec::new();
    for finding in findings {
        let touches = finding.span.start <= range.end && range.start <= finding.span.end;
        if !touches {
            continue;
        }
        for fix in lint_fixes(index, &path, &finding) {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(workspace_edit(index, &fix.edits)),
                ..CodeAction::default()
            }));
        }
    }
    if let Ok(created) = convert_to_idl(index, &path) {
        if !created.path.exists() {
            actions.extend(create_action(created));
        }
    }
    Ok(Some(actions))
}

/// The lint findings of the file at `path`, whose text is `text`.
fn findings(
    index: &crate::analysis::Workspace,
    path: &Path,
    text: &str,
    settings: &avdl2rs_lint::Settings,
    previous: Option<&serde_json::Value>,
) -> Vec<Finding> {
    let name = path.display().to_string();
    let source = match FileKind::of(path) {
        Some(FileKind::Idl) => Source::idl(&name, text, path, index.include_dirs()),
        Some(_) => Source::json(&name, text),
        None => return Vec::new(),
    };
    check(&source, settings, previous).unwrap_or_default()
}

/// "Convert to IDL": create the file, then insert its text.
fn create_action(created: NewFile) -> Option<CodeActionOrCommand> {
    let uri = path_to_uri(&created.path)?;
    let name = created.path.file_name()?.to_string_lossy().into_owned();
    let create = ResourceOp::Create(CreateFile {
        uri: uri.clone(),
        options: Some(CreateFileOptions {
            overwrite: Some(false),
            ignore_if_exists: Some(false),
        }),
        annotation_id: None,
    });
    let insert = TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
        edits: vec![lsp_types::OneOf::Left(TextEdit::new(
            Range::default(),
            created.text,
        ))],
    };
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: format!("Convert to IDL ({name})"),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        edit: Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(vec![
                DocumentChangeOperation::Op(create),
                DocumentChangeOperation::Edit(insert),
            ])),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    }))
}
