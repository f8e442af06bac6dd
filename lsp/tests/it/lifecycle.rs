//! Initialize, shutdown and exit, and what the server answers to what it does not know.

use lsp_server::ErrorCode;
use serde_json::json;

use crate::support::Client;

#[test]
fn initialize_announces_the_features_and_shutdown_stops_the_server() {
    let client = Client::start(None);
    let capabilities = &client.initialized.capabilities;
    assert!(capabilities.document_symbol_provider.is_some());
    let info = client.initialized.server_info.as_ref().unwrap();
    assert_eq!(info.name, "avdl2rs-lsp");
    client.shutdown();
}

#[test]
fn an_unknown_request_is_method_not_found_and_the_server_goes_on() {
    let mut client = Client::start(None);
    let response = client.raw_request("avdl2rs/noSuchThing", json!({}));
    assert_eq!(
        response.error.unwrap().code,
        ErrorCode::MethodNotFound as i32
    );
    // Parameters of the wrong shape: an error response, not a stopped server.
    let response = client.raw_request("textDocument/documentSymbol", json!({"x": 1}));
    assert_eq!(
        response.error.unwrap().code,
        ErrorCode::InvalidParams as i32
    );
    client.shutdown();
}
