//! Plain serde structs for the shapes whose generated serde derives the serde-based Avro
//! libraries do not accept, so that those libraries still get exactly the shape's schema.
//!
//! `Metrics.digest` is the newtype `Digest([u8; 16])`: apache-avro's schema-aware serializer
//! and deserializer map a newtype struct to a one-field record, not to a `fixed`, and
//! `serde_avro_fast` reads a `fixed` as bytes, not as a newtype. The twin holds the bytes as
//! a plain array, written as a `fixed`.
//!
//! `ClickEvent.at` is a timestamp, which generated serde derives give a format as RFC 3339
//! text when the format says it is human-readable. `serde_avro_fast` keeps serde's default
//! (human-readable) although it writes Avro, so the twin holds the Avro count itself.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::shapes::{self, Page, Severity, User};

/// `shapes::Metrics` with the digest as a plain array written as a `fixed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// See `shapes::Metrics`.
    pub id: i64,
    /// See `shapes::Metrics`.
    pub host: String,
    /// See `shapes::Metrics`.
    pub healthy: bool,
    /// See `shapes::Metrics`.
    pub load: f32,
    /// See `shapes::Metrics`.
    pub samples: Vec<f64>,
    /// See `shapes::Metrics`.
    pub counters: HashMap<String, i64>,
    /// See `shapes::Metrics`.
    pub severity: Severity,
    /// The 16 bytes of the `Digest` fixed.
    #[serde(with = "apache_avro::serde::fixed")]
    pub digest: [u8; 16],
}

impl From<&shapes::Metrics> for Metrics {
    fn from(value: &shapes::Metrics) -> Self {
        Metrics {
            id: value.id,
            host: value.host.clone(),
            healthy: value.healthy,
            load: value.load,
            samples: value.samples.clone(),
            counters: value.counters.clone(),
            severity: value.severity,
            digest: value.digest.0,
        }
    }
}

/// `shapes::ClickEvent` with the timestamp as its Avro count of milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClickEvent {
    /// See `shapes::ClickEvent`.
    pub event_id: String,
    /// Milliseconds since the epoch.
    pub at: i64,
    /// See `shapes::ClickEvent`.
    pub user: User,
    /// See `shapes::ClickEvent`.
    pub page: Page,
    /// See `shapes::ClickEvent`.
    pub session_id: Option<String>,
}

impl From<&shapes::ClickEvent> for ClickEvent {
    fn from(value: &shapes::ClickEvent) -> Self {
        ClickEvent {
            event_id: value.event_id.clone(),
            at: value.at.timestamp_millis(),
            user: value.user.clone(),
            page: value.page.clone(),
            session_id: value.session_id.clone(),
        }
    }
}
