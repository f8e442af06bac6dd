//! Behaviour of generated code beyond the codec: defaults, serde compatibility with
//! apache-avro and serde_json, the generator options (compiled by `build.rs`), and the
//! generator's errors and multi-file input.

#![deny(warnings)]

use std::collections::HashMap;

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::codec::Reader;
use avdl2rs::{AvroDecode, AvroEncode, AvroSchema};
use avdl2rs_codegen::{Error, Generator, Options};

/// The reviewed snapshots, used as the generated code of these tests.
#[allow(dead_code)]
mod snap {
    pub mod defaults {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/snapshots/defaults.rs"
        ));
    }
    pub mod unions {
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/unions.rs"));
    }
    pub mod primitives {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/snapshots/primitives.rs"
        ));
    }
    pub mod namespaces {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/snapshots/namespaces.rs"
        ));
    }
    pub mod logical {
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/logical.rs"));
    }
    pub mod reserved {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/snapshots/reserved.rs"
        ));
    }
}

/// The runtime under another path, for the `runtime_path` option.
use ::avdl2rs as runtime_alias;

/// Code generated with non-default options by `build.rs`.
#[allow(dead_code)]
mod options {
    pub mod time_crate {
        include!(concat!(env!("OUT_DIR"), "/options_time_crate.rs"));
    }
    pub mod raw_time {
        include!(concat!(env!("OUT_DIR"), "/options_raw_time.rs"));
    }
    pub mod flat_btree {
        include!(concat!(env!("OUT_DIR"), "/options_flat_btree.rs"));
    }
    pub mod apache_schema {
        include!(concat!(env!("OUT_DIR"), "/options_apache_schema.rs"));
    }
}

fn encode<T: AvroEncode>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.encode(&mut out).unwrap();
    out
}

fn decode<T: AvroDecode>(bytes: &[u8]) -> T {
    let mut reader = Reader::new(bytes);
    let value = T::decode(&mut reader).unwrap();
    assert!(reader.is_empty());
    value
}

fn apache_schema<T: AvroSchema>() -> apache_avro::Schema {
    apache_avro::Schema::parse_str(T::SCHEMA_JSON).unwrap()
}

fn apache_read<T: AvroSchema>(bytes: &[u8]) -> Value {
    let schema = apache_schema::<T>();
    let reader = GenericDatumReader::builder(&schema).build().unwrap();
    reader.read_value(&mut &bytes[..]).unwrap()
}

fn apache_write(schema: &apache_avro::Schema, value: Value) -> Vec<u8> {
    let writer = GenericDatumWriter::builder(schema).build().unwrap();
    writer.write_value_to_vec(value).unwrap()
}

