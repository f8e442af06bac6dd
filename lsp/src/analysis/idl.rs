//! The index of an IDL file, read from its lossless syntax tree: a file that does not parse
//! still gives every declaration, field and reference the parser could make out.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use avdl_parser::syntax::ast::{
    AstNode, Documented, HasAnnotations, Message, Name, NamedDecl, SourceFile, Type,
};
use avdl_parser::syntax::{self, SyntaxKind, SyntaxNode, TextRange};

use super::model::{
    candidates, full_name, namespace_of, AliasPlace, FieldDef, FileIndex, FileKind, ImportDef,
    MessageDef, Named, Span, TypeDef, TypeKind, TypeUse,
};

/// Indexes IDL `text`, the file at `path`; imports are looked for beside it, then in
/// `include_dirs`.
pub(crate) fn index(path: &Path, text: Arc<str>, include_dirs: &[PathBuf]) -> FileIndex {
    let tree = syntax::parse(&text).tree();
    let mut file = FileIndex::empty(path, FileKind::Idl, text.clone());
    file.namespace = file_namespace(&tree);
    let body = tree.protocol().and_then(|p| p.body());
    if let Some(protocol) = tree.protocol() {
        file.protocol = protocol.name().map(|n| named(&n));
    }
    let (declarations, imports): (Vec<NamedDecl>, Vec<_>) = match &body {
        Some(body) => (body.declarations().collect(), body.imports().collect()),
        None => (tree.declarations().collect(), tree.imports().collect()),
    };
    let namespace = file.namespace.clone();
    for declaration in &declarations {
        if let Some(ty) = type_def(declaration, namespace.as_deref()) {
            let scope = namespace_of(&ty.full_name).map(str::to_owned);
            collect_uses(
                declaration.syntax(),
                &[scope.as_deref(), namespace.as_deref()],
                &mut file.uses,
            );
            file.types.push(ty);
        }
    }
    for message in body.iter().flat_map(|b| b.messages()) {
        collect_uses(message.syntax(), &[namespace.as_deref()], &mut file.uses);
        if let Some(name) = message.name() {
            file.messages.push(MessageDef {
                name: name.text(),
                span: span(name.token().text_range()),
                doc: message.doc().map(|d| d.text()),
            });
        }
    }
    if let Some(schema) = tree.schema() {
        collect_uses(schema.syntax(), &[namespace.as_deref()], &mut file.uses);
    }
    for import in imports {
        let (Some(kind), Some(literal), Some(value)) =
            (import.kind(), import.path(), import.path_value())
        else {
            continue;
        };
        file.imports.push(ImportDef {
            kind,
            target: locate(&value, path, include_dirs),
            path: value,
            span: span(literal.text_range()),
        });
    }
    file
}

/// The namespace of the protocol (`@namespace`) or schema file (`namespace a.b;`).
fn file_namespace(tree: &SourceFile) -> Option<String> {
    match tree.protocol() {
        Some(protocol) => annotation_string(&protocol, "namespace"),
        None => tree.namespace().and_then(|n| n.name()).map(|n| n.text()),
    }
}

/// The string value of annotation `key`.
fn annotation_string(node: &impl HasAnnotations, key: &str) -> Option<String> {
    annotation_json(node, key)?.as_str().map(str::to_owned)
}

/// The JSON value of annotation `key`.
fn annotation_json(node: &impl HasAnnotations, key: &str) -> Option<serde_json::Value> {
    node.annotations()
        .find(|a| a.name().is_some_and(|n| n.text() == key))?
        .value()?
        .to_json()
}

/// The strings of an `@aliases([...])` annotation, and where another goes (in its list, or
/// in a new annotation at `otherwise`).
fn aliases_of(node: &impl HasAnnotations, otherwise: usize) -> (Vec<String>, AliasPlace) {
    let value = node
        .annotations()
        .find(|a| a.name().is_some_and(|n| n.text() == "aliases"))
        .and_then(|a| a.value());
    let bracket = value.as_ref().and_then(|v| {
        v.syntax()
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == SyntaxKind::LBracket)
    });
    let (Some(value), Some(bracket)) = (value, bracket) else {
        return (Vec::new(), AliasPlace::Annotation(otherwise));
    };
    let names: Vec<String> = match value.to_json() {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let place = AliasPlace::Item {
        at: usize::from(bracket.text_range().end()),
        empty: value.items().next().is_none(),
    };
    (names, place)
}

