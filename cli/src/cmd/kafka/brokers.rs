//! Whether the brokers answer: one metadata request bounded by `--timeout` before anything
//! is consumed or queued, so that a command without a broker ends with one line naming the
//! brokers instead of retrying forever; and which client errors mean that none answers.

use std::time::Duration;

use avdl2rs_kafka::rdkafka::client::{Client, ClientContext};
use avdl2rs_kafka::rdkafka::error::{KafkaError, RDKafkaErrorCode};

use super::duration;
use super::Stop;

/// Waits up to `timeout` for a broker of `brokers` to answer a metadata request through
/// `client` (blocking the thread: nothing else can happen before it answers).
pub fn answering<C: ClientContext>(
    client: &Client<C>,
    brokers: &str,
    timeout: Duration,
) -> Result<(), Stop> {
    match client.fetch_metadata(None, timeout) {
        Ok(_) => Ok(()),
        Err(_) => Err(unreachable(brokers, timeout)),
    }
}

/// The one line a command without a broker ends with.
pub fn unreachable(brokers: &str, timeout: Duration) -> Stop {
    Stop::CannotRun(format!(
        "no Kafka broker answered within {}: {brokers}",
        duration::show(timeout)
    ))
}

/// Whether `error` says that no broker can be reached (as opposed to a refusal by one that
/// answers, such as an unknown topic).
pub fn is_unreachable(error: &KafkaError) -> bool {
    matches!(
        error.rdkafka_error_code(),
        Some(
            RDKafkaErrorCode::AllBrokersDown
                | RDKafkaErrorCode::BrokerTransportFailure
                | RDKafkaErrorCode::Resolve
                | RDKafkaErrorCode::OperationTimedOut
        )
    )
}
