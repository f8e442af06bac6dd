//! The problems of a document, as LSP diagnostics: syntax errors from the syntax tree, then
//! (for a file that follows the grammar) the compiler's errors and the linter's findings at
//! the levels of the file's `avdl2rs.toml`, with the rule id as the code.
//!
//! The syntax tree recovers from errors and reports them all at once, where the compiler
//! stops at its first syntax error: a file with syntax errors gets those only.

use std::ops::Range;
use std::path::{Path, PathBuf};

use avdl2rs_lint::{CheckError, Finding, Level, Settings, Source};
use avdl_parser::syntax::ast::{AstNode, Import};
use avdl_parser::{FileSystem, SourceFiles};
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
    let syntax = syntax_errors(document);
    let mut checked = compile_and_lint(document, documents, workspace);
    if !syntax.is_empty() {
        // The compiler's first error is kept beside the tree's when it says something of its
        // own (it knows misspelt keywords); findings cannot be, the file does not compile.
        checked.diagnostics.retain(|d| {
            d.source.as_deref() == Some(COMPILER)
                && !syntax.iter().any(|s| s.range.start == d.range.start)
        });
        checked.diagnostics.extend(syntax);
        checked.diagnostics.sort_by_key(|d| d.range.start);
    }
    checked
}

/// The compiler's errors, or the lint findings, of `document`.
fn compile_and_lint(
    document: &Document,
    documents: &Documents,
    workspace: &mut Workspace,
) -> Checked {
    let mut diagnostics = Vec::new();
    let settings = match workspace.config(document.path.as_deref()) {
        Ok(config) => config.lint,
        Err(error) => {
            let message = format!("settings not read, defaults used: {error}");
            diagnostics.push(diagnostic(document, 0..0, message));
            Settings::default()
        }
    };
    let files = Overlay::new(documents);
    let name = document.uri.as_str();
    let source = match (document.language, &document.path) {
        (Language::Json, _) => Source::json(name, &document.text),
        (Language::Idl, Some(path)) => {
            let source = Source::idl(name, &document.text, path, &workspace.include_dirs);
            // The document's tree is of its text: the check need not build it again.
            match &document.tree {
                Some(tree) => source.with_tree(tree.clone()),
                None => source,
            }
        }
        // An IDL buffer that is no file: no folder to resolve its imports against.
        (Language::Idl, None) => {
            let reads = Vec::new();
            return Checked { diagnostics, reads };
        }
    };
    match avdl2rs_lint::check_in(&files, &source, &settings, None) {
        Ok(findings) => {
            diagnostics.extend(findings.iter().filter_map(|f| finding(document, f)));
        }
        Err(CheckError::Idl(error)) => {
            let errors = std::iter::once(&error).chain(error.related_errors());
            let include_dirs = &workspace.include_dirs;
            diagnostics.extend(errors.map(|e| compile_error(document, include_dirs, e)));
        }
        Err(CheckError::Json { message, span, .. }) => {
            diagnostics.push(diagnostic(document, span, message));
        }
    }
    Checked {
        diagnostics,
        reads: files.into_read(),
    }
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

/// A compiler error: at its place when it is in the document, else at the import that
/// brings in the file it is in, naming that file (and linking to it).
fn compile_error(
    document: &Document,
    include_dirs: &[PathBuf],
    error: &avdl_parser::Error,
) -> Diagnostic {
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
        _ => elsewhere(document, include_dirs, error, message),
    }
}

/// An error in another file, reported at the import of that file (at the start of the
/// document when it is imported through another file), linking to its place there.
fn elsewhere(
    document: &Document,
    include_dirs: &[PathBuf],
    error: &avdl_parser::Error,
    message: String,
) -> Diagnostic {
    let file = error.file().map(PathBuf::from);
    let span = file
        .as_deref()
        .and_then(|file| import_of(document, include_dirs, file))
        .unwrap_or(0..0);
    let mut diagnostic = diagnostic(document, span, format!("{error}"));
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

/// The bytes of the document's import statement of `file`, found beside the document or in
/// an include directory, as the compiler looks for it.
fn import_of(document: &Document, include_dirs: &[PathBuf], file: &Path) -> Option<Range<usize>> {
    let file = FileSystem.identity(file);
    let folder = document.path.as_deref()?.parent()?;
    let tree = document.tree.as_ref()?.tree();
    let body = tree.protocol().and_then(|protocol| protocol.body());
    let imports: Vec<Import> = match &body {
        Some(body) => body.imports().collect(),
        None => tree.imports().collect(),
    };
    imports.into_iter().find_map(|import| {
        let written = import.path_value()?;
        let mut candidates =
            std::iter::once(folder).chain(include_dirs.iter().map(PathBuf::as_path));
        candidates
            .any(|dir| FileSystem.identity(&dir.join(&written)) == file)
            .then(|| import.syntax().text_range().into())
    })
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
