//! `avdl2rs registry register|check|get|config|subjects`: a Schema Registry from the command
//! line, for CI gates and people. The registry is named by `--url` or
//! `AVDL2RS_SCHEMA_REGISTRY_URL`; credentials by `--basic-auth`/`--bearer-token`, and for
//! `https://` a custom CA (`--ca-cert`) and a client certificate (`--client-cert` with
//! `--client-key`), or their environment variables.
//!
//! `check` exits `0` when the schema is compatible with the subject's latest (or, with
//! `--all`, every) version, `1` when not (the registry's messages, and avdl2rs's own located
//! report beside them), `2` when the check could not run. The other actions exit `0` on
//! success and `1` when the registry refused or could not be reached.

use std::path::PathBuf;
use std::process::ExitCode;

use avdl2rs::compat::{check, CompatLevel, Direction, SchemaRef, Violation};
use avdl2rs::schema::SchemaSet;
use avdl2rs_registry::blocking::Client;
use avdl2rs_registry::{RegistryError, Schema, SubjectVersion, Version};
use serde_json::{json, Value};

use crate::cmd::compat::Format;
use crate::cmd::contract;
use crate::cmd::toidl;
use crate::io::{self, Failure};
use crate::registry_options::RegistryOptions;
use crate::schema_file::{Loaded, SchemaFile};
use avdl_parser::idl_writer::Indent;

/// Arguments of `registry`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs registry --url http://localhost:8081 subjects\n  \
    avdl2rs registry register schemas/orders.avdl --subject orders-value\n  \
    avdl2rs registry register schemas/orders.avdl --subject orders-value \\\n      \
      --metadata contract/metadata.json --rule-set contract/rules.json\n  \
    avdl2rs registry check schemas/orders.avdl --subject orders-value --all\n  \
    avdl2rs registry config --subject orders-value --level FULL_TRANSITIVE\n  \
    avdl2rs registry get --subject orders-value --version latest --format json\n  \
    avdl2rs registry get --id 42\n  \
    avdl2rs registry get --subject orders-value --version latest --format idl\n  \
    avdl2rs registry --url https://registry:8081 --ca-cert ca.pem \\\n      \
      --client-cert me.pem --client-key me.key subjects\n\n\
    check exits 0 compatible, 1 incompatible, 2 could not run.")]
pub struct Args {
    /// How to reach the registry.
    #[command(flatten)]
    pub connection: Connection,
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// Where the registry is, how to log in, and what the actions share.
#[derive(Debug, clap::Args)]
pub struct Connection {
    /// The registry.
    #[command(flatten)]
    pub registry: RegistryOptions,
    /// The output's format (`idl`: the schema `get` fetched, as Avro IDL).
    #[arg(long, value_enum, default_value = "text", global = true)]
    pub format: OutputFormat,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR", global = true)]
    pub include_dirs: Vec<PathBuf>,
}

/// The registry actions.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Registers a schema under a subject, with its metadata and rules if given, and prints
    /// its id.
    Register(RegisterArgs),
    /// Tests a schema against the subject's versions without registering it.
    Check(CheckArgs),
    /// Prints a schema and its metadata and rules, by id or by subject and version.
    Get(GetArgs),
    /// Prints the compatibility level of a subject (or the registry's), or sets it.
    Config(ConfigArgs),
    /// Lists the subjects.
    Subjects,
}

/// A schema file and the subject it belongs to.
#[derive(Debug, clap::Args)]
pub struct SubjectSchema {
    /// The schema.
    #[command(flatten)]
    pub file: SchemaFile,
    /// The subject.
    #[arg(long, value_name = "SUBJECT")]
    pub subject: String,
    /// Ask the registry to normalize the schema.
    #[arg(long)]
    pub normalize: bool,
}

