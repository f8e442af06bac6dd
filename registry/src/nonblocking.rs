//! The async client, over `reqwest` with rustls: for programs that already run tokio.

use std::sync::Arc;

use avdl2rs::compat::CompatLevel;
use avdl2rs::{AvroEncode, AvroSchema};

use crate::api::{self, Call};
use crate::cache::Cache;
use crate::client::client_methods;
use crate::client_auth::{rustls_config, ClientAuth};
use crate::config::ClientConfig;
use crate::core::{Core, Outgoing, Reply};
use crate::error::error_chain;
use crate::error::{RegistryError, Result};
use crate::retry::parse_retry_after;
use crate::serdes::{
    deserializer_methods, generic_deserializer_methods, generic_serializer_methods,
    serializer_methods, topic_serializer_methods, SerdeError,
};
use crate::tls::Certificates;
use crate::types::{CompatibilityReport, Schema, SubjectVersion, Version};

/// The largest reply body read; a schema registry's replies are far smaller.
const MAX_REPLY: usize = 64 << 20;

/// A cached, retrying Schema Registry client for async code; the same methods as
/// [`crate::blocking::Client`], as `async fn`s. Share one between tasks through an `Arc`.
#[derive(Debug)]
pub struct Client {
    core: Core<tokio::sync::Mutex<()>>,
    http: reqwest::Client,
    client_auth: Arc<ClientAuth>,
}

impl Client {
    /// A client with these settings.
    pub fn new(config: ClientConfig) -> Result<Self> {
        let (tls, client_auth) = rustls_config(&Certificates::of(&config)?)?;
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .use_preconfigured_tls(tls)
            .build()
            .map_err(|e| RegistryError::Config(error_chain(&e)))?;
        Ok(Client {
            core: Core::new(config)?,
            http,
            client_auth,
        })
    }

    /// The settings of this client.
    pub fn settings(&self) -> &ClientConfig {
        &self.core.config
    }

    client_methods!(async; .await);

    /// Sends `call` (retrying and failing over as configured) and reads its reply; nothing
    /// is cached.
    pub async fn execute<T>(&self, call: Call<T>) -> Result<T> {
        let mut attempts = self.core.attempts();
        loop {
            let outgoing = self.core.prepare(&call, &attempts)?;
            let started = std::time::Instant::now();
            let result = match self.send(&outgoing).await {
                Ok(reply) => self.core.finish(&call, &outgoing.url, reply),
                Err(e) => Err(e),
            };
            crate::metrics::request(started, &result);
            match result {
                Ok(value) => {
                    self.core.succeeded(&attempts);
                    return Ok(value);
                }
                Err(error) => match self.core.retry(&mut attempts, &error) {
                    Some(wait) => tokio::time::sleep(wait).await,
                    None => return Err(error),
                },
            }
        }
    }

    async fn send(&self, outgoing: &Outgoing<'_>) -> Result<Reply> {
        let transport = |e: reqwest::Error| RegistryError::transport(&outgoing.url, &e);
        let method = reqwest::Method::from_bytes(outgoing.method.as_str().as_bytes())
            .map_err(|e| RegistryError::Config(e.to_string()))?;
        let mut request = self.http.request(method, &outgoing.url);
        for (name, value) in &outgoing.headers {
            request = request.header(*name, value);
        }
        if let Some(body) = outgoing.body {
            request = request.body(body.to_vec());
        }
        let asked_in_vain = self.client_auth.asked_in_vain();
        let mut response = request
            .send()
            .await
            .map_err(|e| self.client_auth.explain(asked_in_vain, transport(e)))?;
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            if body.len() + chunk.len() > MAX_REPLY {
                return Err(RegistryError::InvalidReply {
                    what: outgoing.url.clone(),
                    message: format!("reply larger than {MAX_REPLY} bytes"),
                });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Reply {
            status,
            retry_after,
            body,
        })
    }

    /// The value of `key`, fetched by one task at a time when missing.
    async fn cached<K, V, F>(
        &self,
        cache: &Cache<K, V, tokio::sync::Mutex<()>>,
        key: K,
        fetch: impl FnOnce() -> F,
    ) -> Result<V>
    where
        K: Eq + std::hash::Hash + Clone,
        V: Clone,
        F: std::future::Future<Output = Result<V>>,
    {
        if let Some(value) = cache.lookup(&key) {
            return Ok(value);
        }
        let flight = cache.flight(&key);
        let _turn = flight.lock().await;
        if let Some(value) = cache.get(&key) {
            return Ok(value);
        }
        let result = fetch().await;
        if let Ok(value) = &result {
            cache.insert(key.clone(), value.clone());
        }
        cache.land(&key, &flight);
        result
    }
}

/// Frames values of `T` for Kafka, asking the registry through the async [`Client`].
pub type Serializer<T> = crate::serdes::Serializer<T, Client>;
/// A [`Serializer`] bound to one topic.
pub type TopicSerializer<'a, T> = crate::serdes::TopicSerializer<'a, T, Client>;
/// Reads Confluent frames into `T`, fetching writer schemas through the async [`Client`].
pub type Deserializer<T> = crate::serdes::Deserializer<T, Client>;

impl<T: AvroSchema + AvroEncode> Serializer<T> {
    serializer_methods!(async; .await);
}

impl<T: AvroSchema + AvroEncode> TopicSerializer<'_, T> {
    topic_serializer_methods!(async; .await);
}

impl<T: avdl2rs::resolve::Resolvable> Deserializer<T> {
    deserializer_methods!(async; .await);
}

/// Frames generic values of one schema, asking the registry through the async [`Client`].
pub type GenericSerializer = crate::serdes::GenericSerializer<Client>;
/// Reads Confluent frames into generic values, fetching writer schemas through the async
/// [`Client`].
pub type GenericDeserializer = crate::serdes::GenericDeserializer<Client>;

impl GenericSerializer {
    generic_serializer_methods!(async; .await);
}

impl GenericDeserializer {
    generic_deserializer_methods!(async; .await);
}
