//! Runs the order events' schema change through the broker named by `AVDL2RS_KAFKA_BROKERS`
//! and the registry named by `AVDL2RS_SCHEMA_REGISTRY_URL` (`.ci/kafka-broker` and
//! `.ci/registry-server` start both), and prints what each consumer group read.

use std::sync::Arc;

use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::ClientConfig;
use kafka_orders::{run, Result, Setup};

#[tokio::main]
async fn main() -> Result<()> {
    let brokers = std::env::var("AVDL2RS_KAFKA_BROKERS")
        .map_err(|_| "set AVDL2RS_KAFKA_BROKERS to the brokers' host:port")?;
    let registry = Arc::new(Client::new(ClientConfig::from_env()?)?);
    // A topic (and so a subject) of its own for each run, on a registry that keeps them.
    let since = std::time::UNIX_EPOCH.elapsed()?;
    let topic = format!("orders-{}", since.as_millis());
    println!("topic {topic}, subject {topic}-value at FULL compatibility");
    for (group, id, currency, discount) in run(&Setup { brokers, registry }, &topic).await? {
        let currency = currency.map_or("-".to_owned(), |c| c);
        let discount = discount.map_or("-".to_owned(), |d| d.to_string());
        println!("{group}: order {id} currency {currency} discount {discount}");
    }
    Ok(())
}
