//! `avdl2rs encode`: one value in Avro's JSON encoding framed for a message: Confluent
//! (`0x00`, the schema id of the subject, the body), the schema registered under the
//! subject or looked up there, or single-object (`C3 01`, the schema's fingerprint, the
//! body) without a registry.
//!
//! Exit codes: `0` written, `1` a value or schema that is not right (or that the registry
//! refuses), `2` could not run (no registry given, the registry out of reach).

use avdl2rs::wire;
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::Schema;

use super::decode::registry_failure;
use crate::io::{input_name, open, Failure, Output};
use crate::json_values::JsonValues;
use crate::message_text::{base64, hex};
use crate::registry_options::RegistryOptions;
use crate::schema_file::{Loaded, SchemaOption};

/// Arguments of `encode`.
#[derive(Debug, clap::Args)]
#[command(
    group = clap::ArgGroup::new("framing").required(true).args(["subject", "single_object"]),
    after_help = "Examples:\n  \
    avdl2rs encode --url http://localhost:8081 --schema order.avsc --subject orders-value order.json -o message.bin\n  \
    echo '{\"id\": 1}' | avdl2rs encode --schema ping.avsc --subject pings-value --no-register --hex\n  \
    avdl2rs encode --schema ping.avsc --single-object --base64 ping.json\n\n\
    Exit 1: a value that does not fit the schema, or a schema the registry refuses;\n\
    2: no registry given, or none reachable.")]
pub struct Args {
    /// The schema of the value.
    #[command(flatten)]
    pub schema: SchemaOption,
    /// The subject whose schema id the Confluent frame carries.
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Looks the schema up under the subject instead of registering it.
    #[arg(long, requires = "subject")]
    pub no_register: bool,
    /// Frames the value as a single-object message (the schema's fingerprint), no registry.
    #[arg(long)]
    pub single_object: bool,
    /// Writes the message in hex, with a final line break.
    #[arg(long, conflicts_with = "base64")]
    pub hex: bool,
    /// Writes the message in base64, with a final line break.
    #[arg(long)]
    pub base64: bool,
    /// One JSON value; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub input: String,
    /// Where the message goes; `-` or absent for stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", default_value = "-")]
    pub output: Output,
    /// The registry, for Confluent frames.
    #[command(flatten)]
    pub registry: RegistryOptions,
}

/// Encodes, frames and writes the value.
pub fn run(args: &Args) -> Result<(), Failure> {
    let loaded = args.schema.load()?;
    let name = input_name(&args.input);
    let value = JsonValues::new(open(&args.input)?, name).single()?;
    let mut message = Vec::new();
    match &args.subject {
        Some(subject) if !args.single_object => {
            let id = schema_id(args, subject, &loaded)?;
            wire::write_confluent_header(&mut message, id);
        }
        _ => {
            let fingerprint = loaded.set.fingerprint(&loaded.schema);
            wire::write_single_object_header(&mut message, fingerprint);
        }
    }
    loaded
        .into_avro_json()
        .encode(&value, &mut message)
        .map_err(|e| Failure::Message(format!("{name}: {e}")))?;
    let written = match (args.hex, args.base64) {
        (true, _) => format!("{}\n", hex(&message)).into_bytes(),
        (_, true) => format!("{}\n", base64(&message)).into_bytes(),
        _ => message,
    };
    args.output.write(&written)
}

/// The id of the schema under `subject`, registered first unless `--no-register`.
fn schema_id(args: &Args, subject: &str, loaded: &Loaded) -> Result<i32, Failure> {
    if args.registry.url.is_none() {
        return Err(Failure::CannotRun(format!(
            "a Confluent frame carries the subject's schema id, which needs a registry: give \
             --url or set {} (or write --single-object)",
            avdl2rs_registry::URL_VAR
        )));
    }
    let config = args
        .registry
        .client_config()
        .map_err(|f| Failure::CannotRun(f.one_line()))?;
    let client = Client::new(config).map_err(|e| Failure::CannotRun(e.to_string()))?;
    let schema = Schema::avro(loaded.json());
    let found = if args.no_register {
        client.id_of(subject, &schema, false)
    } else {
        client.register(subject, &schema, false)
    };
    found.map_err(|e| registry_failure(&format!("subject {subject}"), e))
}
