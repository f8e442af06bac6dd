//! The async transport's rustls settings, built here rather than by reqwest so that a
//! registry asking for a client certificate none is configured for is noticed: under TLS 1.3
//! the client finishes its handshake before the registry refuses it, and hyper may report
//! the closed connection without the registry's alert.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustls::client::ResolvesClientCert;
use rustls::sign::CertifiedKey;
use rustls::{ClientConfig, RootCertStore, SignatureScheme};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use crate::error::{RegistryError, Result};
use crate::tls::{Certificates, NONE_CONFIGURED};

/// Gives the configured client certificate, and counts the handshakes in which a registry
/// asked for one and none was configured.
#[derive(Debug)]
pub(crate) struct ClientAuth {
    certified: Option<Arc<CertifiedKey>>,
    asked_in_vain: AtomicU64,
}

impl ClientAuth {
    /// How many times a registry has asked for a certificate none was configured for; a
    /// change across a failed request tells that its connection was refused for want of one.
    pub(crate) fn asked_in_vain(&self) -> u64 {
        self.asked_in_vain.load(Ordering::Relaxed)
    }

    /// `error`, the failure of a request sent when [`ClientAuth::asked_in_vain`] was
    /// `before`: a [`RegistryError::CertificateRefused`] if a registry has since asked for a
    /// certificate none is configured for and the transport could not say more.
    pub(crate) fn explain(&self, before: u64, error: RegistryError) -> RegistryError {
        match error {
            RegistryError::Transport { url, message } if self.asked_in_vain() != before => {
                RegistryError::CertificateRefused {
                    url,
                    message: format!("{NONE_CONFIGURED} (it asked for one; then {message})"),
                }
            }
            other => other,
        }
    }
}

impl ResolvesClientCert for ClientAuth {
    fn resolve(
        &self,
        _issuers: &[&[u8]],
        _schemes: &[SignatureScheme],
    ) -> Option<Arc<CertifiedKey>> {
        if self.certified.is_none() {
            self.asked_in_vain.fetch_add(1, Ordering::Relaxed);
        }
        self.certified.clone()
    }

    fn has_certs(&self) -> bool {
        self.certified.is_some()
    }
}

/// The rustls settings of `certificates`, with the resolver that watches requests for a
/// client certificate.
pub(crate) fn rustls_config(
    certificates: &Certificates,
) -> Result<(ClientConfig, Arc<ClientAuth>)> {
    let invalid = |e: rustls::Error| RegistryError::Config(format!("TLS settings: {e}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(certificates.roots.iter().cloned());
    let certified = match &certificates.client {
        Some(client) => {
            let chain = CertificateDer::pem_slice_iter(&client.pem)
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|e| RegistryError::Config(format!("bad client certificate PEM: {e}")))?;
            let key = PrivateKeyDer::from_pem_slice(&client.pem).map_err(|e| {
                RegistryError::Config(format!("no private key in the client key PEM: {e}"))
            })?;
            let signer = provider
                .key_provider
                .load_private_key(key)
                .map_err(invalid)?;
            Some(Arc::new(CertifiedKey::new(chain, signer)))
        }
        None => None,
    };
    let auth = Arc::new(ClientAuth {
        certified,
        asked_in_vain: AtomicU64::new(0),
    });
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(invalid)?
        .with_root_certificates(roots)
        .with_client_cert_resolver(Arc::clone(&auth) as Arc<dyn ResolvesClientCert>);
    Ok((config, auth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_request_for_a_missing_certificate_is_counted() {
        let none = Certificates {
            roots: Vec::new(),
            client: None,
        };
        let (_, auth) = rustls_config(&none).unwrap();
        assert!(!auth.has_certs());
        assert!(auth.resolve(&[], &[]).is_none());
        assert!(auth.resolve(&[], &[]).is_none());
        assert_eq!(auth.asked_in_vain(), 2);
        let dropped = || RegistryError::Transport {
            url: "https://r".to_owned(),
            message: "connection was not ready".to_owned(),
        };
        let e = auth.explain(1, dropped());
        assert!(
            matches!(&e, RegistryError::CertificateRefused { message, .. }
            if message.starts_with(NONE_CONFIGURED) && message.ends_with("not ready)")),
            "{e}"
        );
        let e = auth.explain(2, dropped());
        assert!(matches!(e, RegistryError::Transport { .. }), "{e}");
    }
}
