//! The example's story through the real broker and registry (`.ci/kafka-broker`,
//! `.ci/registry-server`): what each consumer group read, value by value.
//!
//! The registry is a server of the test's own, started empty: `rivven-schema` 0.0.22 does
//! not add a schema as a new version of a subject when the same text is already registered
//! under another subject (it answers the existing id, and the subject's latest stays the
//! earlier version), and the other tests register these schemas under their subjects. A
//! producer with `use_latest` would then write version 2 events as version 1. Confluent's
//! registry adds the version.

use std::sync::Arc;

use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::ClientConfig;
use avdl2rs_tests::registry_server::RegistryServer;
use avdl2rs_tests::{external, fresh_name};
use kafka_orders::{run, Setup};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and the Schema Registry server binary (.ci/kafka-broker, .ci/registry-server)"]
async fn both_rollouts_read_every_event_with_the_readers_fields() {
    let brokers = external(
        "AVDL2RS_KAFKA_BROKERS",
        "a running Kafka broker (.ci/kafka-broker)",
    );
    let server = RegistryServer::start();
    let registry = Arc::new(Client::new(ClientConfig::new(&server.url())).unwrap());
    let seen = run(&Setup { brokers, registry }, &fresh_name("orders"))
        .await
        .unwrap();
    let mut expected = Vec::new();
    for id in 1..=6 {
        expected.push(("billing-v1".to_owned(), id, None, None));
    }
    for id in 1..=3 {
        expected.push(("audit-v2".to_owned(), id, Some("CNY".to_owned()), None));
    }
    for id in 4..=6 {
        expected.push(("audit-v2".to_owned(), id, Some("EUR".to_owned()), Some(1.5)));
    }
    assert_eq!(seen, expected);
}
