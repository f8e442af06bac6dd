//! The schema model against the reference schemas: every `.avsc`/`.avpr` of the conformance
//! folders parses, writes back to equal JSON, and has the Parsing Canonical Form apache-avro
//! computes.

use std::path::{Path, PathBuf};

use avdl2rs_schema::fingerprint::rabin_fingerprint;
use avdl2rs_schema::{Schema, SchemaSet};
use avdl2rs_tests::conformance_files;
use serde_json::Value;

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let files = conformance_files(dir, &[ext]);
    assert!(
        !files.is_empty(),
        "no .{ext} files in the conformance {dir} folders"
    );
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn protocol_files() -> Vec<PathBuf> {
    let mut all = files("schemas", "avpr");
    all.extend(files("idl/output", "avpr"));
    all
}

/// apache-avro's Parsing Canonical Form of a schema's standalone JSON, with its known
/// departures from the specification undone (see `schema_canonical.rs`): it keeps a field's
/// `order` and a decimal's `precision` and `scale`, which the [STRIP] rule removes, and
/// writes a logical-typed primitive as `{"type":"int"}` where the [PRIMITIVES] rule asks for
/// `"int"`. apache-avro does not know
/// protocol `error` types, which are records as far as parsing goes, so they are handed to it
/// as records.
fn apache_canonical(json: &Value) -> String {
    let json = errors_as_records(json.clone());
    let form = apache_avro::Schema::parse(&json)
        .unwrap_or_else(|e| panic!("apache-avro rejects {json}: {e}"))
        .canonical_form();
    let mut form: Value = serde_json::from_str(&form).unwrap();
    for key in ["order", "precision", "scale"] {
        strip_key(&mut form, key);
    }
    simple_primitives(&mut form);
    form.to_string()
}

fn simple_primitives(json: &mut Value) {
    match json {
        Value::Object(object) if object.len() == 1 && object["type"].is_string() => {
            *json = object["type"].take();
        }
        Value::Object(object) => object.values_mut().for_each(simple_primitives),
        Value::Array(items) => items.iter_mut().for_each(simple_primitives),
        _ => {}
    }
}

fn errors_as_records(mut json: Value) -> Value {
    match &mut json {
        Value::Object(object) => {
            if object.get("type").and_then(Value::as_str) == Some("error") {
                object.insert("type".into(), "record".into());
            }
            for value in object.values_mut() {
                *value = errors_as_records(value.take());
            }
        }
        Value::Array(items) => {
            for value in items {
                *value = errors_as_records(value.take());
            }
        }
        _ => {}
    }
    json
}

fn strip_key(json: &mut Value, key: &str) {
    match json {
        Value::Object(object) => {
            object.remove(key);
            object.values_mut().for_each(|v| strip_key(v, key));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| strip_key(v, key)),
        _ => {}
    }
}

/// Writes `schema` back to JSON and parses that into a fresh set: the named types must come
/// back equal, which is value equality of the two documents after parsing both.
fn assert_reparses_equal(set: &SchemaSet, written: &Value, what: &Path) {
    let mut fresh = SchemaSet::new();
    fresh
        .parse_value(written)
        .unwrap_or_else(|e| panic!("{}: written JSON does not parse: {e}", what.display()));
    let ours: Vec<_> = set.iter().collect();
    let theirs: Vec<_> = fresh.iter().collect();
    assert_eq!(ours, theirs, "{}", what.display());
}

#[test]
fn avsc_files_round_trip_to_equal_schemas() {
    for path in files("schemas", "avsc") {
        let mut set = SchemaSet::new();
        let schema = set
            .parse_str(&read(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_reparses_equal(&set, &set.to_json(&schema), &path);
    }
}

#[test]
fn avpr_files_round_trip_to_equal_protocols() {
    for path in protocol_files() {
        let mut set = SchemaSet::new();
        let protocol = set
            .parse_protocol(&read(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = set.protocol_to_json(&protocol);
        let mut fresh = SchemaSet::new();
        let reparsed = fresh.parse_protocol_value(&written).unwrap();
        assert_eq!(reparsed, protocol, "{}", path.display());
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            fresh.iter().collect::<Vec<_>>()
        );
    }
}

/// The Java tools wrote the IDL outputs, so writing them again must give the same JSON value
/// (key order aside), not only an equivalent schema.
#[test]
fn java_written_protocols_are_written_back_identically() {
    for path in files("idl/output", "avpr") {
        let text = read(&path);
        let mut set = SchemaSet::new();
        let protocol = set.parse_protocol(&text).unwrap();
        let input: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(set.protocol_to_json(&protocol), input, "{}", path.display());
    }
}

#[test]
fn avsc_canonical_form_and_fingerprint_match_apache_avro() {
    for path in files("schemas", "avsc") {
        let text = read(&path);
        let mut set = SchemaSet::new();
        let schema = set.parse_str(&text).unwrap();
        let input: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            set.canonical_form(&schema),
            apache_canonical(&input),
            "{}",
            path.display()
        );
        // apache-avro fingerprints its own form: equal to ours where the forms are equal,
        // and in any case the Rabin of its form (so only the form differs, never the hash).
        let apache = apache_avro::Schema::parse(&input).unwrap();
        let theirs = apache.fingerprint::<apache_avro::rabin::Rabin>();
        let theirs = u64::from_le_bytes(theirs.bytes[..8].try_into().unwrap());
        let their_form = apache.canonical_form();
        assert_eq!(theirs, rabin_fingerprint(their_form.as_bytes()));
        if their_form == set.canonical_form(&schema) {
            assert_eq!(set.fingerprint(&schema), theirs, "{}", path.display());
        }
    }
}

#[test]
fn every_named_type_of_a_protocol_stands_alone_with_apache_avro_canonical_form() {
    for path in protocol_files() {
        let mut set = SchemaSet::new();
        set.parse_protocol(&read(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for named in set.iter() {
            let full_name = named.name.full_name();
            let standalone = set.named_to_json(&full_name).unwrap();
            // The standalone JSON parses again into an equal type in a fresh set.
            let mut fresh = SchemaSet::new();
            let reparsed = fresh
                .parse_value(&standalone)
                .unwrap_or_else(|e| panic!("{}: {full_name}: {e}", path.display()));
            assert_eq!(fresh.get(&full_name), Some(named), "{}", path.display());
            assert_eq!(
                set.canonical_form(&Schema::named(named.name.clone())),
                fresh.canonical_form(&reparsed)
            );
            assert_eq!(
                set.canonical_form(&reparsed),
                apache_canonical(&standalone),
                "{}: {full_name}",
                path.display()
            );
        }
    }
}
