//! A client for the tests: starts the server on a thread over an in-memory connection,
//! sends requests and notifications, and collects what the server sends back.

use std::collections::VecDeque;
use std::path::Path;
use std::str::FromStr;
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{Exit, Initialized};
use lsp_types::request::{Initialize, Shutdown};
use lsp_types::{
    DidOpenTextDocumentParams, InitializeParams, InitializeResult, TextDocumentItem, Uri,
    WorkspaceFolder,
};

/// How long a test waits for a message before it fails.
const PATIENCE: Duration = Duration::from_secs(20);

/// The client end of a running server.
pub struct Client {
    connection: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    /// Notifications that arrived while a response was awaited.
    pending: VecDeque<Notification>,
    /// The server's answer to `initialize`.
    pub initialized: InitializeResult,
}

impl Client {
    /// Starts a server whose workspace folder is `root` and initializes it.
    pub fn start(root: Option<&Path>) -> Client {
        let (server_end, client_end) = Connection::memory();
        let server = std::thread::spawn(move || {
            avdl2rs_lsp::run(server_end, avdl2rs_lsp::Options::default()).map_err(|e| e.to_string())
        });
        let mut client = Client {
            connection: client_end,
            server: Some(server),
            next_id: 0,
            pending: VecDeque::new(),
            initialized: InitializeResult::default(),
        };
        let folders = root.map(|root| {
            vec![WorkspaceFolder {
                uri: uri(root),
                name: "workspace".to_owned(),
            }]
        });
        let params = InitializeParams {
            workspace_folders: folders,
            ..InitializeParams::default()
        };
        client.initialized = client.request::<Initialize>(params).unwrap();
        client.notify::<Initialized>(lsp_types::InitializedParams {});
        client
    }

    /// Sends request `R` and waits for its response: the result, or the error's code and
    /// message.
    pub fn request<R: lsp_types::request::Request>(
        &mut self,
        params: R::Params,
    ) -> Result<R::Result, (i32, String)> {
        let response = self.raw_request(R::METHOD, serde_json::to_value(params).unwrap());
        match response.error {
            Some(error) => Err((error.code, error.message)),
            None => Ok(serde_json::from_value(response.result.unwrap_or_default()).unwrap()),
        }
    }

    /// Sends a request of any method with any parameters and waits for its response.
    pub fn raw_request(&mut self, method: &str, params: serde_json::Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).unwrap();
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(notification) => self.pending.push_back(notification),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    /// Sends notification `N`.
    pub fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let notification = Notification::new(N::METHOD.to_owned(), params);
        self.connection.sender.send(notification.into()).unwrap();
    }

    /// Opens `text` as the document at `uri`.
    pub fn open(&self, uri: &Uri, text: &str) {
        let item = TextDocumentItem::new(uri.clone(), "avro-idl".to_owned(), 1, text.to_owned());
        let params = DidOpenTextDocumentParams {
            text_document: item,
        };
        self.notify::<lsp_types::notification::DidOpenTextDocument>(params);
    }

    /// Waits for the next notification `N` (skipping others) and returns its parameters.
    pub fn expect<N: lsp_types::notification::Notification>(&mut self) -> N::Params {
        loop {
            let notification = match self.pending.pop_front() {
                Some(notification) => notification,
                None => match self.receive() {
                    Message::Notification(notification) => notification,
                    other => panic!("unexpected message {other:?}"),
                },
            };
            if notification.method == N::METHOD {
                return serde_json::from_value(notification.params).unwrap();
            }
        }
    }

    /// Asks the server to shut down and exit, and checks that it stopped cleanly.
    pub fn shutdown(mut self) {
        self.request::<Shutdown>(()).unwrap();
        self.notify::<Exit>(());
        let server = self.server.take().unwrap();
        assert_eq!(server.join().unwrap(), Ok(()));
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(PATIENCE)
            .expect("the server sent nothing in time")
    }
}

/// The `file:` URI of `path`.
pub fn uri(path: &Path) -> Uri {
    avdl2rs_lsp::workspace::path_to_uri(path).unwrap()
}

/// A URI of a file that need not exist.
pub fn file_uri(path: &str) -> Uri {
    Uri::from_str(&format!("file://{path}")).unwrap()
}

/// `text` with `edits` applied (positions in UTF-16 code units, edits not overlapping), as
/// an editor applies them; counted here independently of the server.
pub fn apply(text: &str, edits: &[lsp_types::TextEdit]) -> String {
    let offset = |at: lsp_types::Position| {
        let line_start: usize = text
            .split_inclusive('\n')
            .take(at.line as usize)
            .map(str::len)
            .sum();
        let mut units = 0;
        for (i, c) in text[line_start..].char_indices() {
            if units >= at.character as usize || c == '\n' {
                return line_start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut sorted: Vec<_> = edits.iter().collect();
    sorted.sort_by_key(|edit| std::cmp::Reverse(offset(edit.range.start)));
    let mut result = text.to_owned();
    for edit in sorted {
        result.replace_range(
            offset(edit.range.start)..offset(edit.range.end),
            &edit.new_text,
        );
    }
    result
}
