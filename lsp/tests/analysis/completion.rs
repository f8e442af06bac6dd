//! Completion: types in scope written as the file can refer to them, annotations, import
//! paths, JSON type names.

use avdl2rs_lsp::analysis::completion::{complete, Completion, CompletionKind};

use super::{fixture, offset, warehouse, warehouse_dir};

fn labels(found: &[Completion], kind: CompletionKind) -> Vec<&str> {
    found
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| c.label.as_str())
        .collect()
}

#[test]
fn types_in_scope_are_simple_in_the_file_namespace_and_full_outside() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let at = offset(&main, "int quantity", 0, 2);
    let found = complete(&workspace, &main, at);
    assert_eq!(
        labels(&found, CompletionKind::Type),
        [
            "MovementLine",
            "StockMoved",
            "com.example.reference.Location",
            "com.example.reference.Sku",
            "com.example.reference.Zone",
            "com.example.shared.Actor",
            "com.example.shared.BusinessEvent",
        ]
    );
    let int = found.iter().find(|c| c.label == "int").unwrap();
    assert_eq!(int.replace, at - 2..at);
    for expected in ["timestamp_ms", "uuid", "date", "decimal(p,s)"] {
        assert!(
            labels(&found, CompletionKind::Primitive).contains(&expected),
            "{expected}"
        );
    }
    assert!(labels(&found, CompletionKind::Keyword).contains(&"record"));
    let decimal = found.iter().find(|c| c.label == "decimal(p,s)").unwrap();
    assert!(decimal.snippet && decimal.insert.starts_with("decimal(${1:precision}"));
}

#[test]
fn after_an_at_sign_come_annotations() {
    let text = "protocol P {\n  @name\n  record R { int x; }\n}\n";
    let (dir, workspace) = fixture(&[("p.avdl", text)]);
    let path = dir.path().join("p.avdl");
    let at = offset(&path, "@name", 0, 3);
    let found = complete(&workspace, &path, at);
    let names = labels(&found, CompletionKind::Annotation);
    assert!(names.contains(&"namespace") && names.contains(&"aliases") && names.contains(&"order"));
    assert!(names.contains(&"logicalType") && names.contains(&"java-class"));
    assert_eq!(found.len(), names.len());
    assert_eq!(found[0].replace, at - 2..at);
}

#[test]
fn an_import_string_lists_files_of_its_kind_and_folders() {
    let (dir, workspace) = fixture(&[
        (
            "main.avdl",
            "protocol P {\n  import idl \"sub/\";\n  import schema \"\";\n}\n",
        ),
        ("sub/a.avdl", "protocol A {}"),
        ("sub/b.avsc", "\"int\""),
        ("c.avsc", "\"int\""),
    ]);
    let path = dir.path().join("main.avdl");
    let at = offset(&path, "sub/\"", 0, 4);
    let found = complete(&workspace, &path, at);
    assert_eq!(labels(&found, CompletionKind::File), ["a.avdl"]);
    assert_eq!(found[0].replace, at..at);
    let at = offset(&path, "schema \"\"", 0, 8);
    let found = complete(&workspace, &path, at);
    assert_eq!(labels(&found, CompletionKind::File), ["c.avsc"]);
    assert_eq!(labels(&found, CompletionKind::Folder), ["sub/"]);
}

#[test]
fn a_json_string_offers_primitives_and_full_names() {
    let avsc = r#"{"type": "record", "name": "Order", "namespace": "shop",
  "fields": [{"name": "id", "type": "lo"}]}"#;
    let (dir, workspace) = fixture(&[("order.avsc", avsc)]);
    let path = dir.path().join("order.avsc");
    let at = offset(&path, "\"lo\"", 0, 3);
    let found = complete(&workspace, &path, at);
    assert!(labels(&found, CompletionKind::Primitive).contains(&"long"));
    assert_eq!(labels(&found, CompletionKind::Type), ["shop.Order"]);
    assert_eq!(found[0].replace, at - 2..at);
    assert!(complete(&workspace, &path, offset(&path, "\"fields\"", 0, 0)).is_empty());
}
