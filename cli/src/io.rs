//! What every subcommand shares: the IDL input (`-` for stdin) with include directories,
//! other inputs (`-` for stdin), outputs (`-` for stdout), and turning failures into a
//! rendered message and an exit code.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use avdl2rs_codegen::builder::BuildError;
use avdl_parser::render::{render, Style};
use avdl_parser::{IdlFile, ParseOptions};

/// Exit code of success.
pub const SUCCESS: u8 = 0;
/// Exit code of invalid input: a parse error, an unreadable file, an unwritable output.
pub const INVALID: u8 = 1;
/// Exit code of a usage error (bad arguments), or of a command that could not run.
pub const USAGE: u8 = 2;

/// The IDL input of a command and where its imports are searched.
#[derive(Debug, clap::Args)]
pub struct IdlInput {
    /// Directory searched for imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Input IDL file; `-` or absent for stdin.
    #[arg(value_name = "IN", default_value = "-")]
    pub path: String,
}

impl IdlInput {
    /// Parses the input file (or stdin) with its imports.
    pub fn parse(&self) -> Result<IdlFile, Failure> {
        let options = ParseOptions {
            include_dirs: self.include_dirs.clone(),
        };
        let parsed = if self.path == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::Message(format!("cannot read stdin: {e}")))?;
            avdl_parser::parse_str(&text, "<stdin>", &options)
        } else {
            avdl_parser::parse_file(&self.path, &options)
        };
        parsed.map_err(Failure::Invalid)
    }
}

/// An output file, or stdout for `-`.
#[derive(Clone, Debug, Default)]
pub enum Output {
    /// Standard output.
    #[default]
    Stdout,
    /// A file, created or replaced.
    File(PathBuf),
}

impl std::str::FromStr for Output {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Output, Self::Err> {
        Ok(if s == "-" {
            Output::Stdout
        } else {
            Output::File(PathBuf::from(s))
        })
    }
}

impl Output {
    /// Writes `bytes` to the output.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Failure> {
        self.write_with(|out| out.write_all(bytes).map_err(|e| self.failure(e)))
    }

    /// Writes `value` as JSON with a final line break, pretty-printed unless `compact`,
    /// streamed to the output rather than built in memory first.
    pub fn write_json(&self, value: &serde_json::Value, compact: bool) -> Result<(), Failure> {
        self.write_with(|out| {
            let written = if compact {
                serde_json::to_writer(&mut *out, value)
            } else {
                serde_json::to_writer_pretty(&mut *out, value)
            };
            written
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .map_err(|e| self.failure(e))
        })
    }

    /// A write to the output that failed, as the message names it.
    pub fn failure(&self, error: std::io::Error) -> Failure {
        match self {
            Output::Stdout => Failure::Message(format!("cannot write to stdout: {error}")),
            Output::File(path) => Failure::io(path, error),
        }
    }

    /// The output's name in messages.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout => "<stdout>".to_owned(),
            Output::File(path) => path.display().to_string(),
        }
    }

    /// Runs `write` on a buffered stdout or file, then flushes. A file is written whole or
    /// not at all: `write` fills a temporary file beside it, which replaces the file only
    /// once everything is written, so a failed command leaves no half-written output.
    pub fn write_with(
        &self,
        write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        match self {
            Output::Stdout => {
                let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
                write(&mut out)?;
                out.flush()
                    .map_err(|e| Failure::Message(format!("cannot write to stdout: {e}")))
            }
            Output::File(path) => write_atomically(path, write),
        }
    }
}

/// Runs `write` on a temporary file in `path`'s folder and renames it to `path` once
/// `write` succeeds; on failure `path` is left as it was and the temporary file removed.
///
/// A symbolic link is followed, so the file it points to is replaced and the link kept. A
/// path that names something other than a regular file (`/dev/null`, a named pipe, a
/// terminal) is written in place: renaming over it would replace the device with a file.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    if std::fs::metadata(&target).is_ok_and(|meta| !meta.is_file()) {
        return write_in_place(path, &target, write);
    }
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let temp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Failure::io(path, e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, temp.as_file());
    write(&mut out)?;
    out.flush().map_err(|e| Failure::io(path, e))?;
    drop(out);
    temp.as_file()
        .sync_all()
        .map_err(|e| Failure::io(path, e))?;
    temp.persist(&target)
        .map_err(|e| Failure::io(path, e.error))?;
    Ok(())
}

