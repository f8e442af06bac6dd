//! `avdl2rs compat --level LEVEL NEW [OLD]... [--against-git REV]...`: checks a new schema
//! version against previous ones at a Schema Registry compatibility level, so that a CI job
//! can refuse a change that would break producers or consumers.
//!
//! Exit codes: `0` compatible, `1` incompatible (the report on stdout), `2` the check could
//! not run (bad arguments, unreadable or invalid schema files, an unknown `--type`).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use avdl2rs::compat::{check, CompatLevel, Direction, SchemaRef, Violation};
use avdl2rs::schema::{Name, Schema, SchemaSet};
use avdl_parser::ParseOptions;
use serde_json::{json, Value};

use crate::io::{self, Failure};

/// Arguments of `compat`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs compat --level BACKWARD schemas/payment.avsc old/payment-v1.avsc\n  \
    avdl2rs compat --level FULL_TRANSITIVE orders.avdl v1.avdl v2.avdl --type shop.Order\n  \
    avdl2rs compat --level BACKWARD schemas/orders.avdl --against-git origin/main --format json\n\n\
    Exit codes: 0 compatible, 1 incompatible, 2 the check could not run.")]
pub struct Args {
    /// The compatibility level: BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE,
    /// FULL, FULL_TRANSITIVE or NONE.
    #[arg(long, value_name = "LEVEL")]
    pub level: CompatLevel,
    /// The new schema (.avdl, .avsc or .avpr).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// Previous versions, oldest first (.avdl, .avsc or .avpr).
    #[arg(value_name = "OLD")]
    pub old: Vec<PathBuf>,
    /// A git revision whose version of NEW is a previous version (repeatable, oldest first;
    /// after the OLD files).
    #[arg(long = "against-git", value_name = "REV")]
    pub against_git: Vec<String>,
    /// The named type to check, for protocols and IDL files that define several.
    #[arg(long = "type", value_name = "FULL_NAME")]
    pub type_name: Option<String>,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object for machines.
    Json,
}

/// One version of the schema, ready to check.
struct Version {
    /// Where it came from (a path, or `REV:path`).
    label: String,
    set: SchemaSet,
    schema: Schema,
}

impl Version {
    fn as_ref(&self) -> SchemaRef<'_> {
        SchemaRef::new(&self.set, &self.schema)
    }
}

/// Runs the check and returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let versions = load_all(args);
    let (new, old) = match versions {
        Ok(versions) => versions,
        Err(failure) => {
            failure.report();
            return ExitCode::from(io::USAGE);
        }
    };
    let previous: Vec<SchemaRef<'_>> = old.iter().map(Version::as_ref).collect();
    let violations = check(args.level, new.as_ref(), &previous);
    let report = match args.format {
        Format::Text => text_report(args.level, &new, &old, &violations),
        Format::Json => io::json_text(&json_report(args.level, &new, &old, &violations), false),
    };
    match io::Output::Stdout.write(report.as_bytes()) {
        Ok(()) if violations.is_empty() => ExitCode::from(io::SUCCESS),
        Ok(()) => ExitCode::from(io::INVALID),
        Err(failure) => {
            failure.report();
            ExitCode::from(io::USAGE)
        }
    }
}

fn load_all(args: &Args) -> Result<(Version, Vec<Version>), Failure> {
    let new = load(
        args,
        &args.new,
        args.new.display().to_string(),
        read_file(&args.new)?,
    )?;
    let mut old = Vec::new();
    for path in &args.old {
        old.push(load(
            args,
            path,
            path.display().to_string(),
            read_file(path)?,
        )?);
    }
    for rev in &args.against_git {
        let label = format!("{rev}:{}", args.new.display());
        old.push(load(args, &args.new, label, git_show(rev, &args.new)?)?);
    }
    Ok((new, old))
}

fn read_file(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))
}

/// The text of `path` at revision `rev`, from the repository holding `path`.
fn git_show(rev: &str, path: &Path) -> Result<String, Failure> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("show")
        .arg(format!("{rev}:./{name}"))
        .output()
        .map_err(|e| Failure::Message(format!("cannot run git: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Failure::Message(format!(
            "git show {rev}:{}: {}",
            path.display(),
            stderr.trim()
        )));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| Failure::Message(format!("{rev}:{} is not UTF-8", path.display())))
}

