//! The message loop: the `initialize` handshake, then each request answered and each
//! notification handled in the order they arrive, until `shutdown` and `exit`.

use lsp_server::{Connection, Message};
use lsp_types::{InitializeParams, InitializeResult, ServerInfo};

use crate::handlers;
use crate::state::State;
use crate::workspace::Workspace;

/// Why the server stopped before the client asked it to: a broken connection or a message
/// that is not LSP.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// How the server is started (the command line's options).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Directories searched, in order, for IDL imports not found beside the importing file.
    pub include_dirs: Vec<std::path::PathBuf>,
}

/// Serves `connection` until the client sends `shutdown` then `exit`.
pub fn run(connection: Connection, options: Options) -> Result<(), Error> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params)?;
    let result = InitializeResult {
        capabilities: handlers::capabilities(),
        server_info: Some(ServerInfo {
            name: "avdl2rs-lsp".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    let mut state = State::new(
        Workspace::new(&params, options.include_dirs),
        connection.sender.clone(),
    );
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let response = handlers::request(&mut state, request);
                connection.sender.send(response.into())?;
            }
            Message::Notification(notification) => handlers::notification(&mut state, notification),
            // The server sends no requests, so no response is awaited.
            Message::Response(_) => {}
        }
    }
    Ok(())
}
