//! What both transports share: preparing a request for a base URL, reading the reply into
//! a value or a typed error, deciding about retries and failover, and the caches.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::api::{Call, Method};
use crate::cache::Cache;
use crate::config::ClientConfig;
use crate::error::{ApiError, RegistryError, Result};
use crate::types::{Schema, SubjectVersion};

/// A request ready for a transport.
pub(crate) struct Outgoing<'a> {
    pub(crate) method: Method,
    pub(crate) url: String,
    pub(crate) headers: Vec<(&'a str, String)>,
    pub(crate) body: Option<&'a [u8]>,
}

/// What a transport got back.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) retry_after: Option<Duration>,
    pub(crate) body: Vec<u8>,
}

/// The progress of one call through its attempts.
pub(crate) struct Attempts {
    started: Instant,
    retries: u32,
    url: usize,
    reauthenticated: bool,
}

/// The caches of a client; `F` is the transport's flight lock.
pub(crate) struct Caches<F> {
    /// Schema id → schema: ids never change meaning.
    pub(crate) by_id: Cache<i32, Arc<Schema>, F>,
    /// (subject, schema) → id, from registrations and lookups. The whole schema is the key:
    /// the same text registered with other metadata or rules is another version.
    pub(crate) ids: Cache<(String, Schema), i32, F>,
    /// Subject → its latest version, for the configured time.
    pub(crate) latest: Cache<String, Arc<SubjectVersion>, F>,
}

/// The transport-independent part of a client.
pub(crate) struct Core<F> {
    pub(crate) config: ClientConfig,
    /// The URL that answered last, where the next call starts.
    preferred: AtomicUsize,
    pub(crate) caches: Caches<F>,
}

impl<F> std::fmt::Debug for Core<F> {
    /// The instances only: the settings hold credentials, the caches are large.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("urls", &self.config.urls)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct ErrorBody {
    error_code: Option<i32>,
    message: Option<String>,
}

impl<F: Default> Core<F> {
    pub(crate) fn new(config: ClientConfig) -> Result<Self> {
        config.validate()?;
        let caches = Caches {
            by_id: Cache::new(crate::metrics::SCHEMAS, None),
            ids: Cache::new(crate::metrics::IDS, None),
            latest: Cache::new(crate::metrics::LATEST, config.latest_ttl),
        };
        Ok(Core {
            config,
            preferred: AtomicUsize::new(0),
            caches,
        })
    }

    pub(crate) fn attempts(&self) -> Attempts {
        Attempts {
            started: Instant::now(),
            retries: 0,
            url: self.preferred.load(Ordering::Relaxed) % self.config.urls.len(),
            reauthenticated: false,
        }
    }

    /// The request of `call` for the base URL the attempt is at.
    pub(crate) fn prepare<'a, T>(
        &'a self,
        call: &'a Call<T>,
        attempts: &Attempts,
    ) -> Result<Outgoing<'a>> {
        let request = &call.request;
        let mut headers: Vec<(&str, String)> = vec![(
            "Accept",
            "application/vnd.schemaregistry.v1+json, application/json".to_owned(),
        )];
        if request.body.is_some() {
            headers.push((
                "Content-Type",
                "application/vnd.schemaregistry.v1+json".to_owned(),
            ));
        }
        if let Some(value) = self.config.auth.header()? {
            headers.push(("Authorization", value));
        }
        headers.extend(
            self.config
                .headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone())),
        );
        Ok(Outgoing {
            method: request.method,
            url: format!("{}{}", self.config.urls[attempts.url], request.path),
            headers,
            body: request.body.as_deref(),
        })
    }

    /// The value of a reply, or the registry's error.
    pub(crate) fn finish<T>(&self, call: &Call<T>, url: &str, reply: Reply) -> Result<T> {
        if (200..300).contains(&reply.status) {
            return call
                .parse(&reply.body)
                .map_err(|message| RegistryError::InvalidReply {
                    what: url.to_owned(),
                    message,
                });
        }
        let parsed: Option<ErrorBody> = serde_json::from_slice(&reply.body).ok();
        let (error_code, message) = match parsed {
            Some(ErrorBody {
                error_code,
                message: Some(message),
            }) => (error_code, message),
            _ => (None, String::from_utf8_lossy(&reply.body).trim().to_owned()),
        };
        Err(RegistryError::Api(ApiError {
            status: reply.status,
            error_code,
            message,
            retry_after: reply.retry_after,
        }))
    }

    /// After a failed attempt: the wait before the next one, or `None` to give up.
    pub(crate) fn retry(&self, attempts: &mut Attempts, error: &RegistryError) -> Option<Duration> {
        let unauthorized = error.api().is_some_and(|e| e.status == 401);
        if unauthorized && !attempts.reauthenticated && self.config.auth.refused() {
            attempts.reauthenticated = true;
            return Some(Duration::ZERO);
        }
        let policy = &self.config.retry;
        if !error.is_retriable() || attempts.retries >= policy.max_retries {
            return None;
        }
        let urls = self.config.urls.len();
        // Another instance not yet tried in this call is tried at once; after a full round,
        // the backoff (or the registry's Retry-After) applies.
        let round_done = (attempts.retries as usize + 1).is_multiple_of(urls);
        let wait = match error.api().and_then(|e| e.retry_after) {
            Some(asked) => asked,
            None if round_done => policy.wait_before(attempts.retries / urls as u32),
            None => Duration::ZERO,
        };
        if wait > policy.max_backoff || attempts.started.elapsed() + wait > policy.max_elapsed {
            return None;
        }
        attempts.retries += 1;
        attempts.url = (attempts.url + 1) % urls;
        Some(wait)
    }

    /// After a successful attempt: later calls start at the instance that answered.
    pub(crate) fn succeeded(&self, attempts: &Attempts) {
        self.preferred.store(attempts.url, Ordering::Relaxed);
    }
}
