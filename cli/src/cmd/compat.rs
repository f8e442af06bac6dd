//! `avdl2rs compat --level LEVEL NEW [OLD]... [--against-git REV]...`: checks a new schema
//! version against previous ones at a Schema Registry compatibility level, so that a CI job
//! can refuse a change that would break producers or consumers.
//!
//! Without `--type`, every named type the new version shares with a previous one is checked
//! (a single-schema file is checked against the previous versions' schema whatever its name).
//! A previous version read from git is parsed entirely from that revision, imports included.
//!
//! Exit codes: `0` compatible, `1` incompatible (the report on stdout), `2` the check could
//! not run (bad arguments, unreadable or invalid schema files, an unknown `--type`); with
//! `--format json` that last case also writes a JSON object with the error on stdout.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avdl2rs::compat::{check, CompatLevel, Direction, SchemaRef, Violation};
use avdl2rs::schema::{Schema, SchemaSet};
use serde_json::{json, Value};

use crate::io::{self, Failure};
use crate::schema_file;
use avdl2rs_lint::git::Revision;

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
    /// after the OLD files). It is read with its imports as they were at that revision; a
    /// revision without the file does not count (the file is new since).
    #[arg(long = "against-git", value_name = "REV")]
    pub against_git: Vec<String>,
    /// Check only this named type (a full name, or a unique simple name); without it, every
    /// named type the versions share is checked.
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

/// One version of the schema file.
struct Version {
    /// Where it came from (a path, or `REV:path`).
    label: String,
    set: SchemaSet,
    /// The schema of a single-schema file (`.avsc`, an IDL `schema` declaration), compared
    /// with the previous versions' single schema whatever its name; `None` for protocols and
    /// IDL files without a `schema` declaration.
    main: Option<Schema>,
}

/// Every version read, newest first, and the revisions that do not have the file.
struct Versions {
    new: Version,
    old: Vec<Version>,
    /// Labels (`REV:path`) of revisions where the file does not exist yet.
    absent: Vec<String>,
}

/// One schema compared across the versions that have it.
struct Subject {
    /// Its full name (or the JSON of an unnamed single schema).
    name: String,
    new: Schema,
    /// Indexes into [`Versions::old`] of the versions that have it, with its schema there.
    previous: Vec<(usize, Schema)>,
}

/// The result of the whole check.
struct Outcome {
    subjects: Vec<Subject>,
    /// Violations with the subject's name; `version` indexes [`Versions::old`].
    violations: Vec<(String, Violation)>,
    /// Named types of the latest previous version that the new one lacks.
    removed: Vec<String>,
}

/// Runs the check and returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let versions = match load_all(args).and_then(|v| compare(args, &v).map(|o| (v, o))) {
        Ok(checked) => checked,
        Err(failure) => {
            if args.format == Format::Json {
                let report = json!({
                    "compatible": Value::Null,
                    "level": args.level.as_str(),
                    "new": args.new.display().to_string(),
                    "error": failure.one_line(),
                });
                let _ = io::Output::Stdout.write(io::json_text(&report, false).as_bytes());
            }
            failure.report();
            return ExitCode::from(io::USAGE);
        }
    };
    let (versions, outcome) = versions;
    let report = match args.format {
        Format::Text => text_report(args.level, &versions, &outcome),
        Format::Json => io::json_text(&json_report(args.level, &versions, &outcome), false),
    };
    match io::Output::Stdout.write(report.as_bytes()) {
        Ok(()) if outcome.violations.is_empty() => ExitCode::from(io::SUCCESS),
        Ok(()) => ExitCode::from(io::INVALID),
        Err(failure) => {
            failure.report();
            ExitCode::from(io::USAGE)
        }
    }
}

fn load_all(args: &Args) -> Result<Versions, Failure> {
    let label = args.new.display().to_string();
    let new = load(args, &args.new, label, None)?;
    let mut old = Vec::new();
    for path in &args.old {
        old.push(load(args, path, path.display().to_string(), None)?);
    }
    let mut absent = Vec::new();
    for rev in &args.against_git {
        let label = format!("{rev}:{}", args.new.display());
        let revision = Revision::open(rev, &args.new)?;
        if revision.has(&args.new) {
            old.push(load(args, &args.new, label, Some(revision))?);
        } else {
            absent.push(label);
        }
    }
    Ok(Versions { new, old, absent })
}

/// Parses one version of `path`, from the working tree or from a git revision.
fn load(
    args: &Args,
    path: &Path,
    label: String,
    revision: Option<Revision>,
) -> Result<Version, Failure> {
    let (set, main) = schema_file::parse(path, &label, &args.include_dirs, revision.as_ref())?;
    Ok(Version { label, set, main })
}

/// What to compare: the `--type`, the single schemas of single-schema files, or every named
/// type of the new version.
fn compare(args: &Args, versions: &Versions) -> Result<Outcome, Failure> {
    let new = &versions.new;
    let single = new.main.is_some() && versions.old.iter().all(|v| v.main.is_some());
    let subjects = if let Some(wanted) = &args.type_name {
        let name = schema_file::select(&new.set, wanted, &new.label)?;
        vec![subject(versions, &name.full_name(), Schema::named(name))]
    } else if let (true, Some(main)) = (single, &new.main) {
        let previous = versions.old.iter().filter_map(|v| v.main.clone());
        vec![Subject {
            name: schema_name(new, main),
            new: main.clone(),
            previous: previous.enumerate().collect(),
        }]
    } else {
        let names = new.set.iter().map(|n| n.name.clone());
        names
            .map(|name| subject(versions, &name.full_name(), Schema::named(name)))
            .collect()
    };
    let mut violations = Vec::new();
    for subject in &subjects {
        let new_ref = SchemaRef::new(&new.set, &subject.new);
        let previous: Vec<SchemaRef<'_>> = subject
            .previous
            .iter()
            .map(|(i, schema)| SchemaRef::new(&versions.old[*i].set, schema))
            .collect();
        for mut violation in check(args.level, new_ref, &previous) {
            violation.version = subject.previous[violation.version].0;
            violations.push((subject.name.clone(), violation));
        }
    }
    let removed = match versions.old.last() {
        Some(latest) if !single && args.type_name.is_none() => latest
            .set
            .iter()
            .map(|n| n.name.full_name())
            .filter(|name| new.set.get(name).is_none())
            .collect(),
        _ => Vec::new(),
    };
    Ok(Outcome {
        subjects,
        violations,
        removed,
    })
}

