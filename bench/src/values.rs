//! Sample values of the benchmark shapes. `seed` varies every field, and which optional
//! fields are set, so that tests cover both union branches; [`BENCH_SEED`] gives the value
//! the benchmark measures, which has every optional field set.

use std::collections::HashMap;

use avdl2rs::chrono::DateTime;

use crate::shapes::{ClickEvent, Digest, LogLine, Metrics, OrderEvent, Page, Severity, User};

/// The seed of the values the benchmark measures: every optional field is set.
pub const BENCH_SEED: u32 = 0;

/// Whether optional field number `field` is set in the value of `seed` (all are for seed 0).
fn is_set(seed: u32, field: u32) -> bool {
    (seed >> field) & 1 == 0
}

/// An order of a few dozen bytes.
pub fn order_event(seed: u32) -> OrderEvent {
    let n = i32::try_from(seed).expect("small seeds");
    OrderEvent {
        id: 1_000_000 + n,
        amount: 129.95 + f64::from(seed),
        user_id: 42_000 + n,
        currency: "CNY".to_string(),
        discount: is_set(seed, 0).then_some(12.5),
    }
}

/// A log line of about 150 bytes.
pub fn log_line(seed: u32) -> LogLine {
    LogLine {
        host: format!("web-{seed:02}.eu-west-1.internal"),
        service: "checkout".to_string(),
        level: "INFO".to_string(),
        message: format!(
            "request {seed} completed: POST /api/v2/orders status=201 duration_ms=37 bytes=512"
        ),
        trace_id: is_set(seed, 0).then(|| format!("4bf92f3577b34da6a3ce929d0e0e{seed:04x}")),
    }
}

/// A click event with a nested user and page.
pub fn click_event(seed: u32) -> ClickEvent {
    let millis = 1_764_547_200_123 + i64::from(seed) * 1_001;
    ClickEvent {
        event_id: format!("evt-{seed:08}-7f3a"),
        at: DateTime::from_timestamp_millis(millis).expect("a recent instant"),
        user: User {
            id: 9_876_543_210 + i64::from(seed),
            name: "Ada Lovelace".to_string(),
            email: is_set(seed, 0).then(|| "ada@example.com".to_string()),
        },
        page: Page {
            url: format!("https://shop.example.com/products/{seed}?ref=home"),
            referrer: is_set(seed, 1).then(|| "https://www.example.org/".to_string()),
            title: is_set(seed, 2).then(|| "Analytical Engine, 2nd edition".to_string()),
        },
        session_id: is_set(seed, 3).then(|| format!("sess-{seed:06}")),
    }
}

/// A wide record: 64 samples, 8 counters, an enum and a 16-byte digest.
pub fn metrics(seed: u32) -> Metrics {
    let samples = (0..64u32)
        .map(|i| f64::from(seed * 64 + i) * 0.25 - 3.0)
        .collect();
    let counters: HashMap<String, i64> = (0..8u32)
        .map(|i| (format!("counter_{i}"), i64::from(seed + i) * 1_000_003 - 5))
        .collect();
    let severities = [
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];
    Metrics {
        id: 7_000_000_000 + i64::from(seed),
        host: format!("db-{seed:02}.internal"),
        healthy: seed.is_multiple_of(2),
        load: 0.75 + seed as f32,
        samples,
        counters,
        severity: severities[seed as usize % severities.len()],
        digest: Digest(std::array::from_fn(|i| {
            (i as u8).wrapping_mul(31) ^ seed as u8
        })),
    }
}
