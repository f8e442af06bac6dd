//! Code actions: each quick fix, applied, makes the linter's finding go away; "Convert to
//! IDL" gives IDL that compiles to the same schemas.

use std::path::Path;

use avdl2rs_lint::{check, Finding, Rule, Settings, Source};
use avdl2rs_lsp::analysis::code_action::{convert_to_idl, lint_fixes};
use avdl2rs_lsp::analysis::Workspace;
use avdl2rs_schema::SchemaSet;
use serde_json::Value;

use super::{apply, fixture};

/// The linter's findings of `rule` on the file at `path`, against `previous` if given.
fn findings(path: &Path, rule: Rule, previous: Option<&Value>) -> Vec<Finding> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let source = if path.extension().unwrap() == "avdl" {
        Source::idl(&name, &text, path, &[])
    } else {
        Source::json(&name, &text)
    };
    check(&source, &Settings::default(), previous)
        .unwrap()
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect()
}

/// Fixes every finding of `rule` in the file at `path` with its first fix, one at a time
/// (re-indexing in between), and returns the titles used.
fn fix_all(
    workspace: &mut Workspace,
    path: &Path,
    rule: Rule,
    previous: Option<&Value>,
) -> Vec<String> {
    let mut titles = Vec::new();
    while let Some(finding) = findings(path, rule, previous).into_iter().next() {
        let fixes = lint_fixes(workspace, path, &finding);
        let fix = fixes
            .first()
            .unwrap_or_else(|| panic!("no fix for {finding:?}"));
        apply(&fix.edits);
        titles.push(fix.title.clone());
        workspace.load(path);
        assert!(titles.len() < 10, "the fixes do not converge: {titles:?}");
    }
    titles
}

#[test]
fn nullable_defaults_are_fixed_in_idl_and_json() {
    let idl = "@namespace(\"shop\")\nprotocol P {\n  record R {\n    string? note = \"none\";\n    \
               union { string, null } tag;\n    union { int, null, array<string> } mixed = 1;\n  }\n}\n";
    let avsc = r#"{"type": "record", "name": "R", "namespace": "shop", "fields": [
  {"name": "a", "type": ["string", "null"]},
  {"name": "b", "type": ["long", "null"], "default": 5}]}"#;
    let (dir, mut workspace) = fixture(&[("p.avdl", idl), ("r.avsc", avsc)]);
    for (name, fixed) in [("p.avdl", 3), ("r.avsc", 2)] {
        let path = dir.path().join(name);
        let titles = fix_all(&mut workspace, &path, Rule::NullableDefault, None);
        assert_eq!(titles.len(), fixed, "{titles:?}");
        assert!(findings(&path, Rule::InvalidDefault, None).is_empty());
    }
    let text = std::fs::read_to_string(dir.path().join("p.avdl")).unwrap();
    assert!(text.contains("string? note = null;"), "{text}");
    assert!(
        text.contains("union { null, string } tag = null;"),
        "{text}"
    );
    assert!(
        text.contains("union { null, int, array<string> } mixed = null;"),
        "{text}"
    );
}

#[test]
fn an_enum_gets_a_default_symbol_of_its_choice() {
    let idl = "protocol P {\n  enum Size { S, M, L }\n  record R { Size size; }\n}\n";
    let avsc = r#"{"type": "enum", "name": "Size", "namespace": "shop", "symbols": ["S", "M"]}"#;
    let (dir, mut workspace) = fixture(&[("p.avdl", idl), ("size.avsc", avsc)]);
    let path = dir.path().join("p.avdl");
    let finding = &findings(&path, Rule::EnumDefault, None)[0];
    let titles: Vec<String> = lint_fixes(&workspace, &path, finding)
        .into_iter()
        .map(|f| f.title)
        .collect();
    assert_eq!(
        titles,
        [
            "Add the default symbol `S`",
            "Add the default symbol `M`",
            "Add the default symbol `L`"
        ]
    );
    fix_all(&mut workspace, &path, Rule::EnumDefault, None);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("enum Size { S, M, L } = S;"), "{text}");
    let json = dir.path().join("size.avsc");
    fix_all(&mut workspace, &json, Rule::EnumDefault, None);
    let mut set = SchemaSet::new();
    set.parse_str(&std::fs::read_to_string(&json).unwrap())
        .unwrap();
}

#[test]
fn a_rename_without_alias_gets_the_alias_the_linter_asks_for() {
    let before = "@namespace(\"shop\")\nprotocol P {\n  record Old { long id; }\n  \
                  record Keep { string label; }\n}\n";
    let after = "@namespace(\"shop\")\nprotocol P {\n  record New { long id; }\n  \
                 record Keep { string name; }\n}\n";
    let (dir, mut workspace) = fixture(&[("p.avdl", before)]);
    let path = dir.path().join("p.avdl");
    let previous = avdl_parser::parse_file(&path, &Default::default())
        .unwrap()
        .to_json();
    std::fs::write(&path, after).unwrap();
    workspace.load(&path);
    let titles = fix_all(
        &mut workspace,
        &path,
        Rule::RenameWithoutAlias,
        Some(&previous),
    );
    assert_eq!(titles.len(), 2, "{titles:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("@aliases([\"shop.Old\"]) record New"),
        "{text}"
    );
    assert!(
        text.contains("string @aliases([\"label\"]) name;"),
        "{text}"
    );
}

#[test]
fn convert_to_idl_gives_idl_with_the_same_schemas() {
    let avpr = r#"{"protocol": "Billing", "namespace": "shop", "doc": "Facturation — 請求",
  "types": [{"type": "record", "name": "Invoice", "fields": [
      {"name": "total", "type": "long"},
      {"name": "note", "type": ["null", "string"], "default": null}]}],
  "messages": {"bill": {"request": [{"name": "invoice", "type": "Invoice"}], "response": "null"}}}"#;
    let (dir, workspace) = fixture(&[("billing.avpr", avpr)]);
    let path = dir.path().join("billing.avpr");
    let created = convert_to_idl(&workspace, &path).unwrap();
    assert_eq!(
        created.path,
        avdl2rs_lsp::analysis::key(&dir.path().join("billing.avdl"))
    );
    let compiled = avdl_parser::parse_str(&created.text, "billing.avdl", &Default::default())
        .unwrap()
        .to_json();
    let canonical = |json: &Value| {
        let mut set = SchemaSet::new();
        set.parse_file_value(json).unwrap();
        let invoice =
            avdl2rs_schema::Schema::named(avdl2rs_schema::Name::parse("shop.Invoice", None));
        set.canonical_form(&invoice)
    };
    let original: Value = serde_json::from_str(avpr).unwrap();
    assert_eq!(canonical(&compiled), canonical(&original));
    assert_eq!(compiled["doc"], original["doc"]);
    let idl = dir.path().join("billing.avdl");
    std::fs::write(&idl, "protocol P {}").unwrap();
    let mut workspace = workspace;
    workspace.load(&idl);
    assert!(convert_to_idl(&workspace, &idl).is_err());
}