/// Runs `write` on `target` opened for writing, for outputs that are streams rather than
/// files and so cannot be replaced whole.
fn write_in_place(
    path: &Path,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let file = File::options()
        .write(true)
        .open(target)
        .map_err(|e| Failure::io(path, e))?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    write(&mut out)?;
    out.flush().map_err(|e| Failure::io(path, e))
}

/// JSON text with a final line break, pretty-printed unless `compact`.
pub fn json_text(value: &serde_json::Value, compact: bool) -> String {
    // Writing into bytes directly is much faster than going through `fmt::Display`.
    let written = if compact {
        serde_json::to_vec(value)
    } else {
        serde_json::to_vec_pretty(value)
    };
    // Serializing a `Value` cannot fail (string keys, finite numbers) and gives UTF-8.
    let mut text = written
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_default();
    text.push('\n');
    text
}

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// The input is invalid: rendered with its source snippet.
    Invalid(avdl_parser::Error),
    /// Code generation failed: rendered as a build script shows it.
    Build(BuildError),
    /// Another problem (an unwritable file), as one line.
    Message(String),
    /// A problem at a place of a file that is not IDL (JSON, bytes that are not UTF-8).
    Located {
        /// The file as messages name it.
        file: String,
        /// Its text, up to the place at least.
        text: String,
        /// The bytes the message is about.
        span: std::ops::Range<usize>,
        /// What is wrong.
        message: String,
    },
    /// The command could not run (a registry not given or out of reach): exit 2.
    CannotRun(String),
}

impl From<avdl2rs_lint::git::GitError> for Failure {
    /// A revision or a file of it that git cannot give: git's message, as one line.
    fn from(error: avdl2rs_lint::git::GitError) -> Failure {
        Failure::Message(error.0)
    }
}

impl From<avdl2rs_lint::config::ConfigError> for Failure {
    fn from(error: avdl2rs_lint::config::ConfigError) -> Failure {
        Failure::Message(error.to_string())
    }
}

impl Failure {
    /// A failure to write or create `path`.
    pub fn io(path: &Path, error: std::io::Error) -> Failure {
        Failure::Message(format!("cannot write {}: {error}", path.display()))
    }

    /// The failure as one line, without the source snippet (for reports read by programs).
    pub fn one_line(&self) -> String {
        match self {
            Failure::Invalid(error) => error.to_string(),
            Failure::Build(error) => error.summary(),
            Failure::Message(message) | Failure::CannotRun(message) => message.clone(),
            Failure::Located {
                file,
                text,
                span,
                message,
            } => {
                let (line, column) = line_column(text, span.start);
                format!("{file}:{line}:{column}: {message}")
            }
        }
    }

    /// The failure as the compiler writes errors: `error: …`, and for a located one the
    /// source line with the place underlined, in colour only on a terminal.
    pub fn rendered(&self, style: Style) -> String {
        match self {
            Failure::Invalid(error) => error.render(style),
            Failure::Build(error) => error.render(style),
            Failure::Message(message) | Failure::CannotRun(message) => {
                render(message, None, None, style)
            }
            Failure::Located {
                file,
                text,
                span,
                message,
            } => {
                let place = avdl_parser::render::Place {
                    file,
                    text,
                    span: span.clone(),
                };
                render(message, Some(place), None, style)
            }
        }
    }

    /// Prints the failure on stderr and returns the exit code.
    pub fn report(&self) -> ExitCode {
        let text = self.rendered(Style::for_stderr());
        let _ = std::io::stderr().write_all(text.as_bytes());
        ExitCode::from(match self {
            Failure::CannotRun(_) => USAGE,
            _ => INVALID,
        })
    }
}

/// The 1-based line and character column of byte `offset` of `text`, as messages give them.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let column = before[line_start..].chars().count() + 1;
    (before.matches('\n').count() + 1, column)
}

/// Opens `path`, or stdin for `-`.
pub fn open(path: &str) -> Result<Box<dyn Read>, Failure> {
    if path == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    File::open(path)
        .map(|file| Box::new(file) as Box<dyn Read>)
        .map_err(|e| Failure::Message(format!("cannot read {path}: {e}")))
}

/// The name of the input `path` in messages.
pub fn input_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// Runs `write` on a buffered stdout; a reader that stops early (a closed pipe, as with
/// `| head`) is not an error.
pub fn to_stdout(write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    write(&mut out)?;
    out.flush().or_else(stdout_error)
}

/// A write error on stdout: a closed pipe ends the output quietly.
pub fn stdout_error(error: std::io::Error) -> Result<(), Failure> {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return Ok(());
    }
    Err(Failure::Message(format!("cannot write to stdout: {error}")))
}
