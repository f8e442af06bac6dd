//! The certificates of a [`TlsConfig`] in the form both transports take: trusted roots (the
//! system's, or a custom CA) and the client certificate, parsed once here so that a bad PEM
//! file is a clear configuration error before any request, whichever transport sends it.

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use crate::config::{ClientConfig, TlsConfig};
use crate::error::{RegistryError, Result};

/// Parsed certificates.
pub(crate) struct Certificates {
    /// The roots to trust (empty when no instance is reached over TLS).
    pub(crate) roots: Vec<CertificateDer<'static>>,
    /// The client certificate chain and key, with the PEM text they came from.
    pub(crate) client: Option<ClientCertificate>,
}

/// A client certificate.
pub(crate) struct ClientCertificate {
    /// The chain's PEM followed by the key's (checked to hold both).
    pub(crate) pem: Vec<u8>,
}

impl Certificates {
    /// The certificates `config` names; the system's roots are read only when an instance
    /// is reached over TLS and no CA is given.
    pub(crate) fn of(config: &ClientConfig) -> Result<Self> {
        let TlsConfig {
            ca_pem,
            client_cert_pem,
        } = &config.tls;
        let roots = match ca_pem {
            Some(pem) => certificates(pem, "CA certificate")?,
            None if config.uses_tls() => system_roots()?,
            None => Vec::new(),
        };
        let client = match client_cert_pem {
            Some((cert, key)) => {
                PrivateKeyDer::from_pem_slice(key)
                    .map_err(|e| invalid(format!("no private key in the client key PEM: {e}")))?;
                certificates(cert, "client certificate")?;
                Some(ClientCertificate {
                    pem: [cert.as_slice(), b"\n", key.as_slice()].concat(),
                })
            }
            None => None,
        };
        Ok(Certificates { roots, client })
    }
}

/// The certificates of a PEM text, at least one.
fn certificates(pem: &[u8], what: &str) -> Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_slice_iter(pem)
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| invalid(format!("bad {what} PEM: {e}")))?;
    if certs.is_empty() {
        return Err(invalid(format!("no certificate in the {what} PEM")));
    }
    Ok(certs)
}

/// The system's root certificates (the platform's store, or `SSL_CERT_FILE`/`SSL_CERT_DIR`).
fn system_roots() -> Result<Vec<CertificateDer<'static>>> {
    let found = rustls_native_certs::load_native_certs();
    if found.certs.is_empty() {
        let why: Vec<String> = found.errors.iter().map(ToString::to_string).collect();
        return Err(invalid(format!(
            "no system root certificates found ({}); give a CA certificate",
            why.join("; ")
        )));
    }
    Ok(found.certs)
}

fn invalid(message: String) -> RegistryError {
    RegistryError::Config(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_pem_is_a_configuration_error() {
        let config = ClientConfig::new("https://r").ca_pem("not a certificate");
        let e = Certificates::of(&config).err().unwrap();
        assert!(
            e.to_string()
                .contains("no certificate in the CA certificate PEM"),
            "{e}"
        );
        let plain = ClientConfig::new("http://r");
        assert!(Certificates::of(&plain).unwrap().roots.is_empty());
    }
}
