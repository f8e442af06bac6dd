//! The problems of a document, as LSP diagnostics: syntax errors from the syntax tree, then
//! (for a file that follows the grammar) the compiler's errors and the linter's findings at
//! the levels of the file's `avdl2rs.toml`, with the rule id as the code.
//!
//! The syntax tree recovers from errors and reports them all at once, where the compiler
//! stops at its first syntax error: a file with syntax errors gets those only.

use std::ops::Range;
use std::path::PathBuf;

use avdl2rs_lint::{CheckError, Finding, Level, Settings, Source};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
};

use crate::documents::{Document, Documents, Language};
use crate::files::Overlay;
use crate::workspace::{path_to_uri, Workspace};

/// The `source` of diagnostics from the syntax tree and the compiler.
const COMPILER: &str = "avdl2rs";
/// The `source` of lint findings.
const LINT: &str = "avdl2rs-lint";

/// A document's diagnostics and the files read to find them.
pub struct Checked {
    /// What is wrong, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
    /// The identities of the files read (the document and its imports).
    pub reads: Vec<PathBuf>,
}

/// Checks `document`, reading the files it imports from `documents` when open there.
pub fn check(document: &Document, documents: &Documents, workspace: &mut Workspace) -> Checked {
    let mut checked = Checked {
        diagnostics: syntax_errors(document),
        reads: Vec::new(),
    };
    if !checked.diagnostics.is_empty() {
        return checked;
    }
    let settings = match workspace.config(document.path.as_deref()) {
        Ok(config) => config.lint,
        Err(error) => {
            let message = format!("settings not read, defaults used: {error}");
            checked
                .diagnostics
                .push(diagnostic(document, 0..0, message));
            Settings::default()
        }
    };
    let files = Overlay::new(documents);
    let name = document.uri.as_str();
    let source = match (document.language, &document.path) {
        (Language::Json, _) => Source::json(name, &document.text),
        (Language::Idl, Some(path)) => {
            Source::idl(name, &document.text, path, &workspace.include_dirs)
        }
        // An IDL buffer that is no file: no folder to resolve its imports against.
        (Language::Idl, None) => return checked,
    };
    match avdl2rs_lint::check_in(&files, &source, &settings, None) {
        Ok(findings) => {
            let findings = findings.iter().filter_map(|f| finding(document, f));
            checked.diagnostics.extend(findings);
        }
        Err(CheckError::Idl(error)) => {
            let errors = std::iter::once(&error).chain(error.related_errors());
            let compile = errors.map(|e| compile_error(document, e));
            checked.diagnostics.extend(compile);
        }
        Err(CheckError::Json { message, span, .. }) => {
            checked
                .diagnostics
                .push(diagnostic(document, span, message));
        }
    }
    checked.reads = files.into_read();
    checked
}

/// The syntax errors of an IDL document's tree.
fn syntax_errors(document: &Document) -> Vec<Diagnostic> {
    let Some(tree) = &document.tree else {
        return Vec::new();
    };
    tree.errors()
        .iter()
        .map(|error| diagnostic(document, error.range.into(), error.message.clone()))
        .collect()
}

/// An error-level diagnostic of the compiler at bytes `span`.
fn diagnostic(document: &Document, span: Range<usize>, message: String) -> Diagnostic {
    Diagnostic {
        range: document.range(span),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(COMPILER.to_owned()),
        message,
        ..Diagnostic::default()
    }
}

/// A compiler error: at its place when it is in the document, else at the start of the
/// document, naming the imported file it is in (and linking to it).
fn compile_error(document: &Document, error: &avdl_parser::Error) -> Diagnostic {
    let message = match error.help_text() {
        Some(help) => format!("{}\nhelp: {help}", error.message()),
        None => error.message().to_owned(),
    };
    let path = document
        .path
        .as_deref()
        .map(|path| path.display().to_string());
    let in_document = error.file().is_some() && error.file() == path.as_deref();
    match error.span() {
        Some(span) if in_document => diagnostic(document, span, message),
        _ => elsewhere(document, error, message),
    }
}

/// An error in another file (an import), reported at the start of the document.
fn elsewhere(document: &Document, error: &avdl_parser::Error, message: String) -> Diagnostic {
    let mut diagnostic = diagnostic(document, 0..0, format!("{error}"));
    let file = error.file().map(PathBuf::from);
    let place = file
        .as_deref()
        .and_then(path_to_uri)
        .zip(error.line_column());
    if let Some((uri, (line, _))) = place {
        // The line of the error; its column counts characters, not UTF-16 units.
        let at = lsp_types::Position::new(line.saturating_sub(1) as u32, 0);
        diagnostic.related_information = Some(vec![DiagnosticRelatedInformation {
            location: Location::new(uri, lsp_types::Range::new(at, at)),
            message,
        }]);
    }
    diagnostic
}

/// A lint finding at its level; `None` for a rule turned off.
fn finding(document: &Document, finding: &Finding) -> Option<Diagnostic> {
    let severity = match finding.level {
        Level::Allow => return None,
        Level::Warn => DiagnosticSeverity::WARNING,
        Level::Error => DiagnosticSeverity::ERROR,
    };
    let message = match &finding.help {
        Some(help) => format!("{}\nhelp: {help}", finding.message),
        None => finding.message.clone(),
    };
    Some(Diagnostic {
        range: document.range(finding.span.clone()),
        severity: Some(severity),
        code: Some(NumberOrString::String(finding.rule.id().to_owned())),
        source: Some(LINT.to_owned()),
        message,
        ..Diagnostic::default()
    })
}
