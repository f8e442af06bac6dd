//! Compatibility levels over version histories: the Schema Registry semantics of BACKWARD,
//! FORWARD, FULL, their transitive forms and NONE.

use avdl2rs::compat::{
    check, CompatLevel, Direction, IncompatibilityKind as Kind, SchemaRef, Violation,
};

use crate::compat_support;
use compat_support::{parse, Parsed};

fn violations(level: CompatLevel, new: &str, old: &[&str]) -> Vec<Violation> {
    let new = parse(new);
    let old: Vec<Parsed> = old.iter().map(|json| parse(json)).collect();
    let old_refs: Vec<SchemaRef<'_>> = old.iter().map(Parsed::as_ref).collect();
    check(level, new.as_ref(), &old_refs)
}

fn ok(level: CompatLevel, new: &str, old: &[&str]) -> bool {
    violations(level, new, old).is_empty()
}

fn record(fields: &str) -> String {
    format!(r#"{{"type":"record","name":"Payment","namespace":"shop","fields":[{fields}]}}"#)
}

const ID: &str = r#"{"name":"id","type":"string"}"#;

#[test]
fn level_names_parse_in_any_case() {
    for level in CompatLevel::ALL {
        assert_eq!(level.as_str().parse::<CompatLevel>(), Ok(level));
        assert_eq!(
            level.as_str().to_lowercase().parse::<CompatLevel>(),
            Ok(level)
        );
    }
    assert_eq!("full-transitive".parse(), Ok(CompatLevel::FullTransitive));
    let err = "SIDEWAYS".parse::<CompatLevel>().unwrap_err();
    assert!(err.to_string().contains("BACKWARD_TRANSITIVE"), "{err}");
}

#[test]
fn adding_a_field_with_a_default_is_fully_compatible() {
    let v1 = record(ID);
    let v2 = record(&format!(
        r#"{ID},{{"name":"note","type":["null","string"],"default":null}}"#
    ));
    assert!(ok(CompatLevel::Full, &v2, &[&v1]));
}

#[test]
fn adding_a_field_without_a_default_breaks_backward_only() {
    let v1 = record(ID);
    let v2 = record(&format!(r#"{ID},{{"name":"amount","type":"long"}}"#));
    let found = violations(CompatLevel::Backward, &v2, &[&v1]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].direction, Direction::Backward);
    assert_eq!(found[0].version, 0);
    assert_eq!(
        found[0].incompatibility.kind,
        Kind::ReaderFieldMissingDefault
    );
    assert_eq!(found[0].incompatibility.location, "/fields/amount");
    assert!(ok(CompatLevel::Forward, &v2, &[&v1]));
    assert!(!ok(CompatLevel::Full, &v2, &[&v1]));
}

#[test]
fn removing_a_field_without_a_default_breaks_forward_only() {
    let v1 = record(&format!(r#"{ID},{{"name":"amount","type":"long"}}"#));
    let v2 = record(ID);
    assert!(ok(CompatLevel::Backward, &v2, &[&v1]));
    let found = violations(CompatLevel::Forward, &v2, &[&v1]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].direction, Direction::Forward);
    assert_eq!(found[0].incompatibility.location, "/fields/amount");
}

#[test]
fn changing_int_to_string_breaks_both_directions() {
    let v1 = record(r#"{"name":"amount","type":"int"}"#);
    let v2 = record(r#"{"name":"amount","type":"string"}"#);
    let found = violations(CompatLevel::Full, &v2, &[&v1]);
    let directions: Vec<Direction> = found.iter().map(|v| v.direction).collect();
    assert_eq!(directions, [Direction::Backward, Direction::Forward]);
    assert!(found
        .iter()
        .all(|v| v.incompatibility.kind == Kind::TypeMismatch
            && v.incompatibility.location == "/fields/amount/type"));
}

#[test]
fn renaming_a_field_and_the_record_with_aliases_is_backward_compatible() {
    let v1 = record(r#"{"name":"amount","type":"long"}"#);
    let v2 = r#"{"type":"record","name":"shop.Transfer","aliases":["Payment"],
        "fields":[{"name":"cents","type":"long","aliases":["amount"]}]}"#;
    assert!(ok(CompatLevel::Backward, v2, &[&v1]));
    // Aliases only help the reader: the old schema cannot read the renamed field.
    assert!(!ok(CompatLevel::Forward, v2, &[&v1]));
}

#[test]
fn enum_symbol_added_with_and_without_an_enum_default() {
    let enum_v = |symbols: &str, default: &str| {
        format!(r#"{{"type":"enum","name":"Status","symbols":[{symbols}]{default}}}"#)
    };
    let v1 = enum_v(r#""NEW","PAID""#, "");
    let v2 = enum_v(r#""NEW","PAID","REFUNDED""#, "");
    // The new reader knows every old symbol; the old reader does not know REFUNDED.
    assert!(ok(CompatLevel::Backward, &v2, &[&v1]));
    let found = violations(CompatLevel::Forward, &v2, &[&v1]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].incompatibility.kind, Kind::MissingEnumSymbols);
    assert!(found[0].incompatibility.message.contains("REFUNDED"));
    // With a default in the old reader, unknown symbols fall back to it.
    let v1_default = enum_v(r#""NEW","PAID","UNKNOWN""#, r#","default":"UNKNOWN""#);
    let v2_default = enum_v(
        r#""NEW","PAID","UNKNOWN","REFUNDED""#,
        r#","default":"UNKNOWN""#,
    );
    assert!(ok(CompatLevel::Full, &v2_default, &[&v1_default]));
}

#[test]
fn transitive_levels_check_every_version_and_plain_ones_only_the_latest() {
    // v2 drops the required field of v1 in favour of one with a default; v3 adds a field
    // with no default that v2 defaulted but v1 never wrote.
    let v1 = record(&format!(r#"{ID},{{"name":"amount","type":"long"}}"#));
    let v2 = record(&format!(
        r#"{ID},{{"name":"amount","type":"long"}},{{"name":"currency","type":"string","default":"EUR"}}"#
    ));
    let v3 = record(&format!(
        r#"{ID},{{"name":"amount","type":"long"}},{{"name":"currency","type":"string"}}"#
    ));
    assert!(ok(CompatLevel::Backward, &v3, &[&v1, &v2]));
    let found = violations(CompatLevel::BackwardTransitive, &v3, &[&v1, &v2]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].version, 0, "the violation is against v1");
    assert_eq!(found[0].incompatibility.location, "/fields/currency");
    assert!(found[0]
        .to_string()
        .starts_with("the new schema cannot read data written with version 0"));
    assert!(!ok(CompatLevel::FullTransitive, &v3, &[&v1, &v2]));
    assert!(ok(CompatLevel::ForwardTransitive, &v3, &[&v1, &v2]));
}

#[test]
fn none_checks_nothing_and_no_history_is_always_compatible() {
    assert!(ok(CompatLevel::None, r#""int""#, &[r#""string""#]));
    for level in CompatLevel::ALL {
        assert!(ok(level, r#""int""#, &[]));
    }
}
