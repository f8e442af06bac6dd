//! `avdl2rs kafka consume|produce`: Confluent-framed Avro messages of a topic as JSON lines
//! and back, the writer schema of each message fetched from the registry by its id. Brokers
//! by `-b/--brokers` or `AVDL2RS_KAFKA_BROKERS`, librdkafka settings by `-X key=value`, the
//! registry by the options and variables of `avdl2rs registry`.
//!
//! Exit codes: `0` success, `1` invalid input (a JSON line that does not fit the schema, a
//! schema file that does not parse) or messages the broker did not take, `2` could not run
//! (no broker answering within `--timeout`, no registry, refused settings).

mod brokers;
mod consume;
mod delivery;
mod duration;
mod encode;
mod input;
mod json_parts;
mod metrics_endpoint;
mod produce;
mod watch;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs_kafka::rdkafka::config::RDKafkaLogLevel;
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
    /// How long to wait for a broker to answer, and for the delivery reports when producing:
    /// `30s`, `500ms`, `2m`, or a number of seconds.
    #[arg(long, global = true, value_name = "DURATION", default_value = "30s", value_parser = duration::parse)]
    pub timeout: Duration,
    /// Serve the clients' metrics (messages, bytes, poison messages, registry requests and
    /// caches) in Prometheus' text format over HTTP at this address while running.
    #[arg(long, global = true, value_name = "HOST:PORT", value_parser = metrics_endpoint::parse)]
    pub metrics_addr: Option<std::net::SocketAddr>,
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

/// A `name=value` pair: a librdkafka setting, or a header.
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
    let result = args
        .metrics_addr
        .map_or(Ok(()), metrics_endpoint::serve)
        .and_then(|()| run_in_runtime(args));
    match result {
        Ok(()) => ExitCode::from(io::SUCCESS),
        Err(Stop::Invalid(failure)) => failure.report(),
        Err(Stop::CannotRun(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(io::USAGE)
        }
    }
}

/// Runs the action on a runtime of its own.
fn run_in_runtime(args: &Args) -> Result<(), Stop> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Stop::CannotRun(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(run_action(args))
}

async fn run_action(args: &Args) -> Result<(), Stop> {
    match &args.action {
        Action::Consume(consume) => consume::run(consume, args).await,
        Action::Produce(produce) => produce::run(produce, args).await,
    }
}

impl Args {
    /// The brokers, which every action that reaches Kafka needs.
    fn brokers(&self) -> Result<&str, Stop> {
        self.brokers.as_deref().ok_or_else(|| {
            Stop::CannotRun(format!(
                "no brokers: give -b/--brokers or set {BROKERS_VAR}"
            ))
        })
    }

    /// The librdkafka settings: the brokers, `defaults` (settings of the action, such as
    /// timeouts derived from `--timeout`), then every `-X`, which may override them.
    /// librdkafka's own log stays quiet below errors: a command reports what matters once,
    /// itself, instead of a line per reconnection attempt.
    fn kafka_config(&self, defaults: &[(&str, String)]) -> Result<ClientConfig, Stop> {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", self.brokers()?)
            .set_log_level(RDKafkaLogLevel::Critical);
        for (key, value) in defaults {
            config.set(*key, value);
        }
        for (key, value) in &self.settings {
            config.set(key, value);
        }
        Ok(config)
    }

    /// The registry client the options give.
    fn registry(&self) -> Result<Arc<Client>, Stop> {
        let config = self.registry.client_config().map_err(cannot_run)?;
        let client = Client::new(config).map_err(|e| Stop::CannotRun(e.to_string()))?;
        Ok(Arc::new(client))
    }
}

fn cannot_run(failure: Failure) -> Stop {
    Stop::CannotRun(failure.one_line())
}
