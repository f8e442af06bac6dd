//! The routing of messages to handlers: decoding the parameters, encoding the result, and
//! turning a handler's error or panic into an error response so the server keeps going.

use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{ErrorCode, Notification, Request, RequestId, Response};
use serde::de::DeserializeOwned;

use crate::state::State;

/// Why a request got no result: the code and message of its error response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerError {
    /// The JSON-RPC error code.
    pub code: i32,
    /// What went wrong, for the user.
    pub message: String,
}

impl HandlerError {
    /// A request the server cannot carry out as asked (a file that does not parse, a
    /// document it does not have).
    pub fn failed(message: impl Into<String>) -> HandlerError {
        HandlerError {
            code: ErrorCode::RequestFailed as i32,
            message: message.into(),
        }
    }
}

/// What a handler returns.
pub type HandlerResult<T> = Result<T, HandlerError>;

/// Runs `handler`, turning a panic into an error (the panic hook has already written the
/// panic's message and place to stderr).
fn guarded<T>(method: &str, handler: impl FnOnce() -> HandlerResult<T>) -> HandlerResult<T> {
    catch_unwind(AssertUnwindSafe(handler)).unwrap_or_else(|_| {
        eprintln!("avdl2rs-lsp: the handler of {method} panicked; the server goes on");
        Err(HandlerError {
            code: ErrorCode::InternalError as i32,
            message: format!("internal error while handling {method}"),
        })
    })
}

/// Decodes the parameters of a message, or says which are wrong.
fn params<P: DeserializeOwned>(value: serde_json::Value) -> HandlerResult<P> {
    serde_json::from_value(value).map_err(|e| HandlerError {
        code: ErrorCode::InvalidParams as i32,
        message: format!("invalid parameters: {e}"),
    })
}

/// Routes one request to the first handler registered for its method.
pub struct RequestRouter<'s> {
    state: &'s mut State,
    /// The request until a handler takes it.
    request: Option<Request>,
    /// The response once a handler has run.
    response: Option<Response>,
}

impl<'s> RequestRouter<'s> {
    /// A router for `request`.
    pub fn new(state: &'s mut State, request: Request) -> RequestRouter<'s> {
        RequestRouter {
            state,
            request: Some(request),
            response: None,
        }
    }

    /// Answers the request with `handler` if its method is `R`'s.
    pub fn on<R: lsp_types::request::Request>(
        mut self,
        handler: fn(&mut State, R::Params) -> HandlerResult<R::Result>,
    ) -> Self {
        let Some(request) = self.request.take_if(|r| r.method == R::METHOD) else {
            return self;
        };
        let state = &mut *self.state;
        let result = params::<R::Params>(request.params)
            .and_then(|params| guarded(R::METHOD, || handler(state, params)));
        self.response = Some(respond(request.id, result));
        self
    }

    /// The response: the handler's, or `MethodNotFound` when no handler took the request.
    pub fn finish(self) -> Response {
        match (self.response, self.request) {
            (Some(response), _) => response,
            (None, Some(request)) => Response::new_err(
                request.id,
                ErrorCode::MethodNotFound as i32,
                format!("unknown request {}", request.method),
            ),
            (None, None) => unreachable!("a request is either answered or still waiting"),
        }
    }
}

/// The response carrying `result`.
fn respond<T: serde::Serialize>(id: RequestId, result: HandlerResult<T>) -> Response {
    match result {
        Ok(value) => Response::new_ok(id, value),
        Err(error) => Response::new_err(id, error.code, error.message),
    }
}

/// Routes one notification to the first handler registered for its method.
pub struct NotificationRouter<'s> {
    state: &'s mut State,
    /// The notification until a handler takes it.
    notification: Option<Notification>,
}

impl<'s> NotificationRouter<'s> {
    /// A router for `notification`.
    pub fn new(state: &'s mut State, notification: Notification) -> NotificationRouter<'s> {
        NotificationRouter {
            state,
            notification: Some(notification),
        }
    }

    /// Handles the notification with `handler` if its method is `N`'s. A notification has no
    /// response, so a failure is only written to stderr.
    pub fn on<N: lsp_types::notification::Notification>(
        mut self,
        handler: fn(&mut State, N::Params) -> HandlerResult<()>,
    ) -> Self {
        let Some(notification) = self.notification.take_if(|n| n.method == N::METHOD) else {
            return self;
        };
        let state = &mut *self.state;
        let result = params::<N::Params>(notification.params)
            .and_then(|params| guarded(N::METHOD, || handler(state, params)));
        if let Err(error) = result {
            eprintln!("avdl2rs-lsp: {}: {}", N::METHOD, error.message);
        }
        self
    }

    /// Ends the routing; a notification no handler took (`$/…` ones, say) is ignored.
    pub fn finish(self) {}
}

#[cfg(test)]
mod tests {
    use lsp_types::notification::DidCloseTextDocument;
    use lsp_types::request::DocumentSymbolRequest;
    use lsp_types::{DocumentSymbolParams, DocumentSymbolResponse};
    use serde_json::json;

    use super::*;
    use crate::workspace::Workspace;

    fn state() -> State {
        let (sender, _) = crossbeam_channel::unbounded();
        State::new(Workspace::default(), sender)
    }

    fn panics(
        _: &mut State,
        _: DocumentSymbolParams,
    ) -> HandlerResult<Option<DocumentSymbolResponse>> {
        panic!("a deliberate panic of a handler under test");
    }

    fn answers(
        _: &mut State,
        _: DocumentSymbolParams,
    ) -> HandlerResult<Option<DocumentSymbolResponse>> {
        Ok(None)
    }

    fn symbols_request(id: i32) -> Request {
        let params = json!({"textDocument": {"uri": "file:///a.avdl"}});
        Request::new(id.into(), "textDocument/documentSymbol".to_owned(), params)
    }

    #[test]
    fn a_panicking_handler_is_an_internal_error_and_the_next_request_is_answered() {
        let mut state = state();
        let response = RequestRouter::new(&mut state, symbols_request(1))
            .on::<DocumentSymbolRequest>(panics)
            .finish();
        let error = response.error.unwrap();
        assert_eq!(error.code, ErrorCode::InternalError as i32);
        assert!(
            error.message.contains("textDocument/documentSymbol"),
            "{}",
            error.message
        );
        let response = RequestRouter::new(&mut state, symbols_request(2))
            .on::<DocumentSymbolRequest>(answers)
            .finish();
        assert!(response.error.is_none());
        assert_eq!(response.id, 2.into());
    }

    #[test]
    fn a_panicking_notification_handler_does_not_unwind_out_of_the_router() {
        fn panics(_: &mut State, _: lsp_types::DidCloseTextDocumentParams) -> HandlerResult<()> {
            panic!("a deliberate panic of a handler under test");
        }
        let mut state = state();
        let params = json!({"textDocument": {"uri": "file:///a.avdl"}});
        let notification = Notification::new("textDocument/didClose".to_owned(), params);
        NotificationRouter::new(&mut state, notification)
            .on::<DidCloseTextDocument>(panics)
            .finish();
    }
}
