//! `avdl2rs kafka consume`: one JSON object per message on stdout, a line on stderr for each
//! message that cannot be read, and consuming goes on.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_kafka::{ConsumeError, Record, TypedConsumer};
use avdl2rs_registry::nonblocking::Client;
use serde_json::{json, Value};

use super::json_parts::{KeyJson, WriterJson};
use super::Stop;

/// How long to wait after the Kafka client reported an error, so that an error it repeats
/// (an unknown topic) does not spin.
const AFTER_KAFKA_ERROR: Duration = Duration::from_millis(200);

/// Arguments of `kafka consume`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The topic.
    #[arg(long, value_name = "TOPIC")]
    pub topic: String,
    /// Start from the first message kept, not from the end (for a group with committed
    /// offsets: only where it has none).
    #[arg(long)]
    pub from_beginning: bool,
    /// Exit after this many messages read (messages that cannot be read do not count).
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    /// Consume as a member of this group, committing what was printed; without it, a group
    /// of this run's own that commits nothing.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
}

type JsonConsumer = TypedConsumer<Value, Value, KeyJson, Arc<WriterJson>>;

pub(super) async fn run(
    args: &Args,
    mut kafka: ClientConfig,
    registry: Arc<Client>,
) -> Result<(), Stop> {
    let reset = if args.from_beginning {
        "earliest"
    } else {
        "latest"
    };
    kafka.set("auto.offset.reset", reset);
    match &args.group {
        Some(group) => kafka.set("group.id", group),
        None => kafka
            .set("group.id", own_group())
            .set("enable.auto.commit", "false"),
    };
    let values = Arc::new(WriterJson::new(registry));
    let keys = KeyJson(Arc::clone(&values));
    let consumer = JsonConsumer::new(&kafka, keys, values).map_err(kafka_failure)?;
    consumer.subscribe(&[&args.topic]).map_err(kafka_failure)?;
    let mut printed = 0;
    while args.count.is_none_or(|count| printed < count) {
        match consumer.recv().await {
            Ok(Ok(record)) => {
                print(&record)?;
                consumer.store_offset(&record).map_err(kafka_failure)?;
                printed += 1;
            }
            Ok(Err(poison)) => {
                eprintln!("{poison}");
                consumer.store_offset(&poison).map_err(kafka_failure)?;
            }
            Err(e @ ConsumeError::Unavailable { .. }) => eprintln!("{e}"),
            Err(e) => {
                eprintln!("{e}");
                tokio::time::sleep(AFTER_KAFKA_ERROR).await;
            }
        }
    }
    if args.group.is_some() {
        consumer.commit_stored().await.map_err(kafka_failure)?;
    }
    Ok(())
}

/// A group id no other run uses.
fn own_group() -> String {
    let nanos = std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos());
    format!("avdl2rs-consume-{}-{nanos}", std::process::id())
}

/// Prints `record` as one JSON line, flushed, so that a reader of the pipe sees each message
/// as it comes.
fn print(record: &Record<Value, Value>) -> Result<(), Stop> {
    let line = json!({
        "topic": record.position.topic,
        "partition": record.position.partition,
        "offset": record.position.offset,
        "schema_id": record.schema_id,
        "key": record.key,
        "value": record.value,
    });
    let mut out = std::io::stdout().lock();
    serde_json::to_writer(&mut out, &line)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| Stop::CannotRun(format!("cannot write to stdout: {e}")))
}

fn kafka_failure(error: avdl2rs_kafka::rdkafka::error::KafkaError) -> Stop {
    Stop::CannotRun(format!("kafka: {error}"))
}
