//! Invalid schemas are rejected with the JSON Pointer of the offending value and what is
//! wrong, and a failed parse leaves the set unchanged.

use avdl2rs_schema::{SchemaErrorKind as Kind, SchemaSet};

fn error(json: &str) -> (String, Kind) {
    let mut set = SchemaSet::new();
    let err = set.parse_str(json).expect_err("schema must be rejected");
    assert!(set.is_empty(), "a failed parse registered types");
    (err.path, err.kind)
}

fn protocol_error(json: &str) -> (String, Kind) {
    let err = SchemaSet::new()
        .parse_protocol(json)
        .expect_err("protocol must be rejected");
    (err.path, err.kind)
}

fn record(fields: &str) -> String {
    format!(r#"{{"type":"record","name":"R","namespace":"n","fields":[{fields}]}}"#)
}

#[test]
fn unknown_type_names_the_full_name_and_the_path() {
    let json = r#"{"protocol":"P","namespace":"n","types":[
        {"type":"fixed","name":"F","size":4},
        {"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"Nope"}]}
    ]}"#;
    assert_eq!(
        protocol_error(json),
        (
            "/types/1/fields/1/type".into(),
            Kind::UnknownType("n.Nope".into())
        )
    );
}

#[test]
fn display_says_where_and_what() {
    let err = SchemaSet::new()
        .parse_str(&record(r#"{"name":"a","type":"Missing"}"#))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid schema at /fields/0/type: unknown type \"n.Missing\""
    );
}

#[test]
fn duplicate_definitions_are_rejected_but_identical_ones_accepted() {
    let f = r#"{"type":"fixed","name":"F","size":4}"#;
    let same = record(&format!(
        r#"{{"name":"a","type":{f}}},{{"name":"b","type":{f}}}"#
    ));
    let mut set = SchemaSet::new();
    set.parse_str(&same).unwrap();
    assert_eq!(set.len(), 2);

    let other = r#"{"type":"fixed","name":"F","size":5}"#;
    let clash = record(&format!(
        r#"{{"name":"a","type":{f}}},{{"name":"b","type":{other}}}"#
    ));
    assert_eq!(
        error(&clash),
        (
            "/fields/1/type/name".into(),
            Kind::DuplicateName("n.F".into())
        )
    );
    let nested_self = record(r#"{"name":"a","type":{"type":"record","name":"R","fields":[]}}"#);
    assert_eq!(error(&nested_self).1, Kind::DuplicateName("n.R".into()));
}

#[test]
fn invalid_names_are_rejected() {
    let cases = [
        (r#"{"type":"fixed","name":"1x","size":1}"#, "/name"),
        (r#"{"type":"fixed","name":"a-b.X","size":1}"#, "/name"),
        (r#"{"type":"fixed","name":"int","size":1}"#, "/name"),
        (
            &record(r#"{"name":"bad name","type":"int"}"#),
            "/fields/0/name",
        ),
        (
            r#"{"type":"enum","name":"E","symbols":["A","B-"]}"#,
            "/symbols/1",
        ),
    ];
    for (json, path) in cases {
        let (at, kind) = error(json);
        assert_eq!(at, path, "{json}");
        assert!(matches!(kind, Kind::InvalidName(_)), "{json}: {kind:?}");
    }
}

#[test]
fn defaults_must_match_the_field_type() {
    let bad = [
        r#"{"name":"a","type":"int","default":"1"}"#,
        r#"{"name":"a","type":"int","default":3000000000}"#,
        r#"{"name":"a","type":"long","default":1.5}"#,
        r#"{"name":"a","type":"string","default":null}"#,
        r#"{"name":"a","type":"bytes","default":"\u0100"}"#,
        r#"{"name":"a","type":{"type":"fixed","name":"F","size":2},"default":"abc"}"#,
        r#"{"name":"a","type":{"type":"enum","name":"E","symbols":["X"]},"default":"Y"}"#,
        r#"{"name":"a","type":{"type":"array","items":"int"},"default":[1,"2"]}"#,
        r#"{"name":"a","type":["null","int"],"default":"x"}"#,
        r#"{"name":"a","type":{"type":"record","name":"S","fields":[{"name":"x","type":"int"}]},"default":{}}"#,
    ];
    for field in bad {
        let (path, kind) = error(&record(field));
        assert_eq!(path, "/fields/0/default", "{field}");
        assert!(
            matches!(kind, Kind::InvalidDefault { .. }),
            "{field}: {kind:?}"
        );
    }
    let good = [
        r#"{"name":"a","type":"double","default":"NaN"}"#,
        r#"{"name":"a","type":"float","default":1}"#,
        r#"{"name":"a","type":"bytes","default":"\u00ff"}"#,
        r#"{"name":"a","type":["null","int"],"default":1}"#,
        r#"{"name":"a","type":["int","null"],"default":null}"#,
        r#"{"name":"a","type":{"type":"map","values":"long"},"default":{"k":1}}"#,
        r#"{"name":"a","type":{"type":"record","name":"S","fields":[{"name":"x","type":"int","default":0}]},"default":{}}"#,
        r#"{"name":"a","type":["null","R"],"default":null}"#,
    ];
    for field in good {
        SchemaSet::new()
            .parse_str(&record(field))
            .unwrap_or_else(|e| panic!("{field}: {e}"));
    }
}

#[test]
fn fixed_sizes_symbols_and_unions_are_checked() {
    assert_eq!(
        error(r#"{"type":"fixed","name":"F","size":-1}"#),
        ("/size".into(), Kind::InvalidFixedSize("-1".into()))
    );
    assert_eq!(
        error(r#"{"type":"fixed","name":"F","size":"4"}"#).1,
        Kind::InvalidFixedSize("\"4\"".into())
    );
    assert_eq!(
        error(r#"{"type":"enum","name":"E","symbols":["A","B","A"]}"#),
        ("/symbols/2".into(), Kind::DuplicateSymbol("A".into()))
    );
    assert_eq!(
        error(r#"{"type":"enum","name":"E","symbols":["A"],"default":"B"}"#),
        ("/default".into(), Kind::UnknownEnumDefault("B".into()))
    );
    assert_eq!(
        error(r#"["null","int",{"type":"int","logicalType":"date"}]"#),
        ("/2".into(), Kind::DuplicateUnionBranch("int".into()))
    );
    assert_eq!(
        error(r#"[{"type":"array","items":"int"},{"type":"array","items":"long"}]"#).1,
        Kind::DuplicateUnionBranch("array".into())
    );
    assert_eq!(
        error(r#"["null",["int"]]"#),
        ("/1".into(), Kind::NestedUnion)
    );
    // Two differently named records in one union are fine.
    SchemaSet::new()
        .parse_str(r#"[{"type":"fixed","name":"A","size":1},{"type":"fixed","name":"B","size":1}]"#)
        .unwrap();
}

#[test]
fn malformed_json_and_shapes_are_reported() {
    assert!(matches!(error("{").1, Kind::Json(_)));
    assert_eq!(error("42").0, "");
    assert_eq!(error(r#"{"type":"record","name":"R"}"#).0, "");
    assert_eq!(
        error(&record(r#"{"name":"a","type":"int","order":"up"}"#)).0,
        "/fields/0/order"
    );
    assert_eq!(
        error(&record(
            r#"{"name":"a","type":"int"},{"name":"a","type":"long"}"#
        )),
        ("/fields/1/name".into(), Kind::DuplicateField("a".into()))
    );
}

#[test]
fn a_failed_parse_keeps_earlier_types_and_drops_its_own() {
    let mut set = SchemaSet::new();
    set.parse_str(r#"{"type":"fixed","name":"Kept","size":1}"#)
        .unwrap();
    let bad = record(
        r#"{"name":"a","type":{"type":"fixed","name":"Dropped","size":1}},{"name":"b","type":"Nope"}"#,
    );
    set.parse_str(&bad).unwrap_err();
    assert_eq!(set.len(), 1);
    assert!(set.get("Kept").is_some());
    assert!(set.get("n.Dropped").is_none());
}

/// Comments are allowed in schema files, as the Java reference allows them, and errors after
/// a comment still point at the right line.
#[test]
fn comments_are_allowed_and_positions_kept() {
    let json = "/* licence\n   header */ {\"type\": \"fixed\", // the size follows\n \"name\": \"a//b\", \"size\": 4}";
    let mut set = SchemaSet::new();
    let err = set.parse_str(json).unwrap_err();
    // The string "a//b" is no comment: it is a name, and an invalid one.
    assert!(matches!(err.kind, Kind::InvalidName(_)), "{err}");
    let ok = "/* h */ {\"type\": \"fixed\", // size\n \"name\": \"F\", \"doc\": \"/* kept */ \\\" //\", \"size\": 4}";
    let schema = set.parse_str(ok).unwrap();
    let named = set.resolve(&schema).unwrap();
    assert_eq!(named.doc.as_deref(), Some("/* kept */ \" //"));
    let broken = "// first line\n/* two\nlines */ {\"type\": \"fixed\",,}";
    match SchemaSet::new().parse_str(broken).unwrap_err().kind {
        Kind::Json(message) => assert!(message.contains("line 3"), "{message}"),
        other => panic!("expected a JSON error, got {other:?}"),
    }
}
