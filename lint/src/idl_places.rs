//! Where findings about an IDL file are in its text, found by name in the lossless syntax
//! tree: a type's name, a field's name, type or default, an enum symbol, an import. The tree
//! also says what the file itself declares, imports and uses, which its compiled JSON (with
//! imported types merged in, unused ones of a schema file left out) cannot.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use avdl_parser::syntax::ast::{
    AstNode, HasAnnotations, ImportKind, Name, NamedDecl, SourceFile, Type,
};
use avdl_parser::syntax::{self, SyntaxNode, TextRange};
use avdl_parser::{ParseOptions, SourceFiles};

use crate::document::{full_name, Document, Origin};
use crate::finding::{Finding, Subject};
use crate::rules::Declared;

/// A field's places: its name, its type, its default.
#[derive(Default)]
struct FieldPlaces {
    name: Range<usize>,
    ty: Option<Range<usize>>,
    default: Option<Range<usize>>,
}

/// The places of an IDL file's declarations, by full name.
pub(crate) struct Places {
    pub declared: Declared,
    /// Each import's kind and file as written, until [`Places::read_imports`] reads them.
    import_files: Vec<Option<(ImportKind, String)>>,
    types: HashMap<String, Range<usize>>,
    /// Field places by record, then field name, so a lookup borrows the finding's names.
    fields: HashMap<String, HashMap<String, FieldPlaces>>,
    /// Enum symbols' places by enum, then symbol.
    symbols: HashMap<String, HashMap<String, Range<usize>>>,
    messages: HashMap<String, Range<usize>>,
    imports: Vec<Range<usize>>,
}

impl Places {
    /// Reads the places of IDL `text` from its syntax tree alone, without the files it
    /// imports (see [`Places::read_imports`]), so that it can run beside the compiler.
    pub fn new(text: &str) -> Places {
        let tree = syntax::parse(text).tree();
        let mut places = Places {
            declared: Declared {
                types: Some(Vec::new()),
                ..Declared::default()
            },
            import_files: Vec::new(),
            types: HashMap::new(),
            fields: HashMap::new(),
            symbols: HashMap::new(),
            messages: HashMap::new(),
            imports: Vec::new(),
        };
        let namespace = file_namespace(&tree);
        let body = tree.protocol().and_then(|protocol| protocol.body());
        let (declarations, imports): (Vec<NamedDecl>, Vec<_>) = match &body {
            Some(body) => (body.declarations().collect(), body.imports().collect()),
            None if tree.protocol().is_some() => (Vec::new(), Vec::new()),
            None => (tree.declarations().collect(), tree.imports().collect()),
        };
        for message in body.iter().flat_map(|body| body.messages()) {
            if let Some(name) = message.name() {
                places.messages.insert(name.text(), name_range(&name));
            }
            let used = &mut places.declared.used;
            let params = message.params().filter_map(|param| param.ty());
            message
                .result()
                .into_iter()
                .chain(params)
                .for_each(|ty| uses(ty, used));
            used.extend(message.throws().iter().map(Name::text));
        }
        if let Some(main) = tree.schema().and_then(|schema| schema.ty()) {
            uses(main, &mut places.declared.used);
        }
        for declaration in &declarations {
            places.declaration(declaration, namespace.as_deref());
        }
        for import in imports {
            places.imports.push(code_range(import.syntax()));
            let file = import.kind().zip(import.path_value());
            places.import_files.push(file);
        }
        places
    }

    /// Reads the types each import brings in, its file found from `path`, the IDL file's.
    pub fn read_imports(&mut self, path: &Path, options: &ParseOptions, files: &dyn SourceFiles) {
        for file in std::mem::take(&mut self.import_files) {
            let types = match file {
                Some((kind, file)) => imported_types(kind, &file, path, options, files),
                None => Vec::new(),
            };
            self.declared.imports.push(types);
        }
    }

    /// Records one named type and its members.
    fn declaration(&mut self, declaration: &NamedDecl, namespace: Option<&str>) {
        let Some(name) = declaration.name() else {
            return;
        };
        let own = annotation_string(declaration, "namespace");
        let full = full_name(&name.text(), own.as_deref().or(namespace));
        self.types.insert(full.clone(), name_range(&name));
        if let Some(types) = &mut self.declared.types {
            types.push(full.clone());
        }
        match declaration {
            NamedDecl::Record(record) => {
                let fields = self.fields.entry(full.clone()).or_default();
                for field in record.fields() {
                    let ty = field.ty().map(|t| {
                        let range = code_range(t.syntax());
                        uses(t, &mut self.declared.used);
                        range
                    });
                    for variable in field.variables() {
                        let Some(name) = variable.name() else {
                            continue;
                        };
                        let default = variable.default().map(|d| code_range(d.syntax()));
                        let places = FieldPlaces {
                            name: name_range(&name),
                            ty: ty.clone(),
                            default,
                        };
                        fields.insert(name.text(), places);
                    }
                }
            }
            NamedDecl::Enum(enumeration) => {
                for symbol in enumeration.symbols() {
                    if let Some(name) = symbol.name() {
                        let symbols = self.symbols.entry(full.clone()).or_default();
                        symbols.insert(name.text(), name_range(&name));
                    }
                }
            }
            NamedDecl::Fixed(_) => {}
        }
    }

