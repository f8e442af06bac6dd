//! The metrics of the registry client and its serializers, recorded through the [`metrics`]
//! facade so that the program chooses where they go: without a recorder installed,
//! recording does nothing. The names and label values are defined here once; the crate's
//! `README.md` has the table, and [`describe`] gives the recorder their help texts.

use std::time::Instant;

use metrics::{counter, describe_counter, describe_histogram, histogram, Unit};

use crate::error::RegistryError;

/// Counter: HTTP requests sent to the registry (each attempt of a retried call), by
/// `outcome`.
pub const REQUESTS: &str = "avdl2rs_registry_requests_total";
/// Histogram: seconds from sending a request to reading its reply, by `outcome`.
pub const REQUEST_SECONDS: &str = "avdl2rs_registry_request_duration_seconds";
/// Counter: lookups answered by a cache, by `cache`.
pub const CACHE_HITS: &str = "avdl2rs_registry_cache_hits_total";
/// Counter: lookups a cache could not answer, which ask the registry (or wait for another
/// caller asking it), by `cache`.
pub const CACHE_MISSES: &str = "avdl2rs_registry_cache_misses_total";
/// Counter: data-contract rules that failed, by `rule_type` and `mode`.
pub const RULE_FAILURES: &str = "avdl2rs_registry_rule_failures_total";

/// The label with how a request ended.
pub const OUTCOME: &str = "outcome";
/// `outcome`: a success reply (2xx) that could be read.
pub const OK: &str = "ok";
/// `outcome`: refused by the registry (4xx: not found, incompatible, unauthorized), or not
/// sendable as configured.
pub const CLIENT_ERROR: &str = "client_error";
/// `outcome`: the registry failed (5xx).
pub const SERVER_ERROR: &str = "server_error";
/// `outcome`: no reply: connection refused or dropped, timeout, TLS failure.
pub const TRANSPORT: &str = "transport";
/// `outcome`: a success status with a body the API does not describe.
pub const INVALID_REPLY: &str = "invalid_reply";

/// The label naming a cache.
pub const CACHE: &str = "cache";
/// `cache`: schemas by id, kept by the client.
pub const SCHEMAS: &str = "schemas";
/// `cache`: schema ids by subject and schema, kept by the client.
pub const IDS: &str = "ids";
/// `cache`: the latest version of subjects, kept by the client for its time to live.
pub const LATEST: &str = "latest";
/// `cache`: the writer schemas a deserializer fetched, looked at for every message.
pub const WRITERS: &str = "writers";

/// The label with the type of a failed rule (`CEL`, `ENCRYPT`, …).
pub const RULE_TYPE: &str = "rule_type";
/// The label with the mode a rule failed in (`WRITE`, `READ`, `UPGRADE`, `DOWNGRADE`).
pub const MODE: &str = "mode";

/// Gives the installed recorder the help text and unit of every metric of this crate. Call it
/// once, after installing the recorder; exporters that show help texts (Prometheus'
/// `# HELP`) need it.
pub fn describe() {
    describe_counter!(REQUESTS, "Requests sent to the schema registry.");
    describe_histogram!(
        REQUEST_SECONDS,
        Unit::Seconds,
        "Time from sending a registry request to reading its reply."
    );
    describe_counter!(CACHE_HITS, "Schema lookups answered by a cache.");
    describe_counter!(CACHE_MISSES, "Schema lookups a cache could not answer.");
    describe_counter!(RULE_FAILURES, "Data-contract rules that failed.");
}

/// Records a data-contract rule of `rule_type` that failed in `mode`: for the rule
/// executors, which call it once per failure, whatever the rule's action on failure.
pub fn rule_failed(rule_type: &str, mode: &str) {
    counter!(RULE_FAILURES, RULE_TYPE => rule_type.to_owned(), MODE => mode.to_owned())
        .increment(1);
}

/// Records a request sent at `started` that ended with `result`.
pub(crate) fn request<T>(started: Instant, result: &Result<T, RegistryError>) {
    let outcome = outcome(result);
    counter!(REQUESTS, OUTCOME => outcome).increment(1);
    histogram!(REQUEST_SECONDS, OUTCOME => outcome).record(started.elapsed());
}

/// Records a lookup in `cache` that found its value (`hit`) or not.
pub(crate) fn cache_lookup(cache: &'static str, hit: bool) {
    let name = if hit { CACHE_HITS } else { CACHE_MISSES };
    counter!(name, CACHE => cache).increment(1);
}

/// The `outcome` label of a request's result.
fn outcome<T>(result: &Result<T, RegistryError>) -> &'static str {
    match result {
        Ok(_) => OK,
        Err(RegistryError::Api(e)) if e.status >= 500 => SERVER_ERROR,
        Err(RegistryError::Transport { .. } | RegistryError::CertificateRefused { .. }) => {
            TRANSPORT
        }
        Err(RegistryError::InvalidReply { .. }) => INVALID_REPLY,
        Err(_) => CLIENT_ERROR,
    }
}
