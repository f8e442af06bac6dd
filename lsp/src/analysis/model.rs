//! What the index knows of one file: the named types it declares (with their fields and
//! symbols), its messages, its imports and its references to types, each with its place in
//! the text as a byte range.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A byte range of a file's text.
pub type Span = Range<usize>;

/// The kinds of file the server reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// Avro IDL, `.avdl`.
    Idl,
    /// A JSON schema, `.avsc`.
    Schema,
    /// A JSON protocol, `.avpr`.
    Protocol,
}

impl FileKind {
    /// The kind of the file at `path`, by its extension; `None` for other files.
    pub fn of(path: &Path) -> Option<FileKind> {
        match path.extension()?.to_str()? {
            "avdl" => Some(FileKind::Idl),
            "avsc" => Some(FileKind::Schema),
            "avpr" => Some(FileKind::Protocol),
            _ => None,
        }
    }
}

/// What a named type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `record`
    Record,
    /// `error` (a record a message may throw)
    Error,
    /// `enum`
    Enum,
    /// `fixed`
    Fixed,
}

impl TypeKind {
    /// The keyword, as IDL and JSON write it.
    pub fn keyword(self) -> &'static str {
        match self {
            TypeKind::Record => "record",
            TypeKind::Error => "error",
            TypeKind::Enum => "enum",
            TypeKind::Fixed => "fixed",
        }
    }
}

/// A named type declared in a file.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    /// Its full name (`com.example.Order`).
    pub full_name: String,
    /// What it is.
    pub kind: TypeKind,
    /// The name as written (IDL: the name token, which may be dotted; JSON: the string
    /// inside its quotes).
    pub name_span: Span,
    /// The whole declaration.
    pub span: Span,
    /// Its documentation.
    pub doc: Option<String>,
    /// Its aliases, as written.
    pub aliases: Vec<String>,
    /// A record's fields.
    pub fields: Vec<FieldDef>,
    /// An enum's symbols.
    pub symbols: Vec<Named>,
    /// A fixed type's size.
    pub size: Option<String>,
    /// Where an enum's default goes: after its closing brace (IDL), after its symbols
    /// (JSON).
    pub enum_default_at: Option<usize>,
    /// Where another alias goes.
    pub alias_place: AliasPlace,
}

/// Where an alias is added to a type or field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasPlace {
    /// IDL without `@aliases`: an annotation inserted at this offset (before the
    /// declaration's first token, or a field's name).
    Annotation(usize),
    /// JSON without `"aliases"`: a member inserted at this offset (after the name's value).
    Member(usize),
    /// An existing list of aliases: an item inserted at this offset (just after its `[`).
    Item {
        /// The offset.
        at: usize,
        /// Whether the list is empty (no comma needed).
        empty: bool,
    },
}

impl AliasPlace {
    /// The offset and text that add `alias` here.
    pub fn insertion(self, alias: &str) -> (usize, String) {
        let quoted = serde_json::Value::from(alias).to_string();
        match self {
            AliasPlace::Annotation(at) => (at, format!("@aliases([{quoted}]) ")),
            AliasPlace::Member(at) => (at, format!(", \"aliases\": [{quoted}]")),
            AliasPlace::Item { at, empty: true } => (at, quoted),
            AliasPlace::Item { at, empty: false } => (at, format!("{quoted}, ")),
        }
    }
}

/// A name and its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A field of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDef {
    /// The field's name.
    pub name: String,
    /// Where the name is written (JSON: inside its quotes).
    pub name_span: Span,
    /// The type as written (JSON: compact).
    pub ty: String,
    /// Where the type is written.
    pub ty_span: Span,
    /// The default as written, if any.
    pub default: Option<String>,
    /// Where the default is written.
    pub default_span: Option<Span>,
    /// Its documentation.
    pub doc: Option<String>,
    /// Its aliases, as written.
    pub aliases: Vec<String>,
    /// Where another alias goes.
    pub alias_place: AliasPlace,
}

/// A message of a protocol.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageDef {
    /// The message's name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
    /// Its documentation.
    pub doc: Option<String>,
}

/// What an import reads.
pub use avdl_parser::syntax::ast::ImportKind;

/// An `import` of an IDL file.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportDef {
    /// What it reads.
    pub kind: ImportKind,
    /// The path as written (escapes resolved).
    pub path: String,
    /// The string literal, quotes included.
    pub span: Span,
    /// The file it names: beside the importing file, else in an include directory; `None`
    /// when neither has it.
    pub target: Option<PathBuf>,
}

