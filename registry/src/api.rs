//! The REST endpoints, each built once as a transport-independent [`Call`]: the request to
//! send and how to read its successful reply. Both transports send the same calls.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use avdl2rs::compat::CompatLevel;

use crate::types::{CompatibilityReport, Schema, SubjectVersion, Version};

/// Characters kept as they are in a subject path segment: the unreserved ones and `:`,
/// so context-qualified subjects (`:.ctx:orders-value`) pass unchanged.
const SUBJECT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b':');

/// The HTTP method of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `DELETE`.
    Delete,
}

impl Method {
    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Delete => "DELETE",
        }
    }
}

/// A request relative to a base URL: method, path with query, and JSON body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path and query, starting with `/`, already percent-encoded.
    pub path: String,
    /// The JSON body, if any.
    pub body: Option<Vec<u8>>,
}

/// One API call: the request, and the parser of a successful reply's body.
pub struct Call<T> {
    /// The request to send.
    pub request: Request,
    parse: fn(&[u8]) -> Result<T, String>,
}

impl<T> Call<T> {
    fn new(method: Method, path: String, body: Option<serde_json::Value>) -> Self
    where
        T: DeserializeOwned,
    {
        Self::with_parser(method, path, body, parse_json::<T>)
    }

    fn with_parser(
        method: Method,
        path: String,
        body: Option<serde_json::Value>,
        parse: fn(&[u8]) -> Result<T, String>,
    ) -> Self {
        let body = body.map(|value| value.to_string().into_bytes());
        Call {
            request: Request { method, path, body },
            parse,
        }
    }

    /// Reads the body of a successful reply.
    pub fn parse(&self, body: &[u8]) -> Result<T, String> {
        (self.parse)(body)
    }
}

fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| e.to_string())
}

/// A subject as one percent-encoded path segment.
fn subject_segment(subject: &str) -> String {
    utf8_percent_encode(subject, SUBJECT).to_string()
}

/// A subject as one percent-encoded path segment. The request builders of this module encode
/// subjects themselves; this was never meant for callers.
#[deprecated(note = "internal to the request builders; will become private")]
#[doc(hidden)]
pub fn encode_subject(subject: &str) -> String {
    subject_segment(subject)
}

fn subject_path(subject: &str) -> String {
    format!("/subjects/{}", subject_segment(subject))
}

fn schema_body(schema: &Schema) -> serde_json::Value {
    serde_json::to_value(schema).unwrap_or_default()
}

fn normalize_query(normalize: bool) -> &'static str {
    if normalize {
        "?normalize=true"
    } else {
        ""
    }
}

#[derive(Deserialize)]
struct IdReply {
    id: i32,
}

/// `POST /subjects/{subject}/versions`: registers `schema` (or finds it already registered)
/// and answers its id.
pub fn register(subject: &str, schema: &Schema, normalize: bool) -> Call<i32> {
    let path = format!(
        "{}/versions{}",
        subject_path(subject),
        normalize_query(normalize)
    );
    Call::with_parser(Method::Post, path, Some(schema_body(schema)), |body| {
        parse_json::<IdReply>(body).map(|reply| reply.id)
    })
}

/// `POST /subjects/{subject}`: the version `schema` is registered as, without registering.
pub fn lookup(subject: &str, schema: &Schema, normalize: bool) -> Call<SubjectVersion> {
    let path = format!("{}{}", subject_path(subject), normalize_query(normalize));
    Call::new(Method::Post, path, Some(schema_body(schema)))
}

/// `GET /schemas/ids/{id}`: the schema with that id, deleted ones included.
pub fn schema_by_id(id: i32) -> Call<Schema> {
    Call::new(Method::Get, format!("/schemas/ids/{id}?deleted=true"), None)
}

/// `GET /subjects/{subject}/versions/{version}`.
pub fn subject_version(subject: &str, version: Version) -> Call<SubjectVersion> {
    let path = format!("{}/versions/{version}", subject_path(subject));
    Call::new(Method::Get, path, None)
}

