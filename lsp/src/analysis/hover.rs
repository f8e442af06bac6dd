//! Hover: what a type or a field is, in Markdown.
//!
//! A type shows its full name, doc, fields (or symbols, or size) and the CRC-64-AVRO
//! fingerprint of its Parsing Canonical Form; a field its type, default, doc and the Rust
//! type the code generator gives it. The fingerprint and the Rust type need the file to
//! compile; a file that does not shows the rest.

use std::fmt::Write as _;
use std::path::Path;

use super::model::{FieldDef, FileIndex, Item, Span, TypeDef};
use super::workspace::Workspace;

/// What to show for a place of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The text, in Markdown.
    pub markdown: String,
    /// The bytes it is about (a name or a reference).
    pub span: Span,
}

/// The hover of byte `offset` of `path`: a type's (at its declaration or a reference to
/// it) or a field's.
pub fn hover(workspace: &Workspace, path: &Path, offset: usize) -> Option<Hover> {
    let file = workspace.file(path)?;
    match file.item_at(offset)? {
        Item::Type(ty) => Some(Hover {
            markdown: type_markdown(workspace, file, ty),
            span: ty.name_span.clone(),
        }),
        Item::Use(reference) => {
            let (target, ty) = workspace.resolve(file, reference)?;
            Some(Hover {
                markdown: type_markdown(workspace, target, ty),
                span: reference.span.clone(),
            })
        }
        Item::Field(record, field) => Some(Hover {
            markdown: field_markdown(workspace, file, record, field),
            span: field.name_span.clone(),
        }),
        Item::Symbol(ty, symbol) => Some(Hover {
            markdown: format!("```avdl\n{}.{}\n```", ty.full_name, symbol.name),
            span: symbol.span.clone(),
        }),
        Item::Message(message) => Some(Hover {
            markdown: with_doc(format!("message `{}`", message.name), &message.doc),
            span: message.span.clone(),
        }),
        Item::Import(import) => Some(Hover {
            markdown: match &import.target {
                Some(target) => format!("`{}`", target.display()),
                None => format!(
                    "`{}` is neither beside this file nor in an include directory",
                    import.path
                ),
            },
            span: import.span.clone(),
        }),
    }
}

/// A type: heading, doc, members, fingerprint.
fn type_markdown(workspace: &Workspace, file: &FileIndex, ty: &TypeDef) -> String {
    let mut out = with_doc(
        format!("```avdl\n{} {}\n```", ty.kind.keyword(), ty.full_name),
        &ty.doc,
    );
    if !ty.fields.is_empty() {
        out.push_str("\n\nFields:\n");
        for field in &ty.fields {
            let _ = write!(out, "\n- `{}` `{}`", field.ty, field.name);
            if let Some(default) = &field.default {
                let _ = write!(out, " = `{default}`");
            }
        }
    }
    if !ty.symbols.is_empty() {
        let symbols: Vec<&str> = ty.symbols.iter().map(|s| s.name.as_str()).collect();
        let _ = write!(out, "\n\nSymbols: `{}`", symbols.join("`, `"));
    }
    if let Some(size) = &ty.size {
        let _ = write!(out, "\n\nSize: {size} bytes");
    }
    let compiled = workspace.compiled(file);
    if let Some(fingerprint) = compiled.and_then(|c| c.fingerprint(&ty.full_name)) {
        let _ = write!(out, "\n\nFingerprint (CRC-64-AVRO): `{fingerprint:#018x}`");
    }
    out
}

/// A field: its declaration, doc, and Rust type.
fn field_markdown(
    workspace: &Workspace,
    file: &FileIndex,
    record: &TypeDef,
    field: &FieldDef,
) -> String {
    let mut heading = format!("```avdl\n{} {}", field.ty, field.name);
    if let Some(default) = &field.default {
        let _ = write!(heading, " = {default}");
    }
    let _ = write!(heading, "\n```\nField of `{}`", record.full_name);
    let mut out = with_doc(heading, &field.doc);
    let compiled = workspace.compiled(file);
    if let Some(rust) = compiled
        .as_ref()
        .and_then(|c| c.rust_type(&record.full_name, &field.name))
    {
        let _ = write!(out, "\n\nRust: `{rust}`");
    }
    out
}

/// `heading`, then the doc after a blank line.
fn with_doc(heading: String, doc: &Option<String>) -> String {
    match doc {
        Some(doc) => format!("{heading}\n\n{doc}"),
        None => heading,
    }
}
