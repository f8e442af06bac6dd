//! HTTPS against the fake registry behind rustls, for both transports, with a CA, a server
//! and a client certificate made here: a custom CA is trusted, an unknown one is refused
//! with a clear error, and a registry requiring a client certificate gets it.

use crate::support;

use std::sync::Arc;

use avdl2rs_registry::{ClientConfig, RegistryError, RetryPolicy};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};
use support::fake::{Answer, Fake};
use support::Make;

/// A certificate authority made for one test.
struct Authority {
    cert: rcgen::Certificate,
    key: KeyPair,
}

/// A certificate the authority signed, with its key.
struct Issued {
    cert: rcgen::Certificate,
    key: KeyPair,
}

impl Authority {
    fn new(name: &str) -> Self {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let cert = params.self_signed(&key).unwrap();
        Authority { cert, key }
    }

    fn issue(&self, names: &[&str], purpose: ExtendedKeyUsagePurpose) -> Issued {
        let key = KeyPair::generate().unwrap();
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params.extended_key_usages = vec![purpose];
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        Issued { cert, key }
    }

    fn pem(&self) -> String {
        self.cert.pem()
    }
}

/// The settings of a registry serving `server`'s certificate; with `clients`, it requires
/// a client certificate that authority signed.
fn server_config(server: &Issued, clients: Option<&Authority>) -> Arc<ServerConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match clients {
        None => builder.with_no_client_auth(),
        Some(authority) => {
            let mut roots = RootCertStore::empty();
            roots.add(authority.cert.der().clone()).unwrap();
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
    };
    let chain: Vec<CertificateDer<'static>> = vec![server.cert.der().clone()];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server.key.serialize_der()));
    Arc::new(builder.with_single_cert(chain, key).unwrap())
}

fn subjects_registry(tls: Arc<ServerConfig>) -> Fake {
    Fake::start_tls(|_, _| Answer::json(200, r#"["orders-value"]"#), tls)
}

/// Settings without retries: a refused certificate is refused again.
fn config(url: &str) -> ClientConfig {
    ClientConfig::new(url).retry(RetryPolicy::none())
}

fn a_custom_ca_is_trusted(make: Make) {
    let ca = Authority::new("registry test CA");
    let server = ca.issue(
        &["127.0.0.1", "localhost"],
        ExtendedKeyUsagePurpose::ServerAuth,
    );
    let fake = subjects_registry(server_config(&server, None));
    assert!(fake.url.starts_with("https://"));
    let client = make(config(&fake.url).ca_pem(ca.pem()));
    assert_eq!(client.subjects().unwrap(), ["orders-value"]);
    assert_eq!(fake.requests()[0].client_certificate, None);
}

fn an_unknown_ca_is_refused_clearly(make: Make) {
    let ca = Authority::new("registry test CA");
    let server = ca.issue(&["127.0.0.1"], ExtendedKeyUsagePurpose::ServerAuth);
    let fake = subjects_registry(server_config(&server, None));
    let other = Authority::new("another CA");
    // The system's roots (the default) and another CA both refuse the server.
    for config in [config(&fake.url), config(&fake.url).ca_pem(other.pem())] {
        let e = make(config).subjects().unwrap_err();
        let RegistryError::Transport { url, message } = &e else {
            panic!("not a transport error: {e}");
        };
        assert!(url.starts_with(&fake.url), "{url}");
        assert!(
            message.contains("invalid peer certificate") && message.contains("UnknownIssuer"),
            "{message}"
        );
    }
    assert_eq!(fake.count(), 0, "no request got through");
}

fn a_required_client_certificate_is_presented(make: Make) {
    let ca = Authority::new("registry test CA");
    let server = ca.issue(&["127.0.0.1"], ExtendedKeyUsagePurpose::ServerAuth);
    let client_cert = ca.issue(&["producer"], ExtendedKeyUsagePurpose::ClientAuth);
    let fake = subjects_registry(server_config(&server, Some(&ca)));

    // Retries are on: a refused certificate is refused again, so it is not retried.
    let without = make(ClientConfig::new(&fake.url).ca_pem(ca.pem()));
    let e = without.subjects().unwrap_err();
    let RegistryError::CertificateRefused { url, message } = &e else {
        panic!("not a refused certificate: {e}");
    };
    assert!(url.starts_with(&fake.url), "{url}");
    assert!(
        message.contains("requires a client certificate and none is configured"),
        "{message}"
    );
    assert_eq!(fake.count(), 0, "refused without a certificate");
    assert_eq!(fake.connections(), 1, "not retried");
    assert!(!e.is_retriable());

    let pem = client_cert.cert.pem();
    let key = client_cert.key.serialize_pem();
    let with = make(config(&fake.url).ca_pem(ca.pem()).client_cert_pem(pem, key));
    assert_eq!(with.subjects().unwrap(), ["orders-value"]);
    let seen = fake.requests()[0].client_certificate.clone();
    assert_eq!(seen.as_deref(), Some(client_cert.cert.der().as_ref()));
}

#[test]
fn certificate_files_are_read_into_the_settings() {
    let ca = Authority::new("registry test CA");
    let dir = std::env::temp_dir().join(avdl2rs_tests::fresh_name("registry-tls"));
    std::fs::create_dir_all(&dir).unwrap();
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    let config = ClientConfig::new("https://r").ca_file(&ca_file).unwrap();
    assert_eq!(config.tls.ca_pem.as_deref(), Some(ca.pem().as_bytes()));
    let e = ClientConfig::new("https://r")
        .client_cert_files(&ca_file, dir.join("missing.pem"))
        .unwrap_err();
    assert!(e.to_string().contains("cannot read the client key"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

both_transports!(
    a_custom_ca_is_trusted,
    an_unknown_ca_is_refused_clearly,
    a_required_client_certificate_is_presented,
);
