//! What the server knows between messages, handed to every handler.

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification};

use crate::documents::Documents;
use crate::workspace::Workspace;

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
