//! The schema constants of generated code against `apache-avro`, for every named type of every
//! conformance schema, every IDL conformance input (through our parser) and every codegen
//! snapshot input (all compiled by `build.rs`, which walks the folders). The codecs of the
//! same types are checked value by value in `codegen_roundtrip.rs`, whose registry of the generated types this reads.
//!
//! Per type: apache-avro's Parsing Canonical Form of `SCHEMA_JSON` is `CANONICAL_FORM`
//! (once apache-avro's known extras are taken out: it keeps `order`, `precision` and `scale`,
//! and may write a primitive as `{"type": ...}`), our form is a fixed point of apache-avro's,
//! and `FINGERPRINT` is apache-avro's CRC-64-AVRO of it. And `SCHEMA_JSON` is the text our
//! schema model writes for it, byte for byte, whether it is assembled from the types' nodes or
//! written out.

use apache_avro::rabin::Rabin;
use apache_avro::Schema;
use serde_json::Value;

use crate::codegen_roundtrip::{Case, GENERATED as CASES};

/// apache-avro's schema of `json`; it reads `error` types only inside protocols, and they
/// are records in every other respect.
pub(crate) fn apache(json: &str) -> Result<Schema, String> {
    let json = json.replace("\"type\":\"error\"", "\"type\":\"record\"");
    let value = deep_json(&json).map_err(|e| format!("not JSON: {e}"))?;
    Schema::parse(&value).map_err(|e| format!("apache-avro rejects {json}: {e}"))
}

/// `text` read without serde_json's nesting limit (128 levels: 32 nested records), which
/// apache-avro's own reading of schema text keeps.
fn deep_json(text: &str) -> Result<Value, serde_json::Error> {
    use serde::Deserialize as _;
    let mut reader = serde_json::Deserializer::from_str(text);
    reader.disable_recursion_limit();
    Value::deserialize(&mut reader)
}

/// apache-avro's canonical form without the attributes the specification drops and it keeps.
fn spec_form(apache_form: &str) -> String {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(object) => {
                for key in ["order", "precision", "scale"] {
                    object.remove(key);
                }
                object.values_mut().for_each(strip);
                if let (1, Some(Value::String(name))) = (object.len(), object.get("type")) {
                    *value = Value::String(name.clone());
                }
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = deep_json(apache_form).expect("apache-avro writes JSON");
    strip(&mut value);
    value.to_string()
}

/// `SCHEMA_JSON` read by our schema model and written again is the same text: the keys of
/// an assembled text are in the model's order, not only the same keys.
fn model_text(case: &Case) -> Result<(), String> {
    let json = deep_json(case.schema_json).map_err(|e| format!("not JSON: {e}"))?;
    let mut set = avdl2rs_schema::SchemaSet::new();
    set.parse_value(&json).map_err(|e| e.to_string())?;
    let written = set
        .named_to_json(case.full_name)
        .ok_or("the type is not in its own schema")?
        .to_string();
    if written == case.schema_json {
        Ok(())
    } else {
        Err(format!(
            "SCHEMA_JSON differs from the model's text:\n  SCHEMA_JSON {}\n  model       {written}",
            case.schema_json
        ))
    }
}

fn check(case: &Case) -> Result<(), String> {
    let schema = apache(case.schema_json)?;
    let raw = schema.canonical_form();
    let theirs = spec_form(&raw);
    if theirs != case.canonical_form {
        return Err(format!(
            "canonical form differs:\n  apache-avro {theirs}\n  ours        {}",
            case.canonical_form
        ));
    }
    // apache-avro fingerprints its own form; where that has extras, it fingerprints ours
    // read back, which must then be a fixed point. (Reading a form back is not always
    // possible: a type of the null namespace inside a namespaced one loses its namespace.)
    let fingerprinted = if raw == case.canonical_form {
        schema
    } else {
        let ours = apache(case.canonical_form)?;
        if ours.canonical_form() != case.canonical_form {
            return Err(format!(
                "apache-avro writes our canonical form as {}",
                ours.canonical_form()
            ));
        }
        ours
    };
    let bytes = fingerprinted.fingerprint::<Rabin>().bytes;
    let fingerprint = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    if fingerprint != case.fingerprint {
        return Err(format!(
            "fingerprint {} but apache-avro's is {fingerprint}",
            case.fingerprint
        ));
    }
    Ok(())
}

#[test]
fn canonical_forms_and_fingerprints_match_apache_avro() {
    avdl2rs_tests::on_big_stack(check_every_case);
}

#[test]
fn schema_json_is_the_text_the_schema_model_writes() {
    avdl2rs_tests::on_big_stack(|| check_every(model_text));
}

fn check_every_case() {
    check_every(check);
}

fn check_every(check: fn(&Case) -> Result<(), String>) {
    assert!(!CASES.is_empty(), "build.rs registered no generated type");
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|case| {
            check(case)
                .err()
                .map(|e| format!("{} {}: {e}", case.file, case.full_name))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} types fail:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_idl_conformance_input_with_named_types_is_generated() {
    let idl = avdl2rs_tests::conformance_dir().join("idl");
    let options = avdl_parser::ParseOptions {
        include_dirs: vec![idl.join("input"), idl.join("classpath")],
    };
    let inputs = avdl2rs_tests::files_with_extension(&idl.join("input"), "avdl");
    assert!(!inputs.is_empty());
    for input in inputs {
        let file = input.display().to_string();
        let parsed = avdl_parser::parse_file(&input, &options).unwrap();
        let generated = CASES.iter().filter(|case| case.file == file).count();
        // Fixed types with a logical type are no type of their own.
        let named = parsed.named_schemas().unwrap().len();
        assert!(
            generated > 0 || named == 0,
            "{file}: {named} named types, none generated"
        );
    }
}