/// Arguments of `registry register`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs registry register schemas/orders.avdl --subject orders-value\n  \
    avdl2rs registry register schemas/orders.avdl --subject orders-value \\\n      \
      --metadata metadata.json --rule-set rules.json\n\n\
    metadata.json:  {\"properties\": {\"owner\": \"team-orders\"}, \"tags\": {\"OrderEvent.user_id\": [\"PII\"]}}\n\
    rules.json:     {\"domainRules\": [{\"name\": \"positive\", \"kind\": \"CONDITION\", \"mode\": \"WRITE\",\n                 \
      \"type\": \"CEL\", \"expr\": \"message.amount > 0\", \"onFailure\": \"ERROR\"}]}")]
pub struct RegisterArgs {
    /// The schema and subject.
    #[command(flatten)]
    pub target: SubjectSchema,
    /// The schema's metadata, a JSON file: `tags`, `properties`, `sensitive`.
    #[arg(long, value_name = "FILE")]
    pub metadata: Option<PathBuf>,
    /// The schema's rules, a JSON file: `domainRules`, `migrationRules` (each rule with
    /// `name`, `kind`, `mode`, `type`, `expr`, `onSuccess`, `onFailure`...).
    #[arg(long, value_name = "FILE")]
    pub rule_set: Option<PathBuf>,
}

/// Arguments of `registry check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The schema and subject.
    #[command(flatten)]
    pub target: SubjectSchema,
    /// Test against every version, not only the latest.
    #[arg(long)]
    pub all: bool,
}

/// Arguments of `registry get`.
#[derive(Debug, clap::Args)]
pub struct GetArgs {
    /// The schema id.
    #[arg(
        long,
        value_name = "ID",
        conflicts_with = "subject",
        required_unless_present = "subject"
    )]
    pub id: Option<i32>,
    /// The subject.
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// The version: a number or `latest`.
    #[arg(long, value_name = "VERSION", default_value = "latest", value_parser = parse_version)]
    pub version: Version,
}

/// Arguments of `registry config`.
#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    /// The subject; the registry's default without it.
    #[arg(long, value_name = "SUBJECT")]
    pub subject: Option<String>,
    /// Sets this level: BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL,
    /// FULL_TRANSITIVE or NONE.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<CompatLevel>,
}

fn parse_version(text: &str) -> Result<Version, String> {
    match text {
        "latest" | "-1" => Ok(Version::Latest),
        _ => text
            .parse()
            .map(Version::Number)
            .map_err(|_| format!("`{text}` is not a version number or `latest`")),
    }
}

/// `--format` values of `registry`: those of `compat`, and `idl` for `get`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Lines for people.
    Text,
    /// One JSON object for machines.
    Json,
    /// The fetched schema as Avro IDL (`get` only).
    Idl,
}

impl OutputFormat {
    /// The format of an action other than `get`, which has no IDL form.
    fn plain(self) -> Result<Format, Failure> {
        match self {
            OutputFormat::Text => Ok(Format::Text),
            OutputFormat::Json => Ok(Format::Json),
            OutputFormat::Idl => Err(Failure::CannotRun(
                "--format idl applies to `registry get` only".into(),
            )),
        }
    }
}

/// Runs the action and returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let result = connect(&args.connection).and_then(|client| {
        let format = args.connection.format;
        match &args.action {
            Action::Check(check) => {
                let plain = format.plain()?;
                return Ok(run_check(&client, check, plain, &args.connection));
            }
            Action::Register(args_) => register(&client, args_, format.plain()?, &args.connection),
            Action::Get(get) => show(&client, get, format),
            Action::Config(config) => configure(&client, config, format.plain()?),
            Action::Subjects => subjects(&client, format.plain()?),
        }
        .map(|()| ExitCode::from(io::SUCCESS))
    });
    match result {
        Ok(code) => code,
        Err(failure) if matches!(args.action, Action::Check(_)) => {
            failure.report();
            ExitCode::from(io::USAGE)
        }
        Err(failure) => failure.report(),
    }
}

fn connect(connection: &Connection) -> Result<Client, Failure> {
    Client::new(connection.registry.client_config()?).map_err(failure)
}

fn failure(error: RegistryError) -> Failure {
    Failure::Message(error.to_string())
}