/// The named type `full_name` of the new version, with the previous versions that have it.
fn subject(versions: &Versions, full_name: &str, new: Schema) -> Subject {
    let previous = versions.old.iter().enumerate().filter_map(|(i, version)| {
        let named = version.set.get(full_name)?;
        Some((i, Schema::named(named.name.clone())))
    });
    Subject {
        name: full_name.to_owned(),
        new,
        previous: previous.collect(),
    }
}

fn schema_name(version: &Version, schema: &Schema) -> String {
    match version.set.resolve(schema) {
        Some(named) => named.name.full_name(),
        None => version.set.to_json(schema).to_string(),
    }
}

/// The checked names, for the report's first line.
fn checked_names(outcome: &Outcome) -> String {
    let names: Vec<&str> = outcome.subjects.iter().map(|s| s.name.as_str()).collect();
    names.join(", ")
}

fn text_report(level: CompatLevel, versions: &Versions, outcome: &Outcome) -> String {
    let what = format!(
        "{} ({}) at {level} against {} previous version(s)",
        versions.new.label,
        checked_names(outcome),
        versions.old.len()
    );
    let found = &outcome.violations;
    let mut out = if found.is_empty() {
        format!("compatible: {what}\n")
    } else {
        format!("incompatible: {what}: {} problem(s)\n", found.len())
    };
    let mut heading = String::new();
    for (name, violation) in found {
        let against = &versions.old[violation.version].label;
        let reading = match violation.direction {
            Direction::Backward => {
                format!("the new schema cannot read data written with {against}")
            }
            Direction::Forward => format!("{against} cannot read data written with the new schema"),
        };
        let next = format!("  {name}: {reading}\n");
        if next != heading {
            out.push_str(&next);
            heading = next;
        }
        out.push_str(&problem_line(violation));
    }
    notes(versions, outcome, &mut out);
    out
}

/// Fragments longer than this are left to the JSON report.
const SHORT_FRAGMENT: usize = 60;

/// One problem: where, what, its kind, and the two fragments when they are short.
fn problem_line(violation: &Violation) -> String {
    let problem = &violation.incompatibility;
    let (reader, writer) = (problem.reader.to_string(), problem.writer.to_string());
    let fragments = if reader.len() <= SHORT_FRAGMENT && writer.len() <= SHORT_FRAGMENT {
        format!(" (reader {reader}, writer {writer})")
    } else {
        String::new()
    };
    let location = if problem.location.is_empty() {
        "/"
    } else {
        &problem.location
    };
    format!(
        "    at {location}: {} [{}]{fragments}\n",
        problem.message,
        kind_name(violation)
    )
}

/// What the report says besides problems: first versions, new and removed types.
fn notes(versions: &Versions, outcome: &Outcome, out: &mut String) {
    for label in &versions.absent {
        out.push_str(&format!(
            "  {label} does not exist: a first version there, nothing to check against\n"
        ));
    }
    for subject in outcome.subjects.iter().filter(|s| s.previous.is_empty()) {
        out.push_str(&format!(
            "  {}: new, no previous version to check against\n",
            subject.name
        ));
    }
    if let Some(latest) = versions.old.last() {
        for name in &outcome.removed {
            out.push_str(&format!(
                "  {name}: in {} but not in the new version\n",
                latest.label
            ));
        }
    }
}

/// The kind's name as it appears in the JSON report (`TYPE_MISMATCH`...).
fn kind_name(violation: &Violation) -> String {
    match serde_json::to_value(violation.incompatibility.kind) {
        Ok(Value::String(name)) => name,
        _ => format!("{:?}", violation.incompatibility.kind),
    }
}

fn json_report(level: CompatLevel, versions: &Versions, outcome: &Outcome) -> Value {
    let violations: Vec<Value> = outcome
        .violations
        .iter()
        .map(|(name, violation)| {
            let mut value = serde_json::to_value(violation).unwrap_or(Value::Null);
            value["type"] = name.clone().into();
            value["against"] = versions.old[violation.version].label.clone().into();
            value
        })
        .collect();
    let names: Vec<&str> = outcome.subjects.iter().map(|s| s.name.as_str()).collect();
    let new_types: Vec<&str> = outcome
        .subjects
        .iter()
        .filter(|s| s.previous.is_empty())
        .map(|s| s.name.as_str())
        .collect();
    json!({
        "compatible": outcome.violations.is_empty(),
        "level": level.as_str(),
        "schema": if let [one] = names.as_slice() { Value::from(*one) } else { Value::Null },
        "types": names,
        "new": versions.new.label,
        "previous": versions.old.iter().map(|v| v.label.clone()).collect::<Vec<_>>(),
        "first_version_at": versions.absent,
        "new_types": new_types,
        "removed_types": outcome.removed,
        "violations": violations,
    })
}
