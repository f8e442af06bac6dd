//! Completion: what may be written at a place of a file.
//!
//! In IDL: after `@`, the annotations the compiler knows; in the string of an `import`, the
//! files beside the current one that the import reads (and folders); elsewhere the
//! keywords, the primitive and logical types, and the named types in scope (declared in the
//! file or in what it imports), by simple name in the file's namespace and by full name
//! outside it. In a string of a `.avsc` or `.avpr` file: the primitive types and the full
//! names of the workspace's types.

use std::path::Path;

use super::model::{namespace_of, FileIndex, FileKind, Span, TypeDef};
use super::workspace::Workspace;

/// What a completion is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A named type.
    Type,
    /// A primitive or logical type.
    Primitive,
    /// A keyword.
    Keyword,
    /// An annotation.
    Annotation,
    /// A file to import.
    File,
    /// A folder on the way to a file to import.
    Folder,
}

/// One proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// What the list shows.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// More about it (a type's full name, an annotation's use).
    pub detail: Option<String>,
    /// The text written.
    pub insert: String,
    /// Whether `insert` is a snippet (`$1`, `${1:name}` tab stops).
    pub snippet: bool,
    /// The bytes it replaces: the word being typed.
    pub replace: Span,
}

/// IDL keywords that start or continue a declaration.
const KEYWORDS: &[&str] = &[
    "protocol",
    "namespace",
    "schema",
    "import",
    "idl",
    "record",
    "error",
    "enum",
    "fixed",
    "void",
    "oneway",
    "throws",
    "true",
    "false",
];

/// Primitive and logical types, with what each is.
const PRIMITIVES: &[(&str, &str)] = &[
    ("null", "no value"),
    ("boolean", "true or false"),
    ("int", "32-bit signed integer"),
    ("long", "64-bit signed integer"),
    ("float", "32-bit IEEE 754 floating point"),
    ("double", "64-bit IEEE 754 floating point"),
    ("bytes", "a sequence of bytes"),
    ("string", "a UTF-8 string"),
    ("date", "logical: days since the Unix epoch (int)"),
    ("time_ms", "logical: milliseconds after midnight (int)"),
    (
        "timestamp_ms",
        "logical: milliseconds since the Unix epoch, UTC (long)",
    ),
    (
        "local_timestamp_ms",
        "logical: milliseconds since the Unix epoch, local time (long)",
    ),
    ("uuid", "logical: a UUID (string)"),
];

/// Types written with parameters, as snippets.
const TYPE_SNIPPETS: &[(&str, &str, &str)] = &[
    (
        "decimal(p,s)",
        "decimal(${1:precision}, ${2:scale})",
        "logical: a decimal number of a precision and scale (bytes)",
    ),
    ("array<T>", "array<$1>", "a list of items"),
    ("map<T>", "map<$1>", "string keys to values"),
    ("union { … }", "union { $1 }", "one of several types"),
];

/// Annotations, with their snippets and what they do.
const ANNOTATIONS: &[(&str, &str, &str)] = &[
    (
        "namespace",
        "namespace(\"$1\")",
        "the namespace of a protocol or type",
    ),
    (
        "aliases",
        "aliases([\"$1\"])",
        "former names of a type or field",
    ),
    (
        "order",
        "order(\"${1|ascending,descending,ignore|}\")",
        "how a field sorts",
    ),
    (
        "logicalType",
        "logicalType(\"$1\")",
        "the logical type of a primitive",
    ),
    (
        "java-class",
        "java-class(\"$1\")",
        "the Java class of a string",
    ),
    (
        "java-key-class",
        "java-key-class(\"$1\")",
        "the Java class of map keys",
    ),
    (
        "deprecated",
        "deprecated(true)",
        "a custom property the generator keeps",
    ),
];

/// The proposals at byte `offset` of `path`.
pub fn complete(workspace: &Workspace, path: &Path, offset: usize) -> Vec<Completion> {
    let Some(file) = workspace.file(path) else {
        return Vec::new();
    };
    let Some(before) = file.text.get(..offset) else {
        return Vec::new();
    };
    let line = &before[before.rfind('\n').map_or(0, |at| at + 1)..];
    let open_string = line.matches('"').count() % 2 == 1;
    if file.kind != FileKind::Idl {
        // In an open string, the last quote before the cursor opens it.
        let string_start = before.rfind('"').map_or(offset, |at| at + 1);
        return match open_string {
            true => json_types(workspace, string_start..offset),
            false => Vec::new(),
        };
    }
    if open_string {
        return import_paths(file, line, offset);
    }
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '.' | '`' | '-'))
        .last()
        .map_or(offset, |(at, _)| at);
    let replace = start..offset;
    if before[..start].ends_with('@') {
        return ANNOTATIONS
            .iter()
            .map(|(label, insert, detail)| {
                proposal(
                    label,
                    CompletionKind::Annotation,
                    detail,
                    insert,
                    true,
                    &replace,
                )
            })
            .collect();
    }
    let mut out: Vec<Completion> = KEYWORDS
        .iter()
        .map(|k| proposal(k, CompletionKind::Keyword, "", k, false, &replace))
        .collect();
    out.extend(primitives(PRIMITIVES, &replace));
    out.extend(TYPE_SNIPPETS.iter().map(|(label, insert, detail)| {
        proposal(
            label,
            CompletionKind::Primitive,
            detail,
            insert,
            true,
            &replace,
        )
    }));
    out.extend(types_in_scope(workspace, file, &replace));
    out
}

