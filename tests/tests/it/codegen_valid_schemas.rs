//! Valid schemas that other Avro implementations (Python `avro`, JavaScript `avsc`) accept
//! generate: names that differ only in case get distinct Rust names, and date defaults are
//! checked against the range of the Rust type chosen, not the narrowest one.

use avdl2rs::AvroSchema;
use avdl2rs_codegen::{Generator, Options, TimeCrate};

mod generated {
    include!("../../snapshots/case_names.rs");
}
use generated::org::example::names::{Builder, Builder2};

mod empty {
    include!(concat!(env!("OUT_DIR"), "/empty_enum.rs"));
}
use empty::org::example::empty::{Holder, Nothing};

#[test]
fn an_enum_without_symbols_generates_a_type_no_value_can_be_decoded_into() {
    use avdl2rs::{Avro, DecodeErrorKind};
    // The union's null branch is the only value there is.
    let holder = Holder { nothing: None };
    assert_eq!(holder.to_avro_bytes().unwrap(), [0x00]);
    assert_eq!(Holder::from_avro_bytes(&[0x00]).unwrap(), holder);
    // The enum branch (index 1), symbol 0: there is no symbol 0.
    let error = Holder::from_avro_bytes(&[0x02, 0x00]).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::EnumIndexOutOfRange {
                index: 0,
                symbols: 0
            }
        ),
        "{error}"
    );
    assert!(
        Nothing::SCHEMA_JSON.contains(r#""symbols":[]"#),
        "{}",
        Nothing::SCHEMA_JSON
    );
}

#[test]
fn names_differing_only_in_case_get_distinct_deterministic_rust_names() {
    assert_eq!(Builder::FULL_NAME, "org.example.names.builder");
    assert_eq!(Builder2::FULL_NAME, "org.example.names.Builder");
    // serde keeps the Avro names; the default far past 9999-12-31 is a chrono date.
    let value: Builder2 = serde_json::from_str(r#"{"inner": {"value": 7}}"#).unwrap();
    assert_eq!(value.inner, Builder { value: 7 });
    assert_eq!(value.again, None);
    let epoch = avdl2rs::chrono::NaiveDate::from_ymd_opt(1970, 1, 1).unwrap();
    assert_eq!(
        value.far.signed_duration_since(epoch),
        avdl2rs::chrono::TimeDelta::days(3_000_000)
    );
}

fn generate(schema: &str, time_crate: TimeCrate) -> Result<String, String> {
    let mut generator = Generator::new(Options::default().time_crate(time_crate));
    generator
        .add_schema_json(schema, "dates.avsc")
        .map_err(|e| e.to_string())?;
    generator.generate().map_err(|e| e.to_string())
}

fn dated(default: i64) -> String {
    format!(
        r#"{{"type": "record", "name": "Dated", "fields": [
            {{"name": "day", "type": {{"type": "int", "logicalType": "date"}}, "default": {default}}}]}}"#
    )
}

#[test]
fn date_defaults_are_checked_against_the_chosen_rust_type() {
    // Day 3,000,000 is in year 10183: chrono holds it, `time` (years up to 9999) does not.
    assert!(generate(&dated(3_000_000), TimeCrate::Chrono).is_ok());
    let error = generate(&dated(3_000_000), TimeCrate::Time).unwrap_err();
    assert!(error.contains("time::Date"), "{error}");
    // 1681601653 days is beyond every date type: the error names the type and `raw`.
    let error = generate(&dated(1_681_601_653), TimeCrate::Chrono).unwrap_err();
    assert!(
        error.contains("dates.avsc") && error.contains("Dated.day"),
        "{error}"
    );
    assert!(
        error.contains("chrono::NaiveDate") && error.contains("--time-crate raw"),
        "{error}"
    );
    let raw = generate(&dated(1_681_601_653), TimeCrate::Raw).unwrap();
    assert!(raw.contains("1681601653"), "{raw}");
}
