//! `avdl2rs fmt [--check] PATH…|-`: lays out IDL files as Java's IDL writer does
//! ([`avdl_parser::format`]), in place, or prints the diff of what would change.
//!
//! Exit codes: `0` nothing to change (or every file written), `1` `--check` found files that
//! would change (their diffs on stdout), `2` the command could not run: a file that does not
//! parse or is not UTF-8, a folder without IDL files, an unreadable path or an unwritable
//! file. Every file is read and formatted before any is written, so a file that fails leaves
//! all of them as they were.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avdl2rs_lint::config::Configs;
use avdl_parser::format::{format_bytes, FormatOptions};
use avdl_parser::idl_writer::Indent;
use avdl_parser::render::Style;

use crate::io::{self, Failure, Output};

/// Arguments of `fmt`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs fmt schemas/\n  \
    avdl2rs fmt orders.avdl shared/common.avdl\n  \
    avdl2rs fmt --check schemas/          # in CI: exits 1 and prints diffs if any file would change\n  \
    avdl2rs fmt - < orders.avdl > formatted.avdl\n\n\
A path is required: a file, a folder (every *.avdl below it) or `-` (stdin to stdout). \
The indent is `indent` of the `[fmt]` table in the nearest avdl2rs.toml above each file \
(2 when there is none). Every file is formatted before any is written: a file that does not \
parse (reported with its line and column) leaves every file untouched.\n\n\
Exit codes: 0 nothing to change or all written, 1 --check found files to change, \
2 a file does not parse or could not be read or written.")]
pub struct Args {
    /// Files or folders to format in place, or `-` alone to format stdin to stdout.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// Writes nothing: prints a unified diff of each file that would change, and exits with 1
    /// if any would.
    #[arg(long)]
    pub check: bool,
}

/// One input and its formatted text.
struct Formatted {
    /// The file, or `None` for stdin.
    path: Option<PathBuf>,
    original: Vec<u8>,
    text: String,
}

impl Formatted {
    fn changed(&self) -> bool {
        self.original != self.text.as_bytes()
    }

    fn name(&self) -> String {
        self.path
            .as_deref()
            .map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string())
    }
}

/// Formats every input, then writes or diffs them; returns the exit code.
pub fn run(args: &Args) -> ExitCode {
    let formatted = match inputs(&args.paths).and_then(|inputs| format_all(&inputs)) {
        Ok(formatted) => formatted,
        Err(failures) => {
            let style = Style::for_stderr();
            let text: String = failures.iter().map(|f| f.rendered(style)).collect();
            let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
            return ExitCode::from(io::USAGE);
        }
    };
    let result = if args.check {
        check(&formatted)
    } else {
        write_all(&formatted).map(|()| io::SUCCESS)
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            failure.report();
            ExitCode::from(io::USAGE)
        }
    }
}

/// The files to format (`None` for stdin): files as given, folders walked for `*.avdl`.
fn inputs(paths: &[PathBuf]) -> Result<Vec<Option<PathBuf>>, Vec<Failure>> {
    if paths.iter().any(|p| p == Path::new("-")) {
        return match paths {
            [_] => Ok(vec![None]),
            _ => Err(vec![Failure::Message(
                "`-` (stdin) cannot be combined with other paths".to_owned(),
            )]),
        };
    }
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = crate::walk::files_under(path, &["avdl"])
                .map_err(|unreadable| vec![Failure::Message(unreadable.to_string())])?;
            if found.is_empty() {
                return Err(vec![Failure::Message(format!(
                    "no .avdl files in {}",
                    path.display()
                ))]);
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files.into_iter().map(Some).collect())
}

/// Every input formatted, or every failure (each file is tried, so all errors show at once).
fn format_all(inputs: &[Option<PathBuf>]) -> Result<Vec<Formatted>, Vec<Failure>> {
    let mut configs = Configs::default();
    let mut formatted = Vec::new();
    let mut failures = Vec::new();
    for input in inputs {
        match format_one(input.as_deref(), &mut configs) {
            Ok(done) => formatted.push(done),
            Err(failure) => failures.push(failure),
        }
    }
    match failures.is_empty() {
        true => Ok(formatted),
        false => Err(failures),
    }
}

/// Reads and formats one input with the indent of its `avdl2rs.toml`.
fn format_one(path: Option<&Path>, configs: &mut Configs) -> Result<Formatted, Failure> {
    let (original, name, config_path) = match path {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?;
            (bytes, path.display().to_string(), path)
        }
        None => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
                .map_err(|e| Failure::Message(format!("cannot read stdin: {e}")))?;
            (bytes, "<stdin>".to_owned(), Path::new("-"))
        }
    };
    let width = configs.for_file(config_path)?.fmt.indent;
    let options = FormatOptions {
        indent: Indent { width },
    };
    let text = format_bytes(&original, &name, &options).map_err(Failure::Invalid)?;
    Ok(Formatted {
        path: path.map(Path::to_owned),
        original,
        text,
    })
}

/// The `---`/`+++` names of a file in a diff: git's `a/`, `b/` before a relative path, so
/// that `git apply` and `patch -p1` take it; an absolute path as it is.
fn diff_headers(name: &str) -> (String, String) {
    if Path::new(name).is_absolute() {
        (name.to_owned(), name.to_owned())
    } else {
        (format!("a/{name}"), format!("b/{name}"))
    }
}

/// Prints the diff of each input that would change; `1` if any would, else `0`.
fn check(formatted: &[Formatted]) -> Result<u8, Failure> {
    let mut diffs = String::new();
    for file in formatted.iter().filter(|f| f.changed()) {
        let name = file.name();
        let original = String::from_utf8_lossy(&file.original);
        let diff = similar::TextDiff::from_lines(original.as_ref(), file.text.as_str());
        let (old, new) = diff_headers(&name);
        let unified = diff.unified_diff().header(&old, &new).to_string();
        diffs.push_str(&unified);
    }
    io::to_stdout(|out| out.write_all(diffs.as_bytes()).or_else(io::stdout_error))?;
    Ok(match diffs.is_empty() {
        true => io::SUCCESS,
        false => io::INVALID,
    })
}

/// Writes each changed file in place (stdin's text to stdout, changed or not).
fn write_all(formatted: &[Formatted]) -> Result<(), Failure> {
    for file in formatted {
        match &file.path {
            None => Output::Stdout.write(file.text.as_bytes())?,
            Some(path) if file.changed() => {
                Output::File(path.clone()).write(file.text.as_bytes())?
            }
            Some(_) => {}
        }
    }
    Ok(())
}
