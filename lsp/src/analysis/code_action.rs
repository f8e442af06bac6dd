//! Code actions: quick fixes for the mechanical lint findings, and "Convert to IDL" for a
//! `.avsc` or `.avpr` file.
//!
//! The fixes work from a finding's rule and subject (which type, which field), found in the
//! index: `nullable-default` puts `null` first and makes it the default,
//! `enum-default` adds a default symbol (one action per symbol), `rename-without-alias`
//! adds the old name the finding's help names to the aliases.

use std::path::{Path, PathBuf};

use avdl2rs_lint::{Finding, Rule, Subject};
use serde_json::Value;

use super::model::{Edit, FieldDef, FileEdits, FileIndex, FileKind, TypeDef};
use super::workspace::Workspace;

/// A code action: a title and the edits it makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the action does, as the editor lists it.
    pub title: String,
    /// Its edits.
    pub edits: Vec<FileEdits>,
}

/// A file to create, with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFile {
    /// Where.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// The quick fixes of `finding`, a lint finding of the file at `path`; none for rules
/// whose fix is not mechanical, or when the subject is not found in the index.
pub fn lint_fixes(workspace: &Workspace, path: &Path, finding: &Finding) -> Vec<Fix> {
    let Some(file) = workspace.file(path) else {
        return Vec::new();
    };
    let fix = |title: String, edits: Vec<Edit>| Fix {
        title,
        edits: vec![FileEdits {
            path: file.path.clone(),
            edits,
        }],
    };
    match (finding.rule, &finding.subject) {
        (
            Rule::NullableDefault,
            Subject::FieldType(record, name) | Subject::Default(record, name),
        ) => field(file, record, name)
            .and_then(|field| optional(file, field))
            .map(|edits| {
                fix(
                    format!("Make `{name}` optional: `null` first and by default"),
                    edits,
                )
            })
            .into_iter()
            .collect(),
        (Rule::EnumDefault, Subject::Type(name)) => {
            let Some(ty) = file.type_named(name) else {
                return Vec::new();
            };
            let Some(at) = ty.enum_default_at else {
                return Vec::new();
            };
            ty.symbols
                .iter()
                .map(|symbol| {
                    let text = match file.kind {
                        FileKind::Idl => format!(" = {};", symbol.name),
                        _ => format!(", \"default\": {}", Value::from(symbol.name.as_str())),
                    };
                    let title = format!("Add the default symbol `{}`", symbol.name);
                    fix(title, vec![Edit { span: at..at, text }])
                })
                .collect()
        }
        (Rule::RenameWithoutAlias, subject) => {
            let Some(old) = old_name(finding) else {
                return Vec::new();
            };
            let place = match subject {
                Subject::Type(name) => file.type_named(name).map(|t| t.alias_place),
                Subject::Field(record, name) => field(file, record, name).map(|f| f.alias_place),
                _ => None,
            };
            place
                .map(|place| {
                    let (at, text) = place.insertion(&old);
                    let title = format!("Add the alias `{old}`");
                    fix(title, vec![Edit { span: at..at, text }])
                })
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The field `name` of the record `record` declared in `file`.
fn field<'a>(file: &'a FileIndex, record: &str, name: &str) -> Option<&'a FieldDef> {
    let ty: &TypeDef = file.type_named(record)?;
    ty.fields.iter().find(|f| f.name == name)
}

/// The edits that make a union field's first branch `null` and its default `null`.
fn optional(file: &FileIndex, field: &FieldDef) -> Option<Vec<Edit>> {
    let mut edits = Vec::new();
    let retyped = match file.kind {
        FileKind::Idl if field.ty.ends_with('?') => None,
        FileKind::Idl => Some(idl_union_null_first(&field.ty)?),
        _ => Some(json_union_null_first(&field.ty)?),
    };
    if let Some(text) = retyped {
        edits.push(Edit {
            span: field.ty_span.clone(),
            text,
        });
    }
    edits.push(match (&field.default_span, file.kind) {
        (Some(span), _) => Edit {
            span: span.clone(),
            text: "null".to_owned(),
        },
        (None, FileKind::Idl) => Edit {
            span: field.name_span.end..field.name_span.end,
            text: " = null".to_owned(),
        },
        (None, _) => Edit {
            span: field.ty_span.end..field.ty_span.end,
            text: ", \"default\": null".to_owned(),
        },
    });
    edits.sort_by_key(|e| e.span.start);
    Some(edits)
}

/// `union { A, null, B }` as `union { null, A, B }`.
fn idl_union_null_first(ty: &str) -> Option<String> {
    let inner = ty.strip_prefix("union")?.trim();
    let inner = inner.strip_prefix('{')?.strip_suffix('}')?;
    let mut members = split_top_level(inner);
    let at = members.iter().position(|m| m == "null")?;
    let null = members.remove(at);
    members.insert(0, null);
    Some(format!("union {{ {} }}", members.join(", ")))
}

/// The members of a union's body, split at the commas outside nested brackets.
fn split_top_level(body: &str) -> Vec<String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (at, c) in body.char_indices() {
        match c {
            '<' | '(' | '{' | '[' => depth += 1,
            '>' | ')' | '}' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(body[start..at].trim().to_owned());
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push(body[start..].trim().to_owned());
    out.retain(|m| !m.is_empty());
    out
}

/// A JSON union with `"null"` moved first.
fn json_union_null_first(ty: &str) -> Option<String> {
    let Value::Array(mut branches) = serde_json::from_str(ty).ok()? else {
        return None;
    };
    let at = branches.iter().position(|b| b == "null")?;
    let null = branches.remove(at);
    branches.insert(0, null);
    Some(Value::Array(branches).to_string())
}

/// The old name a `rename-without-alias` finding's help names (`add @aliases(["old"])`).
fn old_name(finding: &Finding) -> Option<String> {
    let help = finding.help.as_deref()?;
    let start = help.find("@aliases([")? + "@aliases([".len();
    let end = start + help[start..].find("])")?;
    serde_json::from_str(&help[start..end]).ok()
}

/// "Convert to IDL": the `.avdl` file beside a `.avsc` or `.avpr` one (same name), written
/// by the IDL writer the CLI's `toidl` uses. An error says why it cannot be done (IDL
/// cannot say everything JSON can).
pub fn convert_to_idl(workspace: &Workspace, path: &Path) -> Result<NewFile, String> {
    let file = workspace
        .file(path)
        .ok_or_else(|| format!("{} is not indexed", path.display()))?;
    if file.kind == FileKind::Idl {
        return Err("the file is IDL already".to_owned());
    }
    let json = avdl2rs_lint::json_text::JsonText::parse(&file.text)
        .map_err(|e| format!("not JSON: {}", e.message))?
        .value;
    avdl2rs_schema::SchemaSet::new()
        .parse_file_value(&json)
        .map_err(|e| e.to_string())?;
    let indent = avdl_parser::idl_writer::Indent { width: 2 };
    let text = avdl_parser::idl_writer::to_idl(&json, indent)
        .map_err(|e| format!("IDL cannot say this: {e}"))?;
    Ok(NewFile {
        path: file.path.with_extension("avdl"),
        text,
    })
}
