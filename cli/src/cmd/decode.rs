//! `avdl2rs decode`: one framed message — Confluent (`0x00`, a 4-byte big-endian schema id,
//! the body) or single-object (`C3 01`, the 8-byte little-endian CRC-64-AVRO fingerprint,
//! the body) — as Avro JSON, read with its writer schema from the registry (by id), from
//! schema files (by fingerprint) or from the one `--writer-schema` file (offline, for a
//! Confluent frame whose schema is at hand), and, with `--reader`, resolved to a reader schema
//! first as a consumer would.
//!
//! Exit codes: `0` decoded, `1` a message or schema that is not right (not framed, an id the
//! registry does not have, no schema of the fingerprint, a body that does not decode), `2`
//! could not run (no registry nor writer schema given for an id, the registry out of reach).

use std::io::Read;
use std::path::PathBuf;

use avdl2rs::compat::SchemaRef;
use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::schema::{Schema, SchemaSet};
use avdl2rs::wire;
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::RegistryError;
use serde_json::{json, Value};

use super::fingerprint::crc64_text;
use crate::io::{open, Failure, Output};
use crate::message_text::{from_base64, from_hex};
use crate::registry_options::RegistryOptions;
use crate::schema_file::{self, Loaded, SchemaFile};

/// Arguments of `decode`.
#[derive(Debug, clap::Args)]
#[command(
    group = clap::ArgGroup::new("message").required(true).args(["input", "hex", "base64"]),
    after_help = "Examples:\n  \
    avdl2rs decode --url http://localhost:8081 --hex \"$(cat message.hex)\"\n  \
    avdl2rs decode --schema order.avsc message.bin\n  \
    avdl2rs decode --writer-schema orders.avdl --writer-type OrderEvent frame.bin\n  \
    avdl2rs decode --base64 - --reader order-v2.avsc < message.b64\n\n\
    Prints {\"schema_id\": ID, \"value\": ...} for a Confluent frame, whose schema comes from the\n\
    registry or from --writer-schema, and {\"fingerprint\": \"0x...\", \"value\": ...} for a\n\
    single-object message, whose schema is the --schema type of that fingerprint.\n\
    Exit 1: bad message; 2: no registry nor writer schema.")]
pub struct Args {
    /// The message as raw bytes in a file; `-` for stdin.
    #[arg(value_name = "IN")]
    pub input: Option<String>,
    /// The message in hex; `-` reads the hex from stdin.
    #[arg(long, value_name = "HEX")]
    pub hex: Option<String>,
    /// The message in base64; `-` reads the base64 from stdin.
    #[arg(long, value_name = "BASE64")]
    pub base64: Option<String>,
    /// A schema file whose schemas (every named type, and the file's own schema) may be the
    /// writer's of a single-object message (repeatable).
    #[arg(long = "schema", value_name = "FILE")]
    pub schemas: Vec<PathBuf>,
    /// The writer schema of a Confluent frame (.avdl, .avsc or .avpr), used instead of asking
    /// a registry: the frame's schema id is printed but not checked against any registry.
    #[arg(long, value_name = "FILE")]
    pub writer_schema: Option<PathBuf>,
    /// The named type of --writer-schema, for files that define several.
    #[arg(long, value_name = "FULL_NAME", requires = "writer_schema")]
    pub writer_type: Option<String>,
    /// Resolves the value to this schema (.avdl, .avsc or .avpr) before printing it.
    #[arg(long, value_name = "FILE")]
    pub reader: Option<PathBuf>,
    /// The named type of --reader, for files that define several.
    #[arg(long, value_name = "FULL_NAME", requires = "reader")]
    pub reader_type: Option<String>,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Pretty-prints the output over several lines.
    #[arg(long)]
    pub pretty: bool,
    /// The registry, for Confluent frames.
    #[command(flatten)]
    pub registry: RegistryOptions,
}

/// Decodes and prints the message.
pub fn run(args: &Args) -> Result<(), Failure> {
    let message = message(args)?;
    let (origin, body, writer) = if message.starts_with(&wire::SINGLE_OBJECT_MARKER) {
        single_object(args, &message)?
    } else if message.first() == Some(&wire::CONFLUENT_MAGIC) {
        confluent(args, &message)?
    } else {
        return Err(Failure::Message(format!(
            "the message starts with {:02x?}: neither a Confluent frame (00, a schema id) nor \
             single-object (c3 01, a fingerprint)",
            &message[..message.len().min(2)]
        )));
    };
    let value = match &args.reader {
        None => writer.into_avro_json().decode(body).map_err(invalid)?,
        Some(path) => {
            let reader = schema_file(path, &args.reader_type).load(&args.include_dirs)?;
            resolved(&writer, reader, body)?
        }
    };
    let mut printed = origin;
    printed["value"] = value;
    Output::Stdout.write_json(&printed, !args.pretty)
}

/// What a framed message's header says (printed beside the value), its body and its writer
/// schema.
type Framed<'a> = (Value, &'a [u8], Loaded);