/// Prints `text` for people or `value` for machines.
fn print(format: Format, text: String, value: Value) -> Result<(), Failure> {
    let out = match format {
        Format::Text => text,
        Format::Json => io::json_text(&value, false),
    };
    io::Output::Stdout.write(out.as_bytes())
}

fn register(
    client: &Client,
    args: &RegisterArgs,
    format: Format,
    connection: &Connection,
) -> Result<(), Failure> {
    let target = &args.target;
    let loaded = target.file.load(&connection.include_dirs)?;
    let schema = Schema {
        metadata: args
            .metadata
            .as_deref()
            .map(contract::json_file)
            .transpose()?,
        rule_set: args
            .rule_set
            .as_deref()
            .map(contract::json_file)
            .transpose()?,
        ..Schema::avro(loaded.json())
    };
    let id = client
        .register(&target.subject, &schema, target.normalize)
        .map_err(failure)?;
    let text = format!("{}: schema id {id}\n", target.subject);
    print(format, text, json!({"subject": target.subject, "id": id}))
}

/// Prints the fetched schema: pretty JSON with the lines of its metadata and rules after it
/// (`text`), the registry's reply (`json`) or IDL.
fn show(client: &Client, get: &GetArgs, format: OutputFormat) -> Result<(), Failure> {
    let (schema, value) = match (get.id, &get.subject) {
        (Some(id), _) => {
            let schema = client.schema_by_id(id).map_err(failure)?;
            let mut value = serde_json::to_value(&*schema).unwrap_or(Value::Null);
            value["id"] = json!(id);
            (Schema::clone(&schema), value)
        }
        (None, Some(subject)) => {
            let found = client
                .subject_version(subject, get.version)
                .map_err(failure)?;
            let value = serde_json::to_value(&found).unwrap_or(Value::Null);
            (found.schema, value)
        }
        (None, None) => return Err(Failure::Message("give --id or --subject".into())),
    };
    let text = &schema.schema;
    if format == OutputFormat::Idl {
        let idl = toidl::json_idl(text, "the registry's schema", Indent::default())?;
        return io::Output::Stdout.write(idl.as_bytes());
    }
    let mut pretty = serde_json::from_str(text)
        .map(|v: Value| io::json_text(&v, false))
        .unwrap_or_else(|_| format!("{text}\n"));
    pretty.push_str(&contract::text(&schema));
    print(format.plain()?, pretty, value)
}

fn configure(client: &Client, config: &ConfigArgs, format: Format) -> Result<(), Failure> {
    let subject = config.subject.as_deref();
    let level = match config.level {
        Some(level) => client.set_config(subject, level),
        None => client.config(subject),
    }
    .map_err(failure)?;
    let value = json!({"subject": subject, "compatibility": level.as_str()});
    print(format, format!("{level}\n"), value)
}

fn subjects(client: &Client, format: Format) -> Result<(), Failure> {
    let subjects = client.subjects().map_err(failure)?;
    let text: String = subjects.iter().map(|s| format!("{s}\n")).collect();
    print(format, text, json!(subjects))
}

/// The registry's verdict against one version.
struct Verdict {
    version: i32,
    compatible: bool,
    messages: Vec<String>,
}

fn run_check(
    client: &Client,
    args: &CheckArgs,
    format: Format,
    connection: &Connection,
) -> ExitCode {
    match check_all(client, args, &connection.include_dirs) {
        Ok(report) => {
            let compatible = report.verdicts.iter().all(|v| v.compatible);
            let written = match format {
                Format::Text => io::Output::Stdout.write(report.text().as_bytes()),
                Format::Json => io::Output::Stdout.write_json(&report.json(), false),
            };
            match written {
                Ok(()) if compatible => ExitCode::from(io::SUCCESS),
                Ok(()) => ExitCode::from(io::INVALID),
                Err(failure) => {
                    failure.report();
                    ExitCode::from(io::USAGE)
                }
            }
        }
        Err(failure) => {
            failure.report();
            ExitCode::from(io::USAGE)
        }
    }
}