/// `GET /subjects`.
pub fn subjects() -> Call<Vec<String>> {
    Call::new(Method::Get, "/subjects".to_owned(), None)
}

/// `GET /subjects/{subject}/versions`.
pub fn versions(subject: &str) -> Call<Vec<i32>> {
    Call::new(
        Method::Get,
        format!("{}/versions", subject_path(subject)),
        None,
    )
}

/// `DELETE /subjects/{subject}` (`permanent` for a hard delete): the versions deleted.
pub fn delete_subject(subject: &str, permanent: bool) -> Call<Vec<i32>> {
    let query = if permanent { "?permanent=true" } else { "" };
    let path = format!("{}{query}", subject_path(subject));
    Call::new(Method::Delete, path, None)
}

/// `POST /compatibility/subjects/{subject}/versions/{version}?verbose=true`.
pub fn test_compatibility(
    subject: &str,
    version: Version,
    schema: &Schema,
) -> Call<CompatibilityReport> {
    let path = format!(
        "/compatibility/subjects/{}/versions/{version}?verbose=true",
        subject_segment(subject)
    );
    Call::new(Method::Post, path, Some(schema_body(schema)))
}

fn config_path(subject: Option<&str>) -> String {
    match subject {
        Some(subject) => format!("/config/{}", subject_segment(subject)),
        None => "/config".to_owned(),
    }
}

/// A config reply: registries answer `compatibilityLevel` on reads and `compatibility` on
/// writes, so both are accepted.
#[derive(Deserialize)]
struct ConfigReply {
    #[serde(rename = "compatibilityLevel", alias = "compatibility")]
    level: String,
}

fn parse_config(body: &[u8]) -> Result<CompatLevel, String> {
    let reply = parse_json::<ConfigReply>(body)?;
    reply
        .level
        .parse()
        .map_err(|e: avdl2rs::compat::UnknownLevel| e.to_string())
}

/// `GET /config` or `GET /config/{subject}`: the compatibility level.
pub fn get_config(subject: Option<&str>) -> Call<CompatLevel> {
    Call::with_parser(Method::Get, config_path(subject), None, parse_config)
}

/// `PUT /config` or `PUT /config/{subject}`: sets the compatibility level.
pub fn set_config(subject: Option<&str>, level: CompatLevel) -> Call<CompatLevel> {
    let body = json!({ "compatibility": level.as_str() });
    Call::with_parser(Method::Put, config_path(subject), Some(body), parse_config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_percent_encoded_but_contexts_pass() {
        assert_eq!(subject_segment(":.ctx:orders-value"), ":.ctx:orders-value");
        assert_eq!(subject_segment("a/b c?"), "a%2Fb%20c%3F");
        assert_eq!(subject_segment("ünï"), "%C3%BCn%C3%AF");
        let call = subject_version("a/b", Version::Latest);
        assert_eq!(call.request.path, "/subjects/a%2Fb/versions/latest");
    }

    #[test]
    fn register_sends_the_schema_and_normalize() {
        let call = register("t-value", &Schema::avro("\"int\""), true);
        assert_eq!(call.request.method, Method::Post);
        assert_eq!(
            call.request.path,
            "/subjects/t-value/versions?normalize=true"
        );
        let body: serde_json::Value =
            serde_json::from_slice(call.request.body.as_deref().unwrap()).unwrap();
        assert_eq!(body, json!({"schema": "\"int\""}));
        assert_eq!(call.parse(br#"{"id": 7}"#), Ok(7));
        assert!(call.parse(b"{}").is_err());
    }

    #[test]
    fn config_reads_both_spellings() {
        let call = get_config(Some("s"));
        assert_eq!(
            call.parse(br#"{"compatibilityLevel":"FULL"}"#),
            Ok(CompatLevel::Full)
        );
        assert_eq!(
            call.parse(br#"{"compatibility":"BACKWARD_TRANSITIVE"}"#),
            Ok(CompatLevel::BackwardTransitive)
        );
        assert!(call.parse(br#"{"compatibility":"SIDEWAYS"}"#).is_err());
    }
}
