//! A broken declaration in the middle of a file leaves the declarations after it intact.

use avdl_parser::syntax;
use avdl_parser::syntax::ast::{NamedDecl, SourceFile};

/// The names of the named types of a file, each with its field names (or enum symbols).
fn outline(tree: &SourceFile) -> Vec<String> {
    let decls: Vec<NamedDecl> = match tree.protocol() {
        Some(protocol) => protocol.body().expect("body").declarations().collect(),
        None => tree.declarations().collect(),
    };
    decls
        .iter()
        .map(|decl| {
            let name = decl.name().map_or("?".into(), |n| n.text());
            let parts: Vec<String> = match decl {
                NamedDecl::Record(r) => r
                    .fields()
                    .flat_map(|f| f.variables().collect::<Vec<_>>())
                    .map(|v| v.name().map_or("?".into(), |n| n.text()))
                    .collect(),
                NamedDecl::Enum(e) => e
                    .symbols()
                    .map(|s| s.name().map_or("?".into(), |n| n.text()))
                    .collect(),
                NamedDecl::Fixed(_) => Vec::new(),
            };
            format!("{name}({})", parts.join(","))
        })
        .collect()
}

/// Each broken declaration, put between two good ones in a protocol and in a schema file.
const BROKEN: &[&str] = &[
    "record Broken { int x }",
    "record Broken { int x;",
    "record Broken int x; }",
    "record Broken { int = 1; }",
    "record Broken { map<int x; }",
    "record Broken { union { int, } x; }",
    "record Broken { string x = \"unterminated; }",
    "record Broken { int x = [1, 2; }",
    "record Broken { @a( int x; }",
    "recrod Broken { int x; }",
    "enum Broken { A B }",
    "enum Broken { A, } = ",
    "fixed Broken(16)",
    "fixed Broken(x);",
    "record Broken { int x; } }",
    "record Broken { # }",
    "@ record Broken { }",
];

#[test]
fn declarations_after_a_broken_one_stay_intact() {
    let mut failures = Vec::new();
    for broken in BROKEN {
        let schema = format!(
            "namespace n;\nrecord Before {{ int a; }}\n{broken}\nrecord After {{ long b, c = 1; }}\nenum Last {{ X, Y }}\n"
        );
        let protocol = format!(
            "protocol P {{\n  record Before {{ int a; }}\n  {broken}\n  record After {{ long b, c = 1; }}\n  enum Last {{ X, Y }}\n  void ping();\n}}\n"
        );
        for text in [schema, protocol] {
            let parse = syntax::parse(&text);
            assert_eq!(parse.syntax().to_string(), text);
            if parse.errors().is_empty() {
                failures.push(format!("no error in {text:?}"));
            }
            let outline = outline(&parse.tree());
            let n = outline.len();
            let tail = &outline[n.saturating_sub(2)..];
            if outline.first().map(String::as_str) != Some("Before(a)")
                || tail != ["After(b,c)", "Last(X,Y)"]
            {
                failures.push(format!("{broken:?}: {outline:?}"));
            }
            let messages = parse.tree().protocol().and_then(|p| p.body()).map(|b| {
                b.messages()
                    .filter_map(|m| m.name())
                    .map(|n| n.text())
                    .collect::<Vec<_>>()
            });
            if messages.is_some_and(|m| m.last().map(String::as_str) != Some("ping")) {
                failures.push(format!("{broken:?}: the message after it is lost"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