/// A reference to a named type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeUse {
    /// The name as written.
    pub written: String,
    /// The full names it may mean, in the order the namespace rules try them (the
    /// enclosing declaration's namespace, the file's, then the name as it is).
    pub candidates: Vec<String>,
    /// Where it is written (JSON: inside the quotes).
    pub span: Span,
}

/// Everything the index knows of one file.
#[derive(Clone, Debug)]
pub struct FileIndex {
    /// The file.
    pub path: PathBuf,
    /// What kind of file it is.
    pub kind: FileKind,
    /// The text indexed.
    pub text: Arc<str>,
    /// The namespace of the protocol or schema file.
    pub namespace: Option<String>,
    /// The protocol's name, with its place.
    pub protocol: Option<Named>,
    /// The named types it declares, in the order written.
    pub types: Vec<TypeDef>,
    /// A protocol's messages.
    pub messages: Vec<MessageDef>,
    /// An IDL file's imports.
    pub imports: Vec<ImportDef>,
    /// Its references to named types.
    pub uses: Vec<TypeUse>,
}

/// A replacement of bytes of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The bytes replaced (empty for an insertion).
    pub span: Span,
    /// What replaces them.
    pub text: String,
}

/// The edits of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdits {
    /// The file.
    pub path: PathBuf,
    /// Its edits, in the order of the text, none overlapping.
    pub edits: Vec<Edit>,
}

/// What is at a place of a file.
#[derive(Clone, Copy, Debug)]
pub enum Item<'a> {
    /// The name of a declared type.
    Type(&'a TypeDef),
    /// The name of a field.
    Field(&'a TypeDef, &'a FieldDef),
    /// An enum symbol.
    Symbol(&'a TypeDef, &'a Named),
    /// A reference to a type.
    Use(&'a TypeUse),
    /// An import's path.
    Import(&'a ImportDef),
    /// A message's name.
    Message(&'a MessageDef),
}

impl FileIndex {
    /// An index of `path` with nothing in it yet.
    pub(crate) fn empty(path: &Path, kind: FileKind, text: Arc<str>) -> FileIndex {
        FileIndex {
            path: path.to_path_buf(),
            kind,
            text,
            namespace: None,
            protocol: None,
            types: Vec::new(),
            messages: Vec::new(),
            imports: Vec::new(),
            uses: Vec::new(),
        }
    }

    /// What is at byte `offset`: a name, a reference or an import path (the end of a name
    /// counts, as an editor's cursor sits after the word it is on).
    pub fn item_at(&self, offset: usize) -> Option<Item<'_>> {
        let on = |span: &Span| span.start <= offset && offset <= span.end;
        if let Some(found) = self.uses.iter().find(|u| on(&u.span)) {
            return Some(Item::Use(found));
        }
        if let Some(found) = self.imports.iter().find(|i| on(&i.span)) {
            return Some(Item::Import(found));
        }
        if let Some(found) = self.messages.iter().find(|m| on(&m.span)) {
            return Some(Item::Message(found));
        }
        for ty in &self.types {
            if on(&ty.name_span) {
                return Some(Item::Type(ty));
            }
            if let Some(field) = ty.fields.iter().find(|f| on(&f.name_span)) {
                return Some(Item::Field(ty, field));
            }
            if let Some(symbol) = ty.symbols.iter().find(|s| on(&s.span)) {
                return Some(Item::Symbol(ty, symbol));
            }
        }
        None
    }

    /// The declared type named `full_name`.
    pub fn type_named(&self, full_name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.full_name == full_name)
    }
}

/// `name` in `namespace`, unless it is dotted (then it is full already) or the namespace is
/// empty (the null namespace).
pub fn full_name(name: &str, namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) if !name.contains('.') && !ns.is_empty() => format!("{ns}.{name}"),
        _ => name.to_owned(),
    }
}

/// The namespace part of a dotted name.
pub fn namespace_of(full_name: &str) -> Option<&str> {
    full_name.rsplit_once('.').map(|(ns, _)| ns)
}

/// The simple name (after the last dot).
pub fn simple_name(full_name: &str) -> &str {
    full_name.rsplit('.').next().unwrap_or(full_name)
}

/// The full names a reference `written` may mean, tried in order: in the enclosing
/// declaration's namespace, in the file's, then as written (the null namespace).
pub(crate) fn candidates(written: &str, scopes: &[Option<&str>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for scope in scopes.iter().chain([&None]) {
        let name = full_name(written, *scope);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}
