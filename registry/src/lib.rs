//! # avdl2rs-registry — a Confluent Schema Registry client
//!
//! A client of the Schema Registry REST API (Confluent's, v7 shapes) for the types avdl2rs
//! generates or derives: register and look up schemas, fetch them by id, test
//! compatibility, read and set compatibility levels; and [`Serializer`] / [`Deserializer`]
//! that frame and read Kafka messages of those types.
//!
//! The protocol work (requests, replies, typed errors, retries, failover, caches) lives in a
//! transport-independent core; two transports send the requests:
//!
//! * `blocking` (default): `blocking::Client`, over `ureq`, which starts no async runtime;
//! * `nonblocking`: `nonblocking::Client`, over `reqwest` with rustls, for tokio programs
//!   (`async`, its former name, still enables it for one release: deprecated).
//!
//! (Each module exists only with its feature, so these names are not links.) Each transport
//! module also has its `Serializer` and `Deserializer`, the generic ones of [`serdes`] over
//! its client; the crate root re-exports the blocking ones.
//!
//! `https://` registries are reached with rustls, trusting the system's root certificates or
//! a custom CA, presenting a client certificate when one is set ([`TlsConfig`]).
//!
//! A schema's data contract (its metadata and rule set) is read and registered with it; the
//! serializers and deserializers run its CEL conditions and refuse the rules they cannot run
//! ([`rules`]).
//!
//! Caches: schema id → schema and (subject, schema) → id are kept forever (they never change
//! meaning); a subject's latest version for [`ClientConfig::latest_ttl`] and until this
//! client registers under the subject. Failures are never cached. Concurrent misses of one
//! key send one request.

#![warn(missing_docs)]
// Without a transport only the request building and the types are public; the shared
// machinery the transports drive is then unused.
#![cfg_attr(
    not(any(feature = "blocking", feature = "nonblocking")),
    allow(dead_code)
)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

pub mod api;
mod auth;
#[cfg(feature = "blocking")]
pub mod blocking;
mod cache;
#[cfg(any(feature = "blocking", feature = "nonblocking"))]
mod client;
#[cfg(feature = "nonblocking")]
mod client_auth;
mod config;
mod core;
mod error;
pub mod metrics;
#[cfg(feature = "nonblocking")]
pub mod nonblocking;
mod references;
mod retry;
pub mod rules;
#[cfg(any(feature = "blocking", feature = "nonblocking"))]
pub mod serdes;
#[cfg(feature = "tls")]
mod tls;
mod types;

pub use auth::{Auth, TokenProvider};
/// The compatibility levels, shared with avdl2rs's own check.
pub use avdl2rs::compat::CompatLevel;
#[cfg(feature = "blocking")]
pub use blocking::{Deserializer, Serializer, TopicSerializer};
pub use config::{
    ClientConfig, TlsConfig, BASIC_AUTH_VAR, BEARER_VAR, CA_CERT_VAR, CLIENT_CERT_VAR,
    CLIENT_KEY_VAR, URL_VAR,
};
pub use error::{codes, ApiError, RegistryError, Result};
pub use retry::RetryPolicy;

/// Reads a `Retry-After` header: whole seconds or an HTTP date. The clients read the header
/// themselves; this was never meant for callers.
#[deprecated(note = "internal to the clients; will become private")]
#[doc(hidden)]
pub fn parse_retry_after(value: &str) -> Option<std::time::Duration> {
    retry::parse_retry_after(value)
}
pub use rules::{Metadata, Rule, RuleError, RuleKind, RuleMode, RuleSet};
#[cfg(any(feature = "blocking", feature = "nonblocking"))]
#[allow(deprecated)]
pub use serdes::Dependencies;
#[cfg(any(feature = "blocking", feature = "nonblocking"))]
pub use serdes::{OneOfSerializer, SchemaReferences, SerdeError, SerializerConfig};
pub use types::{
    CompatibilityReport, Schema, SchemaReference, SchemaType, SubjectVersion, Version,
};
