//! One notion of valid: what `avdl2rs idl` accepts, `gen` and the schema model accept too,
//! and what the schema model rejects as an invalid schema the IDL parser rejects first, with
//! the same located message from both commands.

use std::path::Path;

use crate::cli_support::cli_binary;
use avdl2rs::schema::SchemaSet;
use avdl2rs_codegen::{Generator, Options};
use avdl2rs_tests::idl_reference_cases;

fn avdl2rs(args: &[&str]) -> std::process::Output {
    std::process::Command::new(cli_binary())
        .args(args)
        .output()
        .expect("avdl2rs starts")
}

/// The first line of the error a command printed, without the renderer's decoration.
/// The error's first two lines, `error: …` and ` --> file:line:col`, as one.
fn first_error_line(output: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr.lines().take(2).collect::<Vec<_>>().join(" ")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn defaults_the_schema_model_rejects_are_rejected_by_idl_with_the_same_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "enum.avdl",
            "protocol P {\n  enum E { A, B }\n  record R { E e = \"C\"; }\n}\n",
            "3:20",
        ),
        (
            "fixed.avdl",
            "protocol P {\n  fixed F(4);\n  record R { F f = \"toolong\"; }\n}\n",
            "3:20",
        ),
        (
            "bytes.avdl",
            "protocol P {\n  record R { bytes b = \"\u{20ac}\"; }\n}\n",
            "2:24",
        ),
        // Each `{}` takes the field's default `[{}]` again: a value without end.
        (
            "endless.avdl",
            "protocol P {\n  record R { array<R> items = [{}]; }\n}\n",
            "2:31",
        ),
    ];
    for (name, text, at) in cases {
        let path = write(dir.path(), name, text);
        let idl = avdl2rs(&["idl", &path]);
        let gen = avdl2rs(&["gen", &path]);
        assert_eq!(idl.status.code(), Some(1), "idl accepts {name}");
        assert_eq!(gen.status.code(), Some(1), "gen accepts {name}");
        let message = first_error_line(&idl);
        assert_eq!(message, first_error_line(&gen), "{name}");
        let located = format!("{name}:{at}");
        assert!(message.ends_with(&located), "{name}: {message}");
        assert!(message.contains("Invalid default for field"), "{message}");
    }
}

/// `Rec0` has a field of type `Rec1`, defined after it, and so on: written out, each record
/// is defined inside the one before, 41 records deep.
fn forward_chain(records: usize) -> String {
    let mut text = String::from("@namespace(\"chain\")\nprotocol Chain {\n");
    for i in 0..records {
        let field = if i + 1 < records {
            format!("Rec{}? next = null;", i + 1)
        } else {
            "int last;".to_owned()
        };
        text.push_str(&format!("  record Rec{i} {{ {field} }}\n"));
    }
    text.push_str("}\n");
    text
}

#[test]
fn a_deep_forward_chain_goes_through_idl_and_gen_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let idl_path = write(dir.path(), "chain.avdl", &forward_chain(41));
    let avpr_path = dir.path().join("chain.avpr");
    let avpr = avpr_path.to_str().unwrap();
    let idl = avdl2rs(&["idl", &idl_path, avpr]);
    assert_eq!(idl.status.code(), Some(0), "{}", first_error_line(&idl));
    for input in [idl_path.as_str(), avpr] {
        let gen = avdl2rs(&["gen", input]);
        assert_eq!(
            gen.status.code(),
            Some(0),
            "{input}: {}",
            first_error_line(&gen)
        );
        let source = String::from_utf8_lossy(&gen.stdout);
        assert!(source.contains("pub struct Rec40"), "{input}");
    }
    // The schema model reads the text `idl` wrote, and the library reads it the same way.
    let text = std::fs::read_to_string(avpr).unwrap();
    let mut set = SchemaSet::new();
    set.parse_protocol(&text).unwrap();
    assert_eq!(set.len(), 41);
    let mut generator = Generator::new(Options::default());
    generator.add_schema_json(&text, "chain.avpr").unwrap();
    assert_eq!(generator.named_types().unwrap().len(), 41);
}

#[test]
fn a_default_without_end_is_an_error_not_a_crash() {
    let json = r#"{"type": "record", "name": "R", "fields": [
        {"name": "items", "type": {"type": "array", "items": "R"}, "default": [{}]}]}"#;
    let error = SchemaSet::new().parse_str(json).unwrap_err();
    assert_eq!(error.path, "/fields/0/default");
    // A default that ends is fine: the inner `{}` takes `[]`.
    let json = r#"{"type": "record", "name": "R", "fields": [
        {"name": "items", "type": {"type": "array", "items": "R"}, "default": []},
        {"name": "first", "type": ["null", "R"], "default": null}]}"#;
    SchemaSet::new().parse_str(json).unwrap();
}

#[test]
fn text_nested_beyond_the_limit_is_an_error_not_a_crash() {
    let depth = avdl2rs::schema::MAX_JSON_DEPTH + 1;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let error = SchemaSet::new().parse_str(&text).unwrap_err();
    assert!(error.to_string().contains("levels deep"), "{error}");
}

#[test]
fn every_reference_idl_file_is_a_valid_schema_and_generates() {
    let idl_dir = avdl2rs_tests::conformance_dir().join("idl");
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![idl_dir.join("input"), idl_dir.join("classpath")],
    };
    let cases = idl_reference_cases();
    assert!(!cases.is_empty(), "no reference IDL cases");
    for (input, _) in cases {
        let name = input.display().to_string();
        let idl =
            avdl_parser::parse_file(&input, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut set = SchemaSet::new();
        let valid = match idl.json() {
            serde_json::Value::Array(types) => {
                types.iter().try_for_each(|t| set.parse_value(t).map(drop))
            }
            json => set.parse_file_value(json).map(drop),
        };
        assert!(valid.is_ok(), "{name}: {valid:?}");
        let mut generator = Generator::new(Options::default());
        generator.add_parsed_idl(idl, &name).unwrap();
        generator
            .generate()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn an_enum_without_symbols_is_valid_to_idl_and_gen_alike() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "empty.avdl",
        "protocol P {\n  enum Nothing {}\n  record R { union { null, Nothing } n = null; }\n}\n",
    );
    let idl = avdl2rs(&["idl", &file]);
    assert_eq!(idl.status.code(), Some(0), "{}", first_error_line(&idl));
    assert!(String::from_utf8_lossy(&idl.stdout).contains(r#""symbols": []"#));
    let gen = avdl2rs(&["gen", &file]);
    assert_eq!(gen.status.code(), Some(0), "{}", first_error_line(&gen));
    assert!(String::from_utf8_lossy(&gen.stdout).contains("pub enum Nothing {}"));
}
