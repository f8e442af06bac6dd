//! `avdl2rs kafka consume`: one JSON object per message on stdout, a line on stderr for each
//! message that cannot be read, and consuming goes on.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use avdl2rs_kafka::rdkafka::consumer::Consumer;
use avdl2rs_kafka::rdkafka::{Offset, TopicPartitionList};
use avdl2rs_kafka::{ConsumeError, Record, TypedConsumer};
use serde_json::{json, Value};

use super::json_parts::{KeyJson, WriterJson};
use super::watch::{Verdict, Watch};
use super::{brokers, duration, Stop};

/// How long to wait after the Kafka client reported an error, so that an error it repeats
/// (an unknown topic) does not spin.
const AFTER_KAFKA_ERROR: Duration = Duration::from_millis(200);

/// How often the clocks of `--idle` and `--timeout` are looked at while no message comes.
const TICK: Duration = Duration::from_millis(100);

/// Arguments of `kafka consume`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs kafka -b localhost:9092 --url http://localhost:8081 consume --topic orders --from-beginning --count 10\n  \
    avdl2rs kafka consume --topic orders --from-beginning --idle 5s > orders.jsonl\n  \
    avdl2rs kafka consume --topic orders --group audit --timeout 10s\n  \
    avdl2rs kafka consume --topic orders --group audit --metrics-addr 127.0.0.1:9464 > /dev/null\n\n\
    Prints {\"topic\", \"partition\", \"offset\", \"schema_id\", \"key\", \"value\"} per message, the\n\
    value in Avro's JSON encoding; a message it cannot read is one line on stderr. Exits 0 after\n\
    --count messages or --idle without one, 2 when no broker answers within --timeout.\n\
    With --metrics-addr, http://HOST:PORT/metrics answers the counters of messages, bytes,\n\
    poison messages by reason, decode time and registry requests while it runs.")]
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
    /// Exit after this long without a message once partitions are assigned (`5s`, `500ms`,
    /// or seconds): reads a topic to its end.
    #[arg(long, value_name = "DURATION", value_parser = duration::parse)]
    pub idle: Option<Duration>,
    /// Consume as a member of this group, committing what was printed; without it, every
    /// partition of the topic is read, with no group to join and nothing committed.
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
}

type JsonConsumer = TypedConsumer<Value, Value, KeyJson, Arc<WriterJson>>;

pub(super) async fn run(args: &Args, kafka: &super::Args) -> Result<(), Stop> {
    let reset = if args.from_beginning {
        "earliest"
    } else {
        "latest"
    };
    let mut defaults = vec![("auto.offset.reset", reset.to_owned())];
    match &args.group {
        Some(group) => defaults.push(("group.id", group.clone())),
        None => defaults.extend([
            ("group.id", own_group()),
            ("enable.auto.commit", "false".to_owned()),
        ]),
    };
    let config = kafka.kafka_config(&defaults)?;
    let values = Arc::new(WriterJson::new(kafka.registry()?));
    let keys = KeyJson(Arc::clone(&values));
    let consumer = JsonConsumer::new(&config, keys, values).map_err(kafka_failure)?;
    brokers::answering(consumer.inner().client(), kafka.brokers()?, kafka.timeout)?;
    match &args.group {
        Some(_) => consumer.subscribe(&[&args.topic]).map_err(kafka_failure)?,
        None => assign_all(args, kafka, &consumer)?,
    }
    read(args, kafka, &consumer).await?;
    if args.group.is_some() {
        consumer.commit_stored().await.map_err(kafka_failure)?;
    }
    Ok(())
}

/// Assigns every partition of the topic, from its start or its end: no group to join, so
/// reading starts at once (a group's first join can take seconds).
fn assign_all(args: &Args, kafka: &super::Args, consumer: &JsonConsumer) -> Result<(), Stop> {
    let brokers = kafka.brokers()?;
    let metadata = consumer
        .inner()
        .fetch_metadata(Some(&args.topic), kafka.timeout)
        .map_err(|_| brokers::unreachable(brokers, kafka.timeout))?;
    let partitions = metadata
        .topics()
        .iter()
        .filter(|topic| topic.name() == args.topic && topic.error().is_none())
        .flat_map(|topic| topic.partitions());
    let start = if args.from_beginning {
        Offset::Beginning
    } else {
        Offset::End
    };
    let mut list = TopicPartitionList::new();
    for partition in partitions {
        list.add_partition_offset(&args.topic, partition.id(), start)
            .map_err(kafka_failure)?;
    }
    if list.count() == 0 {
        return Err(Stop::CannotRun(format!(
            "no topic {} at {brokers}",
            args.topic
        )));
    }
    consumer.inner().assign(&list).map_err(kafka_failure)
}

/// Prints messages until `--count`, `--idle`, or brokers down for `--timeout`.
async fn read(args: &Args, kafka: &super::Args, consumer: &JsonConsumer) -> Result<(), Stop> {
    let mut watch = Watch::new(args.idle, kafka.timeout, Instant::now());
    let mut printed = 0;
    while args.count.is_none_or(|count| printed < count) {
        match tokio::time::timeout(TICK, consumer.recv()).await {
            Err(_quiet) => {}
            Ok(Ok(Ok(record))) => {
                print(&record)?;
                consumer.store_offset(&record).map_err(kafka_failure)?;
                printed += 1;
                watch.message(Instant::now());
            }
            Ok(Ok(Err(poison))) => {
                eprintln!("{poison}");
                consumer.store_offset(&poison).map_err(kafka_failure)?;
                watch.message(Instant::now());
            }
            Ok(Err(e @ ConsumeError::Unavailable { .. })) => eprintln!("{e}"),
            Ok(Err(ConsumeError::Kafka(e))) => {
                let unreachable = brokers::is_unreachable(&e);
                if watch.error(e.to_string(), unreachable, Instant::now()) && !unreachable {
                    eprintln!("kafka: {e}");
                }
                tokio::time::sleep(AFTER_KAFKA_ERROR).await;
            }
            Ok(Err(e)) => eprintln!("{e}"),
        }
        let assigned = consumer
            .inner()
            .assignment()
            .is_ok_and(|partitions| partitions.count() > 0);
        match watch.verdict(assigned, Instant::now()) {
            Verdict::Go => {}
            Verdict::Idle => break,
            Verdict::Down => return Err(brokers::unreachable(kafka.brokers()?, kafka.timeout)),
            Verdict::Unassigned => {
                return Err(Stop::CannotRun(format!(
                    "no partition of {} was assigned within {}",
                    args.topic,
                    duration::show(kafka.timeout)
                )))
            }
        }
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
