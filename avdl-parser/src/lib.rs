//! # avdl-parser
//!
//! Parses Avro IDL (`.avdl`) files into the `.avpr` / `.avsc` JSON that the Java reference
//! tools (`avro-tools idl`, `idl2schemata`) emit: same keys in the same order, named types
//! defined in full at their first use and referenced by name afterwards, docs taken from
//! `/** … */` comments as the reference takes them.
//!
//! ```
//! let idl = r#"
//!     @namespace("org.example")
//!     protocol Shop {
//!         record Order { long id; string? note = null; }
//!     }
//! "#;
//! let file = avdl_parser::parse_str(idl, "shop.avdl", &Default::default()).unwrap();
//! assert!(file.is_protocol());
//! assert_eq!(file.to_json()["types"][0]["name"], "Order");
//! ```
//!
//! Both file forms are supported: a protocol (`protocol P { … }`, giving `.avpr` JSON) and
//! a schema file (`namespace a.b; schema T; …`, giving the `.avsc` JSON of `T`). Imports
//! (`import idl|protocol|schema "file";`) are resolved relative to the importing file, then in
//! [`ParseOptions::include_dirs`]; each file is read once, so import cycles end.
//!
//! ## Where this parser is stricter than the reference
//!
//! The reference silently accepts some input by accident; here each is a located error:
//! - bytes that are not UTF-8, and characters outside the grammar (the reference drops them);
//! - a union directly inside a union, including `union { null, T? }` (the reference writes `[]`);
//! - duplicate union branches, `null?`;
//! - a default that the schema model (and so code generation) rejects: an enum default that
//!   is not one of the symbols, a `fixed` default of the wrong length, a `bytes` or `fixed`
//!   default with characters beyond U+00FF;
//! - a schema file with neither a `schema` declaration nor any named type;
//! - brackets nested more than 100 levels deep, named types inlined more than 1000 levels
//!   deep, or imports nested more than 200 files deep (limits that keep the parser off the
//!   end of the stack).
//!
//! Other deliberate differences:
//! - `/**/` is always an empty comment (in the reference it can open a doc comment that
//!   swallows code up to a later `*/`);
//! - an annotated message returning a named type (`@p("x") Foo m();`) is accepted (the
//!   reference rejects it by mistake);
//! - forward references pending when a protocol is imported with `import idl` still resolve
//!   (the reference fails on them);
//! - the strings `"NaN"`, `"Infinity"` and `"-Infinity"` are accepted as `float`/`double`
//!   defaults (that is how the IDL literals `NaN` and `Infinity` are written in JSON);
//! - warnings about misplaced doc comments are not reported.
//!
//! A schema file without a `schema` declaration gives, as the reference's test suite does,
//! a JSON array of all its named types, each self-contained.
//!
//! ## How a file is read
//!
//! Each file goes through one linear scan (`lexical`: doc comments, comment blanking, nesting
//! bound), the pest grammar (`grammar.pest`, one declaration at a time), and a walk
//! of the parse tree into the syntax tree (`reader`), which registers named types and messages
//! in one name table shared with the imports (`table`, `loader`, `json_import`). References are
//! checked once at the end by hash lookups, so forward references cost nothing extra
//! (`resolve`). The JSON is written in one pass that defines each named type at its first use
//! (`writer`), into a `serde_json::Value` or straight into text ([`IdlFile::to_json_string`],
//! much faster for large files; `sink`). Every step is linear in the input; line and column
//! are computed only for an error.
//!
//! ## The syntax tree of tools
//!
//! The compiler above stops at the first error and forgets comments and layout. [`syntax`] is
//! the other reading of a file, for the formatter, the linter and editors: its own lexer and
//! recursive-descent parser build a lossless [rowan](https://docs.rs/rowan) tree of one file
//! (imports are not followed), whatever the text holds, with the syntax errors beside it. It
//! follows the same grammar (`grammar.pest`), and its tests hold it to the compiler: every
//! file the compiler accepts has no syntax error in the tree, every file the compiler finds
//! ungrammatical has at least one, and the tree's declarations are those of the compiler's
//! JSON.

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod annotations;
mod ast;
mod doc;
mod error;
mod files;
pub mod format;
mod full_name;
mod grammar;
pub mod idl_writer;
mod json_import;
pub mod json_text;
mod lexical;
mod literal;
mod loader;
mod misspelt_keyword;
mod names;
mod object_shapes;
mod offsets;
mod reader;
pub mod render;
mod resolve;
mod sink;
mod source;
pub mod syntax;
mod syntax_error;
mod table;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

pub use error::{Error, ErrorKind};
pub use files::{FileSystem, SourceFiles};

use loader::Loader;
use source::{Sources, Span};
use table::Definitions;
use writer::Document;

/// Options of a parse.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Directories searched, in order, for an import not found beside the importing file
    /// (the reference's class path).
    pub include_dirs: Vec<PathBuf>,
}

/// A parsed IDL file: a protocol or a schema, with everything it imported.
#[derive(Debug)]
pub struct IdlFile {
    /// What the file's JSON is; it is written on demand, as a [`Value`] (kept) or as text.
    content: Content,
    json: OnceLock<Value>,
    defs: Definitions,
    sources: Sources,
    files_read: Vec<PathBuf>,
}

/// Parses the IDL file at `path` and everything it imports.
pub fn parse_file(path: impl AsRef<Path>, options: &ParseOptions) -> Result<IdlFile, Error> {
    parse_file_in(&FileSystem, path, options)
}

