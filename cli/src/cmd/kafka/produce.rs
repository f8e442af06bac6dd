//! `avdl2rs kafka produce`: JSON lines in Avro's JSON encoding sent as Confluent-framed
//! messages under the schema id of the topic's value subject, with keys (text, or Avro under
//! the `-key` subject) and headers. All or nothing by default: the whole input is read and
//! written before the schemas are registered and the first message is queued.

use std::path::{Path, PathBuf};

use avdl2rs_kafka::rdkafka::producer::Producer;
use avdl2rs_kafka::Raw;
use avdl2rs_registry::nonblocking::Client;
use avdl2rs_registry::{RegistryError, Schema};
use serde_json::Value;

use super::delivery::{BytesProducer, Sender};
use super::encode::{Encoded, Ids, Subjects, Writer};
use super::input::{KeySource, Lines, Message, Shape};
use super::{brokers, Stop};
use crate::io::Failure;
use crate::schema_file::{Loaded, SchemaFile};

/// Arguments of `kafka produce`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs kafka produce --topic orders --schema schemas/orders.avdl orders.jsonl\n  \
    avdl2rs kafka produce --topic orders --schema order.avsc --key-field id -H source=import orders.jsonl\n  \
    avdl2rs kafka produce --topic orders --schema order.avsc --key-schema order-key.avsc --envelope messages.jsonl\n  \
    avdl2rs kafka produce --topic orders --schema order.avsc --dry-run < orders.jsonl\n  \
    tail -f orders.jsonl | avdl2rs kafka produce --topic orders --schema order.avsc --stream\n  \
    tail -f orders.jsonl | avdl2rs kafka produce --topic orders --schema order.avsc --stream --metrics-addr 127.0.0.1:9464\n\n\
    The whole input is read and checked against the schemas before the schemas are registered\n\
    and the first message is sent: a bad line sends nothing (exit 1). With --stream each line is\n\
    sent as it is read, and a bad line stops there, saying how many were sent. An envelope line\n\
    is {\"key\": …, \"value\": …, \"headers\": {\"name\": \"text\"}}. Exits 1 naming the lines the broker\n\
    did not take within --timeout, 2 when no broker answers within it. With --metrics-addr,\n\
    http://HOST:PORT/metrics answers the counters of messages and bytes produced and of registry\n\
    requests while it runs.")]
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
    /// Look the schemas up under their subjects instead of registering them.
    #[arg(long)]
    pub no_register: bool,
    /// The schema of the keys (a file with one type, or a main schema): keys in its Avro
    /// encoding, registered under `<topic>-key` like the value's. Without it keys are text.
    #[arg(long, value_name = "FILE")]
    pub key_schema: Option<PathBuf>,
    /// Each message's key is this field of its value.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["key", "envelope"])]
    pub key_field: Option<String>,
    /// Every message's key (with --key-schema: in Avro's JSON encoding, `'"text"'` for a
    /// string).
    #[arg(long, value_name = "TEXT", conflicts_with = "envelope")]
    pub key: Option<String>,
    /// Each line is an envelope `{"key": …, "value": …, "headers": {…}}`.
    #[arg(long)]
    pub envelope: bool,
    /// A header on every message, `name=value` (repeatable).
    #[arg(short = 'H', long = "header", value_name = "NAME=VALUE", value_parser = super::parse_setting)]
    pub headers: Vec<(String, String)>,
    /// Send each line as soon as it is read and checked, instead of reading the whole input
    /// first: for endless input.
    #[arg(long)]
    pub stream: bool,
    /// Check the input against the schemas and print each message that would be sent (line,
    /// key, headers, value, subjects) as a JSON line, without the registry or the broker.
    #[arg(long, conflicts_with = "stream")]
    pub dry_run: bool,
    /// JSON lines in Avro's JSON encoding, one value (or envelope) each; `-` or absent for
    /// stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
}

pub(super) async fn run(args: &Args, kafka: &super::Args) -> Result<(), Stop> {
    let schemas = Schemas::load(args, &kafka.include_dirs)?;
    let shape = Shape {
        keys: key_source(args)?,
        headers: args
            .headers
            .iter()
            .map(|(name, value)| avdl2rs_kafka::Header::new(name, value.as_str()))
            .collect(),
    };
    let subjects = subjects(args, &schemas);
    let mut lines = Lines::open(&args.input)?;
    if args.dry_run {
        return dry_run(&mut lines, &shape, &schemas.writer, &subjects);
    }
    if args.stream {
        let (producer, ids) = connect(args, kafka, &schemas, &subjects).await?;
        return stream(args, &mut lines, &shape, &schemas.writer, &producer, ids).await;
    }
    let mut written = Vec::new();
    read_all(&mut lines, &shape, &schemas.writer, |_, encoded| {
        written.push(encoded)
    })?;
    let (producer, ids) = connect(args, kafka, &schemas, &subjects).await?;
    let mut sender = Sender::new(&producer, &args.topic);
    for encoded in written {
        sender.send(encoded.framed(ids)).await;
    }
    finish(args, sender, &lines, ids).await
}

/// The subjects of the schemas: `--subject` or `<topic>-value`, and `<topic>-key`.
fn subjects(args: &Args, schemas: &Schemas) -> Subjects {
    Subjects {
        value: args
            .subject
            .clone()
            .unwrap_or_else(|| format!("{}-value", args.topic)),
        key: schemas
            .key_json
            .as_ref()
            .map(|_| format!("{}-key", args.topic)),
    }
}

