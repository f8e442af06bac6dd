//! Go to definition, find references and workspace symbols.

use std::path::{Path, PathBuf};

use super::model::{FileIndex, Item, Span, TypeKind};
use super::workspace::Workspace;

/// A place in a file of the workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// The bytes.
    pub span: Span,
}

/// A named type found by [`workspace_symbols`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolMatch {
    /// Its full name.
    pub full_name: String,
    /// What it is.
    pub kind: TypeKind,
    /// Where its name is declared.
    pub location: Location,
}

/// Where what is at byte `offset` of `path` is declared: a referenced type (in this file,
/// an imported one, or a `.avsc`/`.avpr` file), the file an import names (its start), or
/// the declaration itself when the offset is on one.
pub fn definition(workspace: &Workspace, path: &Path, offset: usize) -> Option<Location> {
    let file = workspace.file(path)?;
    let here = |span: &Span| Location {
        path: file.path.clone(),
        span: span.clone(),
    };
    match file.item_at(offset)? {
        Item::Use(reference) => {
            let (target, ty) = workspace.resolve(file, reference)?;
            Some(Location {
                path: target.path.clone(),
                span: ty.name_span.clone(),
            })
        }
        Item::Import(import) => Some(Location {
            path: import.target.clone()?,
            span: 0..0,
        }),
        Item::Type(ty) => Some(here(&ty.name_span)),
        Item::Field(_, field) => Some(here(&field.name_span)),
        Item::Symbol(_, symbol) => Some(here(&symbol.span)),
        Item::Message(message) => Some(here(&message.span)),
    }
}

/// The full name of the type at byte `offset` of `file`: a declaration's, or the type a
/// reference resolves to.
pub fn type_at(workspace: &Workspace, file: &FileIndex, offset: usize) -> Option<String> {
    match file.item_at(offset)? {
        Item::Type(ty) => Some(ty.full_name.clone()),
        Item::Use(reference) => Some(workspace.resolve(file, reference)?.1.full_name.clone()),
        _ => None,
    }
}

/// Every reference to the type at byte `offset` of `path`, across the workspace, and its
/// declarations when `include_declaration`; for a field or symbol, only its declaration
/// (IDL and JSON schemas name fields nowhere else). Sorted by file and place.
pub fn references(
    workspace: &Workspace,
    path: &Path,
    offset: usize,
    include_declaration: bool,
) -> Vec<Location> {
    let Some(file) = workspace.file(path) else {
        return Vec::new();
    };
    let Some(full_name) = type_at(workspace, file, offset) else {
        return match (include_declaration, definition(workspace, path, offset)) {
            (true, Some(location)) if !matches!(file.item_at(offset), Some(Item::Import(_))) => {
                vec![location]
            }
            _ => Vec::new(),
        };
    };
    let mut out = type_references(workspace, &full_name);
    if include_declaration {
        out.extend(workspace.definitions(&full_name).map(|(f, ty)| Location {
            path: f.path.clone(),
            span: ty.name_span.clone(),
        }));
    }
    out.sort_by(|a, b| (&a.path, a.span.start).cmp(&(&b.path, b.span.start)));
    out
}

/// Every reference to `full_name` in the workspace.
pub fn type_references(workspace: &Workspace, full_name: &str) -> Vec<Location> {
    let mut out = Vec::new();
    for file in workspace.files() {
        for reference in &file.uses {
            let resolved = workspace.resolve(file, reference);
            if resolved.is_some_and(|(_, ty)| ty.full_name == full_name) {
                out.push(Location {
                    path: file.path.clone(),
                    span: reference.span.clone(),
                });
            }
        }
    }
    out
}

/// The named types whose full name contains `query` (ignoring case), or, failing that, has
/// its characters in order (`stmv` finds `StockMoved`); contained matches first, then by
/// name. An empty query lists every type.
pub fn workspace_symbols(workspace: &Workspace, query: &str) -> Vec<SymbolMatch> {
    let query = query.to_lowercase();
    let mut found: Vec<(bool, SymbolMatch)> = Vec::new();
    for file in workspace.files() {
        for ty in &file.types {
            let name = ty.full_name.to_lowercase();
            let contained = name.contains(&query);
            if contained || in_order(&query, &name) {
                found.push((
                    !contained,
                    SymbolMatch {
                        full_name: ty.full_name.clone(),
                        kind: ty.kind,
                        location: Location {
                            path: file.path.clone(),
                            span: ty.name_span.clone(),
                        },
                    },
                ));
            }
        }
    }
    found.sort_by(|(a_fuzzy, a), (b_fuzzy, b)| {
        (a_fuzzy, &a.full_name, &a.location.path).cmp(&(b_fuzzy, &b.full_name, &b.location.path))
    });
    found.into_iter().map(|(_, m)| m).collect()
}

/// Whether the characters of `query` appear in `name` in order.
fn in_order(query: &str, name: &str) -> bool {
    let mut rest = name.chars();
    query.chars().all(|q| rest.any(|c| c == q))
}
