//! What the server knows of the schema files of a workspace, and the answers it gives from
//! it, all in byte offsets (the protocol adapters in `handlers` turn them into LSP
//! positions).
//!
//! - [`Workspace`] indexes every `.avdl` (from its syntax tree, so broken files count),
//!   `.avsc` and `.avpr` file: named types by full name, fields, symbols, messages, imports
//!   and references, each with its place;
//! - [`navigation`]: go to definition, find references, workspace symbols;
//! - [`hover`]: a type's or a field's description;
//! - [`completion`]: keywords, types, annotations, import paths;
//! - [`code_action`]: quick fixes of lint findings, "Convert to IDL";
//! - [`rename`]: a type or a field, across the workspace, keeping the old name as an alias;
//! - [`compat_diagnostics`]: the file checked for compatibility with itself at a git revision.

pub mod code_action;
mod compat;
mod compiled;
pub mod completion;
pub mod hover;
mod idl;
mod json;
mod model;
pub mod navigation;
pub mod rename;
mod workspace;

pub use avdl2rs::compat::{CompatLevel, IncompatibilityKind};
pub use compat::{compat_diagnostics, previous_json, CompatDiagnostic};
pub use model::{
    full_name, namespace_of, simple_name, AliasPlace, Edit, FieldDef, FileEdits, FileIndex,
    FileKind, ImportDef, ImportKind, Item, MessageDef, Named, Span, TypeDef, TypeKind, TypeUse,
};
pub use workspace::{key, Workspace};