/// Waits for the delivery reports of everything sent: exit 1 naming the lines not
/// delivered, else a line saying what was sent.
async fn finish(args: &Args, sender: Sender<'_>, lines: &Lines, ids: Ids) -> Result<(), Stop> {
    let outcome = sender.finish().await;
    if let Some(undelivered) = outcome.undelivered(lines.name()) {
        return Err(invalid(undelivered));
    }
    let key = ids
        .key
        .map(|id| format!(", keys under schema id {id}"))
        .unwrap_or_default();
    eprintln!(
        "sent {} messages to {} under schema id {}{key}",
        outcome.delivered, args.topic, ids.value
    );
    Ok(())
}

/// The schemas of the values and keys, loaded and ready to write with.
struct Schemas {
    writer: Writer,
    value_json: String,
    key_json: Option<String>,
}

impl Schemas {
    fn load(args: &Args, include_dirs: &[PathBuf]) -> Result<Schemas, Stop> {
        let load = |path: &Path, type_name: Option<&String>| {
            let file = SchemaFile {
                path: path.to_owned(),
                type_name: type_name.cloned(),
            };
            file.load(include_dirs)
        };
        let value = load(&args.schema, args.type_name.as_ref())?;
        let key = match &args.key_schema {
            Some(path) => Some(load(path, None)?),
            None => None,
        };
        let key_json = key.as_ref().map(Loaded::json);
        let key = key.map(Loaded::into_avro_json);
        Ok(Schemas {
            value_json: value.json(),
            key_json,
            writer: Writer {
                value: value.into_avro_json(),
                key,
            },
        })
    }
}

/// Where the keys come from; `--key` is Avro JSON when keys are Avro, else the text itself.
fn key_source(args: &Args) -> Result<KeySource, Stop> {
    Ok(match (&args.key_field, &args.key) {
        (Some(field), _) => KeySource::Field(field.clone()),
        (None, Some(key)) if args.key_schema.is_some() => {
            let json = serde_json::from_str(key).map_err(|e| {
                invalid(format!(
                    "--key is not JSON (with --key-schema it is in Avro's JSON encoding): {e}"
                ))
            })?;
            KeySource::Fixed(json)
        }
        (None, Some(key)) => KeySource::Fixed(Value::String(key.clone())),
        (None, None) if args.envelope => KeySource::Envelope,
        (None, None) => KeySource::None,
    })
}

/// Reads and writes every line, giving each message to `keep`; the first line that does
/// not fit stops it, before anything was sent.
fn read_all(
    lines: &mut Lines,
    shape: &Shape,
    writer: &Writer,
    mut keep: impl FnMut(Message, Encoded),
) -> Result<(), Stop> {
    while let Some(line) = lines.next() {
        let (number, text) = line?;
        let message = shape.message(number, &text);
        let written = message.and_then(|m| writer.encode(&m).map(|encoded| (m, encoded)));
        let (message, encoded) =
            written.map_err(|e| invalid(format!("{}: {e}", lines.at(number))))?;
        keep(message, encoded);
    }
    Ok(())
}

/// Prints what would be sent, once the whole input fits.
fn dry_run(
    lines: &mut Lines,
    shape: &Shape,
    writer: &Writer,
    subjects: &Subjects,
) -> Result<(), Stop> {
    let mut shown = Vec::new();
    read_all(lines, shape, writer, |message, _| {
        shown.push(writer.dry_run_line(&message, subjects));
    })?;
    let mut out = String::new();
    for line in &shown {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    crate::io::Output::Stdout
        .write(out.as_bytes())
        .map_err(Stop::Invalid)?;
    eprintln!("{} messages would be sent", shown.len());
    Ok(())
}

/// Sends each line as it is read; a line that does not fit stops it, once the reports of
/// those sent before it are in.
async fn stream(
    args: &Args,
    lines: &mut Lines,
    shape: &Shape,
    writer: &Writer,
    producer: &BytesProducer,
    ids: Ids,
) -> Result<(), Stop> {
    let mut sender = Sender::new(producer, &args.topic);
    while let Some(line) = lines.next() {
        let (number, text) = line?;
        let message = shape.message(number, &text);
        match message.and_then(|m| writer.encode(&m)) {
            Ok(encoded) => sender.send(encoded.framed(ids)).await,
            Err(e) => {
                let outcome = sender.finish().await;
                let mut message = format!(
                    "{}: {e}; stopped after {} sent",
                    lines.at(number),
                    outcome.delivered
                );
                if let Some(undelivered) = outcome.undelivered(lines.name()) {
                    message = format!("{message} ({undelivered})");
                }
                return Err(invalid(message));
            }
        }
    }
    finish(args, sender, lines, ids).await
}

/// A producer whose brokers answer, and the schemas' ids, registered (or looked up) only
/// then, so that a run without a broker changes nothing in the registry.
async fn connect(
    args: &Args,
    kafka: &super::Args,
    schemas: &Schemas,
    subjects: &Subjects,
) -> Result<(BytesProducer, Ids), Stop> {
    let millis = kafka.timeout.as_millis().clamp(1, i32::MAX as u128);
    let config = kafka.kafka_config(&[("message.timeout.ms", millis.to_string())])?;
    let producer = BytesProducer::new(&config, Raw, Raw)
        .map_err(|e| Stop::CannotRun(format!("kafka: {e}")))?;
    brokers::answering(producer.inner().client(), kafka.brokers()?, kafka.timeout)?;
    let registry = kafka.registry()?;
    let value = schema_id(
        &registry,
        &subjects.value,
        &schemas.value_json,
        args.no_register,
    );
    let value = value.await?;
    let key = match (&subjects.key, &schemas.key_json) {
        (Some(subject), Some(json)) => {
            Some(schema_id(&registry, subject, json, args.no_register).await?)
        }
        _ => None,
    };
    Ok((producer, Ids { value, key }))
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

fn invalid(message: String) -> Stop {
    Stop::Invalid(Failure::Message(message))
}