/// The proposals of `names`, primitive types written as they are named.
fn primitives<'a>(
    names: &'a [(&'a str, &'a str)],
    replace: &'a Span,
) -> impl Iterator<Item = Completion> + 'a {
    names.iter().map(move |(name, detail)| {
        proposal(
            name,
            CompletionKind::Primitive,
            detail,
            name,
            false,
            replace,
        )
    })
}

/// One proposal.
fn proposal(
    label: &str,
    kind: CompletionKind,
    detail: &str,
    insert: &str,
    snippet: bool,
    replace: &Span,
) -> Completion {
    Completion {
        label: label.to_owned(),
        kind,
        detail: (!detail.is_empty()).then(|| detail.to_owned()),
        insert: insert.to_owned(),
        snippet,
        replace: replace.clone(),
    }
}

/// The named types of `file` and of the files it imports, each written as `file` can refer
/// to it.
fn types_in_scope(workspace: &Workspace, file: &FileIndex, replace: &Span) -> Vec<Completion> {
    let imported = workspace.imported(file);
    let mut types: Vec<&TypeDef> = file.types.iter().collect();
    for other in workspace.files().filter(|f| imported.contains(&f.path)) {
        types.extend(&other.types);
    }
    let mut out: Vec<Completion> = types
        .into_iter()
        .map(|ty| {
            let local = namespace_of(&ty.full_name) == file.namespace.as_deref();
            let written = match local {
                true => super::model::simple_name(&ty.full_name),
                false => ty.full_name.as_str(),
            };
            let detail = format!("{} {}", ty.kind.keyword(), ty.full_name);
            proposal(
                written,
                CompletionKind::Type,
                &detail,
                written,
                false,
                replace,
            )
        })
        .collect();
    out.sort_by(|a, b| a.label.cmp(&b.label));
    out.dedup_by(|a, b| a.label == b.label);
    out
}

/// In a JSON string: the primitive types and every type of the workspace by full name.
fn json_types(workspace: &Workspace, replace: Span) -> Vec<Completion> {
    let mut out: Vec<Completion> = primitives(&PRIMITIVES[..8], &replace).collect();
    let mut names: Vec<(&str, &TypeDef)> = workspace
        .files()
        .flat_map(|f| f.types.iter().map(|t| (t.full_name.as_str(), t)))
        .collect();
    names.sort_by_key(|(name, _)| *name);
    names.dedup_by_key(|(name, _)| *name);
    out.extend(names.into_iter().map(|(name, ty)| {
        let detail = ty.kind.keyword();
        proposal(name, CompletionKind::Type, detail, name, false, &replace)
    }));
    out
}

/// In the string of an `import`: the folders and files (of the kind it reads) in the
/// folder typed so far, relative to the file.
fn import_paths(file: &FileIndex, line: &str, offset: usize) -> Vec<Completion> {
    let quote = line.rfind('"').unwrap_or(0);
    let head: Vec<&str> = line[..quote].split_whitespace().collect();
    let extension = match head.as_slice() {
        [.., "import", "idl"] => "avdl",
        [.., "import", "protocol"] => "avpr",
        [.., "import", "schema"] => "avsc",
        _ => return Vec::new(),
    };
    let typed = &line[quote + 1..];
    let folder = typed.rfind('/').map_or("", |at| &typed[..=at]);
    let replace = offset - (typed.len() - folder.len())..offset;
    let dir = file.path.parent().unwrap_or(Path::new("")).join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if name.starts_with('.') || path == file.path {
            continue;
        }
        if path.is_dir() {
            let insert = format!("{name}/");
            out.push(proposal(
                &insert,
                CompletionKind::Folder,
                "",
                &insert,
                false,
                &replace,
            ));
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(proposal(
                &name,
                CompletionKind::File,
                "",
                &name,
                false,
                &replace,
            ));
        }
    }
    out.sort_by(|a, b| a.label.cmp(&b.label));
    out
}
