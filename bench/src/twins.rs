//! Plain serde structs for the shapes whose generated serde derives the serde-based Avro
//! libraries do not accept, so that those libraries still get exactly the shape's schema:
//!
//! * `ClickEvent.at` (`timestamp-millis`) is a `chrono::DateTime`, whose serde form is RFC
//!   3339 text; the libraries want the `long` count of milliseconds.
//! * `Metrics.digest` is the newtype `Digest([u8; 16])`; apache-avro's schema-aware
//!   serializer maps a newtype struct to a one-field record, not to a `fixed`.
//!
//! Each twin holds the same Rust values as the generated type (the instant stays a
//! `DateTime`), so converting a value builds the same allocations the benchmark decodes.

use std::collections::HashMap;

use avdl2rs::chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::shapes::{self, Page, Severity, User};

/// `shapes::ClickEvent` with the instant as milliseconds in serde.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClickEvent {
    /// See `shapes::ClickEvent`.
    pub event_id: String,
    /// The instant, in serde as milliseconds since the epoch.
    #[serde(with = "avdl2rs::chrono::serde::ts_milliseconds")]
    pub at: DateTime<Utc>,
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
            at: value.at,
            user: value.user.clone(),
            page: value.page.clone(),
            session_id: value.session_id.clone(),
        }
    }
}

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
