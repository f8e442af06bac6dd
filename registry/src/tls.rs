//! The certificates of a [`TlsConfig`] in the form both transports take: trusted roots (the
//! system's, or a custom CA) and the client certificate, parsed once here so that a bad PEM
//! file is a clear configuration error before any request, whichever transport sends it.

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use crate::config::{ClientConfig, TlsConfig};
use crate::error::{error_chain, RegistryError, Result};

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

/// Transport errors are classified here, beside the TLS alerts they may hold, so that the
/// error type below knows nothing of TLS.
impl RegistryError {
    /// The error of a request that got no answer: [`RegistryError::CertificateRefused`] when
    /// `error` holds the registry's TLS alert refusing the client certificate, else
    /// [`RegistryError::Transport`].
    pub(crate) fn transport(url: &str, error: &(dyn std::error::Error + 'static)) -> Self {
        let url = url.to_owned();
        match refusal(error) {
            Some(message) => RegistryError::CertificateRefused { url, message },
            None => RegistryError::Transport {
                url,
                message: error_chain(error),
            },
        }
    }
}

/// Why the registry refused the client certificate, when `error` or one of its sources is
/// the registry's TLS alert saying so (found by type, as transports may word it away).
pub(crate) fn refusal(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if let Some(rustls::Error::AlertReceived(alert)) = rustls_error(error) {
            return refused_by(*alert);
        }
        cause = error.source();
    }
    None
}

/// The rustls error `error` is, or holds inside I/O errors (whose `source` skips what they
/// wrap; a connector may wrap one I/O error in another).
fn rustls_error<'a>(mut error: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    while let Some(io) = error.downcast_ref::<std::io::Error>() {
        error = io.get_ref()?;
    }
    error.downcast_ref::<rustls::Error>()
}

/// What a TLS alert from the registry says about the client certificate, if anything.
fn refused_by(alert: rustls::AlertDescription) -> Option<String> {
    use rustls::AlertDescription as A;
    match alert {
        A::CertificateRequired => Some(format!("{NONE_CONFIGURED} (TLS alert {alert:?})")),
        A::BadCertificate
        | A::UnsupportedCertificate
        | A::CertificateRevoked
        | A::CertificateExpired
        | A::CertificateUnknown
        | A::UnknownCA
        | A::AccessDenied => Some(format!(
            "the certificate presented was rejected (TLS alert {alert:?})"
        )),
        _ => None,
    }
}

/// The refusal of a registry that requires a client certificate when none is configured.
pub(crate) const NONE_CONFIGURED: &str =
    "the registry requires a client certificate and none is configured";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_alert_is_found_among_the_sources() {
        let alert = |a| rustls::Error::AlertReceived(a);
        let inner = std::io::Error::other(alert(rustls::AlertDescription::CertificateRequired));
        let wrapped = std::io::Error::other(inner);
        let outer = RegistryError::Config(String::new());
        assert_eq!(refusal(&outer), None);
        let message = refusal(&wrapped).unwrap();
        assert!(message.starts_with(NONE_CONFIGURED), "{message}");
        let rejected = refusal(&alert(rustls::AlertDescription::UnknownCA)).unwrap();
        assert!(
            rejected.contains("rejected (TLS alert UnknownCA)"),
            "{rejected}"
        );
        assert_eq!(
            refusal(&alert(rustls::AlertDescription::InternalError)),
            None
        );
    }

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
