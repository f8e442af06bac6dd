//! `avdl2rs lsp`: the language server of `avdl2rs-lsp` on stdin and stdout, for editors.
//!
//! Exit codes: `0` the client asked the server to shut down and exit, `2` the connection
//! broke or carried something that is not LSP.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::io;

/// Arguments of `lsp`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs lsp                    # started by an editor, which talks LSP on stdin/stdout\n  \
    avdl2rs lsp --stdio            # the same, for clients that always pass --stdio\n  \
    avdl2rs lsp -I shared/         # imports not found beside a file are looked up in shared/\n\n\
    For .avdl, .avsc and .avpr files: diagnostics (syntax and compile errors, lint findings \
    at the levels of the nearest avdl2rs.toml), outline, formatting ([fmt] indent) and \
    semantic tokens. Editor set-up (Neovim, Helix, VS Code) is in lsp/README.md.\n\n\
    Exit codes: 0 the client shut the server down, 2 the connection broke.")]
pub struct Args {
    /// Talks over stdin and stdout (the only transport; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
    /// Directory searched for IDL imports not found beside the importing file (repeatable;
    /// relative to the folder the server starts in).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// Serves the client on stdio until it exits.
pub fn run(args: &Args) -> ExitCode {
    let options = avdl2rs_lsp::Options {
        include_dirs: args.include_dirs.clone(),
    };
    match avdl2rs_lsp::run_stdio(options) {
        Ok(()) => ExitCode::from(io::SUCCESS),
        Err(error) => {
            eprintln!("avdl2rs lsp: {error}");
            ExitCode::from(io::USAGE)
        }
    }
}