#[test]
fn defaults_follow_the_schema() {
    use snap::defaults::{Inner, Level, Partial, Settings, SettingsEither, Tag};
    let s = Settings::default();
    assert!(s.enabled);
    assert_eq!(s.retries, -3);
    assert_eq!(s.limit, 10_000_000_000);
    assert_eq!(s.ratio, 0.5);
    assert!(s.missing.is_nan());
    assert_eq!(s.floor, f64::NEG_INFINITY);
    assert_eq!(s.name, "a \"quoted\" name");
    assert_eq!(s.raw, vec![0, 255]);
    assert_eq!(s.tag, Tag(*b"ab"));
    assert_eq!(s.level, Level::High);
    assert_eq!(
        s.inner,
        Inner {
            a: 7,
            b: "x".into()
        }
    );
    assert_eq!(s.list, vec![1, 2]);
    assert_eq!(s.lookup, HashMap::from([("one".to_string(), 1)]));
    assert_eq!(s.maybe, None);
    assert_eq!(s.either, Some(SettingsEither::Int(5)));
    // 19000 days after 1970-01-01.
    assert_eq!(
        s.day,
        avdl2rs::chrono::NaiveDate::from_ymd_opt(2022, 1, 8).unwrap()
    );
    // Logical defaults, each from the JSON of its base type (Avro specification, "Logical
    // Types"): -1000 ms before the epoch, 1.5 s after midnight of 1970-01-01 as wall-clock
    // time, noon, a UUID's text and its 16 bytes.
    assert_eq!(s.at.timestamp_millis(), -1000);
    assert_eq!(s.local_at.and_utc().timestamp_micros(), 1_500_000);
    assert_eq!(
        s.noon,
        avdl2rs::chrono::NaiveTime::from_hms_opt(12, 0, 0).unwrap()
    );
    assert_eq!(s.id.to_string(), "123e4567-e89b-12d3-a456-426614174000");
    assert_eq!(
        s.fixed_id.as_bytes(),
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(
        Level::default(),
        Level::Medium,
        "the enum's own default symbol"
    );
    // serde fills in a missing field from its default.
    let partial: Partial = serde_json::from_str(r#"{"required": 4}"#).unwrap();
    assert_eq!(
        partial,
        Partial {
            required: 4,
            optional: 1
        }
    );
    assert!(serde_json::from_str::<Partial>(r#"{"optional": 4}"#).is_err());
}

#[test]
fn invalid_defaults_are_generation_errors() {
    let cases = [
        r#""int", "default": "x""#,
        r#""int", "default": 3000000000"#,
        r#"{"type": "fixed", "name": "F", "size": 2}, "default": "abc""#,
        r#"{"type": "enum", "name": "E", "symbols": ["A"]}, "default": "B""#,
        r#"["null", "int"], "default": "x""#,
        r#"{"type": "array", "items": "long"}, "default": [1, "2"]"#,
        // Valid for the base type, but no Rust value: these would fail when the default is used.
        r#"{"type": "int", "logicalType": "date"}, "default": 2147483647"#,
        r#"{"type": "int", "logicalType": "time-millis"}, "default": 86400000"#,
        r#"{"type": "string", "logicalType": "uuid"}, "default": "not-a-uuid""#,
    ];
    for field in cases {
        let json = format!(
            r#"{{"type": "record", "name": "R", "fields": [{{"name": "f", "type": {field}}}]}}"#
        );
        let mut generator = Generator::new(Options::default());
        let error = match generator.add_schema_json(&json, "case.avsc") {
            Err(e) => e,
            Ok(()) => generator.generate().unwrap_err(),
        };
        let text = error.to_string();
        assert!(text.contains("default"), "{json}: {text}");
        assert!(
            text.contains("case.avsc: invalid schema at /fields/0/default")
                || text.contains("R.f: invalid default"),
            "{json}: no location in {text}"
        );
        assert_eq!(format!("{error:?}"), text, "Debug reads like Display");
    }
}

#[test]
fn schema_errors_name_the_origin_and_the_json_path() {
    let mut generator = Generator::new(Options::default());
    let error = generator
        .add_schema_json(
            r#"{"type": "record", "name": "R", "fields": [{"name": "f", "type": "Nope"}]}"#,
            "orders.avsc",
        )
        .unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with("orders.avsc: "), "{text}");
    assert!(text.contains("/fields/0/type"), "{text}");
    assert!(matches!(error, Error::Schema { .. }));
    let error = generator.add_file("schema.json".as_ref(), &[]).unwrap_err();
    assert!(error.to_string().contains("schema.json"), "{error}");
}

#[test]
fn flat_modules_number_types_that_share_a_rust_name() {
    let json = r#"[{"type": "record", "name": "a.Same", "fields": []}, {"type": "record", "name": "b.Same", "fields": []}]"#;
    let mut flat = Generator::new(Options::default().flat_modules(true));
    flat.add_schema_json(json, "clash.avsc").unwrap();
    let paths: Vec<(String, String)> = flat
        .named_types()
        .unwrap()
        .into_iter()
        .map(|t| (t.full_name, t.rust_path))
        .collect();
    assert_eq!(
        paths,
        [
            ("a.Same".into(), "Same".into()),
            ("b.Same".into(), "Same2".into())
        ]
    );
    assert!(flat.generate().is_ok());
}

#[test]
fn options_that_are_not_rust_paths_are_errors() {
    let json = r#"{"type": "fixed", "name": "F", "size": 1}"#;
    for options in [
        Options::default().extra_derive("not a path!"),
        Options::default().runtime_path("::"),
    ] {
        let mut generator = Generator::new(options);
        generator.add_schema_json(json, "f.avsc").unwrap();
        let error = generator.generate().unwrap_err();
        assert!(matches!(error, Error::InvalidOption { .. }), "{error}");
        assert!(error.to_string().starts_with("invalid option: "), "{error}");
    }
}

#[test]
fn files_share_named_types() {
    let mut generator = Generator::new(Options::default());
    generator
        .add_schema_json(
            r#"{"type": "fixed", "name": "com.acme.Id", "size": 4}"#,
            "id.avsc",
        )
        .unwrap();
    generator
        .add_schema_json(
            r#"{"type": "record", "name": "org.other.User", "fields": [{"name": "id", "type": "com.acme.Id"}]}"#,
            "user.avsc",
        )
        .unwrap();
    let source = generator.generate().unwrap();
    assert!(
        source.contains("pub id: super::super::com::acme::Id,"),
        "{source}"
    );
    let names: Vec<String> = generator
        .named_types()
        .unwrap()
        .into_iter()
        .map(|t| t.rust_path)
        .collect();
    assert_eq!(names, ["com::acme::Id", "org::other::User"]);
}

#[test]
fn idl_files_generate_what_their_reference_json_generates() {
    let cases = avdl2rs_tests::idl_reference_cases();
    assert!(!cases.is_empty());
    for (input, output) in cases {
        let mut from_idl = Generator::new(Options::default());
        from_idl
            .add_file(&input, &avdl2rs_tests::idl_include_dirs(&input))
            .unwrap();
        let mut from_json = Generator::new(Options::default());
        from_json.add_file(&output, &[]).unwrap();
        assert_eq!(
            from_idl.generate().unwrap(),
            from_json.generate().unwrap(),
            "{}",
            input.display()
        );
        assert_eq!(from_idl.files_read()[0], input);
    }
}

#[test]
fn serde_matches_apache_avro_values() {
    use snap::primitives::Primitives;
    use snap::unions::{
        Colour, Point, Shapes, ShapesInArrayItem, ShapesInMapValue, ShapesMulti,
        ShapesMultiWithNull, ShapesOnlyBranch,
    };
    let primitives = Primitives {
        nothing: (),
        flag: true,
        count: -5,
        total: 1 << 40,
        ratio: 1.5,
        precise: -0.25,
        blob: vec![0, 1, 255],
        label: "é".into(),
        tags: vec!["a".into()],
        matrix: vec![vec![1, 2], vec![]],
        index: HashMap::from([("k".into(), vec![HashMap::from([("x".into(), 3)])])]),
        nothings: vec![],
    };
    let shapes = Shapes {
        null_first: Some("s".into()),
        null_last: None,
        optional_record: Some(Point { x: 1, y: -1 }),
        multi: ShapesMulti::Point(Point { x: 2, y: 3 }),
        // Not `Colour`: apache-avro's serde writes an enum symbol as a string, which then
        // resolves to the union's `string` branch.
        multi_with_null: Some(ShapesMultiWithNull::Map(HashMap::from([(
            "b".into(),
            true,
        )]))),
        in_array: vec![None, Some(ShapesInArrayItem::String("t".into()))],
        in_map: HashMap::from([("p".into(), ShapesInMapValue::Point(Point { x: 0, y: 0 }))]),
        only_branch: ShapesOnlyBranch::Float(2.5),
    };
    check_serde(&primitives);
    check_serde(&shapes);
    check_serde(&Shapes {
        multi: ShapesMulti::Array(vec![0.5]),
        multi_with_null: None,
        only_branch: ShapesOnlyBranch::Float(0.0),
        ..shapes.clone()
    });
    assert_eq!(serde_json::to_value(Colour::Green).unwrap(), "GREEN");
}

/// Decimal defaults from the JSON of their base types (Avro specification, "Logical
/// Types"): big-endian two's-complement unscaled bytes (0xcfc7 = -12345, 0x3039 = 12345) at
/// the schema's scale.
#[test]
fn decimal_defaults_follow_the_schema() {
    use snap::logical::example::logical::Logical;
    let l: Logical = fields_of(&apache_schema::<Logical>());
    let defaulted = Logical::new(
        l.id,
        l.fixed_id,
        l.day,
        l.time_ms,
        l.time_us,
        l.at_ms,
        l.at_us,
        l.at_ns,
        l.local_ms,
        l.local_us,
        l.local_ns,
        l.span,
        l.unknown,
        l.maybe_day,
        l.when,
    );
    assert_eq!(defaulted.amount.to_string(), "-123.45");
    assert_eq!(defaulted.fixed_amount.to_string(), "1.2345");
}

#[test]
fn serde_of_logical_types_matches_apache_avro_values() {
    use snap::logical::example::logical::Logical;
    // apache-avro's `from_value` reads what it decodes from our bytes. (Its `resolve` of a
    // `to_value` refuses a one-byte decimal of precision 10, so only this direction is
    // compared.)
    let logical: Logical = fields_of(&apache_schema::<Logical>());
    let decoded = apache_read::<Logical>(&encode(&logical));
    assert_eq!(
        apache_avro::from_value::<Logical>(&decoded).unwrap(),
        logical
    );
    let json = serde_json::to_string(&logical).unwrap();
    assert_eq!(
        serde_json::from_str::<Logical>(&json).unwrap(),
        logical,
        "{json}"
    );
}

/// JSON gets the natural text of logical types (ISO 8601 dates and times, RFC 3339
/// timestamps, decimal and uuid text) and reads it back; apache-avro's serde path keeps
/// the Avro shapes.
#[test]
fn json_shows_logical_types_as_their_text() {
    use snap::logical::example::logical::Logical;
    let logical: Logical = fields_of(&apache_schema::<Logical>());
    let json = serde_json::to_value(&logical).unwrap();
    // fields_of: day 10, -1 s, 1 ms/µs/ns after the epoch, unscaled 1 at scale 2.
    let expected = [
        ("amount", "0.01"),
        ("fixed_amount", "0.0000"),
        ("id", "00000000-0000-0000-0000-000000000000"),
        ("fixed_id", "00000000-0000-0000-0000-000000000000"),
        ("day", "1970-01-11"),
        ("time_ms", "00:00:00.001"),
        ("time_us", "00:00:00.000001"),
        ("at_ms", "1969-12-31T23:59:59Z"),
        ("at_us", "1970-01-01T00:00:00.000001Z"),
        ("at_ns", "1970-01-01T00:00:00.000000001Z"),
        ("local_ms", "1970-01-01T00:00:00.001"),
        ("local_us", "1970-01-01T00:00:00.000001"),
        ("local_ns", "1970-01-01T00:00:00.000000001"),
    ];
    for (field, text) in expected {
        assert_eq!(json[field], text, "{field} in {json}");
    }
    assert_eq!(json["maybe_day"], serde_json::Value::Null);
    assert_eq!(serde_json::from_value::<Logical>(json).unwrap(), logical);
    // A uuid on `string` goes to apache-avro as text, which resolves against its schema.
    let Value::Record(fields) = apache_avro::to_value(&logical).unwrap() else {
        panic!("a record");
    };
    let id = fields.into_iter().find(|(name, _)| name == "id").unwrap().1;
    let uuid_schema =
        apache_avro::Schema::parse_str(r#"{"type": "string", "logicalType": "uuid"}"#).unwrap();
    assert_eq!(
        id.resolve(&uuid_schema).unwrap(),
        Value::Uuid(apache_avro::Uuid::nil())
    );
}

#[test]
fn json_of_time_crate_values_is_iso_text() {
    use options::time_crate::example::logical::Logical;
    let logical: Logical = fields_of(&apache_schema::<Logical>());
    let json = serde_json::to_value(&logical).unwrap();
    assert_eq!(json["day"], "1970-01-11", "{json}");
    assert_eq!(json["at_ms"], "1969-12-31T23:59:59Z", "{json}");
    assert_eq!(json["at_ns"], "1970-01-01T00:00:00.000000001Z", "{json}");
    assert_eq!(serde_json::from_value::<Logical>(json).unwrap(), logical);
}

/// apache-avro's `to_value` of our value (resolved to the schema) equals what apache-avro
/// decodes from our bytes, `from_value` gives our value back, and serde_json round-trips it.
fn check_serde<T>(value: &T)
where
    T: AvroSchema
        + AvroEncode
        + AvroDecode
        + serde::Serialize
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
{
    let schema = apache_schema::<T>();
    let decoded = apache_read::<T>(&encode(value));
    let serialized = apache_avro::to_value(value)
        .unwrap()
        .resolve(&schema)
        .unwrap();
    assert_eq!(serialized, decoded, "to_value of {value:?}");
    assert_eq!(&apache_avro::from_value::<T>(&decoded).unwrap(), value);
    let json = serde_json::to_string(value).unwrap();
    assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), value, "{json}");
}

#[test]
fn names_keep_their_avro_spelling() {
    use snap::reserved::r#match::self_::{Box as AvroBox, Enum, Type};
    let value = Type {
        r#type: "t".into(),
        self_: 1,
        self_2: 2,
        super_: 3,
        crate_: 4,
        r#fn: 5,
        r#async: 6,
        f_: 7,
        camel_case: 8,
        option: Enum::Self_,
        result: Some(AvroBox { vec: "v".into() }),
    };
    let json = serde_json::to_value(&value).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "type",
            "self",
            "Self",
            "super",
            "crate",
            "fn",
            "async",
            "_",
            "camelCase",
            "Option",
            "Result"
        ]
    );
    assert_eq!(json["Option"], "Self");
    assert_eq!(json["Result"]["Vec"], "v");
    let renamed: Type = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(renamed, value);
    let mut aliased = json;
    let object = aliased.as_object_mut().unwrap();
    let camel = object.remove("camelCase").unwrap();
    object.insert("old_name".into(), camel);
    assert_eq!(
        serde_json::from_value::<Type>(aliased).unwrap(),
        value,
        "field alias"
    );
    assert_eq!(<Type as AvroSchema>::FULL_NAME, "match.self.type");
    assert_eq!(decode::<Type>(&encode(&value)), value);
}

