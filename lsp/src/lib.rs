//! # avdl2rs-lsp
//!
//! A language server for Avro contract files: IDL (`.avdl`), schemas (`.avsc`) and protocols
//! (`.avpr`), speaking LSP 3.17 over stdio. `avdl2rs lsp` runs it; an editor starts that
//! command and talks to it.
//!
//! It is synchronous: one thread reads messages and answers them in order, on the lossless
//! syntax tree of [`avdl_parser::syntax`] (which any text gives, broken files included), the
//! compiler and the linter. Contract files are small, so each change is checked again whole
//! rather than incrementally.
//!
//! - [`analysis`] indexes the workspace's files and answers navigation, hover, completion,
//!   rename, code actions and the compatibility check, in byte offsets;
//! - [`server`] answers `initialize`, runs the message loop and ends on `shutdown`/`exit`;
//! - [`State`] is what the handlers share: the open documents and the workspace;
//! - `handlers` routes each request and notification to its handler, one line per method;
//! - `diagnostics` checks a document: syntax errors, compile errors, lint findings;
//! - [`documents`] keeps the open files (text, version, tree, line index);
//! - `files` gives the checks the open documents in place of the files on disk;
//! - [`position`] converts LSP positions (UTF-16 code units) to byte offsets and back;
//! - [`workspace`] knows the workspace folder and the `avdl2rs.toml` settings of each file.

#![warn(missing_docs)]

pub mod analysis;

/// The README, this crate's guide: `cargo test --doc` compiles its snippets (it has none in
/// Rust; the editor configurations are not Rust).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod diagnostics;
pub mod documents;
mod files;
mod handlers;
pub mod position;
pub mod server;
mod state;
pub mod workspace;

pub use server::{run, Error, Options};
pub use state::State;

/// Runs the server on stdin and stdout until the client asks it to exit.
pub fn run_stdio(options: Options) -> Result<(), Error> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    run(connection, options)?;
    io_threads.join()?;
    Ok(())
}
