//! `avdl2rs lint [PATH]...`: checks IDL and schema files with the rules of `avdl2rs-lint`,
//! each file under the `[lint]` settings of the nearest `avdl2rs.toml` above it, and reports
//! the findings for people, programs, code scanning (SARIF) or GitHub workflow annotations.
//!
//! This module only finds the files, reads the settings and the previous versions, and sets
//! the exit code; the rules are the library's, the layouts the submodules'.
//!
//! Exit codes: `0` no finding at error level, `1` at least one, `2` some file could not be
//! checked (unreadable, not UTF-8, not valid IDL or JSON, a path with no schema file, bad
//! settings): the check is incomplete, whatever the findings of the other files.

mod files;
mod github;
mod human;
mod json;
mod sarif;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avdl2rs_lint::config::Configs;
use avdl2rs_lint::git::Revision;
use avdl2rs_lint::{CheckError, Finding, Level, Settings, Source};
use serde_json::Value;

use crate::io::{self, Failure};

/// Arguments of `lint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs lint schemas/\n  \
    avdl2rs lint orders.avdl payment.avsc --format json\n  \
    avdl2rs lint schemas/ --format github                      # annotations in a GitHub workflow\n  \
    avdl2rs lint schemas/ --format sarif > lint.sarif          # for code scanning\n  \
    avdl2rs lint schemas/ --against-git origin/main            # also renames and removed symbols\n\n\
    Levels and options come from the [lint] table of the nearest avdl2rs.toml above each file.\n\
    In IDL, `// avdl2rs-lint: allow(RULE, ...)` silences a rule on its line, or on the next\n\
    line when it stands on a line of its own.\n\n\
    Exit codes: 0 no error-level finding, 1 error-level findings, 2 a file could not be checked.")]
pub struct Args {
    /// Files (.avdl, .avsc, .avpr) and directories, searched for such files (default: the
    /// current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Also compare each file with its version at this git revision (`rename-without-alias`,
    /// `removed-symbol`); a file the revision lacks is new and has nothing to compare.
    #[arg(long = "against-git", value_name = "REV")]
    pub against_git: Option<String>,
    /// Directory searched for IDL imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Findings as the compiler writes errors, with the source line and a caret.
    Human,
    /// One JSON object with every finding and every file that could not be checked.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub workflow commands (`::warning file=…`), shown as annotations on the change.
    Github,
}

/// A file that was checked: its findings, with its text for the snippets.
pub(crate) struct Checked {
    name: String,
    text: String,
    findings: Vec<Finding>,
}

/// A file that could not be checked.
pub(crate) struct Unchecked {
    name: String,
    /// What went wrong, in one line.
    message: String,
    /// Line and column, when the problem has a place.
    place: Option<(usize, usize)>,
    /// The error as the compiler writes it, for stderr.
    failure: Failure,
}

/// Everything one run found.
pub(crate) struct Outcome {
    checked: Vec<Checked>,
    unchecked: Vec<Unchecked>,
}

impl Outcome {
    fn errors(&self) -> usize {
        self.findings()
            .filter(|(_, f)| f.level == Level::Error)
            .count()
    }

    /// Every finding with the file it is in.
    fn findings(&self) -> impl Iterator<Item = (&Checked, &Finding)> {
        self.checked
            .iter()
            .flat_map(|file| file.findings.iter().map(move |f| (file, f)))
    }
}

/// Runs the check and returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let outcome = check_all(args);
    let report = match args.format {
        Format::Human => human::report(&outcome),
        Format::Json => io::json_text(&json::report(&outcome), false),
        Format::Sarif => io::json_text(&sarif::report(&outcome), false),
        Format::Github => github::report(&outcome),
    };
    for unchecked in &outcome.unchecked {
        unchecked.failure.report();
    }
    if let Err(failure) = io::Output::Stdout.write(report.as_bytes()) {
        failure.report();
        return ExitCode::from(io::USAGE);
    }
    ExitCode::from(if !outcome.unchecked.is_empty() {
        io::USAGE
    } else if outcome.errors() > 0 {
        io::INVALID
    } else {
        io::SUCCESS
    })
}

/// Checks every file the paths name.
fn check_all(args: &Args) -> Outcome {
    let mut outcome = Outcome {
        checked: Vec::new(),
        unchecked: Vec::new(),
    };
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut configs = Configs::default();
    for found in files::schema_files(&roots) {
        let (name, failure) = match found {
            files::Found::File(path) => {
                let checked = configs
                    .for_file(&path)
                    .map(|config| config.lint.clone())
                    .map_err(Failure::from)
                    .and_then(|settings| check_file(args, &path, &settings));
                match checked {
                    Ok(checked) => {
                        outcome.checked.push(checked);
                        continue;
                    }
                    Err(failure) => (path.display().to_string(), failure),
                }
            }
            files::Found::Problem(name, message) => (name, Failure::Message(message)),
        };
        outcome.unchecked.push(Unchecked::new(name, failure));
    }
    outcome
}

/// Checks one file under its settings.
fn check_file(args: &Args, path: &Path, settings: &Settings) -> Result<Checked, Failure> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| not_utf8(&name, &e))?;
    let previous = match &args.against_git {
        Some(rev) => previous_version(args, rev, path)?,
        None => None,
    };
    let is_idl = path.extension().is_some_and(|e| e == "avdl");
    let source = if is_idl {
        Source::idl(&name, &text, path, &args.include_dirs)
    } else {
        Source::json(&name, &text)
    };
    match avdl2rs_lint::check(&source, settings, previous.as_ref()) {
        Ok(findings) => Ok(Checked {
            name,
            text,
            findings,
        }),
        Err(CheckError::Idl(error)) => Err(Failure::Invalid(error)),
        Err(CheckError::Json { message, span, .. }) => Err(Failure::Located {
            file: name,
            text,
            span,
            message,
        }),
    }
}

/// The schema JSON of `path` at git revision `rev`, `None` when the revision lacks it.
fn previous_version(args: &Args, rev: &str, path: &Path) -> Result<Option<Value>, Failure> {
    let revision = Revision::open(rev, path)?;
    if !revision.has(path) {
        return Ok(None);
    }
    if path.extension().is_some_and(|e| e == "avdl") {
        let options = avdl_parser::ParseOptions {
            include_dirs: args.include_dirs.clone(),
        };
        let file =
            avdl_parser::parse_file_in(&revision, path, &options).map_err(Failure::Invalid)?;
        return Ok(Some(file.json().clone()));
    }
    let text = revision.read_text(path)?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| Failure::Message(format!("{rev}:{}: invalid JSON: {e}", path.display())))
}

/// A file that is not UTF-8, located at the first byte that is not.
fn not_utf8(name: &str, error: &std::string::FromUtf8Error) -> Failure {
    let at = error.utf8_error().valid_up_to();
    Failure::Located {
        file: name.to_owned(),
        text: String::from_utf8_lossy(&error.as_bytes()[..at]).into_owned(),
        span: at..at,
        message: "the file is not UTF-8".to_owned(),
    }
}

impl Unchecked {
    fn new(name: String, failure: Failure) -> Unchecked {
        let place = match &failure {
            Failure::Invalid(error) => error.line_column(),
            Failure::Located { text, span, .. } => Some(io::line_column(text, span.start)),
            _ => None,
        };
        Unchecked {
            name,
            message: failure.one_line(),
            place,
            failure,
        }
    }
}