#[test]
fn namespaces_become_modules_with_relative_paths() {
    use snap::namespaces::com::example::common::{Audit, Money};
    use snap::namespaces::com::example::orders::Order;
    use snap::namespaces::com::example::Status;
    use snap::namespaces::Customer;
    let audit = Audit {
        order: Order {
            total: Money { cents: 5 },
            customer: Customer { name: "c".into() },
            status: Status::Done,
        },
    };
    assert_eq!(decode::<Audit>(&encode(&audit)), audit);
    // A failure names the path from the outermost record down to the field.
    let bytes = encode(&audit);
    let error = Audit::decode(&mut Reader::new(&bytes[..bytes.len() - 2])).unwrap_err();
    assert_eq!(
        error.path(),
        "com.example.common.Audit.order.customer.name",
        "{error}"
    );
    assert_eq!(<Order as AvroSchema>::FULL_NAME, "com.example.orders.Order");
    // SCHEMA_JSON is standalone: the types Audit uses are defined inside it.
    let schema: serde_json::Value =
        serde_json::from_str(<Audit as AvroSchema>::SCHEMA_JSON).unwrap();
    assert_eq!(schema["fields"][0]["type"]["name"], "Order");
    assert_eq!(
        <Audit as AvroSchema>::FINGERPRINT,
        avdl2rs::fingerprint::rabin_fingerprint(<Audit as AvroSchema>::CANONICAL_FORM.as_bytes())
    );
}

