//! The compatibility diagnostics of a document, when its `avdl2rs.toml` sets
//! `[lsp] compat = { level = "BACKWARD", against = "HEAD" }`: added to the diagnostics
//! published for it (see [`crate::analysis::compat_diagnostics`]).

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Uri};

use super::navigation::synced;
use crate::analysis::{compat_diagnostics, CompatLevel};
use crate::state::State;

/// The `source` of compatibility diagnostics.
const COMPAT: &str = "avdl2rs-compat";

/// The incompatibilities of the open document at `uri` with its version at the configured
/// revision; a setting or revision that cannot be used is one diagnostic at the start.
pub fn diagnostics(state: &mut State, uri: &Uri) -> Vec<Diagnostic> {
    let Some(path) = state.documents.get(uri).and_then(|d| d.path.clone()) else {
        return Vec::new();
    };
    let Some(compat) = state
        .workspace
        .config(Some(&path))
        .ok()
        .and_then(|c| c.lsp.compat)
    else {
        return Vec::new();
    };
    let level: CompatLevel = match compat.level.parse() {
        Ok(level) => level,
        Err(error) => {
            return vec![problem(
                0..0,
                format!("[lsp] compat: {error}"),
                None,
                state,
                uri,
            )]
        }
    };
    let index = synced(state);
    let found = compat_diagnostics(index, &path, level, &compat.against);
    let found = match found {
        Ok(found) => found,
        Err(error) => {
            let message = format!(
                "[lsp] compat: cannot compare with {}: {error}",
                compat.against
            );
            return vec![problem(0..0, message, None, state, uri)];
        }
    };
    found
        .into_iter()
        .filter_map(|d| {
            let code = serde_json::to_value(d.kind).ok()?.as_str()?.to_owned();
            Some(problem(d.span, d.message, Some(code), state, uri))
        })
        .collect()
}

fn problem(
    span: std::ops::Range<usize>,
    message: String,
    code: Option<String>,
    state: &State,
    uri: &Uri,
) -> Diagnostic {
    let range = state
        .documents
        .get(uri)
        .map(|document| document.range(span))
        .unwrap_or_default();
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::WARNING),
        code: code.map(NumberOrString::String),
        source: Some(COMPAT.to_owned()),
        message,
        ..Diagnostic::default()
    }
}
