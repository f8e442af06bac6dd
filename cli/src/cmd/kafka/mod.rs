//! `avdl2rs kafka consume|produce`: Confluent-framed Avro messages of a topic as JSON lines
//! and back, the writer schema of each message fetched from the registry by its id. Brokers
//! by `-b/--brokers` or `AVDL2RS_KAFKA_BROKERS`, librdkafka settings by `-X key=value`, the
//! registry by the options and variables of `avdl2rs registry`.
//!
//! Exit codes: `0` success, `1` invalid input (a JSON line that does not fit the schema, a
//! schema file that does not parse), `2` could not run (no broker or registry, refused
//! settings).

mod consume;
mod json_parts;
mod produce;

use std::process::ExitCode;
use std::sync::Arc;

use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_registry::nonblocking::Client;

use crate::io::{self, Failure};
use crate::registry_options::RegistryOptions;

/// The environment variable with the brokers, `host:port` separated by commas.
pub const BROKERS_VAR: &str = "AVDL2RS_KAFKA_BROKERS";

/// Arguments of `kafka`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs kafka -b localhost:9092 --url http://localhost:8081 consume --topic orders --from-beginning --count 10\n  \
    avdl2rs kafka consume --topic orders --group audit\n  \
    avdl2rs kafka produce --topic orders --schema schemas/orders.avdl orders.jsonl\n  \
    avdl2rs kafka produce --topic orders --schema order.avsc --no-register - < orders.jsonl\n\n\
    consume prints {\"topic\", \"partition\", \"offset\", \"schema_id\", \"key\", \"value\"} per message,\n\
    the value in Avro's JSON encoding; a message it cannot read is one line on stderr.")]
pub struct Args {
    /// The brokers, `host:port` separated by commas.
    #[arg(short = 'b', long, env = BROKERS_VAR, global = true, value_name = "HOST:PORT,...")]
    pub brokers: Option<String>,
    /// A librdkafka setting, `key=value` (repeatable), such as `-X security.protocol=ssl`.
    #[arg(short = 'X', value_name = "KEY=VALUE", global = true, value_parser = parse_setting)]
    pub settings: Vec<(String, String)>,
    /// The registry.
    #[command(flatten)]
    pub registry: RegistryOptions,
    /// Directory searched for IDL imports of `--schema` not found beside the importing file
    /// (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR", global = true)]
    pub include_dirs: Vec<std::path::PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// The kafka actions.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Prints the messages of a topic as JSON lines.
    Consume(consume::Args),
    /// Sends JSON lines to a topic as Confluent-framed Avro messages.
    Produce(produce::Args),
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("`{text}` is not key=value")),
    }
}

/// Why an action stopped: its input, or what it could not reach.
pub(crate) enum Stop {
    /// Invalid input: exit 1.
    Invalid(Failure),
    /// Could not run: exit 2.
    CannotRun(String),
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        Stop::Invalid(failure)
    }
}

/// Runs the action and returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let result = match runtime {
        Ok(runtime) => runtime.block_on(run_action(args)),
        Err(e) => Err(Stop::CannotRun(format!(
            "cannot start the async runtime: {e}"
        ))),
    };
    match result {
        Ok(()) => ExitCode::from(io::SUCCESS),
        Err(Stop::Invalid(failure)) => failure.report(),
        Err(Stop::CannotRun(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(io::USAGE)
        }
    }
}

async fn run_action(args: &Args) -> Result<(), Stop> {
    let kafka = kafka_config(args)?;
    let registry = args.registry.client_config().map_err(cannot_run)?;
    let registry = Client::new(registry).map_err(|e| Stop::CannotRun(e.to_string()))?;
    let registry = Arc::new(registry);
    match &args.action {
        Action::Consume(consume) => consume::run(consume, kafka, registry).await,
        Action::Produce(produce) => {
            produce::run(produce, &args.include_dirs, &kafka, registry).await
        }
    }
}

/// The librdkafka settings: the brokers, then every `-X`.
fn kafka_config(args: &Args) -> Result<ClientConfig, Stop> {
    let brokers = args.brokers.as_deref().ok_or_else(|| {
        Stop::CannotRun(format!(
            "no brokers: give -b/--brokers or set {BROKERS_VAR}"
        ))
    })?;
    let mut config = ClientConfig::new();
    config.set("bootstrap.servers", brokers);
    for (key, value) in &args.settings {
        config.set(key, value);
    }
    Ok(config)
}

fn cannot_run(failure: Failure) -> Stop {
    Stop::CannotRun(failure.one_line())
}
