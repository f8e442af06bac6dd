//! The message loop: the `initialize` handshake, then each request answered and each
//! notification handled in the order they arrive, until `shutdown` and `exit`.

use crossbeam_channel::Sender;
use lsp_server::{Connection, Message, Notification};
use lsp_types::{InitializeParams, InitializeResult, ServerInfo};

use crate::documents::Documents;
use crate::handlers;
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

/// What the server knows between messages; every handler gets it.
pub struct State {
    /// The files the editor has open, as the editor has them.
    pub documents: Documents,
    /// The workspace folder and its settings.
    pub workspace: Workspace,
    /// The index of the workspace's schema files (see [`crate::analysis`]).
    pub index: crate::analysis::Workspace,
    /// Where notifications to the client go (published diagnostics).
    sender: Sender<Message>,
}

impl State {
    /// The state of a server that has just been initialized.
    pub fn new(workspace: Workspace, sender: Sender<Message>) -> State {
        let mut index = crate::analysis::Workspace::new(workspace.include_dirs.clone());
        if let Some(root) = &workspace.root {
            index.scan(root);
        }
        State {
            documents: Documents::default(),
            index,
            workspace,
            sender,
        }
    }

    /// Sends notification `N` to the client. A client that has gone away is noticed by the
    /// message loop, which then stops, so a failed send is not an error here.
    pub fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let notification = Notification::new(N::METHOD.to_owned(), params);
        let _ = self.sender.send(notification.into());
    }
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
