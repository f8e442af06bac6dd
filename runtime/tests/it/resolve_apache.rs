//! Differential test of the translation itself: for writer/reader schema pairs and writer
//! values, the bytes a plan produces equal apache-avro's resolution of the value re-encoded
//! with the reader schema. No reader type is needed, so many pairs are covered.

use crate::resolve_support;

use apache_avro::types::Value;
use avdl2rs::compat::SchemaRef;
use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::schema::SchemaSet;
use resolve_support::{apache_bytes, apache_resolved};

/// Our translation of `value` written with `writer`, read as `reader`.
fn ours(writer: &str, reader: &str, bytes: &[u8]) -> Vec<u8> {
    let (mut ws, mut rs) = (SchemaSet::new(), SchemaSet::new());
    let w = ws.parse_str(writer).unwrap();
    let r = rs.parse_str(reader).unwrap();
    let plan = ResolutionPlan::new(SchemaRef::new(&rs, &r), SchemaRef::new(&ws, &w))
        .unwrap_or_else(|e| panic!("{writer} -> {reader}: {e}"));
    let mut out = Vec::new();
    plan.translate(bytes, &mut out).unwrap();
    out
}

fn record(name: &str, fields: &str) -> String {
    format!(r#"{{"type":"record","name":"{name}","fields":[{fields}]}}"#)
}

fn fields(values: &[(&str, Value)]) -> Value {
    Value::Record(
        values
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn translations_equal_apache_avro_resolution_re_encoded() {
    let status_w = r#"{"type":"enum","name":"S","symbols":["A","B","C"]}"#;
    let status_r = r#"{"type":"enum","name":"S","symbols":["C","A","X"],"default":"X"}"#;
    let cases: Vec<(String, String, Value)> = vec![
        (r#""int""#.into(), r#""double""#.into(), Value::Int(-12345)),
        (
            r#""long""#.into(),
            r#""float""#.into(),
            Value::Long(1 << 33),
        ),
        (
            r#""string""#.into(),
            r#""bytes""#.into(),
            Value::String("ü".into()),
        ),
        (
            r#"{"type":"array","items":"int"}"#.into(),
            r#"{"type":"array","items":"double"}"#.into(),
            Value::Array(vec![Value::Int(1), Value::Int(-2), Value::Int(300)]),
        ),
        (
            r#"{"type":"map","values":"float"}"#.into(),
            r#"{"type":"map","values":"double"}"#.into(),
            Value::Map([("k".to_string(), Value::Float(0.5))].into_iter().collect()),
        ),
        (status_w.into(), status_r.into(), Value::Enum(1, "B".into())),
        (status_w.into(), status_r.into(), Value::Enum(2, "C".into())),
        (
            r#"["null","int","string"]"#.into(),
            r#"["string","long","null"]"#.into(),
            Value::Union(1, Box::new(Value::Int(7))),
        ),
        (
            r#""int""#.into(),
            r#"["null","string","long"]"#.into(),
            Value::Int(5),
        ),
        (
            r#"["int","float"]"#.into(),
            r#""double""#.into(),
            Value::Union(1, Box::new(Value::Float(2.25))),
        ),
        (
            record(
                "R",
                r#"{"name":"a","type":"int"},{"name":"b","type":"string"},{"name":"c","type":{"type":"array","items":"long"}}"#,
            ),
            record(
                "R",
                r#"{"name":"c","type":{"type":"array","items":"double"}},{"name":"n","type":["null","int"],"default":null},{"name":"a","type":"long"}"#,
            ),
            fields(&[
                ("a", Value::Int(3)),
                ("b", Value::String("dropped".into())),
                ("c", Value::Array(vec![Value::Long(9)])),
            ]),
        ),
    ];
    for (writer, reader, value) in cases {
        let bytes = apache_bytes(&writer, value);
        let resolved = apache_resolved(&writer, &reader, &bytes);
        let expected = apache_bytes(&reader, resolved);
        assert_eq!(
            ours(&writer, &reader, &bytes),
            expected,
            "{writer} -> {reader}"
        );
    }
}

/// apache-avro's resolving reader ignores the reader's field aliases (its compatibility
/// checker honours them): it fails with "Missing field in record". The specification
/// ("Aliases") says a writer field `x` is read as a reader field `y` with alias `x`, which is
/// what the plan does.
#[test]
fn field_aliases_resolve_where_apache_avro_reports_a_missing_field() {
    let writer = r#"{"type":"record","name":"Old","fields":[
        {"name":"x","type":{"type":"fixed","name":"F","size":2}},
        {"name":"s","type":{"type":"enum","name":"S2","symbols":["P","Q"]}}]}"#;
    let reader = r#"{"type":"record","name":"New","aliases":["Old"],"fields":[
        {"name":"s","type":{"type":"enum","name":"S2","symbols":["P","Q","R"]}},
        {"name":"y","aliases":["x"],"type":{"type":"fixed","name":"F","size":2}},
        {"name":"d","type":{"type":"record","name":"D","fields":[{"name":"i","type":"int"}]},"default":{"i":4}}]}"#;
    let value = fields(&[
        ("x", Value::Fixed(2, vec![1, 2])),
        ("s", Value::Enum(1, "Q".into())),
    ]);
    let bytes = apache_bytes(writer, value);
    // s = Q (index 1), y = the writer's x, d = the default {"i": 4}.
    assert_eq!(ours(writer, reader, &bytes), [2, 1, 2, 8]);
    let w = apache_avro::Schema::parse_str(writer).unwrap();
    let r = apache_avro::Schema::parse_str(reader).unwrap();
    let theirs = apache_avro::reader::datum::GenericDatumReader::builder(&w)
        .reader_schema(&r)
        .build()
        .unwrap()
        .read_value(&mut bytes.as_slice());
    let err = theirs.expect_err("apache-avro does not apply field aliases when reading");
    assert!(err.to_string().contains("Missing field"), "{err}");
}
