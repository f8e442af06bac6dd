//! What can go wrong talking to a registry: the registry's own typed errors, transport
//! failures and replies that are not what the API promises.

/// Error codes of the Confluent Schema Registry API (`error_code` in error replies).
pub mod codes {
    /// The subject does not exist.
    pub const SUBJECT_NOT_FOUND: i32 = 40401;
    /// The subject has no such version.
    pub const VERSION_NOT_FOUND: i32 = 40402;
    /// No schema with that id (or, in a lookup, that text under the subject).
    pub const SCHEMA_NOT_FOUND: i32 = 40403;
    /// The schema is incompatible with earlier versions (HTTP 409).
    pub const INCOMPATIBLE_SCHEMA: i32 = 409;
    /// The schema is not a valid schema.
    pub const INVALID_SCHEMA: i32 = 42201;
    /// The version is not a valid version number.
    pub const INVALID_VERSION: i32 = 42202;
    /// The compatibility level is not one the registry knows.
    pub const INVALID_COMPATIBILITY_LEVEL: i32 = 42203;
}

/// An error reply of the registry: HTTP status, the API's `error_code` and its message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("registry error {} (HTTP {status}): {message}", error_code.map_or("-".to_owned(), |c| c.to_string()))]
pub struct ApiError {
    /// The HTTP status code.
    pub status: u16,
    /// The `error_code` of the reply body, when the body had one.
    pub error_code: Option<i32>,
    /// The `message` of the reply body, or the body itself when it was not the API's JSON.
    pub message: String,
    /// How long the registry asked to wait before trying again (`Retry-After`).
    pub retry_after: Option<std::time::Duration>,
}

impl ApiError {
    /// Whether the subject, version or schema asked for does not exist.
    pub fn is_not_found(&self) -> bool {
        self.status == 404
    }

    /// Whether the registry refused the schema as incompatible with the subject's versions.
    pub fn is_incompatible(&self) -> bool {
        self.status == 409
    }

    /// Whether a later attempt may succeed: request timeout, throttling or a server fault.
    pub fn is_retriable(&self) -> bool {
        self.status == 408 || self.status == 429 || self.status >= 500
    }
}

/// Any failure of a registry call.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The registry answered with an error.
    #[error(transparent)]
    Api(#[from] ApiError),
    /// No answer: connection refused or dropped, timeout, TLS failure.
    #[error("cannot reach the registry at {url}: {message}")]
    Transport {
        /// The URL the request went to.
        url: String,
        /// What the transport reported.
        message: String,
    },
    /// The registry refused the TLS connection over the client certificate: it requires
    /// one and none is configured, or it rejected the one presented. Never retried, since
    /// the same certificate is refused again.
    #[error("the registry at {url} refused the client certificate: {message}")]
    CertificateRefused {
        /// The URL the request went to.
        url: String,
        /// Why, with the TLS alert when the registry's one arrived.
        message: String,
    },
    /// The registry answered with success but a body the API does not describe.
    #[error("unexpected reply from {what}: {message}")]
    InvalidReply {
        /// The endpoint that replied.
        what: String,
        /// What was wrong with the reply.
        message: String,
    },
    /// The client was configured with something unusable (no URL, a bad header).
    #[error("invalid registry client configuration: {0}")]
    Config(String),
    /// A token provider could not give a token.
    #[error("cannot get an access token: {0}")]
    Token(String),
}

impl RegistryError {
    /// The registry's error reply, when this is one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            RegistryError::Api(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the same request may succeed later (and so is retried, and never cached).
    pub fn is_retriable(&self) -> bool {
        match self {
            RegistryError::Api(e) => e.is_retriable(),
            RegistryError::Transport { .. } => true,
            RegistryError::CertificateRefused { .. } => false,
            _ => false,
        }
    }

    /// Whether the registry said the subject, version or schema does not exist.
    pub fn is_not_found(&self) -> bool {
        self.api().is_some_and(ApiError::is_not_found)
    }
}

/// An error with its causes, `outer: inner: innermost`, for transports whose errors say
/// what failed only in their sources (such as a refused certificate).
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

/// The result of a registry call.
pub type Result<T, E = RegistryError> = std::result::Result<T, E>;