/// Parses one version, the text of `path` (at some revision): IDL for `.avdl`, else JSON.
fn load(args: &Args, path: &Path, label: String, text: String) -> Result<Version, Failure> {
    let is_idl = path.extension().is_some_and(|e| e == "avdl");
    let json = if is_idl {
        idl_json(args, path, &label, &text)?
    } else {
        serde_json::from_str(&text).map_err(|e| Failure::Message(format!("{label}: {e}")))?
    };
    let invalid = |e: avdl2rs::schema::SchemaError| Failure::Message(format!("{label}: {e}"));
    let mut set = SchemaSet::new();
    let schema = if json.get("protocol").is_some() {
        set.parse_protocol_value(&json).map_err(invalid)?;
        select(&set, args.type_name.as_deref(), &label)?
    } else if let Value::Array(types) = &json {
        // An IDL schema file without a `schema` line: its named types, one by one.
        for named in types {
            set.parse_value(named).map_err(invalid)?;
        }
        select(&set, args.type_name.as_deref(), &label)?
    } else {
        let schema = set.parse_value(&json).map_err(invalid)?;
        match &args.type_name {
            Some(_) => select(&set, args.type_name.as_deref(), &label)?,
            None => schema,
        }
    };
    Ok(Version { label, set, schema })
}

/// The JSON of IDL `text`; its imports are found beside `path` and in the include
/// directories (for a git revision, in the working tree).
fn idl_json(args: &Args, path: &Path, label: &str, text: &str) -> Result<Value, Failure> {
    let mut include_dirs = args.include_dirs.clone();
    if let Some(dir) = path.parent() {
        include_dirs.push(dir.to_path_buf());
    }
    let options = ParseOptions { include_dirs };
    let file = avdl_parser::parse_str(text, label, &options).map_err(Failure::Invalid)?;
    Ok(file.to_json())
}

/// The named type `--type` names (a full name, or a simple name that is unique), or the only
/// one there is.
fn select(set: &SchemaSet, type_name: Option<&str>, label: &str) -> Result<Schema, Failure> {
    let names: Vec<&Name> = set.iter().map(|n| &n.name).collect();
    let chosen: Vec<&Name> = match type_name {
        Some(wanted) => match set.get(wanted) {
            Some(named) => vec![&named.name],
            None => names.into_iter().filter(|n| n.name == wanted).collect(),
        },
        None => names,
    };
    match chosen.as_slice() {
        [name] => Ok(Schema::named((*name).clone())),
        [] => Err(Failure::Message(format!(
            "{label} defines no type {}",
            type_name.unwrap_or("at all")
        ))),
        several => {
            let list: Vec<String> = several.iter().map(|n| n.full_name()).collect();
            Err(Failure::Message(format!(
                "{label} defines several types ({}): name one with --type",
                list.join(", ")
            )))
        }
    }
}

fn schema_name(version: &Version) -> String {
    match version.set.resolve(&version.schema) {
        Some(named) => named.name.full_name(),
        None => version.set.to_json(&version.schema).to_string(),
    }
}

fn text_report(level: CompatLevel, new: &Version, old: &[Version], found: &[Violation]) -> String {
    let what = format!(
        "{} ({}) at {level} against {} previous version(s)",
        new.label,
        schema_name(new),
        old.len()
    );
    if found.is_empty() {
        return format!("compatible: {what}\n");
    }
    let mut out = format!("incompatible: {what}: {} problem(s)\n", found.len());
    for violation in found {
        let against = &old[violation.version].label;
        let reading = match violation.direction {
            Direction::Backward => {
                format!("the new schema cannot read data written with {against}")
            }
            Direction::Forward => format!("{against} cannot read data written with the new schema"),
        };
        let problem = &violation.incompatibility;
        out.push_str(&format!(
            "  {reading}\n    at {}: {} [{}]\n    reader: {}\n    writer: {}\n",
            problem.location,
            problem.message,
            kind_name(violation),
            problem.reader,
            problem.writer
        ));
    }
    out
}

/// The kind's name as it appears in the JSON report (`TYPE_MISMATCH`...).
fn kind_name(violation: &Violation) -> String {
    match serde_json::to_value(violation.incompatibility.kind) {
        Ok(Value::String(name)) => name,
        _ => format!("{:?}", violation.incompatibility.kind),
    }
}

fn json_report(level: CompatLevel, new: &Version, old: &[Version], found: &[Violation]) -> Value {
    let violations: Vec<Value> = found
        .iter()
        .map(|violation| {
            let mut value = serde_json::to_value(violation).unwrap_or(Value::Null);
            value["against"] = old[violation.version].label.clone().into();
            value
        })
        .collect();
    json!({
        "compatible": found.is_empty(),
        "level": level.as_str(),
        "schema": schema_name(new),
        "new": new.label,
        "previous": old.iter().map(|v| v.label.clone()).collect::<Vec<_>>(),
        "violations": violations,
    })
}
