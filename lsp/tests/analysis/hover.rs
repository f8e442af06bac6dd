//! Hover: fingerprints checked against apache-avro, Rust types against the generated source.

use std::path::Path;

use apache_avro::rabin::Rabin;
use avdl2rs_lsp::analysis::hover::hover;

use super::{fixture, offset, warehouse, warehouse_dir};

/// apache-avro's CRC-64-AVRO fingerprint of the schema `json`, as the hover writes it.
fn apache_fingerprint(json: &str) -> String {
    let schema = apache_avro::Schema::parse_str(json).unwrap();
    let bytes = schema.fingerprint::<Rabin>().bytes;
    format!("{:#018x}", u64::from_le_bytes(bytes.try_into().unwrap()))
}

/// The standalone schema of `full_name` from the IDL file at `path`.
fn schema_of(path: &Path, include: &Path, full_name: &str) -> String {
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![include.to_path_buf()],
    };
    let parsed = avdl_parser::parse_file(path, &options).unwrap();
    let schemas = parsed.named_schemas().unwrap();
    let (_, json) = schemas.iter().find(|(name, _)| name == full_name).unwrap();
    json.to_string()
}

#[test]
fn a_type_shows_its_name_doc_fields_and_fingerprint() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let at = offset(&main, "com.example.reference.Location from", 0, 25);
    let shown = hover(&workspace, &main, at).unwrap();
    assert_eq!(
        shown.span.start,
        offset(&main, "com.example.reference.Location from", 0, 0)
    );
    let locations = warehouse_dir().join("reference/locations.avdl");
    let schema = schema_of(
        &locations,
        &warehouse_dir().join("shared"),
        "com.example.reference.Location",
    );
    let expected = apache_fingerprint(&schema);
    let text = &shown.markdown;
    assert!(
        text.starts_with("```avdl\nrecord com.example.reference.Location\n```"),
        "{text}"
    );
    assert!(
        text.contains("A storage place: a bin on a shelf in an aisle of a site."),
        "{text}"
    );
    assert!(text.contains("- `Zone` `zone` = `\"STORAGE\"`"), "{text}");
    assert!(
        text.contains(&format!("Fingerprint (CRC-64-AVRO): `{expected}`")),
        "{text}"
    );
}

#[test]
fn a_field_shows_its_type_default_doc_and_the_generated_rust_type() {
    let workspace = warehouse();
    let locations = warehouse_dir().join("reference/locations.avdl");
    let shown = hover(
        &workspace,
        &locations,
        offset(&locations, "weight_grams", 0, 3),
    )
    .unwrap();
    let text = &shown.markdown;
    assert!(
        text.starts_with("```avdl\nint? weight_grams = null\n```"),
        "{text}"
    );
    assert!(
        text.contains("Field of `com.example.reference.Sku`"),
        "{text}"
    );
    assert!(
        text.contains("Weight of one unit in grams, when measured."),
        "{text}"
    );
    // The generator's own output declares the field with that type.
    let rust = text.split("Rust: `").nth(1).unwrap().trim_end_matches('`');
    let mut generator = avdl2rs_codegen::Generator::new(avdl2rs_codegen::Options::default());
    generator.add_file(&locations, &[]).unwrap();
    let source = generator.generate().unwrap();
    assert!(
        source.contains(&format!("pub weight_grams: {rust},")),
        "{rust}\n{source}"
    );
}

#[test]
fn a_field_whose_type_is_in_another_module_names_its_path() {
    let workspace = warehouse();
    let main = warehouse_dir().join("warehouse.avdl");
    let shown = hover(&workspace, &main, offset(&main, "event;", 0, 1)).unwrap();
    let rust = shown
        .markdown
        .split("Rust: `")
        .nth(1)
        .unwrap()
        .trim_end_matches('`')
        .to_owned();
    let mut generator = avdl2rs_codegen::Generator::new(avdl2rs_codegen::Options::default());
    generator
        .add_file(&main, &[warehouse_dir().join("shared")])
        .unwrap();
    let source = generator.generate().unwrap();
    assert!(rust.contains("BusinessEvent"), "{rust}");
    assert!(source.contains(&format!("pub event: {rust},")), "{rust}");
}

#[test]
fn non_ascii_docs_and_a_json_schema_type() {
    let avsc = r#"{"type": "record", "name": "Prix", "namespace": "magasin",
  "doc": "Un prix en €, arrondi à l'unité — 価格",
  "fields": [{"name": "montant", "type": "long", "doc": "Montant en centimes ✓"}]}"#;
    let (dir, workspace) = fixture(&[("prix.avsc", avsc)]);
    let path = dir.path().join("prix.avsc");
    let shown = hover(&workspace, &path, offset(&path, "Prix", 0, 2)).unwrap();
    assert!(shown
        .markdown
        .contains("Un prix en €, arrondi à l'unité — 価格"));
    let expected = apache_fingerprint(avsc);
    assert!(shown.markdown.contains(&expected), "{}", shown.markdown);
    let field = hover(&workspace, &path, offset(&path, "montant", 0, 0)).unwrap();
    assert!(field.markdown.contains("Montant en centimes ✓"));
    assert!(field.markdown.contains("Rust: `i64`"), "{}", field.markdown);
}

#[test]
fn a_broken_file_shows_what_it_can_without_a_fingerprint() {
    let text =
        "protocol P {\n  /** Kept. */\n  record R { long id; }\n  record S { int x = ; }\n}\n";
    let (dir, workspace) = fixture(&[("p.avdl", text)]);
    let path = dir.path().join("p.avdl");
    let shown = hover(&workspace, &path, offset(&path, "R {", 0, 0)).unwrap();
    assert!(shown.markdown.contains("Kept."), "{}", shown.markdown);
    assert!(
        shown.markdown.contains("- `long` `id`"),
        "{}",
        shown.markdown
    );
    assert!(
        !shown.markdown.contains("Fingerprint"),
        "{}",
        shown.markdown
    );
}

#[test]
fn a_type_deep_in_a_chain_of_records_has_its_fingerprint() {
    // Compiling and fingerprinting recurse as deep as records nest: 3,000 deep here.
    let mut text = String::from("@namespace(\"deep\")\nprotocol Chain {\n");
    for i in 0..3000 {
        let previous = match i {
            0 => "string".to_owned(),
            _ => format!("Link{}", i - 1),
        };
        text.push_str(&format!(
            "  record Link{i} {{ {previous}? previous = null; }}\n"
        ));
    }
    text.push_str("}\n");
    let (dir, workspace) = fixture(&[("chain.avdl", &text)]);
    let path = dir.path().join("chain.avdl");
    let shown = hover(&workspace, &path, offset(&path, "Link2998? previous", 0, 1)).unwrap();
    assert!(
        shown.markdown.contains("record deep.Link2998"),
        "{}",
        shown.markdown
    );
    assert!(
        shown.markdown.contains("Fingerprint (CRC-64-AVRO): `0x"),
        "{}",
        shown.markdown
    );
}
