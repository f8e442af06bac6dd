//! # avdl2rs-lint
//!
//! Checks Avro IDL (`.avdl`) and schema (`.avsc`, `.avpr`) files for mistakes the compiler
//! accepts: defaults that readers cannot use, names off the convention, missing docs,
//! logical types Avro ignores, amounts of money in floating point, unused types and imports,
//! and, against a previous version, renames without aliases and removed enum symbols.
//!
//! Every rule works on the schema JSON (an IDL file's compiled JSON, a JSON file as it is),
//! with the schema model of `avdl2rs-schema` answering what the specification says (whether a
//! default fits, whether a logical type applies), so the linter, the compiler and code
//! generation agree. Findings are then placed in the source: by JSON Pointer in a JSON file,
//! by name in the IDL syntax tree. The command line (`avdl2rs lint`) and a language server
//! run the same rules through [`check`].
//!
//! ```
//! use avdl2rs_lint::{check, Rule, Settings, Source};
//!
//! let text = r#"{"type": "record", "name": "Payment", "namespace": "shop", "doc": "A payment.",
//!     "fields": [{"name": "amount", "type": "double", "doc": "How much.", "default": 0}]}"#;
//! let findings = check(&Source::json("payment.avsc", text), &Settings::default(), None).unwrap();
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].rule, Rule::FloatMoney);
//! assert_eq!((findings[0].line, findings[0].column), (2, 43));
//! ```

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

pub mod config;
mod document;
mod finding;
pub mod git;
mod history;
mod idl_places;
pub mod json_text;
mod model;
mod pointer;
mod rule;
mod rules;
mod settings;
mod suppress;

use std::ops::Range;
use std::path::{Path, PathBuf};

use avdl2rs_schema::SchemaError;
use avdl_parser::syntax::Parse;
use avdl_parser::SourceFiles;
use serde_json::Value;

pub use finding::{Finding, Subject};
pub use rule::{Level, Rule};
pub use settings::{FieldCase, Options, Settings};

use document::{Document, Origin};
use finding::Lines;
use json_text::JsonText;
use model::Model;
use rules::{Context, Declared};

/// A file to check.
#[derive(Clone, Debug)]
pub struct Source<'a> {
    /// The file as findings name it.
    pub name: &'a str,
    /// Its text.
    pub text: &'a str,
    /// What it is.
    pub kind: SourceKind,
}

/// The kind of a source file.
#[derive(Clone, Debug)]
pub enum SourceKind {
    /// `.avsc` or `.avpr` JSON.
    Json,
    /// IDL, compiled from `path` (imports resolved beside it, then in `include_dirs`).
    Idl {
        /// The file's path, which its imports are relative to.
        path: PathBuf,
        /// Directories searched for imports not found beside the file.
        include_dirs: Vec<PathBuf>,
        /// The file's syntax tree when the caller has it already (an editor keeps one per
        /// open document); built by the check otherwise. It must be the tree of `text`.
        tree: Option<Parse>,
    },
}

impl<'a> Source<'a> {
    /// A JSON schema or protocol.
    pub fn json(name: &'a str, text: &'a str) -> Source<'a> {
        Source {
            name,
            text,
            kind: SourceKind::Json,
        }
    }

    /// An IDL file at `path`, whose text is `text`.
    pub fn idl(name: &'a str, text: &'a str, path: &Path, include_dirs: &[PathBuf]) -> Source<'a> {
        Source {
            name,
            text,
            kind: SourceKind::Idl {
                path: path.to_owned(),
                include_dirs: include_dirs.to_vec(),
                tree: None,
            },
        }
    }

    /// This source with `tree`, the syntax tree of its IDL text (`avdl_parser::syntax::parse`
    /// of it), so that the check does not build it again. A JSON source has no tree: it is
    /// returned unchanged.
    pub fn with_tree(mut self, tree: Parse) -> Source<'a> {
        if let SourceKind::Idl { tree: slot, .. } = &mut self.kind {
            *slot = Some(tree);
        }
        self
    }
}