/// A single-object message, its writer schema found by fingerprint among `--schema`.
fn single_object<'a>(args: &Args, message: &'a [u8]) -> Result<Framed<'a>, Failure> {
    if args.writer_schema.is_some() {
        return Err(Failure::CannotRun(
            "--writer-schema is for Confluent frames: a single-object message's schema is \
             found by its fingerprint among the --schema files"
                .to_owned(),
        ));
    }
    let (fingerprint, body) = wire::split_single_object(message).map_err(invalid)?;
    let writer = by_fingerprint(args, fingerprint)?;
    let origin = json!({ "fingerprint": crc64_text(fingerprint) });
    Ok((origin, body, writer))
}

/// A Confluent frame, its writer schema from `--writer-schema` or else the registry.
fn confluent<'a>(args: &Args, message: &'a [u8]) -> Result<Framed<'a>, Failure> {
    let (id, body) = wire::split_confluent(message).map_err(invalid)?;
    let writer = match &args.writer_schema {
        Some(path) => schema_file(path, &args.writer_type).load(&args.include_dirs)?,
        None => by_id(&args.registry, id)?,
    };
    Ok((json!({ "schema_id": id }), body, writer))
}

/// The schema file `path`, with the named type `type_name` when given.
fn schema_file(path: &std::path::Path, type_name: &Option<String>) -> SchemaFile {
    SchemaFile {
        path: path.to_owned(),
        type_name: type_name.clone(),
    }
}

/// The message's bytes, from whichever source was given.
fn message(args: &Args) -> Result<Vec<u8>, Failure> {
    let text = |given: &str| -> Result<String, Failure> {
        if given != "-" {
            return Ok(given.to_owned());
        }
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::Message(format!("cannot read stdin: {e}")))?;
        Ok(text)
    };
    let not_text = |e: String| Failure::Message(format!("the message: {e}"));
    if let Some(hex) = &args.hex {
        return from_hex(&text(hex)?).map_err(not_text);
    }
    if let Some(base64) = &args.base64 {
        return from_base64(&text(base64)?).map_err(not_text);
    }
    let path = args.input.as_deref().unwrap_or("-");
    let mut bytes = Vec::new();
    open(path)?
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Message(format!("cannot read {path}: {e}")))?;
    Ok(bytes)
}

/// The `--schema` schema whose fingerprint is `fingerprint`.
fn by_fingerprint(args: &Args, fingerprint: u64) -> Result<Loaded, Failure> {
    if args.schemas.is_empty() {
        return Err(Failure::CannotRun(format!(
            "a single-object message names its writer schema by fingerprint ({}): give the \
             schema with --schema",
            crc64_text(fingerprint)
        )));
    }
    for path in &args.schemas {
        let label = path.display().to_string();
        let (set, main) = schema_file::parse(path, &label, &args.include_dirs, None)?;
        let named = set.iter().map(|named| Schema::named(named.name.clone()));
        let candidates: Vec<Schema> = main.into_iter().chain(named).collect();
        if let Some(schema) = candidates
            .into_iter()
            .find(|schema| set.fingerprint(schema) == fingerprint)
        {
            return Ok(Loaded { set, schema });
        }
    }
    Err(Failure::Message(format!(
        "no schema of the --schema files has the message's fingerprint {}",
        crc64_text(fingerprint)
    )))
}

/// The writer schema of `id`, from the registry with its references.
fn by_id(options: &RegistryOptions, id: i32) -> Result<Loaded, Failure> {
    if options.url.is_none() {
        return Err(Failure::CannotRun(format!(
            "a Confluent frame names its writer schema by id ({id}), which needs a registry: \
             give --url or set {}, or give the schema with --writer-schema",
            avdl2rs_registry::URL_VAR
        )));
    }
    let config = options
        .client_config()
        .map_err(|f| Failure::CannotRun(f.one_line()))?;
    let client = Client::new(config).map_err(|e| Failure::CannotRun(e.to_string()))?;
    let registry = |e: RegistryError| registry_failure(&format!("schema id {id}"), e);
    let schema = client.schema_by_id(id).map_err(registry)?;
    let json = client.assembled(&schema).map_err(registry)?;
    let mut set = SchemaSet::new();
    let schema = set
        .parse_str(&json)
        .map_err(|e| Failure::Message(format!("schema id {id}: {e}")))?;
    Ok(Loaded { set, schema })
}

/// A refusal by the registry is about the input (exit 1); a registry out of reach is not
/// (exit 2).
pub fn registry_failure(what: &str, error: RegistryError) -> Failure {
    let message = format!("{what}: {error}");
    match error {
        RegistryError::Api(_) if !error.is_retriable() => Failure::Message(message),
        _ => Failure::CannotRun(message),
    }
}

/// The writer's `body` resolved to `reader`, in the reader's JSON encoding.
fn resolved(writer: &Loaded, reader: Loaded, body: &[u8]) -> Result<Value, Failure> {
    let plan = ResolutionPlan::new(
        SchemaRef::new(&reader.set, &reader.schema),
        SchemaRef::new(&writer.set, &writer.schema),
    )
    .map_err(|e| Failure::Message(format!("the reader schema cannot read the writer's: {e}")))?;
    let mut translated = Vec::new();
    plan.translate(body, &mut translated).map_err(invalid)?;
    reader.into_avro_json().decode(&translated).map_err(invalid)
}

fn invalid(error: impl std::fmt::Display) -> Failure {
    Failure::Message(format!("the message: {error}"))
}
