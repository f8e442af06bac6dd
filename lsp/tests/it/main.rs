//! The server in process, driven through `lsp-server`'s in-memory connection as an editor
//! drives it: one module per feature.

mod analysis_requests;
mod diagnostics;
mod formatting;
mod include_settings;
mod lifecycle;
mod semantic_tokens;
mod support;
mod symbols;