/// Why a file could not be checked.
#[derive(Debug)]
pub enum CheckError {
    /// The IDL does not compile.
    Idl(avdl_parser::Error),
    /// The JSON does not parse or is not a valid schema: the message and its place.
    Json {
        /// What is wrong.
        message: String,
        /// The bytes it is about.
        span: Range<usize>,
        /// The 1-based line of the span's start.
        line: usize,
        /// The 1-based column of the span's start.
        column: usize,
    },
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Idl(error) => error.fmt(f),
            CheckError::Json {
                message,
                line,
                column,
                ..
            } => write!(f, "{line}:{column}: {message}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// Checks `source` under `settings`; with `previous` (the schema JSON of an earlier version)
/// also the rules that compare versions. Findings come in source order, those silenced by a
/// comment left out.
pub fn check(
    source: &Source<'_>,
    settings: &Settings,
    previous: Option<&Value>,
) -> Result<Vec<Finding>, CheckError> {
    check_in(&avdl_parser::FileSystem, source, settings, previous)
}

/// [`check`], reading an IDL source's imports from `files` rather than the file system: a
/// language server passes the files open in the editor, unsaved changes included. The IDL
/// source itself is read from `files` at its path too, so `files` should give its text.
pub fn check_in(
    files: &dyn SourceFiles,
    source: &Source<'_>,
    settings: &Settings,
    previous: Option<&Value>,
) -> Result<Vec<Finding>, CheckError> {
    let lines = Lines::new(source.text);
    let mut findings = match &source.kind {
        SourceKind::Json => check_json(source.text, settings, previous)?,
        SourceKind::Idl {
            path,
            include_dirs,
            tree,
        } => {
            let idl = Idl {
                text: source.text,
                path,
                include_dirs,
                tree: tree.as_ref(),
                files,
            };
            let mut findings = check_idl(&idl, settings, previous)?;
            suppress::apply(source.text, &lines, &mut findings);
            findings
        }
    };
    for finding in &mut findings {
        (finding.line, finding.column) = lines.line_column(finding.span.start);
    }
    findings.sort_by_key(|finding| (finding.span.start, finding.rule));
    Ok(findings)
}

/// The findings of JSON `text`, placed at their JSON Pointers.
fn check_json(
    text: &str,
    settings: &Settings,
    previous: Option<&Value>,
) -> Result<Vec<Finding>, CheckError> {
    let json = JsonText::parse(text).map_err(|e| located(text, e.message, e.offset..e.offset))?;
    let declared = Declared::default();
    let mut findings = run(&json.value, Origin::Json, settings, &declared, previous)
        .map_err(|e| located(text, e.to_string(), json.span(&e.path)))?;
    for finding in &mut findings {
        finding.span = json.span(&finding.path);
    }
    Ok(findings)
}

/// An IDL file to check and where its imports are read from.
struct Idl<'a> {
    text: &'a str,
    path: &'a Path,
    include_dirs: &'a [PathBuf],
    tree: Option<&'a Parse>,
    files: &'a dyn SourceFiles,
}

/// The findings of an IDL file, placed by name in its syntax tree.
fn check_idl(
    idl: &Idl<'_>,
    settings: &Settings,
    previous: Option<&Value>,
) -> Result<Vec<Finding>, CheckError> {
    let Idl {
        text,
        path,
        include_dirs,
        tree,
        files,
    } = *idl;
    let options = avdl_parser::ParseOptions {
        include_dirs: include_dirs.to_vec(),
    };
    // The syntax tree that places findings needs nothing from the compiler: it is built (when
    // not given) and read on a second thread while the compiler runs.
    let (file, places) = std::thread::scope(|scope| {
        let places = scope.spawn(|| match tree {
            Some(tree) => idl_places::Places::read(text, tree),
            None => idl_places::Places::read(text, &avdl_parser::syntax::parse(text)),
        });
        (
            avdl_parser::parse_file_in(files, path, &options),
            places.join(),
        )
    });
    let file = file.map_err(CheckError::Idl)?;
    let mut places = places.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    places.read_imports(path, &options, files);
    let mut findings = run(
        file.json(),
        Origin::Idl,
        settings,
        &places.declared,
        previous,
    )
    .map_err(|e| located(text, e.to_string(), 0..0))?;
    // Findings about imported types belong to the files that define them.
    findings.retain_mut(|finding| match places.place(finding) {
        Some(span) => {
            finding.span = span;
            true
        }
        None => false,
    });
    Ok(findings)
}

/// A [`CheckError::Json`] at `span` of `text`.
fn located(text: &str, message: String, span: Range<usize>) -> CheckError {
    let (line, column) = Lines::new(text).line_column(span.start);
    CheckError::Json {
        message,
        span,
        line,
        column,
    }
}

/// Runs the rules over schema JSON.
fn run(
    value: &Value,
    origin: Origin,
    settings: &Settings,
    declared: &Declared<'_>,
    previous: Option<&Value>,
) -> Result<Vec<Finding>, SchemaError> {
    let doc = Document::walk(value, origin);
    let model = match origin {
        Origin::Json => Model::built(value, &doc)?,
        Origin::Idl => Model::lazy(value, &doc),
    };
    let mut context = Context::new(&doc, &model, origin, settings);
    rules::run(&mut context, declared);
    if let Some(previous) = previous {
        let old = Document::walk(previous, origin);
        // A previous version that is not a valid schema has nothing to compare with.
        if let Ok(old_set) = model::build(previous, &old) {
            history::check(&mut context, &old, &old_set);
        }
    }
    Ok(context.findings)
}
