//! `avdl2rs kafka produce`: JSON lines in Avro's JSON encoding sent as Confluent-framed
//! messages under the schema id of the topic's value subject.

use std::collections::VecDeque;
use std::future::Future;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;

use avdl2rs::avro_json::AvroJson;
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_kafka::{Delivered, Raw, SendError, SendOptions, TypedProducer};
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::{RegistryError, Schema};
use serde_json::Value;

use super::json_parts::JsonFrames;
use super::Stop;
use crate::io::Failure;
use crate::schema_file::SchemaFile;

/// How many messages may wait for their delivery reports at once: enough to keep the link
/// busy, few enough that a failure is reported soon after the message.
const IN_FLIGHT: usize = 1_000;

/// Arguments of `kafka produce`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The topic.
    #[arg(long, value_name = "TOPIC")]
    pub topic: String,
    /// The schema of the values (.avdl, .avsc or .avpr).
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// The named type to use, for files that define several (a full name, or a simple name
    /// that is unique).
    #[arg(long = "type", value_name = "FULL_NAME")]
    pub type_name: Option<String>,
    /// The subject the schema is registered under (default: `<topic>-value`).
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Look the schema up under the subject instead of registering it.
    #[arg(long)]
    pub no_register: bool,
    /// JSON lines, one value each, in Avro's JSON encoding; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
}

pub(super) async fn run(
    args: &Args,
    include_dirs: &[PathBuf],
    kafka: &ClientConfig,
    registry: Arc<Client>,
) -> Result<(), Stop> {
    let file = SchemaFile {
        path: args.schema.clone(),
        type_name: args.type_name.clone(),
    };
    let loaded = file.load(include_dirs)?;
    let json = loaded.json();
    let subject = args
        .subject
        .clone()
        .unwrap_or_else(|| format!("{}-value", args.topic));
    let id = schema_id(&registry, &subject, &json, args.no_register).await?;
    let frames = JsonFrames {
        id,
        schema: AvroJson::from_schema(loaded.set, loaded.schema),
    };
    let producer = TypedProducer::<[u8], Value, Raw, JsonFrames>::new(kafka, Raw, frames)
        .map_err(|e| Stop::CannotRun(format!("kafka: {e}")))?;
    let sent = send_lines(args, &producer).await?;
    eprintln!(
        "sent {sent} messages to {} under schema id {id}",
        args.topic
    );
    Ok(())
}

/// The id of the schema under `subject`, registered first unless `look_up_only`.
async fn schema_id(
    registry: &Client,
    subject: &str,
    json: &str,
    look_up_only: bool,
) -> Result<i32, Stop> {
    let schema = Schema::avro(json);
    let found = if look_up_only {
        registry.id_of(subject, &schema, false).await
    } else {
        registry.register(subject, &schema, false).await
    };
    found.map_err(|e| registry_stop(subject, e))
}

/// A refusal is about the input (exit 1); a registry out of reach is not (exit 2).
fn registry_stop(subject: &str, error: RegistryError) -> Stop {
    let message = format!("subject {subject}: {error}");
    match error {
        RegistryError::Api(_) if !error.is_retriable() => Stop::Invalid(Failure::Message(message)),
        _ => Stop::CannotRun(message),
    }
}

/// Sends every line of the input, waiting for the delivery reports as they fall due, and
/// answers how many were sent.
async fn send_lines(
    args: &Args,
    producer: &TypedProducer<[u8], Value, Raw, JsonFrames>,
) -> Result<u64, Stop> {
    let mut pending = VecDeque::new();
    let mut sent = 0;
    for (number, line) in lines(&args.input)?.enumerate() {
        let at = format!("{}:{}", input_name(&args.input), number + 1);
        let line = line.map_err(|e| Stop::CannotRun(format!("{at}: cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(&line).map_err(|e| invalid(format!("{at}: not JSON: {e}")))?;
        let queued = producer
            .enqueue(&args.topic, None, &value, SendOptions::new())
            .await;
        pending.push_back(queued.map_err(|e| send_stop(&at, e))?);
        if pending.len() >= IN_FLIGHT {
            delivered(pending.pop_front()).await?;
        }
        sent += 1;
    }
    while let Some(report) = pending.pop_front() {
        delivered(Some(report)).await?;
    }
    Ok(sent)
}

async fn delivered(
    report: Option<impl Future<Output = Result<Delivered, SendError>>>,
) -> Result<(), Stop> {
    match report {
        Some(report) => report
            .await
            .map(|_| ())
            .map_err(|e| Stop::CannotRun(e.to_string())),
        None => Ok(()),
    }
}

/// A value that does not fit the schema is the input's fault; anything else is Kafka's.
fn send_stop(at: &str, error: SendError) -> Stop {
    match error {
        SendError::Encode { source, .. } => invalid(format!("{at}: {source}")),
        other => Stop::CannotRun(format!("{at}: {other}")),
    }
}

fn invalid(message: String) -> Stop {
    Stop::Invalid(Failure::Message(message))
}

fn input_name(input: &str) -> &str {
    if input == "-" {
        "<stdin>"
    } else {
        input
    }
}

/// The lines of `input`, a file or `-` for stdin.
fn lines(input: &str) -> Result<std::io::Lines<Box<dyn BufRead>>, Stop> {
    let reader: Box<dyn BufRead> = if input == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file =
            std::fs::File::open(input).map_err(|e| invalid(format!("cannot read {input}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    Ok(reader.lines())
}
