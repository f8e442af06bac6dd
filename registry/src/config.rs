//! How a client is set up: where the registry is, credentials, timeouts, retries, caching.

use std::time::Duration;

use crate::auth::Auth;
use crate::error::{RegistryError, Result};
use crate::retry::RetryPolicy;

/// The environment variable with the registry's URL (several separated by commas).
pub const URL_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_URL";
/// The environment variable with basic credentials, `user:password`.
pub const BASIC_AUTH_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_BASIC_AUTH";
/// The environment variable with a static bearer token.
pub const BEARER_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_BEARER_TOKEN";

/// The settings of a registry client.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Base URLs of the registry's instances, tried in turn when one cannot be reached.
    pub urls: Vec<String>,
    /// Credentials.
    pub auth: Auth,
    /// Headers sent with every request (tenant ids, tracing).
    pub headers: Vec<(String, String)>,
    /// When and how failed requests are retried.
    pub retry: RetryPolicy,
    /// How long to wait for a connection.
    pub connect_timeout: Duration,
    /// How long a whole request may take.
    pub request_timeout: Duration,
    /// How long a subject's "latest" version is trusted before it is fetched again (`None`:
    /// until this client registers under that subject).
    pub latest_ttl: Option<Duration>,
}

impl ClientConfig {
    /// A client of the registry at `url`; several instances may be given separated by
    /// commas. Defaults: no credentials, 10 s connect and 30 s request timeouts, the default
    /// [`RetryPolicy`], "latest" trusted for 5 minutes.
    pub fn new(url: &str) -> Self {
        ClientConfig {
            urls: url
                .split(',')
                .map(|u| u.trim().trim_end_matches('/').to_owned())
                .filter(|u| !u.is_empty())
                .collect(),
            auth: Auth::None,
            headers: Vec::new(),
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            latest_ttl: Some(Duration::from_secs(300)),
        }
    }

    /// The settings named by the environment: [`URL_VAR`] (required), then [`BASIC_AUTH_VAR`]
    /// or [`BEARER_VAR`].
    pub fn from_env() -> Result<Self> {
        let url = std::env::var(URL_VAR)
            .map_err(|_| RegistryError::Config(format!("{URL_VAR} is not set")))?;
        let mut config = ClientConfig::new(&url);
        if let Ok(user_info) = std::env::var(BASIC_AUTH_VAR) {
            config.auth = Auth::basic_from(&user_info)?;
        } else if let Ok(token) = std::env::var(BEARER_VAR) {
            config.auth = Auth::Bearer(token);
        }
        Ok(config)
    }

    /// With these credentials.
    pub fn auth(mut self, auth: Auth) -> Self {
        self.auth = auth;
        self
    }

    /// With one more header on every request.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// With this retry policy.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// With these timeouts for connecting and for the whole request.
    pub fn timeouts(mut self, connect: Duration, request: Duration) -> Self {
        self.connect_timeout = connect;
        self.request_timeout = request;
        self
    }

    /// With this time to live of cached "latest" versions.
    pub fn latest_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.latest_ttl = ttl;
        self
    }

    pub(crate) fn validate(&self) -> Result<()> {
        if self.urls.is_empty() {
            return Err(RegistryError::Config("no registry URL given".to_owned()));
        }
        if let Some(url) = self
            .urls
            .iter()
            .find(|u| !u.starts_with("http://") && !u.starts_with("https://"))
        {
            return Err(RegistryError::Config(format!(
                "`{url}` is not an http:// or https:// URL"
            )));
        }
        Ok(())
    }
}
