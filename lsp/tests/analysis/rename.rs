//! Rename: the renamed files compile, and with the old name kept as an alias the new
//! version reads data of the old one (checked with the runtime's compatibility checker).

use std::path::Path;

use avdl2rs::compat::{can_read, SchemaRef};
use avdl2rs::schema::{Name, Schema, SchemaSet};
use avdl2rs_lsp::analysis::rename::{prepare_rename, rename};

use super::{apply, fixture, offset, warehouse_dir};

/// The warehouse schemas, copied into a folder of their own.
fn warehouse_copy() -> (tempfile::TempDir, avdl2rs_lsp::analysis::Workspace) {
    let read = |name: &str| std::fs::read_to_string(warehouse_dir().join(name)).unwrap();
    let (dir, _) = fixture(&[
        ("warehouse.avdl", &read("warehouse.avdl")),
        (
            "reference/locations.avdl",
            &read("reference/locations.avdl"),
        ),
        (
            "shared/business_event.avdl",
            &read("shared/business_event.avdl"),
        ),
    ]);
    let mut workspace = avdl2rs_lsp::analysis::Workspace::new(vec![dir.path().join("shared")]);
    workspace.scan(dir.path());
    (dir, workspace)
}

/// The named types of the IDL file at `path`, compiled.
fn compiled(path: &Path, include: &Path) -> SchemaSet {
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![include.to_path_buf()],
    };
    let parsed = avdl_parser::parse_file(path, &options).unwrap();
    let mut set = SchemaSet::new();
    set.parse_file_value(parsed.json()).unwrap();
    set
}

/// Whether `new` reads data written with `old`, for the record `full_name`.
fn reads(new: &SchemaSet, old: &SchemaSet, full_name: &str) -> Vec<String> {
    let schema = Schema::named(Name::parse(full_name, None));
    can_read(SchemaRef::new(new, &schema), SchemaRef::new(old, &schema))
        .into_iter()
        .map(|i| i.to_string())
        .collect()
}

#[test]
fn a_type_renamed_with_its_alias_stays_readable_across_files() {
    for keep_alias in [true, false] {
        let (dir, workspace) = warehouse_copy();
        let main = dir.path().join("warehouse.avdl");
        let include = dir.path().join("shared");
        let before = compiled(&main, &include);
        let at = offset(&main, "com.example.reference.Location from", 0, 24);
        let (span, name) = prepare_rename(&workspace, &main, at).unwrap();
        assert_eq!(name, "Location");
        assert_eq!(span.start, offset(&main, "Location from", 0, 0));
        let edits = rename(&workspace, &main, at, "Place", keep_alias).unwrap();
        assert_eq!(edits.len(), 2, "{edits:?}");
        apply(&edits);
        let after = compiled(&main, &include);
        assert!(after.get("com.example.reference.Place").is_some());
        assert!(after.get("com.example.reference.Location").is_none());
        let problems = reads(&after, &before, "com.example.warehouse.StockMoved");
        assert_eq!(problems.is_empty(), keep_alias, "{problems:?}");
        let text = std::fs::read_to_string(&main).unwrap();
        assert!(
            text.contains("com.example.reference.Place? to = null;"),
            "{text}"
        );
    }
}

#[test]
fn a_field_renamed_in_idl_keeps_its_old_name_as_an_alias() {
    let (dir, workspace) = warehouse_copy();
    let path = dir.path().join("reference/locations.avdl");
    let include = dir.path().join("shared");
    let before = compiled(&path, &include);
    let edits = rename(
        &workspace,
        &path,
        offset(&path, "aisle;", 0, 1),
        "row",
        true,
    )
    .unwrap();
    apply(&edits);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("int @aliases([\"aisle\"]) row;"), "{text}");
    let after = compiled(&path, &include);
    assert!(reads(&after, &before, "com.example.reference.Location").is_empty());
}

#[test]
fn a_json_field_and_type_take_aliases_as_members_or_list_items() {
    let avsc = r#"{"type": "record", "name": "Money", "namespace": "shop", "aliases": [],
  "fields": [{"name": "cents", "type": "long", "aliases": ["pennies"]},
             {"name": "currency", "type": "string"}]}"#;
    let (dir, mut workspace) = fixture(&[("money.avsc", avsc)]);
    let path = dir.path().join("money.avsc");
    let mut old = SchemaSet::new();
    let writer = old.parse_str(avsc).unwrap();
    for (needle, name) in [
        ("\"cents\"", "amount"),
        ("\"currency\"", "code"),
        ("\"Money\"", "Price"),
    ] {
        let at = offset(&path, needle, 0, 2);
        apply(&rename(&workspace, &path, at, name, true).unwrap());
        workspace.load(&path);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains(r#""name": "Price", "namespace": "shop", "aliases": ["shop.Money"]"#),
        "{text}"
    );
    assert!(
        text.contains(r#""aliases": ["cents", "pennies"]"#),
        "{text}"
    );
    assert!(
        text.contains(r#"{"name": "code", "aliases": ["currency"], "type": "string"}"#),
        "{text}"
    );
    let mut new = SchemaSet::new();
    let schema = new.parse_str(&text).unwrap();
    assert!(can_read(SchemaRef::new(&new, &schema), SchemaRef::new(&old, &writer)).is_empty());
}

#[test]
fn names_that_cannot_be_used_are_refused_and_keywords_are_quoted() {
    let text = "protocol P {\n  record A { int x; int y; }\n  record B { A a; }\n}\n";
    let (dir, workspace) = fixture(&[("p.avdl", text)]);
    let path = dir.path().join("p.avdl");
    let x = offset(&path, "x;", 0, 0);
    assert!(rename(&workspace, &path, x, "y", false)
        .unwrap_err()
        .contains("already has"));
    assert!(rename(&workspace, &path, x, "9lives", false)
        .unwrap_err()
        .contains("not an Avro name"));
    let a = offset(&path, "A a", 0, 0);
    assert!(rename(&workspace, &path, a, "B", false)
        .unwrap_err()
        .contains("already declared"));
    assert!(prepare_rename(&workspace, &path, offset(&path, "protocol", 0, 2)).is_none());
    apply(&rename(&workspace, &path, a, "record", false).unwrap());
    let renamed = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        renamed,
        "protocol P {\n  record `record` { int x; int y; }\n  record B { `record` a; }\n}\n"
    );
    let parsed = avdl_parser::parse_file(&path, &Default::default()).unwrap();
    assert!(parsed.to_json_string(false).contains("\"name\":\"record\""));
}
