//! The IDL writer (`avdl_parser::idl_writer`) against Java's: Avro's own test file of Java's
//! IDL writer comes out byte for byte from its JSON, and every conformance schema and
//! protocol reads back from its IDL as the same JSON (compared as the schema model writes
//! both, so that `"name": "a.B"` and `"name": "B", "namespace": "a"` are the same).

use std::path::Path;

use avdl2rs_tests::{conformance_files, json_diff, record_chain};
use avdl_parser::idl_writer::{self, Indent};
use serde_json::{json, Value};

/// The JSON of the IDL `text` (named `name` in errors).
fn idl_json(text: &str, name: &str) -> Result<Value, String> {
    avdl_parser::parse_str(text, name, &Default::default())
        .map(|file| file.to_json())
        .map_err(|e| e.to_string())
}

/// The IDL writer's test files of the Java implementation (schema and protocol syntax).
fn java_writer_file(syntax: &str) -> std::path::PathBuf {
    conformance_files("idl-writer", &["avdl"])
        .into_iter()
        .find(|f| f.ends_with(format!("idl_utils_test_{syntax}.avdl")))
        .expect("the IDL writer's reference files are in conformance/idl-writer")
}

#[test]
fn the_java_writers_schema_file_is_written_byte_for_byte_from_its_json() {
    let expected = std::fs::read_to_string(java_writer_file("schema")).unwrap();
    let json = idl_json(&expected, "idl_utils_test_schema.avdl").unwrap();
    let written = idl_writer::to_idl(&json, Indent::default()).unwrap();
    assert_eq!(written, expected);
}

