//! Where findings about an IDL file are in its text, found by name in the lossless syntax
//! tree: a type's name, a field's name, type or default, an enum symbol, an import. The tree
//! also says what the file itself declares, imports and uses, which its compiled JSON (with
//! imported types merged in, unused ones of a schema file left out) cannot.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use avdl_parser::syntax::ast::{AstNode, ImportKind};
use avdl_parser::syntax::green_view::{Name, Node};
use avdl_parser::syntax::{self, Parse, SyntaxKind as K, SyntaxNode, TextRange};
use avdl_parser::{ParseOptions, SourceFiles};

use crate::document::{full_name, Document, Origin};
use crate::finding::{Finding, Subject};
use crate::rules::Declared;

/// A field's places: its name, its type, its default.
struct FieldPlaces {
    name: Range<usize>,
    ty: Option<Range<usize>>,
    default: Option<Range<usize>>,
}

/// The places of one named type: its name, and its fields' or symbols' by name (names as
/// written in the text, borrowed from it).
struct TypePlaces<'t> {
    name: Range<usize>,
    fields: ByName<'t, FieldPlaces>,
    symbols: ByName<'t, Range<usize>>,
}

/// Members of a type by name: a few to a record, so kept in a vector sorted by name once all
/// are in, which costs less than hashing each name into a map of its own.
struct ByName<'t, T> {
    entries: Vec<(Cow<'t, str>, T)>,
}

impl<'t, T> ByName<'t, T> {
    fn new() -> Self {
        ByName {
            entries: Vec::new(),
        }
    }

    fn push(&mut self, name: Cow<'t, str>, value: T) {
        self.entries.push((name, value));
    }

    /// Sorts the entries, keeping those of one name in the order pushed.
    fn sort(&mut self) {
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
    }

    /// The entry of `name` pushed last (a later declaration overrides an earlier one).
    fn get(&self, name: &str) -> Option<&T> {
        let after = self.entries.partition_point(|(key, _)| **key <= *name);
        let (key, value) = self.entries.get(after.checked_sub(1)?)?;
        (**key == *name).then_some(value)
    }
}

/// The places of an IDL file's declarations, by full name.
pub(crate) struct Places<'t> {
    pub declared: Declared<'t>,
    /// Each import's kind and file as written, until [`Places::read_imports`] reads them.
    import_files: Vec<Option<(ImportKind, String)>>,
    types: HashMap<String, TypePlaces<'t>>,
    messages: HashMap<Cow<'t, str>, Range<usize>>,
    imports: Vec<Range<usize>>,
}