#[test]
fn the_time_crate_option_uses_time_types() {
    use options::time_crate::example::logical::Logical;
    let schema = apache_schema::<Logical>();
    let day: avdl2rs::time::Date = fields_of::<Logical>(&schema).day;
    assert_eq!(
        day,
        avdl2rs::time::Date::from_calendar_date(1970, avdl2rs::time::Month::January, 11).unwrap()
    );
    let settings = options::time_crate::Settings::default();
    assert_eq!(
        settings.day,
        avdl2rs::time::Date::from_calendar_date(2022, avdl2rs::time::Month::January, 8).unwrap()
    );
    assert_eq!(settings.at.unix_timestamp_nanos(), -1_000_000_000);
    assert_eq!(
        settings.local_at.assume_utc().unix_timestamp_nanos(),
        1_500_000_000
    );
    assert_eq!(
        settings.noon,
        avdl2rs::time::Time::from_hms(12, 0, 0).unwrap()
    );
}

#[test]
fn the_raw_time_option_keeps_integers() {
    use options::raw_time::example::logical::Logical;
    let schema = apache_schema::<Logical>();
    let logical: Logical = fields_of(&schema);
    let (day, at_ms): (i32, i64) = (logical.day, logical.at_ms);
    assert_eq!((day, at_ms), (10, -1_000));
    let settings = options::raw_time::Settings::default();
    assert_eq!(
        (settings.day, settings.at, settings.local_at, settings.noon),
        (19000, -1000, 1_500_000, 43_200_000)
    );
}

