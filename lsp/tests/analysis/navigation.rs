//! Go to definition, find references, workspace symbols.

use avdl2rs_lsp::analysis::navigation::{definition, references, workspace_symbols};
use avdl2rs_lsp::analysis::{key, TypeKind};

use super::{fixture, offset, text_at, warehouse, warehouse_dir};

#[test]
fn a_dotted_reference_leads_into_the_imported_file() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let at = offset(&main, "com.example.reference.Sku sku", 0, 22);
    let found = definition(&workspace, &main, at).unwrap();
    let locations = key(&warehouse_dir().join("reference/locations.avdl"));
    assert_eq!(found.path, locations);
    assert_eq!(text_at(&found.path, &found.span), "Sku");
    assert_eq!(found.span.start, offset(&locations, "record Sku", 0, 7));
}

#[test]
fn a_simple_name_resolves_in_the_protocol_namespace() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let at = offset(&main, "array<MovementLine>", 0, 8);
    let found = definition(&workspace, &main, at).unwrap();
    assert_eq!(found.path, key(&main));
    assert_eq!(found.span.start, offset(&main, "record MovementLine", 0, 7));
}

#[test]
fn an_import_path_opens_the_file_found_through_the_include_directory() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let at = offset(&main, "\"business_event.avdl\"", 0, 3);
    let found = definition(&workspace, &main, at).unwrap();
    assert_eq!(
        found.path,
        key(&warehouse_dir().join("shared/business_event.avdl"))
    );
    assert_eq!(found.span, 0..0);
}

#[test]
fn references_are_found_across_files_with_the_declaration_on_request() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let locations = warehouse_dir().join("reference/locations.avdl");
    let at = offset(&locations, "record Location", 0, 8);
    let found = references(&workspace, &locations, at, false);
    let places: Vec<_> = found
        .iter()
        .map(|l| (l.path.clone(), l.span.start))
        .collect();
    assert_eq!(
        places,
        [
            (
                key(&main),
                offset(&main, "com.example.reference.Location from", 0, 0)
            ),
            (
                key(&main),
                offset(&main, "com.example.reference.Location? to", 0, 0)
            ),
        ]
    );
    let with_declaration = references(&workspace, &main, places[0].1, true);
    assert_eq!(with_declaration.len(), 3);
    assert!(with_declaration
        .iter()
        .any(|l| l.path == key(&locations) && text_at(&l.path, &l.span) == "Location"));
}

#[test]
fn workspace_symbols_match_by_substring_then_by_letters_in_order() {
    let workspace = warehouse();
    let names = |query: &str| -> Vec<String> {
        workspace_symbols(&workspace, query)
            .into_iter()
            .map(|m| m.full_name)
            .collect()
    };
    assert_eq!(
        names("reference."),
        [
            "com.example.reference.Location",
            "com.example.reference.Sku",
            "com.example.reference.Zone"
        ]
    );
    assert_eq!(names("stmv"), ["com.example.warehouse.StockMoved"]);
    assert_eq!(names("").len(), 7);
    let zone = &workspace_symbols(&workspace, "zone")[0];
    assert_eq!(zone.kind, TypeKind::Enum);
    assert_eq!(text_at(&zone.location.path, &zone.location.span), "Zone");
}

#[test]
fn a_broken_file_still_offers_what_parsed() {
    let text = "@namespace(\"a\")\nprotocol P {\n  record Before { long id; }\n  record Broken { \
                int x = ; string\n  }\n  record After { Before before; }\n}\n";
    let (dir, workspace) = fixture(&[("p.avdl", text)]);
    let path = dir.path().join("p.avdl");
    let file = workspace.file(&path).unwrap();
    let names: Vec<_> = file.types.iter().map(|t| t.full_name.as_str()).collect();
    assert!(
        names.contains(&"a.Before") && names.contains(&"a.After"),
        "{names:?}"
    );
    let found = definition(&workspace, &path, offset(&path, "Before before", 0, 1)).unwrap();
    assert_eq!(found.span.start, offset(&path, "record Before", 0, 7));
}

#[test]
fn references_in_json_schemas_lead_to_their_declarations() {
    let avsc = r#"{"type": "record", "name": "Money", "namespace": "shop",
  "fields": [{"name": "cents", "type": "long"},
             {"name": "currency", "type": {"type": "enum", "name": "Currency", "symbols": ["EUR", "USD"]}}]}"#;
    let avpr = r#"{"protocol": "Billing", "namespace": "shop",
  "types": [{"type": "record", "name": "Invoice", "fields": [
      {"name": "total", "type": "Money"},
      {"name": "lines", "type": {"type": "array", "items": "shop.Currency"}}]}],
  "messages": {"bill": {"request": [{"name": "invoice", "type": "Invoice"}], "response": "null"}}}"#;
    let idl = "@namespace(\"shop\")\nprotocol Orders {\n  import schema \"money.avsc\";\n  \
               record Order { Money amount; }\n}\n";
    let (dir, workspace) = fixture(&[
        ("money.avsc", avsc),
        ("billing.avpr", avpr),
        ("orders.avdl", idl),
    ]);
    let money = dir.path().join("money.avsc");
    let billing = dir.path().join("billing.avpr");
    let orders = dir.path().join("orders.avdl");
    // From IDL into the .avsc.
    let found = definition(&workspace, &orders, offset(&orders, "Money amount", 0, 2)).unwrap();
    assert_eq!(found.path, key(&money));
    assert_eq!(text_at(&found.path, &found.span), "Money");
    // From the .avpr into the .avsc, and within the .avpr.
    let found = definition(&workspace, &billing, offset(&billing, "\"Money\"", 0, 1)).unwrap();
    assert_eq!(
        (found.path, found.span.start),
        (key(&money), offset(&money, "Money", 0, 0))
    );
    let found = definition(
        &workspace,
        &billing,
        offset(&billing, "\"shop.Currency\"", 0, 6),
    )
    .unwrap();
    assert_eq!(text_at(&found.path, &found.span), "Currency");
    let found = definition(&workspace, &billing, offset(&billing, "\"Invoice\"}", 0, 3)).unwrap();
    assert_eq!(found.span.start, offset(&billing, "Invoice", 0, 0));
    // Every reference to Money: one in IDL, one in the protocol.
    let all = references(&workspace, &money, offset(&money, "Money", 0, 0), false);
    let mut files: Vec<_> = all.iter().map(|l| l.path.clone()).collect();
    files.sort();
    assert_eq!(files, [key(&billing), key(&orders)]);
}

#[test]
fn an_update_reindexes_the_file_and_names_its_importers() {
    let (dir, mut workspace) = fixture(&[
        (
            "a.avdl",
            "protocol A { import idl \"b.avdl\"; record R { B b; } }",
        ),
        ("b.avdl", "protocol B { record B { int x; } }"),
    ]);
    let a = dir.path().join("a.avdl");
    let b = dir.path().join("b.avdl");
    let importers = workspace.update(&b, "protocol B { record Renamed { int x; } }");
    assert_eq!(importers, [key(&a)]);
    assert!(definition(&workspace, &a, offset(&a, "B b", 0, 0)).is_none());
    workspace.update(&b, "protocol B {\n  record B { int x; }\n}");
    let found = definition(&workspace, &a, offset(&a, "B b", 0, 0)).unwrap();
    assert_eq!((found.path, found.span), (key(&b), 22..23));
}
