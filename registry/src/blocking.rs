//! The blocking client, over `ureq`: no async runtime, so it is safe to call from any
//! thread, including from inside one.

use std::io::Read;
use std::sync::{Arc, Mutex, PoisonError};

use avdl2rs::compat::CompatLevel;
use avdl2rs::{AvroEncode, AvroSchema};

use crate::api::{self, Call};
use crate::cache::Cache;
use crate::client::client_methods;
use crate::config::ClientConfig;
use crate::core::{Core, Outgoing, Reply};
use crate::error::{RegistryError, Result};
use crate::retry::parse_retry_after;
use crate::serdes::{
    deserializer_methods, generic_deserializer_methods, generic_serializer_methods,
    serializer_methods, topic_serializer_methods, SerdeError,
};
use crate::tls::Certificates;
use crate::types::{CompatibilityReport, Schema, SubjectVersion, Version};

/// The largest reply body read; a schema registry's replies are far smaller.
const MAX_REPLY: u64 = 64 << 20;

/// A cached, retrying Schema Registry client that blocks the calling thread. Share one
/// between threads (it is `Send + Sync`; wrap it in an `Arc`).
#[derive(Debug)]
pub struct Client {
    core: Core<Mutex<()>>,
    agent: ureq::Agent,
}

impl Client {
    /// A client with these settings.
    pub fn new(config: ClientConfig) -> Result<Self> {
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(config.connect_timeout))
            .timeout_global(Some(config.request_timeout))
            .http_status_as_error(false)
            .tls_config(tls_config(&config)?)
            .build()
            .into();
        Ok(Client {
            core: Core::new(config)?,
            agent,
        })
    }

    /// The settings of this client.
    pub fn settings(&self) -> &ClientConfig {
        &self.core.config
    }

    client_methods!(;);

    /// Sends `call` (retrying and failing over as configured) and reads its reply; nothing
    /// is cached.
    pub fn execute<T>(&self, call: Call<T>) -> Result<T> {
        let mut attempts = self.core.attempts();
        loop {
            let outgoing = self.core.prepare(&call, &attempts)?;
            let started = std::time::Instant::now();
            let result = self
                .send(&outgoing)
                .and_then(|reply| self.core.finish(&call, &outgoing.url, reply));
            crate::metrics::request(started, &result);
            match result {
                Ok(value) => {
                    self.core.succeeded(&attempts);
                    return Ok(value);
                }
                Err(error) => match self.core.retry(&mut attempts, &error) {
                    Some(wait) => std::thread::sleep(wait),
                    None => return Err(error),
                },
            }
        }
    }

    fn send(&self, outgoing: &Outgoing<'_>) -> Result<Reply> {
        let transport =
            |e: &(dyn std::error::Error + 'static)| RegistryError::transport(&outgoing.url, e);
        let mut builder = ureq::http::Request::builder()
            .method(outgoing.method.as_str())
            .uri(&outgoing.url);
        for (name, value) in &outgoing.headers {
            builder = builder.header(*name, value);
        }
        let sent = match outgoing.body {
            Some(body) => builder.body(body).map(|r| self.agent.run(r)),
            None => builder.body(()).map(|r| self.agent.run(r)),
        };
        let mut response = sent
            .map_err(|e| RegistryError::Config(format!("bad request: {e}")))?
            .map_err(|e| transport(cause(&e)))?;
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let mut body = Vec::new();
        response
            .body_mut()
            .with_config()
            .limit(MAX_REPLY)
            .reader()
            .read_to_end(&mut body)
            .map_err(|e| transport(&e))?;
        Ok(Reply {
            status: response.status().as_u16(),
            retry_after,
            body,
        })
    }

    /// The value of `key`, fetched by one caller at a time when missing.
    fn cached<K, V>(
        &self,
        cache: &Cache<K, V, Mutex<()>>,
        key: K,
        fetch: impl FnOnce() -> Result<V>,
    ) -> Result<V>
    where
        K: Eq + std::hash::Hash + Clone,
        V: Clone,
    {
        if let Some(value) = cache.lookup(&key) {
            return Ok(value);
        }
        let flight = cache.flight(&key);
        let _turn = flight.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(value) = cache.get(&key) {
            return Ok(value);
        }
        let result = fetch();
        if let Ok(value) = &result {
            cache.insert(key.clone(), value.clone());
        }
        cache.land(&key, &flight);
        result
    }
}

/// The error inside a ureq error, which has no `source` of its own: rustls' or the socket's.
fn cause(error: &ureq::Error) -> &(dyn std::error::Error + 'static) {
    match error {
        ureq::Error::Rustls(tls) => tls,
        ureq::Error::Io(io) => io,
        other => other,
    }
}

/// The certificates of `config` as ureq takes them.
fn tls_config(config: &ClientConfig) -> Result<ureq::tls::TlsConfig> {
    use ureq::tls::{Certificate, ClientCert, PemItem, PrivateKey, RootCerts};
    let certificates = Certificates::of(config)?;
    let der = |c: &rustls_pki_types::CertificateDer<'_>| Certificate::from_der(c).to_owned();
    let mut tls = ureq::tls::TlsConfig::builder();
    if !certificates.roots.is_empty() {
        let roots = certificates.roots.iter().map(der);
        tls = tls.root_certs(RootCerts::from(roots));
    }
    if let Some(client) = &certificates.client {
        let chain: Vec<_> = ureq::tls::parse_pem(&client.pem)
            .filter_map(|item| match item {
                Ok(PemItem::Certificate(cert)) => Some(cert),
                _ => None,
            })
            .collect();
        let key = PrivateKey::from_pem(&client.pem)
            .map_err(|e| RegistryError::Config(format!("client key: {e}")))?;
        tls = tls.client_cert(Some(ClientCert::new_with_certs(&chain, key)));
    }
    Ok(tls.build())
}

/// Frames values of `T` for Kafka, asking the registry through the blocking [`Client`].
pub type Serializer<T> = crate::serdes::Serializer<T, Client>;
/// A [`Serializer`] bound to one topic.
pub type TopicSerializer<'a, T> = crate::serdes::TopicSerializer<'a, T, Client>;
/// Reads Confluent frames into `T`, fetching writer schemas through the blocking [`Client`].
pub type Deserializer<T> = crate::serdes::Deserializer<T, Client>;

impl<T: AvroSchema + AvroEncode> Serializer<T> {
    serializer_methods!(;);
}

impl<T: AvroSchema + AvroEncode> TopicSerializer<'_, T> {
    topic_serializer_methods!(;);
}

impl<T: avdl2rs::resolve::Resolvable> Deserializer<T> {
    deserializer_methods!(;);
}

/// Frames generic values of one schema, asking the registry through the blocking [`Client`].
pub type GenericSerializer = crate::serdes::GenericSerializer<Client>;
/// Reads Confluent frames into generic values, fetching writer schemas through the blocking
/// [`Client`].
pub type GenericDeserializer = crate::serdes::GenericDeserializer<Client>;

impl GenericSerializer {
    generic_serializer_methods!(;);
}

impl GenericDeserializer {
    generic_deserializer_methods!(;);
}

impl avdl2rs::resolve::SchemaLookup for Client {
    /// The writer schema of `id`, with its references assembled into it.
    fn schema_by_id(
        &self,
        id: i32,
    ) -> std::result::Result<Arc<str>, avdl2rs::resolve::LookupError> {
        let schema = Client::schema_by_id(self, id)?;
        Ok(Arc::from(self.assembled(&schema)?))
    }
}