/// What `check` found: the registry's verdicts and avdl2rs's own check.
struct CheckReport {
    subject: String,
    level: CompatLevel,
    verdicts: Vec<Verdict>,
    /// avdl2rs's own findings, as lines, against the versions checked.
    local: Vec<String>,
}

fn check_all(
    client: &Client,
    args: &CheckArgs,
    include_dirs: &[PathBuf],
) -> Result<CheckReport, Failure> {
    let target = &args.target;
    let loaded = target.file.load(include_dirs)?;
    let schema = Schema::avro(loaded.json());
    let subject = target.subject.clone();
    let level = client.config(Some(&subject)).map_err(failure)?;
    let versions = match client.versions(&subject) {
        Ok(versions) => versions,
        Err(e) if e.is_not_found() => Vec::new(),
        Err(e) => return Err(failure(e)),
    };
    let against: Vec<i32> = match (args.all, versions.iter().max()) {
        (true, _) => versions.clone(),
        (false, Some(latest)) => vec![*latest],
        (false, None) => Vec::new(),
    };
    let mut verdicts = Vec::new();
    let mut previous = Vec::new();
    for version in against {
        let report = client
            .test_compatibility(&subject, Version::Number(version), &schema)
            .map_err(failure)?;
        verdicts.push(Verdict {
            version,
            compatible: report.is_compatible,
            messages: report.messages,
        });
        previous.push(
            client
                .subject_version(&subject, Version::Number(version))
                .map_err(failure)?,
        );
    }
    let local = local_check(level, &loaded, &previous)?;
    Ok(CheckReport {
        subject,
        level,
        verdicts,
        local,
    })
}

/// avdl2rs's own compatibility check of the schema against the versions, each at `level`
/// (the registry applies the subject's level to each version it is asked about).
fn local_check(
    level: CompatLevel,
    new: &Loaded,
    previous: &[SubjectVersion],
) -> Result<Vec<String>, Failure> {
    let mut sets = Vec::new();
    for version in previous {
        let mut set = SchemaSet::new();
        let schema = set.parse_str(&version.schema.schema).map_err(|e| {
            Failure::Message(format!(
                "version {} of {}: {e}",
                version.version, version.subject
            ))
        })?;
        sets.push((version.version, set, schema));
    }
    let new_ref = SchemaRef::new(&new.set, &new.schema);
    let mut lines = Vec::new();
    for (number, set, schema) in &sets {
        for violation in check(level, new_ref, &[SchemaRef::new(set, schema)]) {
            lines.push(describe(*number, &violation));
        }
    }
    Ok(lines)
}

fn describe(version: i32, violation: &Violation) -> String {
    let problem = &violation.incompatibility;
    let reading = match violation.direction {
        Direction::Backward => format!("the new schema cannot read version {version}"),
        Direction::Forward => format!("version {version} cannot read the new schema"),
    };
    format!("{reading}: at {}: {}", problem.location, problem.message)
}

impl CheckReport {
    fn text(&self) -> String {
        let compatible = self.verdicts.iter().all(|v| v.compatible);
        let mut out = format!(
            "{}: {} at {} against {} version(s)\n",
            self.subject,
            if compatible {
                "compatible"
            } else {
                "incompatible"
            },
            self.level,
            self.verdicts.len()
        );
        for verdict in self.verdicts.iter().filter(|v| !v.compatible) {
            out.push_str(&format!("  registry, version {}:\n", verdict.version));
            for message in &verdict.messages {
                out.push_str(&format!("    {message}\n"));
            }
        }
        if !self.local.is_empty() {
            out.push_str("  avdl2rs:\n");
            for line in &self.local {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out
    }

    fn json(&self) -> Value {
        let verdicts: Vec<Value> = self
            .verdicts
            .iter()
            .map(|v| json!({"version": v.version, "compatible": v.compatible, "messages": v.messages}))
            .collect();
        json!({
            "subject": self.subject,
            "level": self.level.as_str(),
            "compatible": self.verdicts.iter().all(|v| v.compatible),
            "registry": verdicts,
            "avdl2rs": self.local,
        })
    }
}