/// Parses the IDL file at `path` and everything it imports, reading them from `files`
/// instead of the file system (an old revision from version control, say).
pub fn parse_file_in(
    files: &dyn SourceFiles,
    path: impl AsRef<Path>,
    options: &ParseOptions,
) -> Result<IdlFile, Error> {
    let mut loader = Loader::new(&options.include_dirs, files);
    let outcome = loader.read_root_file(path.as_ref())?;
    finish(loader, outcome)
}

/// Parses IDL text; `display_name` names it in errors. Without a file there is no directory
/// to resolve imports against, so they are looked up in the include directories only.
pub fn parse_str(
    source: &str,
    display_name: &str,
    options: &ParseOptions,
) -> Result<IdlFile, Error> {
    let mut loader = Loader::new(&options.include_dirs, &FileSystem);
    let outcome = loader.read_root_str(source, display_name)?;
    finish(loader, outcome)
}

/// The document a file's JSON is.
#[derive(Debug)]
enum Content {
    Protocol(ast::ProtocolHeader),
    Schema(ast::TypeExpr),
    /// A schema file without a `schema` declaration: all its named types.
    AllNamed,
}

fn finish(loader: Loader<'_>, outcome: reader::FileOutcome) -> Result<IdlFile, Error> {
    let Loader {
        sources,
        mut defs,
        files_read,
        ..
    } = loader;
    let mut main = outcome.main_schema;
    resolve::resolve(&mut defs, main.as_mut(), &sources)?;
    let content = match (outcome.protocol, main) {
        (Some(header), _) => Content::Protocol(header),
        (None, Some(main)) => Content::Schema(main),
        (None, None) if defs.types.is_empty() => {
            let span = Span {
                file: 0,
                start: 0,
                end: 0,
            };
            let message = "the file defines neither a protocol nor a schema";
            return Err(sources.error(ErrorKind::Empty, span, message));
        }
        (None, None) => Content::AllNamed,
    };
    let file = IdlFile {
        content,
        json: OnceLock::new(),
        defs,
        sources,
        files_read,
    };
    // Writing out is where inlined definitions nest; checking it here means a parsed file
    // can always be written.
    writer::check(file.document(), &file.defs).map_err(|e| file.too_deep(e))?;
    Ok(file)
}

fn too_deep(sources: &Sources, span: Span) -> Error {
    let message = format!(
        "named types nest more than {} levels deep when written out",
        writer::MAX_DEPTH
    );
    sources.error(ErrorKind::TooDeep, span, message)
}

impl IdlFile {
    /// Whether the file is a protocol (`.avpr`) rather than a schema file (`.avsc`).
    pub fn is_protocol(&self) -> bool {
        matches!(self.content, Content::Protocol(_))
    }

    /// Whether the file is a schema file with a main schema (`schema <type>;`), whose JSON
    /// is [`IdlFile::json`]; without one, that JSON is the array of every named type.
    pub fn has_main_schema(&self) -> bool {
        matches!(self.content, Content::Schema(_))
    }

    /// The `.avpr` JSON of a protocol, or the `.avsc` JSON of a schema file's main schema.
    pub fn to_json(&self) -> Value {
        self.json().clone()
    }

    /// The same JSON, without a copy (built on the first call).
    pub fn json(&self) -> &Value {
        // `finish` checked that the document can be written, so this cannot fail.
        self.json
            .get_or_init(|| writer::value(self.document(), &self.defs).unwrap_or_default())
    }

    /// The same JSON as text, pretty-printed (two-space indents, as
    /// `serde_json::to_string_pretty`) or compact; written straight from the syntax tree,
    /// which is much faster than building the [`Value`] first.
    pub fn to_json_string(&self, pretty: bool) -> String {
        // `finish` checked that the document can be written; serde_json writes UTF-8.
        let bytes = writer::text(self.document(), &self.defs, pretty).unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Every named type (imported ones included) in definition order, as full name and a
    /// self-contained `.avsc` schema (what `idl2schemata` writes, one file per type).
    pub fn named_schemas(&self) -> Result<Vec<(String, Value)>, Error> {
        (0..self.defs.types.len())
            .map(|i| {
                let json =
                    writer::value(Document::Named(i), &self.defs).map_err(|e| self.too_deep(e))?;
                Ok((self.defs.types[i].full_name(), json))
            })
            .collect()
    }

    /// An error located at the definition of the named type `full_name`, or at the default
    /// (else the name) of its field `field`: for problems found after parsing, by code
    /// generation say, so that they point into the IDL source as the parser's own errors do.
    /// `None` when the file defines no type of that name.
    pub fn error_at(
        &self,
        full_name: &str,
        field: Option<&str>,
        kind: ErrorKind,
        message: impl Into<String>,
    ) -> Option<Error> {
        let named = &self.defs.types[self.defs.lookup(full_name)?];
        let span = match (field, &named.kind) {
            (Some(field), ast::NamedKind::Record { fields, .. }) => {
                let field = fields.iter().find(|f| f.name == field)?;
                if field.default.is_some() {
                    field.default_span
                } else {
                    field.span
                }
            }
            _ => named.span,
        };
        Some(self.sources.error(kind, span, message))
    }

    /// Every file read, the root first, then imports in the order read (for
    /// `cargo:rerun-if-changed`). Empty for the root of [`parse_str`], which is no file.
    pub fn files_read(&self) -> &[PathBuf] {
        &self.files_read
    }

    fn document(&self) -> Document<'_> {
        match &self.content {
            Content::Protocol(header) => Document::Protocol(header),
            Content::Schema(main) => Document::Schema(main),
            Content::AllNamed => Document::AllNamed,
        }
    }

    fn too_deep(&self, writer::TooDeep(span): writer::TooDeep) -> Error {
        too_deep(&self.sources, span)
    }
}