#[test]
fn the_java_writers_protocol_file_keeps_its_json_and_is_then_a_fixed_point() {
    let original = std::fs::read_to_string(java_writer_file("protocol")).unwrap();
    let json = idl_json(&original, "idl_utils_test_protocol.avdl").unwrap();
    let written = idl_writer::to_idl(&json, Indent { width: 4 }).unwrap();
    assert_eq!(
        json_diff(&json, &idl_json(&written, "written").unwrap()),
        Vec::<String>::new()
    );
    // Today's layout differs from the file's only in its enum, whose symbols get a line.
    let enum_today = "    enum Flag {\n        ON, OFF, CANARY\n    }";
    let older = original.replace("    enum Flag {ON, OFF, CANARY}", enum_today);
    assert_eq!(
        written,
        older.replace(r#"["text","msg"]"#, r#"["text", "msg"]"#)
    );
}

/// `json` as the schema model writes it back: one spelling for each schema, with every doc,
/// default and property kept.
fn model_json(json: &Value) -> Value {
    let mut set = avdl2rs_schema::SchemaSet::new();
    if json.get("protocol").is_some() {
        let protocol = set.parse_protocol_value(json).expect("a valid protocol");
        return set.protocol_to_json(&protocol);
    }
    match json.as_array() {
        // A schema file of named types only: each in turn, later ones may refer to earlier.
        Some(items) if items.iter().all(|i| i.get("name").is_some()) => {
            let schemas: Vec<_> = items.iter().map(|i| set.parse_value(i).unwrap()).collect();
            Value::Array(schemas.iter().map(|s| set.to_json(s)).collect())
        }
        _ => {
            let schema = set.parse_value(json).expect("a valid schema");
            set.to_json(&schema)
        }
    }
}

/// The problem of one JSON file's round trip through IDL, if any.
fn round_trip(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    let idl = match idl_writer::to_idl(&json, Indent::default()) {
        Ok(idl) => idl,
        Err(e) => return Some(format!("{}: {e}", file.display())),
    };
    match idl_json(&idl, "written.avdl") {
        Ok(back) => {
            let diff = json_diff(&model_json(&json), &model_json(&back));
            (!diff.is_empty()).then(|| format!("{}:\n{}\n{idl}", file.display(), diff.join("\n")))
        }
        Err(e) => Some(format!(
            "{}: the IDL does not parse: {e}\n{idl}",
            file.display()
        )),
    }
}

#[test]
fn every_conformance_schema_reads_back_from_its_idl_as_the_same_json() {
    let mut files = conformance_files("schemas", &["avsc", "avpr"]);
    files.extend(conformance_files("idl/output", &["avsc", "avpr"]));
    assert!(files.len() > 10, "conformance files found: {}", files.len());
    let problems: Vec<String> = files.iter().filter_map(|f| round_trip(f)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The JSON path and message of what IDL cannot say in `json`.
fn refusal(json: Value) -> (String, String) {
    let error = idl_writer::to_idl(&json, Indent::default()).unwrap_err();
    (error.path, error.message)
}

fn record_with_field_type(ty: Value) -> Value {
    json!({"type": "record", "name": "R", "fields": [{"name": "f", "type": ty}]})
}

#[test]
fn what_idl_cannot_say_is_an_error_at_its_json_path() {
    // IDL reserves `aliases` on an unnamed type: no annotation can give it.
    let (path, message) = refusal(record_with_field_type(
        json!({"type": "string", "aliases": ["x"]}),
    ));
    assert_eq!(path, "/fields/0/type/aliases");
    assert!(message.contains("`aliases`"), "{message}");
    // An annotation's name is an identifier.
    let (path, _) = refusal(record_with_field_type(
        json!({"type": "string", "my key": 1}),
    ));
    assert_eq!(path, "/fields/0/type/my key");
    // A doc comment cannot hold `*/`, nor keep spaces at the ends of a doc.
    for doc in ["a */ b", " padded "] {
        let schema = json!({"type": "fixed", "name": "F", "size": 1, "doc": doc});
        assert_eq!(refusal(schema).0, "/doc");
    }
    // A declared type named like a built-in type.
    let (path, message) = refusal(json!({"type": "fixed", "name": "date", "size": 1}));
    assert_eq!(path, "/name");
    assert!(message.contains("built-in"), "{message}");
    // A name that no spelling (not even backticks) makes an identifier.
    let schema = json!({"type": "record", "name": "R", "fields": [{"name": "a b", "type": "int"}]});
    assert_eq!(refusal(schema).0, "/fields/0/name");
    // `oneway` is the only way IDL says `one-way`.
    let protocol = json!({"protocol": "P", "messages": {"m": {"request": [], "response": "null", "one-way": false}}});
    assert_eq!(refusal(protocol).0, "/messages/m/one-way");
    // A type without a namespace cannot be named from inside one.
    let schema = json!({"type": "record", "name": "R", "namespace": "n", "fields": [
        {"name": "f", "type": {"type": "fixed", "name": "F", "namespace": "", "size": 1}},
        {"name": "g", "type": "F"}]});
    assert_eq!(refusal(schema).0, "/fields/0/type");
}

#[test]
fn names_spelt_like_keywords_are_backticked_and_read_back() {
    let schema = json!({"type": "record", "name": "record", "namespace": "n", "fields": [
        {"name": "int", "type": {"type": "enum", "name": "fixed", "symbols": ["null", "A"]}},
        {"name": "error", "type": "fixed"}]});
    let idl = idl_writer::to_idl(&schema, Indent::default()).unwrap();
    assert!(
        idl.contains("record `record` {\n  `fixed` `int`;\n  `fixed` `error`;"),
        "{idl}"
    );
    let back = idl_json(&idl, "written.avdl").unwrap();
    assert_eq!(
        json_diff(&model_json(&schema), &model_json(&back)),
        Vec::<String>::new()
    );
}

/// Schemas whose every part IDL can say, in forms the conformance cases do not all show.
fn expressible_schemas() -> Vec<Value> {
    let record =
        |fields: Value| json!({"type": "record", "name": "R", "namespace": "n", "fields": fields});
    vec![
        record(json!([{"name": "a", "type": "int", "doc": "one\ntwo", "order": "ascending"}])),
        record(json!([{"name": "a", "type": ["string", "null"], "default": "x"}])),
        record(json!([{"name": "a", "type": ["null", "string"]}])),
        record(
            json!([{"name": "a", "type": ["null", {"type": "array", "items": "int"}], "default": null}]),
        ),
        record(
            json!([{"name": "a", "type": {"type": "bytes", "logicalType": "decimal", "precision": 4}}]),
        ),
        record(
            json!([{"name": "a", "type": {"type": "fixed", "name": "D", "size": 4,
            "logicalType": "decimal", "precision": 4, "scale": 2, "aliases": ["m.E", "F"]}}]),
        ),
        record(
            json!([{"name": "a", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"], "default": "B"}},
            {"name": "b", "type": {"type": "map", "values": {"type": "array", "items": "E"}}, "default": {"k": ["A"]}}]),
        ),
        record(
            json!([{"name": "a", "type": {"type": "record", "name": "R", "namespace": "m",
            "fields": [{"name": "x", "type": "double", "default": 1.5e300}]}},
            {"name": "b", "type": "m.R"}, {"name": "c", "type": "R"}]),
        ),
        record(
            json!([{"name": "a", "type": "string", "aliases": ["b"], "x-props": {"k": [1, null, true]}}]),
        ),
        json!(["null", {"type": "record", "name": "R", "fields": [{"name": "r", "type": ["null", "R"]}]}]),
        json!({"type": "string", "logicalType": "uuid"}),
        json!({"protocol": "P", "namespace": "n", "doc": "The protocol.", "x": 1,
            "types": [{"type": "error", "name": "Oops", "fields": []}],
            "messages": {
                "m": {"doc": "Sends.", "p": "q", "request": [{"name": "a", "type": "int", "default": 3},
                    {"name": "b", "type": "string", "doc": "B."}], "response": "string", "errors": ["Oops"]},
                "n": {"request": [], "response": "null", "one-way": true}}}),
    ]
}

#[test]
fn schemas_in_forms_beyond_the_conformance_cases_read_back_the_same() {
    for schema in expressible_schemas() {
        let idl = idl_writer::to_idl(&schema, Indent::default())
            .unwrap_or_else(|e| panic!("{e}\n{schema}"));
        let back = idl_json(&idl, "written.avdl").unwrap_or_else(|e| panic!("{e}\n{idl}"));
        assert_eq!(
            json_diff(&model_json(&schema), &model_json(&back)),
            Vec::<String>::new(),
            "{idl}"
        );
    }
}

#[test]
fn a_protocol_of_many_records_is_written_once_each_and_reads_back_the_same() {
    let chain = record_chain(2000);
    let idl = idl_writer::to_idl(&chain, Indent::default()).unwrap();
    assert_eq!(idl.matches("  record Rec").count(), 2000);
    let back = idl_json(&idl, "chain.avdl").unwrap();
    assert_eq!(
        json_diff(&model_json(&chain), &model_json(&back)),
        Vec::<String>::new()
    );
}