/// Decodes a `Logical` from apache-avro's encoding of a fixed value (day 10, -1 s).
fn fields_of<T: AvroDecode>(schema: &apache_avro::Schema) -> T {
    let value = Value::Record(vec![
        (
            "amount".into(),
            Value::Decimal(apache_avro::Decimal::from(vec![1])),
        ),
        (
            "fixed_amount".into(),
            Value::Decimal(apache_avro::Decimal::from(vec![0; 8])),
        ),
        ("id".into(), Value::Uuid(apache_avro::Uuid::nil())),
        ("fixed_id".into(), Value::Uuid(apache_avro::Uuid::nil())),
        ("day".into(), Value::Date(10)),
        ("time_ms".into(), Value::TimeMillis(1)),
        ("time_us".into(), Value::TimeMicros(1)),
        ("at_ms".into(), Value::TimestampMillis(-1_000)),
        ("at_us".into(), Value::TimestampMicros(1)),
        ("at_ns".into(), Value::TimestampNanos(1)),
        ("local_ms".into(), Value::LocalTimestampMillis(1)),
        ("local_us".into(), Value::LocalTimestampMicros(1)),
        ("local_ns".into(), Value::LocalTimestampNanos(1)),
        (
            "span".into(),
            Value::Duration(apache_avro::Duration::new(
                apache_avro::Months::new(1),
                apache_avro::Days::new(2),
                apache_avro::Millis::new(3),
            )),
        ),
        ("unknown".into(), Value::String("u".into())),
        ("maybe_day".into(), Value::Union(0, Box::new(Value::Null))),
        ("when".into(), Value::Union(2, Box::new(Value::Null))),
    ]);
    decode(&apache_write(schema, value))
}

