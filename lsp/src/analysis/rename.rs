//! Rename of a named type (its declarations and every reference across the workspace) or of
//! a field, optionally keeping the old name as an alias.
//!
//! Avro readers match a type or a field by name, then by the reader's aliases: a rename
//! that adds the old name to the aliases keeps reading data written under the old name, so
//! the change stays compatible. Whether a rename does it is the caller's choice (the
//! server's `[lsp] rename-keeps-alias` setting).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use avdl_parser::syntax::lex;

use super::model::{Edit, FileEdits, FileIndex, FileKind, Item, Span};
use super::navigation::type_references;
use super::workspace::Workspace;

/// What can be renamed at byte `offset` of `path`: the span of the simple name (the last
/// part of a dotted name) and the name, for a type's declaration or reference, or a field.
pub fn prepare_rename(workspace: &Workspace, path: &Path, offset: usize) -> Option<(Span, String)> {
    let file = workspace.file(path)?;
    let span = match file.item_at(offset)? {
        Item::Type(ty) => last_part(file, &ty.name_span),
        Item::Use(reference) => {
            workspace.resolve(file, reference)?;
            last_part(file, &reference.span)
        }
        Item::Field(_, field) => field.name_span.clone(),
        _ => return None,
    };
    let name = file.text[span.clone()].replace('`', "");
    Some((span, name))
}

/// The edits renaming what is at byte `offset` of `path` to `new_name` (a simple name; a
/// type keeps its namespace), adding the old name (a type's full name) to the aliases when
/// `keep_alias`. An error says why the rename cannot be done.
pub fn rename(
    workspace: &Workspace,
    path: &Path,
    offset: usize,
    new_name: &str,
    keep_alias: bool,
) -> Result<Vec<FileEdits>, String> {
    if !is_avro_name(new_name) {
        return Err(format!(
            "`{new_name}` is not an Avro name: a letter or `_`, then letters, digits or `_`"
        ));
    }
    let file = workspace
        .file(path)
        .ok_or_else(|| format!("{} is not indexed", path.display()))?;
    let mut edits: BTreeMap<PathBuf, Vec<Edit>> = BTreeMap::new();
    let mut add = |file: &FileIndex, span: Span, text: String| {
        edits
            .entry(file.path.clone())
            .or_default()
            .push(Edit { span, text });
    };
    match file.item_at(offset) {
        Some(Item::Field(record, field)) => {
            if record.fields.iter().any(|f| f.name == new_name) {
                return Err(format!(
                    "`{}` already has a field `{new_name}`",
                    record.full_name
                ));
            }
            add(file, field.name_span.clone(), written(file, new_name));
            if keep_alias && !field.aliases.contains(&field.name) {
                let (at, text) = field.alias_place.insertion(&field.name);
                add(file, at..at, text);
            }
        }
        Some(Item::Type(_) | Item::Use(_)) => {
            let old = super::navigation::type_at(workspace, file, offset)
                .ok_or_else(|| "no declaration of this type in the workspace".to_owned())?;
            let renamed = super::model::full_name(new_name, super::model::namespace_of(&old));
            if workspace.definitions(&renamed).next().is_some() {
                return Err(format!("`{renamed}` is already declared"));
            }
            for (declaring, ty) in workspace.definitions(&old) {
                let name = written(declaring, new_name);
                add(declaring, last_part(declaring, &ty.name_span), name);
                if keep_alias && !ty.aliases.contains(&old) {
                    let (at, text) = ty.alias_place.insertion(&old);
                    add(declaring, at..at, text);
                }
            }
            for reference in type_references(workspace, &old) {
                let Some(referring) = workspace.file(&reference.path) else {
                    continue;
                };
                let name = written(referring, new_name);
                add(referring, last_part(referring, &reference.span), name);
            }
        }
        _ => return Err("only a named type or a field can be renamed".to_owned()),
    }
    Ok(edits
        .into_iter()
        .map(|(path, mut edits)| {
            edits.sort_by_key(|e| (e.span.start, e.span.end));
            FileEdits { path, edits }
        })
        .collect())
}

/// `name` as `file` writes it: IDL quotes a keyword in backticks.
fn written(file: &FileIndex, name: &str) -> String {
    match file.kind {
        FileKind::Idl if is_keyword(name) => format!("`{name}`"),
        _ => name.to_owned(),
    }
}

/// The last part of the dotted name written at `span` of `file`.
fn last_part(file: &FileIndex, span: &Span) -> Span {
    let written = &file.text[span.clone()];
    match written.rfind('.') {
        Some(dot) => span.start + dot + 1..span.end,
        None => span.clone(),
    }
}

/// Whether `name` is an Avro name (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn is_avro_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `name` is an IDL keyword, which IDL writes in backticks.
fn is_keyword(name: &str) -> bool {
    matches!(lex(name).as_slice(), [token] if token.kind.is_keyword())
}