    /// The span of what `finding` is about, `None` when that is not in this file (a type
    /// an import brought in, which is checked in its own file).
    pub fn place(&self, finding: &Finding) -> Option<Range<usize>> {
        let field = |record: &str, name: &str| self.fields.get(record)?.get(name);
        match &finding.subject {
            Subject::Type(name) => self.types.get(name).cloned(),
            Subject::Field(record, name) => field(record, name).map(|f| f.name.clone()),
            Subject::FieldType(record, name) => {
                field(record, name).map(|f| f.ty.clone().unwrap_or(f.name.clone()))
            }
            Subject::Default(record, name) => {
                field(record, name).map(|f| f.default.clone().unwrap_or(f.name.clone()))
            }
            Subject::Symbol(name, symbol) => self.symbols.get(name)?.get(symbol).cloned(),
            Subject::Message(name) => self.messages.get(name).cloned(),
            Subject::Import(index) => self.imports.get(*index).cloned(),
            Subject::Node => None,
        }
    }
}

/// The namespace of the protocol (`@namespace`) or schema file (`namespace a.b;`).
fn file_namespace(tree: &SourceFile) -> Option<String> {
    match tree.protocol() {
        Some(protocol) => protocol
            .annotations()
            .find(|a| a.name().is_some_and(|n| n.text() == "namespace"))
            .and_then(|a| string_value(a.value()?.literal()?.text())),
        None => tree.namespace().and_then(|n| n.name()).map(|n| n.text()),
    }
}

/// The string value of annotation `key` of a declaration.
fn annotation_string(declaration: &NamedDecl, key: &str) -> Option<String> {
    declaration
        .annotations()
        .find(|a| a.name().is_some_and(|n| n.text() == key))
        .and_then(|a| string_value(a.value()?.literal()?.text()))
}

/// A JSON string literal's value.
fn string_value(literal: &str) -> Option<String> {
    serde_json::from_str::<String>(literal).ok()
}

/// The full names of the types an import brings in; none when it cannot be read (the
/// compiler has then refused the file already).
fn imported_types(
    kind: ImportKind,
    file: &str,
    from: &Path,
    options: &ParseOptions,
    files: &dyn SourceFiles,
) -> Vec<String> {
    let Some(path) = locate(file, from, &options.include_dirs, files) else {
        return Vec::new();
    };
    let json = match kind {
        ImportKind::Idl => match avdl_parser::parse_file_in(files, &path, options) {
            Ok(parsed) => parsed.json().clone(),
            Err(_) => return Vec::new(),
        },
        ImportKind::Protocol | ImportKind::Schema => {
            let bytes = files.read(&path).unwrap_or_default();
            let text = String::from_utf8(bytes).unwrap_or_default();
            match crate::json_text::JsonText::parse(&text) {
                Ok(json) => json.value,
                Err(_) => return Vec::new(),
            }
        }
    };
    let origin = match kind {
        ImportKind::Idl => Origin::Idl,
        ImportKind::Protocol | ImportKind::Schema => Origin::Json,
    };
    Document::walk(&json, origin)
        .definitions
        .into_iter()
        .map(|d| d.full_name)
        .collect()
}

/// An imported file: beside the importing one, else in the include directories.
fn locate(
    file: &str,
    from: &Path,
    include_dirs: &[PathBuf],
    files: &dyn SourceFiles,
) -> Option<PathBuf> {
    let beside = from.parent().unwrap_or(Path::new("")).join(file);
    if files.is_file(&beside) {
        return Some(beside);
    }
    include_dirs
        .iter()
        .map(|d| d.join(file))
        .find(|p| files.is_file(p))
}

/// Adds the type names `ty` refers to, as written, the types inside it included, to `used`:
/// with the fields, messages and `schema` that [`Places::new`] passes, every name the file's
/// own declarations use.
fn uses(ty: Type, used: &mut HashSet<String>) {
    let mut pending = vec![ty];
    while let Some(ty) = pending.pop() {
        match ty {
            Type::Ref(reference) => used.extend(reference.name().map(|name| name.text())),
            Type::Array(array) => pending.extend(array.items()),
            Type::Map(map) => pending.extend(map.values()),
            Type::Union(union) => pending.extend(union.members()),
            Type::Nullable(nullable) => pending.extend(nullable.inner()),
            Type::Primitive(_) | Type::Decimal(_) => {}
        }
    }
}

/// The bytes of `node` from its first token that is not a comment or blank.
fn code_range(node: &SyntaxNode) -> Range<usize> {
    range(syntax::code_range(node))
}

fn name_range(name: &Name) -> Range<usize> {
    range(name.token().text_range())
}

fn range(range: TextRange) -> Range<usize> {
    usize::from(range.start())..usize::from(range.end())
}