#[test]
fn flat_modules_and_btree_maps() {
    use options::flat_btree::{Audit, Customer, Money, Order, Shapes, Status};
    let audit = Audit {
        order: Order {
            total: Money { cents: 1 },
            customer: Customer { name: "n".into() },
            status: Status::Open,
        },
    };
    assert_eq!(decode::<Audit>(&encode(&audit)), audit);
    let in_map: std::collections::BTreeMap<String, options::flat_btree::ShapesInMapValue> =
        Default::default();
    let _: fn(
        &Shapes,
    ) -> &std::collections::BTreeMap<String, options::flat_btree::ShapesInMapValue> = |s| &s.in_map;
    assert!(in_map.is_empty());
}

#[test]
fn apache_avro_schema_impls_work_with_object_container_files() {
    use apache_avro::AvroSchema as _;
    use options::apache_schema::{LinkedList, Settings};
    let list = LinkedList {
        value: 1,
        next: Some(Box::new(LinkedList {
            value: 2,
            next: None,
        })),
    };
    let schema = LinkedList::get_schema();
    let mut writer = apache_avro::Writer::new(&schema, Vec::new()).unwrap();
    writer.append_ser(&list).unwrap();
    let file = writer.into_inner().unwrap();
    let read: Vec<LinkedList> = apache_avro::Reader::new(&file[..])
        .unwrap()
        .map(|v| apache_avro::from_value(&v.unwrap()).unwrap())
        .collect();
    assert_eq!(read, [list]);
    let settings = Settings::default();
    assert!(
        settings.partial_cmp(&settings).is_none(),
        "PartialOrd derived; NaN is unordered"
    );
    assert_eq!(Settings::get_schema().name().unwrap().name(), "Settings");
}
