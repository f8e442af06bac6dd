//! The compatibility diagnostic: each named type of a file, as it is now, checked at a
//! Schema Registry level against the same type in the file as it was at a git revision
//! (`[lsp] compat = { level = "BACKWARD", against = "HEAD" }`), by the runtime's checker.
//!
//! Each incompatibility is placed on the field at fault (the first field its location
//! names), else on the type's name. Those the checker finds inside a nested record are left
//! to that record's own check (in this file, or in the file that declares it), so that none
//! is reported twice.

use std::path::Path;

use avdl2rs::compat::{check, CompatLevel, Direction, IncompatibilityKind, SchemaRef};
use avdl2rs_lint::git::Revision;
use avdl2rs_schema::{Name, Schema};
use serde_json::Value;

use super::compiled;
use super::model::{FileIndex, FileKind, Span, TypeDef};
use super::workspace::Workspace;

/// One incompatibility, placed in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct CompatDiagnostic {
    /// The field or type name at fault.
    pub span: Span,
    /// What is wrong, with the level and revision.
    pub message: String,
    /// The kind of incompatibility (the Java checker's names).
    pub kind: IncompatibilityKind,
}

/// The incompatibilities of the file at `path` with itself at git revision `against`, at
/// `level`. None when the file does not compile now (its other diagnostics say why) or did
/// not exist at the revision; an error when the revision cannot be read or its version of
/// the file does not compile.
pub fn compat_diagnostics(
    workspace: &Workspace,
    path: &Path,
    level: CompatLevel,
    against: &str,
) -> Result<Vec<CompatDiagnostic>, String> {
    compiled::deep(|| compare(workspace, path, level, against))
        .unwrap_or_else(|| Err("the compatibility check could not run".to_owned()))
}

/// [`compat_diagnostics`], on the calling thread.
fn compare(
    workspace: &Workspace,
    path: &Path,
    level: CompatLevel,
    against: &str,
) -> Result<Vec<CompatDiagnostic>, String> {
    let Some(file) = workspace.file(path) else {
        return Ok(Vec::new());
    };
    let Some(now) = workspace.compiled(file) else {
        return Ok(Vec::new());
    };
    let new = &now.set;
    let revision = Revision::open(against, &file.path).map_err(|e| e.to_string())?;
    if !revision.has(&file.path) {
        return Ok(Vec::new());
    }
    let old = previous(workspace, file, &revision)?;
    let old = compiled::schema_set(&old)
        .ok_or_else(|| format!("{against}: the file's schemas do not parse"))?;
    let mut out = Vec::new();
    for ty in &file.types {
        if old.get(&ty.full_name).is_none() || new.get(&ty.full_name).is_none() {
            continue;
        }
        let schema = Schema::named(Name::parse(&ty.full_name, None));
        let violations = check(
            level,
            SchemaRef::new(new, &schema),
            &[SchemaRef::new(&old, &schema)],
        );
        for violation in violations {
            let problem = &violation.incompatibility;
            let Some(span) = place(ty, &problem.location) else {
                continue;
            };
            let reads = match violation.direction {
                Direction::Backward => {
                    format!("this version cannot read data written at {against}")
                }
                Direction::Forward => {
                    format!("the version at {against} cannot read data written now")
                }
            };
            out.push(CompatDiagnostic {
                span,
                message: format!("{level} compatibility: {reads}: {}", problem.message),
                kind: problem.kind,
            });
        }
    }
    Ok(out)
}

/// The schema JSON of the file at `path` as it was at git revision `against`; `None` when
/// the revision lacks the file or it does not compile there. The linter's previous version.
pub fn previous_json(workspace: &Workspace, path: &Path, against: &str) -> Option<Value> {
    let file = workspace.file(path)?;
    let revision = Revision::open(against, &file.path).ok()?;
    match revision.has(&file.path) {
        true => previous(workspace, file, &revision).ok(),
        false => None,
    }
}

/// The file's schema JSON at `revision`.
fn previous(workspace: &Workspace, file: &FileIndex, revision: &Revision) -> Result<Value, String> {
    match file.kind {
        FileKind::Idl => {
            let options = avdl_parser::ParseOptions {
                include_dirs: workspace.include_dirs().to_vec(),
            };
            let parsed = avdl_parser::parse_file_in(revision, &file.path, &options)
                .map_err(|e| e.to_string())?;
            Ok(parsed.json().clone())
        }
        FileKind::Schema | FileKind::Protocol => {
            let text = revision.read_text(&file.path).map_err(|e| e.to_string())?;
            avdl2rs_lint::json_text::JsonText::parse(&text)
                .map(|json| json.value)
                .map_err(|e| e.message)
        }
    }
}

/// Where an incompatibility at `location` (`/fields/amount/type/...`) of `ty` is shown:
/// the field it names, else the type's name; `None` when it lies in a nested record.
fn place(ty: &TypeDef, location: &str) -> Option<Span> {
    let mut parts = location.split('/').skip(1);
    if parts.next() != Some("fields") {
        return Some(ty.name_span.clone());
    }
    let name = parts.next()?.replace("~1", "/").replace("~0", "~");
    if parts.any(|p| p == "fields") {
        return None;
    }
    let field = ty.fields.iter().find(|f| f.name == name);
    Some(field.map_or(ty.name_span.clone(), |f| f.name_span.clone()))
}