impl<'t> Places<'t> {
    /// Reads the places of IDL `text` from `parse`, its syntax tree, alone, without the files
    /// it imports (see [`Places::read_imports`]), so that it can run beside the compiler.
    pub fn read(text: &'t str, parse: &Parse) -> Places<'t> {
        let root = Node::root(parse.green());
        let mut places = Places {
            declared: Declared {
                types: Some(Vec::new()),
                ..Declared::default()
            },
            import_files: Vec::new(),
            types: HashMap::new(),
            messages: HashMap::new(),
            imports: Vec::new(),
        };
        let protocol = root.child(K::Protocol);
        let namespace = file_namespace(text, root, protocol);
        let body = match protocol {
            Some(protocol) => protocol.child(K::ProtocolBody),
            None => Some(root),
        };
        let mut has_imports = false;
        for node in body.into_iter().flat_map(Node::children) {
            match node.kind() {
                K::Record | K::Enum | K::Fixed => {
                    places.declaration(text, node, namespace.as_deref())
                }
                K::Message if protocol.is_some() => places.message(text, node),
                K::Import => has_imports = true,
                _ => {}
            }
        }
        if let Some(main) = root.child(K::SchemaDecl).and_then(Node::first_type) {
            uses(text, main, &mut places.declared.used);
        }
        if has_imports {
            places.read_import_nodes(&parse.tree());
        }
        for type_places in places.types.values_mut() {
            type_places.fields.sort();
            type_places.symbols.sort();
        }
        places
    }

    /// Records the imports of the file, rare enough to be read through the typed tree.
    fn read_import_nodes(&mut self, tree: &syntax::ast::SourceFile) {
        let imports: Vec<_> = match tree.protocol() {
            Some(protocol) => protocol.body().iter().flat_map(|b| b.imports()).collect(),
            None => tree.imports().collect(),
        };
        for import in imports {
            self.imports.push(code_range(import.syntax()));
            // A path cut short by the end of the text has no value: a syntax error the
            // compiler reports.
            self.import_files
                .push(import.kind().zip(import.path_value()));
        }
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

    /// Records a message's name and the types it uses.
    fn message(&mut self, text: &'t str, message: Node<'_>) {
        if let Some(name) = Name::first(text, message) {
            self.messages.insert(name.text, name.range);
        }
        let used = &mut self.declared.used;
        let params = message
            .children_of(K::ParamList)
            .flat_map(|list| list.children_of(K::Param))
            .filter_map(Node::first_type);
        for ty in message.first_type().into_iter().chain(params) {
            uses(text, ty, used);
        }
        for throws in message.children_of(K::Throws) {
            let names = throws.tokens().skip(1);
            used.extend(names.filter_map(|token| Name::of(text, token).map(|n| n.text)));
        }
    }

    /// Records one named type and its members.
    fn declaration(&mut self, text: &'t str, declaration: Node<'_>, namespace: Option<&str>) {
        let Some(name) = Name::after_first(text, declaration) else {
            return;
        };
        let own = annotation_string(text, declaration, "namespace");
        let full = full_name(&name.text, own.as_deref().or(namespace));
        if let Some(types) = &mut self.declared.types {
            types.push(full.clone());
        }
        let places = self.types.entry(full).or_insert_with(|| TypePlaces {
            name: 0..0,
            fields: ByName::new(),
            symbols: ByName::new(),
        });
        places.name = name.range;
        match declaration.kind() {
            K::Record => {
                for field in declaration.children_of(K::Field) {
                    let ty = field.first_type().map(|ty| {
                        uses(text, ty, &mut self.declared.used);
                        ty.code_range()
                    });
                    for variable in field.children_of(K::Variable) {
                        let Some(name) = Name::first(text, variable) else {
                            continue;
                        };
                        let field_places = FieldPlaces {
                            name: name.range,
                            ty: ty.clone(),
                            default: variable.child(K::JsonValue).map(Node::code_range),
                        };
                        places.fields.push(name.text, field_places);
                    }
                }
            }
            K::Enum => {
                let symbols = declaration.children_of(K::EnumSymbols);
                for symbol in symbols.flat_map(|list| list.children_of(K::EnumSymbol)) {
                    if let Some(name) = Name::first(text, symbol) {
                        places.symbols.push(name.text, name.range);
                    }
                }
            }
            _ => {}
        }
    }

    /// The span of what `finding` is about, `None` when that is not in this file (a type
    /// an import brought in, which is checked in its own file).
    pub fn place(&self, finding: &Finding) -> Option<Range<usize>> {
        let field = |record: &str, name: &str| self.types.get(record)?.fields.get(name);
        match &finding.subject {
            Subject::Type(name) => self.types.get(name).map(|t| t.name.clone()),
            Subject::Field(record, name) => field(record, name).map(|f| f.name.clone()),
            Subject::FieldType(record, name) => {
                field(record, name).map(|f| f.ty.clone().unwrap_or(f.name.clone()))
            }
            Subject::Default(record, name) => {
                field(record, name).map(|f| f.default.clone().unwrap_or(f.name.clone()))
            }
            Subject::Symbol(name, symbol) => self.types.get(name)?.symbols.get(symbol).cloned(),
            Subject::Message(name) => self.messages.get(name.as_str()).cloned(),
            Subject::Import(index) => self.imports.get(*index).cloned(),
            Subject::Node => None,
        }
    }
}

/// The namespace of the protocol (`@namespace`) or schema file (`namespace a.b;`).
fn file_namespace(text: &str, root: Node<'_>, protocol: Option<Node<'_>>) -> Option<String> {
    match protocol {
        Some(protocol) => annotation_string(text, protocol, "namespace"),
        None => root
            .child(K::NamespaceDecl)
            .and_then(|namespace| Name::after_first(text, namespace))
            .map(|name| name.text.into_owned()),
    }
}

/// The string value of annotation `key` of a declaration.
fn annotation_string(text: &str, declaration: Node<'_>, key: &str) -> Option<String> {
    let annotation = declaration
        .children_of(K::Annotation)
        .find(|a| Name::after_first(text, *a).is_some_and(|name| name.text == key))?;
    let literal = annotation.child(K::JsonValue)?.tokens().next()?;
    string_value(&text[literal.range])
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
/// with the fields, messages and `schema` that [`Places::read`] passes, every name the file's
/// own declarations use.
fn uses<'t>(text: &'t str, ty: Node<'_>, used: &mut HashSet<Cow<'t, str>>) {
    // Recursion is bounded: the parser bounds nesting.
    match ty.kind() {
        K::TypeRef => used.extend(Name::first(text, ty).map(|name| name.text)),
        K::ArrayType | K::MapType | K::NullableType => {
            if let Some(inner) = ty.first_type() {
                uses(text, inner, used);
            }
        }
        K::UnionType => ty.types().for_each(|member| uses(text, member, used)),
        _ => {}
    }
}

/// The bytes of `node` from its first token that is not a comment or blank.
fn code_range(node: &SyntaxNode) -> Range<usize> {
    range(syntax::code_range(node))
}

fn range(range: TextRange) -> Range<usize> {
    usize::from(range.start())..usize::from(range.end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_path_cut_short_is_not_read() {
        for text in [
            "protocol P { import idl \"",
            "protocol P { import idl \"a\u{e9}",
        ] {
            let places = Places::read(text, &syntax::parse(text));
            assert_eq!(places.imports.len(), 1);
            assert_eq!(places.import_files, [None]);
        }
        let text = "protocol P { import idl \"a.avdl\"; }";
        let places = Places::read(text, &syntax::parse(text));
        assert_eq!(
            places.import_files,
            [Some((ImportKind::Idl, "a.avdl".to_owned()))]
        );
    }

    #[test]
    fn members_by_name_keep_the_last_of_a_name() {
        let mut members = ByName::new();
        for (name, value) in [("b", 1), ("a", 2), ("c", 3), ("a", 4), ("ab", 5)] {
            members.push(Cow::Borrowed(name), value);
        }
        members.sort();
        let found = ["a", "ab", "b", "c", "", "aa", "d"].map(|name| members.get(name).copied());
        assert_eq!(
            found,
            [Some(4), Some(5), Some(1), Some(3), None, None, None]
        );
    }
}
