//! Random edit sequences through the language server (`avdl2rs-lsp`), in process over an
//! in-memory connection: the document store's incremental changes (ranges anywhere, inside
//! characters and past the ends included), then diagnostics, the outline, semantic tokens
//! and formatting (whole and range) on whatever text results. No handler may panic (the
//! server would answer with an internal error, which fails the target), every change gets
//! its diagnostics, and every range the server sends is ordered.
//!
//! Input: a document (`.avdl`, or `.avsc` when the first byte is odd) then edits, each a
//! range (four small numbers) and the text it is replaced with.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::request::{self as r, Request as _};
use lsp_types::{Position, Range, Uri};
use serde_json::{json, Value};

/// One edit: the range replaced (or the whole text when `None`) and the new text.
struct Edit {
    range: Option<Range>,
    text: String,
}

fn position(u: &mut Unstructured<'_>) -> Result<Position> {
    Ok(Position::new(
        u.int_in_range(0..=12)?,
        u.int_in_range(0..=40)?,
    ))
}

fn edits(u: &mut Unstructured<'_>) -> Result<Vec<Edit>> {
    let mut edits = Vec::new();
    while !u.is_empty() && edits.len() < 16 {
        let range = if u.ratio(1, 8)? {
            None
        } else {
            Some(Range::new(position(u)?, position(u)?))
        };
        edits.push(Edit {
            range,
            text: u.arbitrary()?,
        });
    }
    Ok(edits)
}

/// The client end of a server under test.
struct Client {
    connection: Connection,
    next_id: i32,
    /// The diagnostics published so far.
    published: usize,
}

impl Client {
    fn notify(&self, method: &str, params: Value) {
        let notification = Notification::new(method.to_owned(), params);
        self.connection.sender.send(notification.into()).unwrap();
    }

    /// Sends a request and returns its response, checking the notifications on the way.
    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(request.into()).unwrap();
        loop {
            match self.connection.receiver.recv().expect("the server answers") {
                Message::Response(response) if response.id == id => {
                    if let Some(error) = &response.error {
                        assert_ne!(
                            error.code,
                            ErrorCode::InternalError as i32,
                            "{method} panicked"
                        );
                    }
                    check_ranges(response.result.as_ref().unwrap_or(&Value::Null));
                    return response;
                }
                Message::Notification(notification) => {
                    check_ranges(&notification.params);
                    self.published +=
                        usize::from(notification.method == n::PublishDiagnostics::METHOD);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

/// Every `range` in `value` starts before it ends.
fn check_ranges(value: &Value) {
    match value {
        Value::Object(object) => {
            if let (Some(start), Some(end)) = (object.get("start"), object.get("end")) {
                let at = |p: &Value| (p["line"].as_u64(), p["character"].as_u64());
                assert!(at(start) <= at(end), "range {value}");
            }
            object.values().for_each(check_ranges);
        }
        Value::Array(items) => items.iter().for_each(check_ranges),
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(json_file) = u.arbitrary::<bool>() else {
        return;
    };
    let Ok(text) = u.arbitrary::<String>() else {
        return;
    };
    let Ok(edits) = edits(&mut u) else {
        return;
    };
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || avdl2rs_lsp::run(server, Default::default()));
    let mut client = Client {
        connection: client,
        next_id: 0,
        published: 0,
    };
    client.request(r::Initialize::METHOD, json!({"capabilities": {}}));
    client.notify(n::Initialized::METHOD, json!({}));
    let name = if json_file {
        "/nowhere/f.avsc"
    } else {
        "/nowhere/f.avdl"
    };
    let uri = Uri::from_str(&format!("file://{name}")).unwrap();
    let document = json!({"uri": uri, "languageId": "avro-idl", "version": 0, "text": text});
    client.notify(
        n::DidOpenTextDocument::METHOD,
        json!({"textDocument": document}),
    );
    for (version, edit) in edits.iter().enumerate() {
        let change = match edit.range {
            Some(range) => json!({"range": range, "text": edit.text}),
            None => json!({"text": edit.text}),
        };
        let id = json!({"uri": uri, "version": version + 1});
        let params = json!({"textDocument": id, "contentChanges": [change]});
        client.notify(n::DidChangeTextDocument::METHOD, params);
    }
    let id = json!({"textDocument": {"uri": uri}});
    client.request(r::DocumentSymbolRequest::METHOD, id.clone());
    // The server answers in order: by now each open and change has published diagnostics.
    assert_eq!(
        client.published,
        edits.len() + 1,
        "a change published no diagnostics"
    );
    client.request(r::SemanticTokensFullRequest::METHOD, id.clone());
    let options = json!({"tabSize": 2, "insertSpaces": true});
    client.request(
        r::Formatting::METHOD,
        json!({"textDocument": id["textDocument"], "options": options}),
    );
    let range = Range::new(Position::new(1, 0), Position::new(3, 5));
    let params = json!({"textDocument": id["textDocument"], "range": range, "options": options});
    client.request(r::RangeFormatting::METHOD, params);
    client.request(r::Shutdown::METHOD, Value::Null);
    client.notify(n::Exit::METHOD, Value::Null);
    thread.join().unwrap().unwrap();
});