/// A declaration's entry, with its fields or symbols; `None` when it has no name yet.
fn type_def(declaration: &NamedDecl, namespace: Option<&str>) -> Option<TypeDef> {
    let name = declaration.name()?;
    let own = annotation_string(declaration, "namespace");
    let kind = match declaration {
        NamedDecl::Record(r) if r.is_error() => TypeKind::Error,
        NamedDecl::Record(_) => TypeKind::Record,
        NamedDecl::Enum(_) => TypeKind::Enum,
        NamedDecl::Fixed(_) => TypeKind::Fixed,
    };
    let (aliases, alias_place) = aliases_of(declaration, code_span(declaration.syntax()).start);
    let mut ty = TypeDef {
        full_name: full_name(&name.text(), own.as_deref().or(namespace)),
        kind,
        name_span: span(name.token().text_range()),
        span: code_span(declaration.syntax()),
        doc: declaration.doc().map(|d| d.text()),
        aliases,
        fields: Vec::new(),
        symbols: Vec::new(),
        size: None,
        enum_default_at: None,
        alias_place,
    };
    match declaration {
        NamedDecl::Record(record) => {
            for field in record.fields() {
                let type_text = field
                    .ty()
                    .map(|t| code_text(t.syntax()))
                    .unwrap_or_default();
                let ty_span = field.ty().map_or(0..0, |t| code_span(t.syntax()));
                for variable in field.variables() {
                    let Some(name) = variable.name() else {
                        continue;
                    };
                    let name_start = usize::from(name.token().text_range().start());
                    let (aliases, alias_place) = aliases_of(&variable, name_start);
                    ty.fields.push(FieldDef {
                        name: name.text(),
                        name_span: span(name.token().text_range()),
                        ty: type_text.clone(),
                        ty_span: ty_span.clone(),
                        default: variable.default().map(|d| code_text(d.syntax())),
                        default_span: variable.default().map(|d| code_span(d.syntax())),
                        doc: variable.doc().or_else(|| field.doc()).map(|d| d.text()),
                        aliases,
                        alias_place,
                    });
                }
            }
        }
        NamedDecl::Enum(enumeration) => {
            if enumeration.default().is_none() {
                ty.enum_default_at = Some(ty.span.end);
            }
            ty.symbols = enumeration
                .symbols()
                .filter_map(|s| s.name())
                .map(|n| named(&n))
                .collect();
        }
        NamedDecl::Fixed(fixed) => ty.size = fixed.size().map(|s| s.text().to_owned()),
    }
    Some(ty)
}

/// Every type reference under `node` (field types, parameters, results, `throws`).
fn collect_uses(node: &SyntaxNode, scopes: &[Option<&str>], out: &mut Vec<TypeUse>) {
    let mut push = |name: Name| {
        let written = name.text();
        out.push(TypeUse {
            candidates: candidates(&written, scopes),
            written,
            span: span(name.token().text_range()),
        });
    };
    for child in node.descendants() {
        if let Some(Type::Ref(reference)) = Type::cast(child.clone()) {
            reference.name().into_iter().for_each(&mut push);
        } else if let Some(message) = Message::cast(child) {
            message.throws().into_iter().for_each(&mut push);
        }
    }
}

/// An imported file: beside the importing one, else in the include directories.
pub(crate) fn locate(file: &str, from: &Path, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let beside = from.parent().unwrap_or(Path::new("")).join(file);
    if beside.is_file() {
        return Some(beside);
    }
    include_dirs
        .iter()
        .map(|d| d.join(file))
        .find(|p| p.is_file())
}

fn named(name: &Name) -> Named {
    Named {
        name: name.text(),
        span: span(name.token().text_range()),
    }
}

/// The bytes of `node` from its first token that is not a comment or blank.
fn code_span(node: &SyntaxNode) -> Span {
    span(syntax::code_range(node))
}

/// The text of `node` without the comments before it, blanks folded to one space.
fn code_text(node: &SyntaxNode) -> String {
    let mut out = String::new();
    let tokens = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .skip_while(|t| t.kind().is_trivia());
    for token in tokens {
        match token.kind() {
            SyntaxKind::Whitespace | SyntaxKind::Newline => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            kind if kind.is_comment() => {}
            _ => out.push_str(token.text()),
        }
    }
    out.trim_end().to_owned()
}

fn span(range: TextRange) -> Span {
    usize::from(range.start())..usize::from(range.end())
}
