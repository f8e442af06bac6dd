//! The options naming a Schema Registry and how to log in, shared by the commands that talk
//! to one (`registry`, `kafka`), each with its environment variable.

use std::path::PathBuf;

use avdl2rs_registry::{
    Auth, ClientConfig, BASIC_AUTH_VAR, BEARER_VAR, CA_CERT_VAR, CLIENT_CERT_VAR, CLIENT_KEY_VAR,
    URL_VAR,
};

use crate::io::Failure;

/// Where the registry is and how to log in.
#[derive(Debug, clap::Args)]
pub struct RegistryOptions {
    /// The registry's base URL; several instances separated by commas.
    #[arg(long, env = URL_VAR, global = true, value_name = "URL")]
    pub url: Option<String>,
    /// Basic credentials, `user:password` (an API key and secret).
    #[arg(long, env = BASIC_AUTH_VAR, global = true, hide_env_values = true, value_name = "USER:PASSWORD")]
    pub basic_auth: Option<String>,
    /// A bearer token.
    #[arg(long, env = BEARER_VAR, global = true, hide_env_values = true, value_name = "TOKEN")]
    pub bearer_token: Option<String>,
    /// A PEM file of CA certificates trusted instead of the system's root certificates.
    #[arg(long, env = CA_CERT_VAR, global = true, value_name = "PEM")]
    pub ca_cert: Option<PathBuf>,
    /// A PEM file of the client certificate to present (mutual TLS); needs --client-key.
    #[arg(long, env = CLIENT_CERT_VAR, global = true, value_name = "PEM", requires = "client_key")]
    pub client_cert: Option<PathBuf>,
    /// The PEM file of the client certificate's private key; needs --client-cert.
    #[arg(long, env = CLIENT_KEY_VAR, global = true, value_name = "PEM", requires = "client_cert")]
    pub client_key: Option<PathBuf>,
}

impl RegistryOptions {
    /// The client settings these options give.
    pub fn client_config(&self) -> Result<ClientConfig, Failure> {
        let failure = |e: avdl2rs_registry::RegistryError| Failure::Message(e.to_string());
        let url = self
            .url
            .as_deref()
            .ok_or_else(|| Failure::Message(format!("no registry: give --url or set {URL_VAR}")))?;
        let mut config = ClientConfig::new(url);
        if let Some(user_info) = &self.basic_auth {
            config.auth = Auth::basic_from(user_info).map_err(failure)?;
        } else if let Some(token) = &self.bearer_token {
            config.auth = Auth::Bearer(token.clone());
        }
        if let Some(ca) = &self.ca_cert {
            config = config.ca_file(ca).map_err(failure)?;
        }
        if let (Some(cert), Some(key)) = (&self.client_cert, &self.client_key) {
            config = config.client_cert_files(cert, key).map_err(failure)?;
        }
        Ok(config)
    }
}
