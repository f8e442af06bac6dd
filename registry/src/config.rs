//! How a client is set up: where the registry is, credentials, timeouts, retries, caching.

use std::fmt;
use std::path::Path;
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
/// The environment variable with the path of a PEM file of CA certificates to trust instead
/// of the system's.
pub const CA_CERT_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_CA_CERT";
/// The environment variable with the path of the PEM client certificate (chain).
pub const CLIENT_CERT_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_CLIENT_CERT";
/// The environment variable with the path of the PEM private key of the client certificate.
pub const CLIENT_KEY_VAR: &str = "AVDL2RS_SCHEMA_REGISTRY_CLIENT_KEY";

/// How the client checks the registry's certificate and proves who it is, over `https://`.
///
/// Usually set through [`ClientConfig::ca_pem`] and [`ClientConfig::client_cert_pem`]; built
/// on its own from [`TlsConfig::default`] (the system's roots, no client certificate) through
/// its setters.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TlsConfig {
    /// CA certificates (PEM) trusted instead of the system's root certificates, for
    /// registries whose certificate a private CA signed. `None`: the system's roots.
    pub ca_pem: Option<Vec<u8>>,
    /// The client certificate (PEM chain) and its private key (PEM), presented to registries
    /// that require one (mutual TLS).
    pub client_cert_pem: Option<(Vec<u8>, Vec<u8>)>,
}

impl TlsConfig {
    /// Trusting the CA certificates of this PEM text instead of the system's roots.
    pub fn ca_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.ca_pem = Some(pem.into());
        self
    }

    /// Presenting this client certificate (PEM chain) with its private key (PEM).
    pub fn client_cert_pem(mut self, cert: impl Into<Vec<u8>>, key: impl Into<Vec<u8>>) -> Self {
        self.client_cert_pem = Some((cert.into(), key.into()));
        self
    }
}

impl fmt::Debug for TlsConfig {
    /// Whether each part is set; never the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsConfig")
            .field("custom_ca", &self.ca_pem.is_some())
            .field("client_cert", &self.client_cert_pem.is_some())
            .finish()
    }
}

/// The settings of a registry client.
///
/// Built from [`ClientConfig::new`] (or [`ClientConfig::from_env`]) through its setters, so that
/// new settings can be added without breaking callers:
///
/// ```
/// use std::time::Duration;
/// use avdl2rs_registry::{Auth, ClientConfig, RetryPolicy};
/// let config = ClientConfig::new("http://registry-1:8081,http://registry-2:8081")
///     .auth(Auth::Bearer("token".into()))
///     .retry(RetryPolicy::none())
///     .latest_ttl(Some(Duration::from_secs(60)));
/// assert_eq!(config.urls.len(), 2);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
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
    /// Certificates for `https://` registries.
    pub tls: TlsConfig,
}

impl Default for ClientConfig {
    /// A client of a registry on this machine at its usual port, `http://localhost:8081`.
    fn default() -> Self {
        ClientConfig::new("http://localhost:8081")
    }
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
            tls: TlsConfig::default(),
        }
    }

    /// The settings named by the environment: [`URL_VAR`] (required), then [`BASIC_AUTH_VAR`]
    /// or [`BEARER_VAR`], [`CA_CERT_VAR`], and [`CLIENT_CERT_VAR`] with [`CLIENT_KEY_VAR`].
    pub fn from_env() -> Result<Self> {
        let var = |name| std::env::var(name).ok();
        let url =
            var(URL_VAR).ok_or_else(|| RegistryError::Config(format!("{URL_VAR} is not set")))?;
        let mut config = ClientConfig::new(&url);
        if let Some(user_info) = var(BASIC_AUTH_VAR) {
            config.auth = Auth::basic_from(&user_info)?;
        } else if let Some(token) = var(BEARER_VAR) {
            config.auth = Auth::Bearer(token);
        }
        if let Some(ca) = var(CA_CERT_VAR) {
            config = config.ca_file(ca)?;
        }
        match (var(CLIENT_CERT_VAR), var(CLIENT_KEY_VAR)) {
            (Some(cert), Some(key)) => config = config.client_cert_files(cert, key)?,
            (None, None) => {}
            _ => {
                return Err(RegistryError::Config(format!(
                    "{CLIENT_CERT_VAR} and {CLIENT_KEY_VAR} go together"
                )))
            }
        }
        Ok(config)
    }

    /// Trusting the CA certificates of this PEM text instead of the system's roots.
    pub fn ca_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.tls.ca_pem = Some(pem.into());
        self
    }

    /// Trusting the CA certificates of this PEM file instead of the system's roots.
    pub fn ca_file(self, path: impl AsRef<Path>) -> Result<Self> {
        let pem = read_pem(path.as_ref(), "CA certificate")?;
        Ok(self.ca_pem(pem))
    }

    /// Presenting this client certificate (PEM chain) with its private key (PEM).
    pub fn client_cert_pem(mut self, cert: impl Into<Vec<u8>>, key: impl Into<Vec<u8>>) -> Self {
        self.tls.client_cert_pem = Some((cert.into(), key.into()));
        self
    }

    /// Presenting the client certificate and private key of these PEM files.
    pub fn client_cert_files(self, cert: impl AsRef<Path>, key: impl AsRef<Path>) -> Result<Self> {
        let cert = read_pem(cert.as_ref(), "client certificate")?;
        let key = read_pem(key.as_ref(), "client key")?;
        Ok(self.client_cert_pem(cert, key))
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

    /// With these certificate settings for `https://` registries.
    pub fn tls(mut self, tls: TlsConfig) -> Self {
        self.tls = tls;
        self
    }

    /// With this time to live of cached "latest" versions.
    pub fn latest_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.latest_ttl = ttl;
        self
    }

    /// Whether some instance is reached over TLS.
    pub(crate) fn uses_tls(&self) -> bool {
        self.urls.iter().any(|u| u.starts_with("https://"))
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

fn read_pem(path: &Path, what: &str) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        RegistryError::Config(format!("cannot read the {what} {}: {e}", path.display()))
    })
}
