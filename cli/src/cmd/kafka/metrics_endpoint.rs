//! `--metrics-addr HOST:PORT`: the metrics of the Kafka and registry clients served in
//! Prometheus' text format over HTTP while the command runs, for a scraper watching a long
//! `consume` or `produce`.

use std::net::{SocketAddr, ToSocketAddrs};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};

use super::Stop;

/// The histogram buckets of durations, in seconds: from a decode (microseconds) to a
/// registry request that waits for retries (seconds).
const SECONDS_BUCKETS: [f64; 13] = [
    1e-5, 5e-5, 1e-4, 5e-4, 1e-3, 5e-3, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0,
];

/// Reads `HOST:PORT`, the host a name or an address, as the first address it resolves to.
pub fn parse(text: &str) -> Result<SocketAddr, String> {
    let mut addresses = text
        .to_socket_addrs()
        .map_err(|e| format!("`{text}` is not HOST:PORT: {e}"))?;
    addresses
        .next()
        .ok_or_else(|| format!("`{text}` resolves to no address"))
}

/// Starts serving the metrics at `address` (every path answers them) on a thread of its own,
/// so that scrapes are answered however busy the command is, and installs the recorder they
/// come from. Call it before the command's runtime starts.
pub fn serve(address: SocketAddr) -> Result<(), Stop> {
    let builder = PrometheusBuilder::new()
        .with_http_listener(address)
        .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &SECONDS_BUCKETS);
    builder
        .and_then(PrometheusBuilder::install)
        .map_err(|e| Stop::CannotRun(format!("cannot serve metrics at {address}: {e}")))?;
    avdl2rs_kafka::metrics::describe();
    Ok(())
}
