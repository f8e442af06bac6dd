//! The syntax tree's structure against the compiler's output: for every input the compiler
//! accepts, each named type of the tree is one of the JSON's, with the same kind, doc, fields
//! with their defaults and docs, symbols or size; a protocol has the JSON's doc; and for a
//! file that imports nothing, the tree declares all the JSON's types and the protocol's
//! messages, with their docs and parameters, are the JSON's. The compiler's outputs are
//! themselves checked against the reference tools' by the conformance tests.

use std::collections::{BTreeMap, BTreeSet};

use avdl_parser::syntax;
use avdl_parser::syntax::ast::{Documented, Enum, Fixed, NamedDecl, Record, SourceFile};
use serde_json::Value;

use crate::syntax_inputs;

/// What the tree or the JSON says about a named type, in a form both can give.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    kind: String,
    /// The doc comment's text.
    doc: Option<String>,
    /// Field names (with `=` and the default's JSON when there is one, and `#` and the doc when
    /// there is one), enum symbols, or the fixed size.
    parts: Vec<String>,
}

fn simple_name(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).to_owned()
}

fn tree_shape(decl: &NamedDecl) -> Shape {
    let shape = match decl {
        NamedDecl::Record(record) => record_shape(record),
        NamedDecl::Enum(e) => enum_shape(e),
        NamedDecl::Fixed(f) => fixed_shape(f),
    };
    Shape {
        doc: decl.doc().map(|d| d.text()),
        ..shape
    }
}

fn record_shape(record: &Record) -> Shape {
    Shape {
        kind: if record.is_error() { "error" } else { "record" }.into(),
        doc: None,
        parts: record
            .fields()
            .flat_map(|f| {
                f.variables()
                    .map(move |v| (f.clone(), v))
                    .collect::<Vec<_>>()
            })
            .map(|(field, v)| {
                let mut part = v.name().expect("field name").text();
                if let Some(default) = v.default() {
                    part += &format!("={}", default.to_json().expect("default"));
                }
                // A variable's own doc comment, else the field's.
                if let Some(doc) = v.doc().or_else(|| field.doc()) {
                    part += &format!("#{}", doc.text());
                }
                part
            })
            .collect(),
    }
}

fn enum_shape(e: &Enum) -> Shape {
    Shape {
        kind: "enum".into(),
        doc: None,
        parts: e
            .symbols()
            .map(|s| s.name().expect("symbol").text())
            .collect(),
    }
}

fn fixed_shape(f: &Fixed) -> Shape {
    let size = f.size().expect("size");
    let digits = size.text().trim_end_matches(['l', 'L']);
    let size = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse(),
    };
    Shape {
        kind: "fixed".into(),
        doc: None,
        parts: vec![size.expect("size literal").to_string()],
    }
}

fn json_shape(schema: &Value) -> Shape {
    let kind = schema["type"].as_str().expect("type").to_owned();
    let parts = match kind.as_str() {
        "record" | "error" => schema["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .map(|f| {
                let mut part = f["name"].as_str().expect("field name").to_owned();
                if let Some(default) = f.get("default") {
                    part += &format!("={default}");
                }
                if let Some(doc) = f.get("doc").and_then(Value::as_str) {
                    part += &format!("#{doc}");
                }
                part
            })
            .collect(),
        "enum" => schema["symbols"]
            .as_array()
            .expect("symbols")
            .iter()
            .map(|s| s.as_str().expect("symbol").to_owned())
            .collect(),
        _ => vec![schema["size"].to_string()],
    };
    let doc = schema.get("doc").and_then(Value::as_str).map(str::to_owned);
    Shape { kind, doc, parts }
}

/// The named types a file's tree declares, at the top of a schema file or in a protocol.
fn declarations(tree: &SourceFile) -> Vec<NamedDecl> {
    match tree.protocol() {
        Some(protocol) => protocol.body().expect("body").declarations().collect(),
        None => tree.declarations().collect(),
    }
}

fn imports_anything(tree: &SourceFile) -> bool {
    let in_protocol = tree
        .protocol()
        .and_then(|p| p.body())
        .is_some_and(|b| b.imports().next().is_some());
    in_protocol || tree.imports().next().is_some()
}

/// Message names, each with its doc and its parameter names, from the tree.
fn tree_messages(tree: &SourceFile) -> BTreeMap<String, (Option<String>, Vec<String>)> {
    let Some(body) = tree.protocol().and_then(|p| p.body()) else {
        return BTreeMap::new();
    };
    body.messages()
        .map(|m| {
            let params = m
                .params()
                .map(|p| p.variable().and_then(|v| v.name()).expect("param").text())
                .collect();
            let doc = m.doc().map(|d| d.text());
            (m.name().expect("message name").text(), (doc, params))
        })
        .collect()
}

fn json_messages(json: &Value) -> BTreeMap<String, (Option<String>, Vec<String>)> {
    let Some(messages) = json.get("messages").and_then(Value::as_object) else {
        return BTreeMap::new();
    };
    messages
        .iter()
        .map(|(name, m)| {
            let params = m["request"]
                .as_array()
                .expect("request")
                .iter()
                .map(|p| p["name"].as_str().expect("param name").to_owned())
                .collect();
            let doc = m.get("doc").and_then(Value::as_str).map(str::to_owned);
            (name.clone(), (doc, params))
        })
        .collect()
}

#[test]
fn named_types_fields_and_messages_agree_with_the_compiler() {
    let mut failures = Vec::new();
    let mut checked_types = 0;
    for input in syntax_inputs::all() {
        let options = syntax_inputs::options_for(&input.path);
        let Ok(compiled) = avdl_parser::parse_file(&input.path, &options) else {
            continue;
        };
        let name = input.path.display();
        let tree = syntax::parse(&input.text).tree();
        let named = compiled.named_schemas().expect("named schemas");
        let decls = declarations(&tree);
        let mut seen = BTreeSet::new();
        for decl in &decls {
            let written = decl.name().expect("declared name").text();
            // A repeated identical definition is allowed, and the JSON has the first one's doc.
            if !seen.insert(written.clone()) {
                continue;
            }
            let simple = simple_name(&written);
            let shape = tree_shape(decl);
            let found = named
                .iter()
                .filter(|(full, _)| simple_name(full) == simple)
                .any(|(_, schema)| json_shape(schema) == shape);
            if !found {
                failures.push(format!("{name}: {simple} {shape:?} is not in the JSON"));
            }
            checked_types += 1;
        }
        if !imports_anything(&tree) {
            // A type may be declared twice, identically (`redefinition.avdl`).
            let declared: BTreeSet<String> = decls
                .iter()
                .filter_map(|d| Some(d.name()?.text()))
                .collect();
            if declared.len() != named.len() {
                failures.push(format!(
                    "{name}: the tree declares {} types, the JSON has {}",
                    declared.len(),
                    named.len()
                ));
            }
            if compiled.is_protocol() && tree_messages(&tree) != json_messages(compiled.json()) {
                failures.push(format!("{name}: the messages differ"));
            }
        }
        if let Some(protocol) = tree.protocol() {
            let doc = protocol.doc().map(|d| d.text());
            let json_doc = compiled.json().get("doc").and_then(Value::as_str);
            if doc.as_deref() != json_doc {
                failures.push(format!("{name}: protocol doc {doc:?}, JSON {json_doc:?}"));
            }
        }
    }
    assert!(
        checked_types > 50,
        "only {checked_types} named types checked"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
