//! The typed accessors of the syntax tree on one file that uses every kind of node.

use avdl_parser::syntax;
use avdl_parser::syntax::ast::{
    AstNode, Documented, HasAnnotations, ImportKind, NamedDecl, SourceFile, Type,
};
use serde_json::json;

const TEXT: &str = r#"/** Not the protocol's doc. */
/** The shop. */
@namespace("shop")
protocol Shop {
  import idl "common.avdl";
  import schema "a\u0041.avsc";

  // About colours.
  /** A colour. */
  @aliases(["Colour"])
  enum Color { RED, @x(1) GREEN } = RED;

  fixed Hash(0x10);

  record Order {
    /** The id. */
    long id = -7;
    @java-class("x.Y") decimal(12, 2)? amount = null;
    array<map<union { null, `record`, a.b.Ref }>> nested = [{"k": [1.5, "s", true]}];
    string `error`, other = "\u00e9";
  }

  @deprecated(true) Order get(long id, string? filter = null) throws Failure, Other;
  void ping() oneway;
}
"#;

fn tree() -> SourceFile {
    let parse = syntax::parse(TEXT);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    parse.tree()
}

#[test]
fn protocol_imports_and_docs() {
    let protocol = tree().protocol().unwrap();
    assert_eq!(protocol.name().unwrap().text(), "Shop");
    // The last doc comment before the declaration is its doc, as the compiler reads it.
    assert_eq!(protocol.doc().unwrap().text(), "The shop.");
    let annotation = protocol.annotations().next().unwrap();
    assert_eq!(annotation.name().unwrap().text(), "namespace");
    assert_eq!(annotation.value().unwrap().to_json(), Some(json!("shop")));
    let imports: Vec<_> = protocol.body().unwrap().imports().collect();
    assert_eq!(imports[0].kind(), Some(ImportKind::Idl));
    assert_eq!(imports[0].path_value().as_deref(), Some("common.avdl"));
    assert_eq!(imports[1].kind(), Some(ImportKind::Schema));
    assert_eq!(imports[1].path().unwrap().text(), r#""a\u0041.avsc""#);
    assert_eq!(imports[1].path_value().as_deref(), Some("aA.avsc"));
}

#[test]
fn named_types() {
    let body = tree().protocol().unwrap().body().unwrap();
    let decls: Vec<NamedDecl> = body.declarations().collect();
    let NamedDecl::Enum(color) = &decls[0] else {
        panic!("{decls:?}")
    };
    assert_eq!(color.doc().unwrap().text(), "A colour.");
    let comments: Vec<_> = color
        .leading_comments()
        .iter()
        .map(|t| t.text().to_owned())
        .collect();
    assert_eq!(comments, ["// About colours.", "/** A colour. */"]);
    assert_eq!(decls[0].annotations().count(), 1);
    let symbols: Vec<_> = color.symbols().map(|s| s.name().unwrap().text()).collect();
    assert_eq!(symbols, ["RED", "GREEN"]);
    assert_eq!(color.symbols().nth(1).unwrap().annotations().count(), 1);
    assert_eq!(color.default().unwrap().text(), "RED");
    let NamedDecl::Fixed(hash) = &decls[1] else {
        panic!("{decls:?}")
    };
    assert_eq!(hash.size().unwrap().text(), "0x10");
    let NamedDecl::Record(order) = &decls[2] else {
        panic!("{decls:?}")
    };
    assert!(!order.is_error());
    assert_eq!(order.doc(), None);
    let fields: Vec<_> = order.fields().collect();
    assert_eq!(fields[0].doc().unwrap().text(), "The id.");
    let id = fields[0].variables().next().unwrap();
    assert_eq!(id.default().unwrap().to_json(), Some(json!(-7)));
    let names: Vec<_> = fields[3]
        .variables()
        .map(|v| v.name().unwrap().text())
        .collect();
    assert_eq!(names, ["error", "other"]);
    let other = fields[3].variables().nth(1).unwrap();
    assert_eq!(other.default().unwrap().to_json(), Some(json!("é")));
    let nested = fields[2].variables().next().unwrap().default().unwrap();
    assert_eq!(nested.to_json(), Some(json!([{"k": [1.5, "s", true]}])));
}

#[test]
fn types() {
    let body = tree().protocol().unwrap().body().unwrap();
    let Some(NamedDecl::Record(order)) = body.declarations().nth(2) else {
        panic!("no record")
    };
    let types: Vec<Type> = order.fields().map(|f| f.ty().unwrap()).collect();
    assert!(matches!(&types[0], Type::Primitive(p) if p.keyword().unwrap().text() == "long"));
    let Type::Nullable(amount) = &types[1] else {
        panic!("{types:?}")
    };
    let Some(Type::Decimal(decimal)) = amount.inner() else {
        panic!("{amount:?}")
    };
    assert_eq!(decimal.precision().unwrap().text(), "12");
    assert_eq!(decimal.scale().unwrap().text(), "2");
    assert_eq!(
        types[1]
            .annotations()
            .next()
            .unwrap()
            .name()
            .unwrap()
            .text(),
        "java-class"
    );
    let Type::Array(array) = &types[2] else {
        panic!("{types:?}")
    };
    let Some(Type::Map(map)) = array.items() else {
        panic!("{array:?}")
    };
    let Some(Type::Union(union)) = map.values() else {
        panic!("{map:?}")
    };
    let members: Vec<_> = union.members().map(|t| t.syntax().to_string()).collect();
    assert_eq!(members, ["null", "`record`", "a.b.Ref"]);
    assert!(
        matches!(union.members().nth(1), Some(Type::Ref(r)) if r.name().unwrap().text() == "record")
    );
}

#[test]
fn messages() {
    let body = tree().protocol().unwrap().body().unwrap();
    let messages: Vec<_> = body.messages().collect();
    let get = &messages[0];
    assert_eq!(get.name().unwrap().text(), "get");
    assert!(matches!(get.result(), Some(Type::Ref(_))));
    let params: Vec<_> = get
        .params()
        .map(|p| p.variable().unwrap().name().unwrap().text())
        .collect();
    assert_eq!(params, ["id", "filter"]);
    let throws: Vec<_> = get.throws().iter().map(|n| n.text()).collect();
    assert_eq!(throws, ["Failure", "Other"]);
    assert!(!get.is_oneway());
    let ping = &messages[1];
    assert!(ping.is_oneway());
    assert!(
        matches!(ping.result(), Some(Type::Primitive(p)) if p.keyword().unwrap().text() == "void")
    );
}

#[test]
fn a_schema_file() {
    let text =
        "namespace a.b;\nschema array<R>;\nimport protocol \"p.avpr\";\nrecord R { int x; }\n";
    let tree = syntax::parse(text).tree();
    assert_eq!(tree.namespace().unwrap().name().unwrap().text(), "a.b");
    assert!(matches!(tree.schema().unwrap().ty(), Some(Type::Array(_))));
    assert_eq!(
        tree.imports().next().unwrap().kind(),
        Some(ImportKind::Protocol)
    );
    assert_eq!(tree.declarations().count(), 1);
    assert!(tree.protocol().is_none());
}
